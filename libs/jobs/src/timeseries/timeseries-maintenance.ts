import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  AuditRepository,
  ImagesRepository,
  ImageStore,
  nextIntervalStart,
  RetentionRepository,
  RollupBackfillRepository,
  TimePartitionsRepository,
} from '@dts/persistence';
import { APP_CONFIG, type AppConfig } from '@dts/platform';

/** Time one run may spend deleting raw rows in batches, and rolling up old uplinks: the rest waits for the next run. */
export const RAW_DELETE_BUDGET_MS = 20_000;
export const BACKFILL_BUDGET_MS = 20_000;
/** Images retired per run. */
const IMAGE_BATCH = 500;

export interface TimeseriesMaintenanceReport {
  partitionsCreated: string[];
  rawPartitionsDropped: string[];
  rawRowsDeleted: number;
  hourlyPartitionsDropped: number;
  dailyRowsDeleted: number;
  imagesRetired: number;
  backfillSteps: number;
  auditPartitionsDropped: string[];
}

/**
 * One run of the time-series upkeep (docs/architecture.md, "Time-series storage"): partitions
 * `PARTITIONS_AHEAD` intervals ahead of now, the retention policies (the audit log's too), the
 * rollup backfill. Each
 * step is bounded and carries on at the next run where it stopped. The processor runs it on a
 * schedule; tests call it directly.
 */
@Injectable()
export class TimeseriesMaintenance {
  private readonly logger = new Logger(TimeseriesMaintenance.name);

  constructor(
    private readonly partitions: TimePartitionsRepository,
    private readonly retention: RetentionRepository,
    private readonly backfill: RollupBackfillRepository,
    private readonly images: ImagesRepository,
    private readonly store: ImageStore,
    private readonly audit: AuditRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The end of the partitions kept ready at `now`: the start of the interval `PARTITIONS_AHEAD` after the current one. */
  horizon(now: Date): Date {
    const { partitionInterval, partitionsAhead } = this.config.timeseries;
    let at = now;
    for (let i = 0; i < partitionsAhead; i++) at = nextIntervalStart(at, partitionInterval);
    return at;
  }

  async run(now = new Date()): Promise<TimeseriesMaintenanceReport> {
    const partitionsCreated = await this.partitions.ensure(this.horizon(now));
    const policy = await this.retention.policy();
    const dropped = await this.retention.dropExpiredRaw(now, policy);
    const rawRowsDeleted = await this.retention.deleteExpiredRaw(now, policy, RAW_DELETE_BUDGET_MS);
    const rollups = await this.retention.expireRollups(now, RAW_DELETE_BUDGET_MS);
    const imagesRetired = await this.retireImages(now);
    const backfillSteps = await this.backfill.run(BACKFILL_BUDGET_MS);
    const auditDropped = await this.audit.dropExpired(now);
    const report: TimeseriesMaintenanceReport = {
      partitionsCreated,
      rawPartitionsDropped: dropped.map((p) => p.name),
      rawRowsDeleted,
      hourlyPartitionsDropped: rollups.hourlyPartitions,
      dailyRowsDeleted: rollups.dailyRows,
      imagesRetired,
      backfillSteps,
      auditPartitionsDropped: auditDropped.map((p) => p.name),
    };
    const changed = Object.values(report).some((v) => (Array.isArray(v) ? v.length > 0 : v > 0));
    if (changed) this.logger.log({ ...report }, 'time-series upkeep');
    return report;
  }

  /** Images past IMAGE_RETENTION_DAYS: marked deleted, their bytes removed as for a deleted image. */
  private async retireImages(now: Date): Promise<number> {
    const days = this.config.timeseries.imageRetentionDays;
    if (days === null) return 0;
    const uids = await this.retention.retireExpiredImages(now, days, IMAGE_BATCH);
    for (const uid of uids) {
      await this.store.remove(uid);
      await this.images.markPurged(uid);
    }
    return uids.length;
  }
}
