import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { UplinkIssues } from '@dts/domain';
import { DataSource } from 'typeorm';
import { DATA_ROW_COLUMNS, type DataRow, selectColumn, sqlList, UPLINK_READ_COLUMNS, type UplinkRow } from './uplink-columns';

export type { DataRow, UplinkRow } from './uplink-columns';

export interface UplinkRange {
  /** Inclusive bounds, unix seconds. */
  from: number | null;
  to: number | null;
  order: 'asc' | 'desc';
  /** null: the whole history. */
  limit: number | null;
  /** Only the uplinks whose decoding said something (`errors`, `warnings`, `any`) or nothing (`none`); null: all. */
  issues?: UplinkIssues | null;
}

/**
 * Each filter as SQL, from a closed set (no parameter: a plan per filter). The first three say the
 * predicate of the partial index uplinks_payload_problems too, so they read only its few rows.
 */
const ISSUES_SQL: Record<UplinkIssues, string> = {
  errors: '(u.payload_errors IS NOT NULL OR u.payload_warnings IS NOT NULL) AND u.payload_errors IS NOT NULL',
  warnings: '(u.payload_errors IS NOT NULL OR u.payload_warnings IS NOT NULL) AND u.payload_warnings IS NOT NULL',
  any: '(u.payload_errors IS NOT NULL OR u.payload_warnings IS NOT NULL)',
  none: 'u.payload_errors IS NULL AND u.payload_warnings IS NULL',
};

/** Rows per query: memory holds one batch whatever the history's size. */
export const READ_BATCH = 2_000;

const COLUMNS = sqlList([...UPLINK_READ_COLUMNS.map(selectColumn), 'n.name AS network'], '       ');
const FROM = 'FROM uplinks u LEFT JOIN networks n ON n.uid = u.network_ref';
const DATA_COLUMNS = sqlList(DATA_ROW_COLUMNS.map(selectColumn), '       ');

/**
 * A device's uplinks within a time range, one keyset batch; with `keyset`, after ($5, $6) in that
 * order. `data`: the columns of a data row only (no network join); `issues`: only those uplinks.
 */
export function uplinkRangeSql(
  order: 'asc' | 'desc',
  keyset: boolean,
  { data = false, issues = null }: { data?: boolean; issues?: UplinkIssues | null } = {},
): string {
  const asc = order === 'asc';
  return `SELECT ${data ? DATA_COLUMNS : COLUMNS}
       ${data ? 'FROM uplinks u' : FROM}
         WHERE u.device_id = $1
           AND ($2::bigint IS NULL OR u.received_at >= to_timestamp($2::bigint))
           AND ($3::bigint IS NULL OR u.received_at < to_timestamp($3::bigint + 1))${
             issues
               ? `
           AND ${ISSUES_SQL[issues]}`
               : ''
           }${
             keyset
               ? `
           AND (u.received_at, u.uid) ${asc ? '>' : '<'} ($5::timestamptz, $6::bigint)`
               : ''
           }
         ORDER BY u.received_at ${asc ? 'ASC' : 'DESC'}, u.uid ${asc ? 'ASC' : 'DESC'}
         LIMIT $4`;
}

export const UPLINKS_AFTER_UID_SQL = `SELECT ${COLUMNS}
       ${FROM}
         WHERE u.device_id = $1 AND u.uid > $2::bigint AND ($3::bigint IS NULL OR u.uid <= $3::bigint)
         ORDER BY u.uid LIMIT $4`;

export const LATEST_UPLINK_SQL = `SELECT ${COLUMNS}
       ${FROM} WHERE u.device_id = $1 ORDER BY u.received_at DESC, u.uid DESC LIMIT 1`;

/** The select list of an UplinkRow from `uplinks u LEFT JOIN networks n ON n.uid = u.network_ref` (the event router reads by uid). */
export const UPLINK_ROW_SELECT = COLUMNS;

/**
 * Reads a device's history in keyset batches ordered by (received_at, uid): each batch is one short
 * indexed query, so a long read holds no cursor, no transaction and no more than two batches in memory.
 */
