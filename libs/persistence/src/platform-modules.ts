import type { DynamicModule, Type } from '@nestjs/common';
import { type AppConfig, CodecsModule, ConfigModule, CryptoModule, MetricsModule, QueueModule, RedisModule } from '@dts/platform';
import { type DatabaseEndpoint, PersistenceModule } from './persistence.module';

/**
 * The modules every process stands on — configuration, the database, Redis, the queues, metrics,
 * codecs and crypto — in one list: the api (apps/api/src/infrastructure.ts, which adds
 * authentication, throttling and its loggers) and the standalone worker (libs/jobs WorkerModule)
 * both build on it, so that the two cannot come to configure a pool, a queue or a key differently.
 */
export function platformModules(config: AppConfig, database: DatabaseEndpoint): (Type<unknown> | DynamicModule)[] {
  return [
    ConfigModule.forRoot(config),
    PersistenceModule.forRoot(config, database),
    RedisModule.forRoot(config),
    QueueModule.forRoot(config, { databaseUrl: database.url, embedded: database.embedded }),
    MetricsModule,
    CodecsModule,
    CryptoModule,
  ];
}
