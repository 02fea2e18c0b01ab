import { InjectQueue, Processor } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { QUEUES } from '@dts/domain';
import { MaintenanceRepository, type PurgeCounts } from '@dts/persistence';
import type { Queue } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

const EVERY_MS = 15 * 60 * 1000;

/** Every 15 minutes: expired sessions, spent reset and verification tokens, ended rate-limit windows and mail counts go. */
@Processor(QUEUES.maintenance, PROCESSOR_OPTIONS)
export class PurgeExpiredProcessor extends JobProcessor<'maintenance.purge-expired'> implements OnApplicationBootstrap {
  readonly job = 'maintenance.purge-expired' as const;
  private readonly logger = new Logger(PurgeExpiredProcessor.name);

  constructor(
    private readonly maintenance: MaintenanceRepository,
    @InjectQueue(QUEUES.maintenance) private readonly queue: Queue,
  ) {
    super();
  }

  /** One scheduler for all workers: upserting it again is a no-op. */
  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('purge-expired', { every: EVERY_MS }, { name: this.job, data: {} });
  }

  protected async handle(): Promise<PurgeCounts> {
    const counts = await this.maintenance.purgeExpired();
    this.logger.log(
      `purged ${counts.sessions} sessions, ${counts.passwordResets} reset tokens, ${counts.emailVerifications} verification tokens, ` +
        `${counts.rateLimits} rate-limit windows, ${counts.mailCounts} hourly mail counts, ${counts.mailDigests} alert digests`,
    );
    return counts;
  }
}
