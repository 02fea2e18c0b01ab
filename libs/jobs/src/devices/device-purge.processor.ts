import { Processor } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import { type JobPayloads, QUEUES } from '@dts/domain';
import { DevicesRepository } from '@dts/persistence';
import type { Job } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';

/** Uplinks deleted per statement: small enough not to hold locks for long on a large history. */
export const PURGE_BATCH = 5_000;

/**
 * Purges a device its owner deleted: its history in batches, then the row. Idempotent: a retried
 * job carries on where the last one stopped.
 */
@Processor(QUEUES.devicePurge, PROCESSOR_OPTIONS)
export class DevicePurgeProcessor extends JobProcessor<'device.purge'> {
  readonly job = 'device.purge' as const;
  private readonly logger = new Logger(DevicePurgeProcessor.name);

  constructor(private readonly devices: DevicesRepository) {
    super();
  }

  protected async handle(payload: JobPayloads['device.purge'], job: Job): Promise<{ uplinks: number }> {
    let total = 0;
    for (;;) {
      const deleted = await this.devices.purgeBatch(payload.deviceUid, PURGE_BATCH);
      total += deleted;
      if (deleted === 0) break;
      await job.updateProgress({ uplinks: total });
    }
    this.logger.log(`device ${payload.deviceUid} purged with ${total} uplinks`);
    return { uplinks: total };
  }
}
