import { InjectQueue, Processor } from '@nestjs/bullmq';
import { Inject, type OnApplicationBootstrap } from '@nestjs/common';
import { QUEUES } from '@dts/domain';
import { DeliveriesRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import type { Queue } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

export const MAINTENANCE_EVERY_MS = 5 * 60_000;
const PURGE_BATCH = 5_000;

/**
 * Keeps the outbox bounded: past INTEGRATION_OUTBOX_LIMIT waiting deliveries an integration's oldest
 * are given up (`failed`, with the reason), and events older than the retention whose deliveries
 * are all finished are removed with them.
 */
@Processor(QUEUES.integrationsMaintenance, PROCESSOR_OPTIONS)
export class IntegrationsMaintenanceProcessor extends JobProcessor<'integrations.maintenance'> implements OnApplicationBootstrap {
  readonly job = 'integrations.maintenance' as const;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    @InjectQueue(QUEUES.integrationsMaintenance) private readonly queue: Queue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('integrations-maintenance', { every: MAINTENANCE_EVERY_MS }, { name: this.job, data: {} });
  }

  protected async handle(): Promise<{ dropped: number; purged: number }> {
    const dropped = await this.deliveries.enforceBound(this.config.integrations.outboxLimit);
    let purged = 0;
    for (;;) {
      const n = await this.deliveries.purge(this.config.integrations.eventRetentionMs, PURGE_BATCH);
      purged += n;
      if (n < PURGE_BATCH) break;
    }
    return { dropped, purged };
  }
}
