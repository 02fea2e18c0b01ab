import { Inject, Injectable } from '@nestjs/common';
import type { AdminInfoWire } from '@dts/domain';
import { DataCacheRepository, SystemStatsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, JobQueue } from '@dts/platform';
import { readBuildInfo } from '../system/build-info';
import { toAdminInfoWire } from './admin-info.mapper';

@Injectable()
export class AdminService {
  private readonly version = readBuildInfo().version;

  constructor(
    private readonly stats: SystemStatsRepository,
    private readonly cache: DataCacheRepository,
    private readonly queues: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async info(): Promise<AdminInfoWire> {
    const [counts, database, queues, cache] = await Promise.all([this.stats.counts(), this.stats.database(), this.queues.depths(), this.cache.totals()]);
    return toAdminInfoWire({
      version: this.version,
      uptimeSeconds: process.uptime(),
      counts,
      queues,
      // The embedded database is the one run when DATABASE_URL is unset (a second instance joins it).
      embedded: this.config.database.url === null,
      database,
      pool: this.stats.pool(),
      redisCache: this.config.redis.url !== null,
      cache,
    });
  }
}
