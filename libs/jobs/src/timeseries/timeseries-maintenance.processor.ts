import { InjectQueue, Processor } from '@nestjs/bullmq';
import { type OnApplicationBootstrap } from '@nestjs/common';
import { QUEUES } from '@dts/domain';
import type { Queue } from 'bullmq';
import { JobProcessor, PROCESSOR_OPTIONS } from '../job-processor';
import { TimeseriesMaintenance, type TimeseriesMaintenanceReport } from './timeseries-maintenance';

/**
 * Every 10 minutes, and at a worker's start: partitions ahead, retention, the rollup backfill.
 * Ten minutes is far inside any partition interval (a day at the shortest), so the partitions
 * ahead are never used up between two runs; ingestion adds one itself if it ever finds none.
 */
const EVERY_MS = 10 * 60 * 1000;

@Processor(QUEUES.timeseriesMaintenance, { ...PROCESSOR_OPTIONS, lockDuration: 120_000 })
export class TimeseriesMaintenanceProcessor extends JobProcessor<'timeseries.maintain'> implements OnApplicationBootstrap {
  readonly job = 'timeseries.maintain' as const;

  constructor(
    private readonly maintenance: TimeseriesMaintenance,
    @InjectQueue(QUEUES.timeseriesMaintenance) private readonly queue: Queue,
  ) {
    super();
  }

  /** One scheduler for all workers: upserting it again is a no-op. */
  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler('timeseries-maintenance', { every: EVERY_MS }, { name: this.job, data: {} });
  }

  protected handle(): Promise<TimeseriesMaintenanceReport> {
    return this.maintenance.run();
  }
}
