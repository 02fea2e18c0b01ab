import { Inject, Injectable } from '@nestjs/common';
import { ReadDatabase } from '../read/read-database';
import { cutoffDay } from '../timeseries/partition-bounds';
import { RollupBackfillRepository } from '../timeseries/rollup-backfill.repository';
import { TIMESERIES_SETTINGS, type TimeseriesSettings } from '../timeseries/timeseries-settings';
import { type SeriesAggregateName, seriesRegions, seriesSql } from './series.sql';

export type { SeriesAggregateName } from './series.sql';

export interface SeriesRequest {
  deviceUid: number;
  /** Data type aliases (checked against the datamodel by the caller). */
  members: readonly string[];
  aggregates: readonly SeriesAggregateName[];
  /** Inclusive bounds, unix seconds, on the uplinks' reception time (as `from`/`to` of the history reads). */
  from: number;
  to: number;
  intervalSeconds: number;
  /** The current time (unix seconds), for the rollups' retention horizons. */
  now?: number;
}

/** One bucket: its start (unix seconds) and `<member index>_<aggregate>` values. */
export type SeriesRow = { t: string | number } & Record<string, number | string | null>;

export interface SeriesAnswer {
  rows: SeriesRow[];
  /**
   * While the uplinks stored before the rollups existed are still being rolled up (after an
   * upgrade), the time before which this answer was computed from the uplinks; else null.
   */
  rollupBackfillUntil: number | null;
}

const NEVER = Number.NEGATIVE_INFINITY;

/**
 * Aggregated series, computed in SQL into epoch-aligned buckets (date_bin, PostgreSQL 14+ and the
 * embedded PGlite), only buckets that hold uplinks: whole days from the daily rollup, whole hours
 * from the hourly rollup, the rest from the uplinks (series.sql.ts). A series over two years in
 * daily buckets reads some 730 rollup rows, however many uplinks the device sent. A read that
 * may be a moment stale: it goes through ReadDatabase (replica, statement timeout).
 */
@Injectable()
export class SeriesRepository {
  constructor(
    private readonly reads: ReadDatabase,
    private readonly backfill: RollupBackfillRepository,
    @Inject(TIMESERIES_SETTINGS) private readonly settings: TimeseriesSettings,
  ) {}

  async buckets(request: SeriesRequest): Promise<SeriesAnswer> {
    const now = new Date((request.now ?? Math.floor(Date.now() / 1000)) * 1000);
    const horizon = (days: number | null) => (days === null ? NEVER : cutoffDay(now, days).getTime() / 1000);
    const until = await this.backfill.until(request.deviceUid);
    const pending = until === null ? NEVER : until.getTime() / 1000;
    const regions = seriesRegions({
      from: request.from,
      to: request.to,
      intervalSeconds: request.intervalSeconds,
      hourlyFrom: Math.max(horizon(this.settings.hourlyRollupRetentionDays), pending),
      dailyFrom: Math.max(horizon(this.settings.dailyRollupRetentionDays), pending),
    });
    const { sql, params } = seriesSql({ ...request, regions });
    const rows = await this.reads.query<SeriesRow>(sql, params);
    return { rows, rollupBackfillUntil: until === null ? null : pending };
  }
}
