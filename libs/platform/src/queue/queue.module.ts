import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Module } from '@nestjs/common';
import { QUEUES } from '@dts/domain';
import type { AppConfig } from '../config/app-config';
import { configureQueueBackend, type QueueBackendTarget } from './queue-connection';
import { JobQueue } from './job-queue';

@Module({})
export class QueueModule {
  static forRoot(config: AppConfig, target: QueueBackendTarget): DynamicModule {
    const queues = Object.values(QUEUES).map((name) => BullModule.registerQueue({ name }));
    return {
      module: QueueModule,
      global: true,
      imports: [BullModule.forRoot(configureQueueBackend(config, target)), ...queues],
      providers: [JobQueue],
      exports: [JobQueue, BullModule],
    };
  }
}
