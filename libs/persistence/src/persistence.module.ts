import { type DynamicModule, Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { type AppConfig, REDIS_CLIENT, type RedisClient } from '@dts/platform';
import type { DataSource } from 'typeorm';
import { AlertMailsRepository, AlertsRepository, OfflineWatchRepository, RulesRepository } from './alerts';
import { CacheChunkStore, PgCacheChunkStore, RedisCacheChunkStore } from './cache/cache-chunk.store';
import { DataCacheRepository } from './cache/data-cache.repository';
import { DeliveriesRepository, EventRoutingRepository, IntegrationsRepository } from './integrations';
import { createImageStore, ImageStore } from './images/image-store';
import { ImageGalleryRepository } from './images/image-gallery.repository';
import { ImagesRepository } from './images/images.repository';
import { dataSourceOptions } from './data-source';
import { ReadDatabase } from './read/read-database';
import { RetentionRepository, RollupBackfillRepository, TIMESERIES_SETTINGS, TimePartitionsRepository } from './timeseries';
import { LiveBus } from './live/live-bus';
import { Statements } from './sql/statements';
import { AccountsRepository } from './accounts/accounts.repository';
import { AuditRepository } from './audit/audit.repository';
import { CodecsRepository } from './codecs/codecs.repository';
import { CommandsRepository } from './commands/commands.repository';
import { NetworksRepository } from './networks/networks.repository';
import { OrganisationsRepository } from './organisations/organisations.repository';
import { DatamodelRepository } from './datamodel/datamodel.repository';
import { DeviceHandoversRepository } from './devices/device-handovers.repository';
import { DeviceListRepository } from './devices/device-list.repository';
import { DeviceRegistrationRepository } from './devices/device-registration.repository';
import { DevicesRepository } from './devices/devices.repository';
import { DashboardsRepository } from './dashboards/dashboards.repository';
import { FencesRepository } from './fences/fences.repository';
import { GatewaysRepository } from './gateways/gateways.repository';
import { DeviceEventsRepository } from './uplinks/device-events.repository';
import { IngestRepository } from './uplinks/ingest.repository';
import { IngestTargetsCache } from './uplinks/ingest-targets.cache';
import { FeedbackRepository } from './feedback/feedback.repository';
import { MaintenanceRepository } from './maintenance/maintenance.repository';
import { OidcIdentitiesRepository } from './accounts/oidc-identities.repository';
import { PasswordResetsRepository } from './accounts/password-resets.repository';
import { EmailVerificationsRepository } from './accounts/email-verifications.repository';
import { RateLimitsRepository } from './rate-limits/rate-limits.repository';
import { SeriesRepository } from './series/series.repository';
import { SessionsRepository } from './sessions/sessions.repository';
import { SystemStatsRepository } from './system/system-stats.repository';
import { TokensRepository } from './tokens/tokens.repository';
import { UplinkReadsRepository } from './uplinks/uplink-reads.repository';
import { UplinksRepository } from './uplinks/uplinks.repository';

const REPOSITORIES = [
  AlertsRepository,
  AuditRepository,
  AlertMailsRepository,
  EmailVerificationsRepository,
  DeliveriesRepository,
  EventRoutingRepository,
  IntegrationsRepository,
  OfflineWatchRepository,
  RulesRepository,
  AccountsRepository,
  ImagesRepository,
  ImageGalleryRepository,
  CodecsRepository,
  CommandsRepository,
  NetworksRepository,
  OrganisationsRepository,
  OidcIdentitiesRepository,
  DataCacheRepository,
  DatamodelRepository,
  DeviceListRepository,
  DevicesRepository,
  DeviceRegistrationRepository,
  DeviceHandoversRepository,
  FencesRepository,
  DashboardsRepository,
  GatewaysRepository,
  IngestRepository,
  DeviceEventsRepository,
  FeedbackRepository,
  MaintenanceRepository,
  PasswordResetsRepository,
  RateLimitsRepository,
  SeriesRepository,
  SessionsRepository,
  SystemStatsRepository,
  TokensRepository,
  UplinkReadsRepository,
  UplinksRepository,
  TimePartitionsRepository,
  RetentionRepository,
  RollupBackfillRepository,
];

/**
 * Connections of the pool for user reads (ReadDatabase): a share of the main pool's size, so that
 * reads that may be slow wait for each other rather than for the connections writes need.
 */
export function readPoolSize(poolSize: number): number {
  return Math.max(2, Math.ceil(poolSize / 2));
}

/** Where a process's database is: its URL, and whether it is the embedded one (PGlite behind a loopback server). */
export interface DatabaseEndpoint {
  url: string;
  embedded: boolean;
}

/** The database connection and every repository; the only module of either app that touches SQL. */
@Module({})
export class PersistenceModule {
  /** `database`: where the primary is (the embedded one's URL, or DATABASE_URL). */
  static forRoot(config: AppConfig, database: DatabaseEndpoint): DynamicModule {
    const target = { url: database.url, poolSize: config.database.poolSize, embedded: database.embedded };
    const cachePrefix = config.redis.prefix;
    const images = config.images;
    return {
      module: PersistenceModule,
      global: true,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(target), retryAttempts: 3, retryDelay: 1000 })],
      providers: [
        ...REPOSITORIES,
        {
          provide: CacheChunkStore,
          inject: [getDataSourceToken(), REDIS_CLIENT],
          useFactory: (ds: DataSource, redis: RedisClient | null) => (redis ? new RedisCacheChunkStore(redis, cachePrefix) : new PgCacheChunkStore(ds)),
        },
        { provide: ImageStore, inject: [getDataSourceToken()], useFactory: (ds: DataSource) => createImageStore(images, ds) },
        { provide: IngestTargetsCache, useFactory: () => new IngestTargetsCache(target.url) },
        { provide: TIMESERIES_SETTINGS, useValue: config.timeseries },
        {
          provide: ReadDatabase,
          useFactory: () =>
            new ReadDatabase({
              primaryUrl: target.url,
              replicaUrl: config.timeseries.readDatabaseUrl,
              poolSize: readPoolSize(config.database.poolSize),
              statementTimeoutMs: config.timeseries.readStatementTimeoutMs,
              embedded: target.embedded,
            }),
        },
        { provide: Statements, inject: [getDataSourceToken()], useFactory: (ds: DataSource) => new Statements(ds, !target.embedded) },
        {
          provide: LiveBus,
          inject: [getDataSourceToken(), REDIS_CLIENT],
          useFactory: (ds: DataSource, redis: RedisClient | null) => new LiveBus(ds, redis, target.url, cachePrefix),
        },
      ],
      exports: [...REPOSITORIES, CacheChunkStore, ImageStore, LiveBus, Statements, ReadDatabase, TIMESERIES_SETTINGS],
    };
  }
}
