import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { databasePoolStats, type PoolStats } from '@dts/platform';
import { DataSource } from 'typeorm';
import { queryOne } from '../sql/sql-results';

/** Below this many uplinks (by the planner's estimate) they are counted exactly; above, estimated. */
export const UPLINKS_EXACT_COUNT_LIMIT = 1_000_000;

export interface SystemCounts {
  accounts: number;
  devices: number;
  uplinks: number;
  uplinksEstimated: boolean;
}

export interface DatabaseFacts {
  serverVersion: string;
  sizeBytes: number;
}

/** Figures for operators (GET /admin/info), each one cheap enough to read on every call. */
@Injectable()
export class SystemStatsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Accounts and live devices are counted exactly (small tables). Uplinks grow without bound: a
   * count(*) of hundreds of millions of rows is a sequential scan, so past UPLINKS_EXACT_COUNT_LIMIT
   * the planner's estimate (pg_class.reltuples, kept by autovacuum's ANALYZE) is returned instead:
   * the sum over the partitions (a partitioned parent has no rows of its own, nor an estimate).
   * reltuples is -1 before a partition's first ANALYZE; a sum under the limit falls to the exact count.
   */
  async counts(): Promise<SystemCounts> {
    const r = await queryOne<{ accounts: number; devices: number; estimate: string }>(
      this.ds,
      `SELECT (SELECT count(*)::int FROM accounts) AS accounts,
              (SELECT count(*)::int FROM devices WHERE deleted_at IS NULL) AS devices,
              (SELECT coalesce(sum(greatest(c.reltuples, 0)), 0)::bigint FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
               WHERE i.inhparent = 'uplinks'::regclass) AS estimate`,
    );
    const estimate = Number(r.estimate);
    if (estimate >= UPLINKS_EXACT_COUNT_LIMIT) return { accounts: r.accounts, devices: r.devices, uplinks: estimate, uplinksEstimated: true };
    const { n } = await queryOne<{ n: string }>(this.ds, 'SELECT count(*) AS n FROM uplinks');
    return { accounts: r.accounts, devices: r.devices, uplinks: Number(n), uplinksEstimated: false };
  }

  /** This process's connections (no query: pg keeps the counts). */
  pool(): PoolStats {
    return databasePoolStats(this.ds);
  }

  async database(): Promise<DatabaseFacts> {
    const r = await queryOne<{ server_version: string; size: string }>(
      this.ds,
      `SELECT current_setting('server_version') AS server_version, pg_database_size(current_database()) AS size`,
    );
    return { serverVersion: r.server_version, sizeBytes: Number(r.size) };
  }
}
