import { BullModule, getQueueToken } from '@nestjs/bullmq';
import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { QUEUES } from '@dts/domain';
import type { Queue } from 'bullmq';
import type { Cluster } from 'ioredis';
import type { AppConfig } from '../config/app-config';
import { configureQueueBackend, migrateQueueSchema, type QueueBackendTarget } from './queue-connection';
import { JobQueue } from './job-queue';

/** The Redis Cluster client the queues share; null on a single Redis or the database, where each queue connects by itself. */
const QUEUE_CLUSTER = Symbol('QUEUE_CLUSTER');

@Module({})
export class QueueModule implements OnApplicationShutdown {
  constructor(
    @Inject(QUEUE_CLUSTER) private readonly cluster: Cluster | null,
    private readonly moduleRef: ModuleRef,
  ) {}

  static forRoot(config: AppConfig, target: QueueBackendTarget): DynamicModule {
    const queues = Object.values(QUEUES).map((name) => BullModule.registerQueue({ name }));
    const { cluster, ...bull } = configureQueueBackend(config, target);
    return {
      module: QueueModule,
      global: true,
      // Every queue's options depend on this factory, so BullMQ's tables are migrated before the first
      // queue or worker connects (each of them then only checks the version).
      imports: [
        BullModule.forRootAsync({
          useFactory: async () => {
            await migrateQueueSchema(config, target);
            return bull;
          },
        }),
        ...queues,
      ],
      providers: [JobQueue, { provide: QUEUE_CLUSTER, useValue: cluster }],
      exports: [JobQueue, BullModule],
    };
  }

  /**
   * BullMQ leaves a client it was given open. The queues are closed first (Queue.close is
   * idempotent: Nest's own close of each queue, later, waits for the same promise), then the
   * client; the workers hold copies of their own, which BullMQ closes.
   */
  async onApplicationShutdown(): Promise<void> {
    const cluster = this.cluster;
    if (!cluster) return;
    await Promise.all(
      Object.values(QUEUES).map((name) =>
        this.moduleRef
          .get<Queue>(getQueueToken(name), { strict: false })
          .close()
          .catch(() => undefined),
      ),
    );
    await cluster.quit().catch(() => cluster.disconnect());
  }
}