@Injectable()
export class UplinkReadsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  rows(deviceUid: number, range: UplinkRange): AsyncGenerator<UplinkRow[]> {
    return this.batches<UplinkRow>(deviceUid, range, false);
  }

  /** The same, with a data row's columns only (DATA_ROW_COLUMNS): the data view and the data cache. */
  dataRows(deviceUid: number, range: UplinkRange): AsyncGenerator<DataRow[]> {
    return this.batches<DataRow>(deviceUid, range, true);
  }

  /**
   * The next batch is asked for as soon as one arrives, so PostgreSQL reads it while this one is
   * rendered and written: a stream holds at most two batches and one query at a time.
   */
  private async *batches<T extends { received_at: Date; uid: string }>(deviceUid: number, range: UplinkRange, data: boolean): AsyncGenerator<T[]> {
    const read = (size: number, after: { at: Date; uid: string } | null): Promise<T[]> => {
      const params: unknown[] = [deviceUid, range.from, range.to, size];
      if (after) params.push(after.at, after.uid);
      const query: Promise<T[]> = this.ds.query(uplinkRangeSql(range.order, after !== null, { data, issues: range.issues ?? null }), params);
      // A read ahead can fail while the batch before it is still being written (the client slow):
      // its failure waits for the await that takes it, or is dropped with a reader that stopped
      // early; never an unhandled rejection, which would end the process.
      query.catch(() => undefined);
      return query;
    };
    let left = range.limit ?? Number.POSITIVE_INFINITY;
    let size = Math.min(READ_BATCH, left);
    let next: Promise<T[]> | null = read(size, null);
    while (next) {
      const batch: T[] = await next;
      next = null;
      if (batch.length === 0) return;
      left -= batch.length;
      const last = batch.at(-1)!;
      if (batch.length === size && left > 0) {
        size = Math.min(READ_BATCH, left);
        next = read(size, { at: last.received_at, uid: last.uid });
      }
      yield batch;
    }
  }

  /**
   * The device's uplinks with uid in (`after`, `upTo`], in uid order, in keyset batches. The live
   * feed reads by uid because, for one device, uids are drawn and committed in the same order (the
   * ingest transaction locks the device first): no row can appear later below a uid already read.
   */
  async *afterUid(deviceUid: number, after: string, upTo: string | null, batchSize = READ_BATCH): AsyncGenerator<UplinkRow[]> {
    let from = after;
    for (;;) {
      const batch: UplinkRow[] = await this.ds.query(UPLINKS_AFTER_UID_SQL, [deviceUid, from, upTo, batchSize]);
      if (batch.length === 0) return;
      yield batch;
      if (batch.length < batchSize) return;
      from = batch.at(-1)?.uid ?? from;
    }
  }

  /**
   * The uplinks of several devices with uid above `after` and at most each device's own bound, in
   * uid order, in keyset batches: the account feed's Last-Event-ID replay.
   */
  async *afterUidAcross(
    bounds: readonly { device: number; upTo: string }[],
    after: string,
    batchSize = READ_BATCH,
  ): AsyncGenerator<(UplinkRow & { device_id: number })[]> {
    if (bounds.length === 0) return;
    const devices = bounds.map((b) => b.device);
    const upTo = bounds.map((b) => b.upTo);
    let from = after;
    for (;;) {
      const batch: (UplinkRow & { device_id: number })[] = await this.ds.query(
        `SELECT u.device_id, ${COLUMNS} FROM uplinks u
         JOIN unnest($1::int[], $2::bigint[]) AS j(device, up_to) ON u.device_id = j.device AND u.uid <= j.up_to
         LEFT JOIN networks n ON n.uid = u.network_ref
         WHERE u.uid > $3::bigint ORDER BY u.uid LIMIT $4`,
        [devices, upTo, from, batchSize],
      );
      if (batch.length === 0) return;
      yield batch;
      const last = batch.at(-1);
      if (batch.length < batchSize || !last) return;
      from = last.uid;
    }
  }

  /** The newest uplink uid of each device ('0' for one with none), in one statement. */
  async newestUids(deviceUids: readonly number[]): Promise<Map<number, string>> {
    if (deviceUids.length === 0) return new Map();
    const rows: { device: number; uid: string | null }[] = await this.ds.query(
      'SELECT d AS device, (SELECT max(u.uid) FROM uplinks u WHERE u.device_id = d)::text AS uid FROM unnest($1::int[]) AS d',
      [deviceUids],
    );
    return new Map(rows.map((r) => [Number(r.device), r.uid ?? '0']));
  }

  /** The newest uplink uid of any device ('0' when there is none). */
  async newestUidOverall(): Promise<string> {
    const rows: { uid: string | null }[] = await this.ds.query('SELECT max(uid)::text AS uid FROM uplinks');
    return rows[0]?.uid ?? '0';
  }

  /** The uid of the device's newest stored uplink ('0' when it has none). */
  async newestUid(deviceUid: number): Promise<string> {
    const rows: { uid: string | null }[] = await this.ds.query('SELECT max(uid)::text AS uid FROM uplinks WHERE device_id = $1', [deviceUid]);
    return rows[0]?.uid ?? '0';
  }

  /** The device's newest uplink, for decoding it again without storing. */
  async latest(deviceUid: number): Promise<UplinkRow | null> {
    const rows: UplinkRow[] = await this.ds.query(LATEST_UPLINK_SQL, [deviceUid]);
    return rows[0] ?? null;
  }
}
