import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { queryOne } from './sql-results';
import { rollupFillSql, rollupMissingSql, SERIES_ROLLUP_LOCK, type SeriesAggregateName, seriesSql } from './series.sql';

export type { SeriesAggregateName } from './series.sql';

const HOUR = 3_600;
/**
 * Hours materialized per transaction: the device's ingestion waits on the lock while one runs, so
 * a first read of a long history holds it in steps of a week, not for the whole history.
 */
const FILL_STEP_HOURS = 168;

export interface SeriesRequest {
  deviceUid: number;
  /** Data type aliases (checked against the datamodel by the caller). */
  members: readonly string[];
  aggregates: readonly SeriesAggregateName[];
  /** Inclusive bounds, unix seconds, on the uplinks' reception time (as `from`/`to` of the history reads). */
  from: number;
  to: number;
  intervalSeconds: number;
  /** The current time (unix seconds); hours that have not ended by then are not materialized. */
  now?: number;
}

/** One bucket: its start (unix seconds) and `<member index>_<aggregate>` values. */
export type SeriesRow = { t: string | number } & Record<string, number | string | null>;

/**
 * Aggregated series, computed in SQL into epoch-aligned buckets (date_bin, PostgreSQL 14+ and the
 * embedded PGlite), only buckets that hold uplinks. Buckets of whole hours (1 h and coarser) read
 * the completed hours inside the range from the hourly rollup (`uplink_rollups`), materializing
 * those not yet there first; the rest of the range, and finer buckets, aggregate the uplinks.
 */
@Injectable()
export class SeriesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async buckets(request: SeriesRequest): Promise<SeriesRow[]> {
    const region = await this.rollupRegion(request);
    if (region) await this.materialize(request.deviceUid, request.members, region.from, region.to);
    const none = request.to + 1;
    const { sql, params } = seriesSql({ ...request, rollupFrom: region?.from ?? none, rollupTo: region?.to ?? none });
    // The planner cannot know that the stretches read from the uplinks are short, estimates the
    // join at millions of rows and JIT-compiles the statement: 556 of 569 ms over 30 days of
    // 300,000 uplinks, where the work itself takes 15–25 ms (docs/benchmarks.md, figure 7).
    return this.ds.transaction(async (m) => {
      await m.query('SET LOCAL jit = off');
      return m.query(sql, params) as Promise<SeriesRow[]>;
    });
  }

  /**
   * The whole, completed hours of the range [rollupFrom, rollupTo) that the rollup answers, within
   * the hours the device has uplinks in (an empty stretch before or after them costs the uplinks'
   * index one probe, so it is not materialized); null when there is none or the buckets are finer.
   */
  async rollupRegion(request: SeriesRequest): Promise<{ from: number; to: number } | null> {
    if (request.intervalSeconds % HOUR !== 0) return null;
    const now = request.now ?? Math.floor(Date.now() / 1000);
    let from = Math.ceil(request.from / HOUR) * HOUR;
    let to = Math.min(Math.floor((request.to + 1) / HOUR), Math.floor(now / HOUR)) * HOUR;
    if (to <= from) return null;
    const extent = await queryOne<{ first: string | null; last: string | null }>(
      this.ds,
      `SELECT extract(epoch FROM min(received_at))::bigint AS first, extract(epoch FROM max(received_at))::bigint AS last
       FROM uplinks WHERE device_id = $1`,
      [request.deviceUid],
    );
    if (extent.first === null || extent.last === null) return null;
    from = Math.max(from, Math.floor(Number(extent.first) / HOUR) * HOUR);
    to = Math.min(to, (Math.floor(Number(extent.last) / HOUR) + 1) * HOUR);
    return to > from ? { from, to } : null;
  }

  /**
   * Materializes the hours of [from, to) not yet in the rollup for the members, each stretch of
   * missing hours in steps of FILL_STEP_HOURS under the device's lock, exclusively: uplinks being
   * written meanwhile wait, and whatever committed before is in what this computes (the fill
   * itself only adds the hours still missing when it holds the lock).
   */
  async materialize(deviceUid: number, members: readonly string[], from: number, to: number): Promise<number> {
    const missing = rollupMissingSql(deviceUid, from, to, members);
    const hours = ((await this.ds.query(missing.sql, missing.params)) as { hour: string }[]).map((r) => Number(r.hour));
    let filled = 0;
    for (let i = 0; i < hours.length;) {
      const first = hours[i]!;
      let end = i + 1;
      while (end < hours.length && end - i < FILL_STEP_HOURS && hours[end] === first + (end - i) * HOUR) end++;
      const fill = rollupFillSql(deviceUid, first, first + (end - i) * HOUR, members);
      await this.ds.transaction(async (m) => {
        await m.query('SELECT pg_advisory_xact_lock($1, $2)', [SERIES_ROLLUP_LOCK, deviceUid]);
        await m.query(fill.sql, fill.params);
      });
      filled += end - i;
      i = end;
    }
    return filled;
  }
}
