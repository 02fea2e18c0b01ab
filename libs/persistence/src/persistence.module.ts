import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions, type DatabaseTarget } from './data-source';
import { AccountsRepository } from './repositories/accounts.repository';
import { DatamodelRepository } from './repositories/datamodel.repository';
import { DevicesRepository } from './repositories/devices.repository';
import { FencesRepository } from './repositories/fences.repository';
import { GatewaysRepository } from './repositories/gateways.repository';
import { FeedbackRepository } from './repositories/feedback.repository';
import { MaintenanceRepository } from './repositories/maintenance.repository';
import { PasswordResetsRepository } from './repositories/password-resets.repository';
import { RateLimitsRepository } from './repositories/rate-limits.repository';
import { SessionsRepository } from './repositories/sessions.repository';
import { TokensRepository } from './repositories/tokens.repository';
import { UplinksRepository } from './repositories/uplinks.repository';

const REPOSITORIES = [
  AccountsRepository,
  DatamodelRepository,
  DevicesRepository,
  FencesRepository,
  GatewaysRepository,
  FeedbackRepository,
  MaintenanceRepository,
  PasswordResetsRepository,
  RateLimitsRepository,
  SessionsRepository,
  TokensRepository,
  UplinksRepository,
];

/** The database connection and every repository; the only module of either app that touches SQL. */
@Module({})
export class PersistenceModule {
  static forRoot(target: DatabaseTarget): DynamicModule {
    return {
      module: PersistenceModule,
      global: true,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(target), retryAttempts: 3, retryDelay: 1000 })],
      providers: REPOSITORIES,
      exports: REPOSITORIES,
    };
  }
}
