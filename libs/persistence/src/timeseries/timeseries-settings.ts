import type { PartitionInterval } from './partition-bounds';

/** The time-series settings the repositories need (AppConfig's `timeseries`, docs/api.md §5). */
export interface TimeseriesSettings {
  readonly partitionInterval: PartitionInterval;
  /** Partitions kept ready after the current one. */
  readonly partitionsAhead: number;
  /** The platform's retention of raw uplinks; null keeps them. */
  readonly uplinkRetentionDays: number | null;
  /** Retention of the hourly and daily rollups; null keeps them. */
  readonly hourlyRollupRetentionDays: number | null;
  readonly dailyRollupRetentionDays: number | null;
  /** Days the audit log keeps a record at least. */
  readonly auditRetentionDays: number;
}

export const TIMESERIES_SETTINGS = Symbol('TIMESERIES_SETTINGS');
