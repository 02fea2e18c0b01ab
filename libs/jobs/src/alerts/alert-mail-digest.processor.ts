import { InjectQueue, Processor } from '@nestjs/bullmq';
import type { OnApplicationBootstrap } from '@nestjs/common';
import { QUEUES } from '@dts/domain';
import type { Queue } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';
import { AlertMailDigests } from './alert-mail-digests';

/** Every minute: the digests of the hours that ended (AlertMailDigests). */
const EVERY_MS = 60_000;

@Processor(QUEUES.alertsMailDigest, PROCESSOR_OPTIONS)
export class AlertMailDigestProcessor extends JobProcessor<'alerts.mail-digest'> implements OnApplicationBootstrap {
  readonly job = 'alerts.mail-digest' as const;

  constructor(
    private readonly digests: AlertMailDigests,
    @InjectQueue(QUEUES.alertsMailDigest) private readonly queue: Queue,
  ) {
    super();
  }

  /** One scheduler for all workers: upserting it again is a no-op. */
  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('alerts-mail-digest', { every: EVERY_MS }, { name: this.job, data: {} });
  }

  protected async handle(): Promise<{ digests: number }> {
    return { digests: await this.digests.sendDue(new Date()) };
  }
}
