import { type DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { type AppConfig, REDIS_CLIENT } from '@dts/platform';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { CacheChunkStore, PgCacheChunkStore, RedisCacheChunkStore } from './cache/cache-chunk.store';
import { DataCacheRepository } from './cache/data-cache.repository';
import { createImageStore, ImageStore } from './images/image-store';
import { ImagesRepository } from './images/images.repository';
import { dataSourceOptions, type DatabaseTarget } from './data-source';
import { LiveBus } from './live/live-bus';
import { AccountsRepository } from './repositories/accounts.repository';
import { CommandsRepository } from './repositories/commands.repository';
import { NetworksRepository } from './repositories/networks.repository';
import { DatamodelRepository } from './repositories/datamodel.repository';
import { DevicesRepository } from './repositories/devices.repository';
import { FencesRepository } from './repositories/fences.repository';
import { GatewaysRepository } from './repositories/gateways.repository';
import { IngestRepository } from './repositories/ingest.repository';
import { FeedbackRepository } from './repositories/feedback.repository';
import { MaintenanceRepository } from './repositories/maintenance.repository';
import { PasswordResetsRepository } from './repositories/password-resets.repository';
import { RateLimitsRepository } from './repositories/rate-limits.repository';
import { SessionsRepository } from './repositories/sessions.repository';
import { SystemStatsRepository } from './repositories/system-stats.repository';
import { TokensRepository } from './repositories/tokens.repository';
import { UplinkReadsRepository } from './repositories/uplink-reads.repository';
import { UplinksRepository } from './repositories/uplinks.repository';

const REPOSITORIES = [
  AccountsRepository,
  ImagesRepository,
  CommandsRepository,
  NetworksRepository,
  DataCacheRepository,
  DatamodelRepository,
  DevicesRepository,
  FencesRepository,
  GatewaysRepository,
  IngestRepository,
  FeedbackRepository,
  MaintenanceRepository,
  PasswordResetsRepository,
  RateLimitsRepository,
  SessionsRepository,
  SystemStatsRepository,
  TokensRepository,
  UplinkReadsRepository,
  UplinksRepository,
];

/** The database connection and every repository; the only module of either app that touches SQL. */
@Module({})
export class PersistenceModule {
  /** `cachePrefix`: prefix of the data cache's Redis keys, when Redis holds them. */
  static forRoot(target: DatabaseTarget, cachePrefix: string, images: AppConfig['images']): DynamicModule {
    return {
      module: PersistenceModule,
      global: true,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(target), retryAttempts: 3, retryDelay: 1000 })],
      providers: [
        ...REPOSITORIES,
        {
          provide: CacheChunkStore,
          inject: [getDataSourceToken(), REDIS_CLIENT],
          useFactory: (ds: DataSource, redis: Redis | null) => (redis ? new RedisCacheChunkStore(redis, cachePrefix) : new PgCacheChunkStore(ds)),
        },
        { provide: ImageStore, inject: [getDataSourceToken()], useFactory: (ds: DataSource) => createImageStore(images, ds) },
        { provide: LiveBus, inject: [getDataSourceToken(), REDIS_CLIENT], useFactory: (ds: DataSource, redis: Redis | null) => new LiveBus(ds, redis, target.url, cachePrefix) },
      ],
      exports: [...REPOSITORIES, CacheChunkStore, ImageStore, LiveBus],
    };
  }
}
