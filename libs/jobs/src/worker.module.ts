import { type DynamicModule, Module } from '@nestjs/common';
import { PersistenceModule } from '@dts/persistence';
import {
  type AppConfig,
  CodecsModule,
  ConfigModule,
  CryptoModule,
  HealthModule,
  loggerOptions,
  MetricsModule,
  withDestination,
  QueueModule,
  RedisModule,
} from '@dts/platform';
import { LoggerModule } from 'nestjs-pino';
import { JobsModule } from './jobs.module';

export interface WorkerDatabase {
  url: string;
  embedded: boolean;
}

/** Root of the standalone worker process: the platform's modules and the processors. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, database: WorkerDatabase): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({ pinoHttp: withDestination(loggerOptions(config, 'worker'), config) }),
        PersistenceModule.forRoot(config, database),
        RedisModule.forRoot(config),
        QueueModule.forRoot(config, { databaseUrl: database.url, embedded: database.embedded }),
        HealthModule,
        MetricsModule,
        CodecsModule,
        CryptoModule,
        JobsModule,
      ],
    };
  }
}
