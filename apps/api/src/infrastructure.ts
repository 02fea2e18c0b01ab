import type { DynamicModule, Provider, Type } from '@nestjs/common';
import { type DatabaseEndpoint, platformModules } from '@dts/persistence';
import { type AppConfig, AppLogger, createHttpLoggers, HTTP_LOGGERS } from '@dts/platform';
import { AuthCoreModule } from './common/auth/auth-core.module';
import { ThrottlingModule } from './common/throttling/throttling.module';

/**
 * What every feature module stands on — the platform's modules (platformModules: configuration,
 * the database, Redis, the queues, metrics, codecs, crypto), authentication and throttling, and the
 * loggers — in one list: the application module (app.module.ts) and the service specs' testing
 * module (testing/service-testing-module.ts) both build on it, so a service under test has exactly
 * what it has in the service.
 */
export function infrastructure(config: AppConfig, database: DatabaseEndpoint): { imports: (Type<unknown> | DynamicModule)[]; providers: Provider[] } {
  // Written by requestLogMiddleware (the completion lines) and AppLogger (everything else).
  const loggers = createHttpLoggers(config, 'api');
  return {
    imports: [...platformModules(config, database), AuthCoreModule, ThrottlingModule],
    providers: [
      { provide: HTTP_LOGGERS, useValue: loggers },
      { provide: AppLogger, useValue: new AppLogger(loggers.app) },
    ],
  };
}
