import { type DynamicModule, Module } from '@nestjs/common';
import { type DatabaseEndpoint, platformModules } from '@dts/persistence';
import { type AppConfig, HealthModule, loggerOptions, withDestination } from '@dts/platform';
import { LoggerModule } from 'nestjs-pino';
import { JobsModule } from './jobs.module';

/** Root of the standalone worker process: the platform's modules (platformModules, as the api's), its logger, health and the processors. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, database: DatabaseEndpoint): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ...platformModules(config, database),
        LoggerModule.forRoot({ pinoHttp: withDestination(loggerOptions(config, 'worker'), config) }),
        HealthModule,
        JobsModule,
      ],
    };
  }
}
