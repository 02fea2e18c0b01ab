import type { AdminInfoWire } from '@dts/domain';
import type { CacheTotals, DatabaseFacts, SystemCounts } from '@dts/persistence';
import type { PoolStats } from '@dts/platform';

export interface AdminInfoParts {
  version: string;
  uptimeSeconds: number;
  counts: SystemCounts;
  queues: Record<string, number>;
  embedded: boolean;
  database: DatabaseFacts;
  pool: PoolStats;
  redisCache: boolean;
  cache: CacheTotals;
}

export function toAdminInfoWire(p: AdminInfoParts): AdminInfoWire {
  return {
    version: p.version,
    uptime_s: Math.floor(p.uptimeSeconds),
    accounts: p.counts.accounts,
    devices: p.counts.devices,
    uplinks: p.counts.uplinks,
    uplinks_estimated: p.counts.uplinksEstimated,
    queues: p.queues,
    database: { kind: p.embedded ? 'embedded' : 'postgresql', server_version: p.database.serverVersion, size_bytes: p.database.sizeBytes, pool: { ...p.pool } },
    cache: { backend: p.redisCache ? 'redis' : 'postgresql', entries: p.cache.entries, bytes: p.cache.bytes, stale: p.cache.stale },
  };
}
