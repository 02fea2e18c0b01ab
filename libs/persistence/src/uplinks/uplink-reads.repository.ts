import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DATA_ROW_MEMBERS, type DataRowMember, toDataRowWire, type UplinkIssues } from '@dts/domain';
import { DataSource } from 'typeorm';
import { ReadDatabase } from '../read/read-database';
import type { SqlType } from '../sql/columns';
import {
  DATA_ROW_COLUMNS,
  type DataRow,
  selectColumn,
  sqlList,
  UPLINK_COLUMNS,
  UPLINK_READ_COLUMNS,
  type UplinkColumn,
  type UplinkRow,
} from './uplink-columns';

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

/** A device's whole history, oldest first: what a data cache entry renders, and the order its chunks follow. */
export const CACHE_RANGE: Readonly<UplinkRange> = { from: null, to: null, order: 'asc', limit: null };

/** Where a keyset batch ends: its last row's time (a Date, or PostgreSQL's own text of it) and uid. */
export interface BatchKey {
  at: Date | string;
  uid: string;
}

interface BatchPage<T> {
  items: T[];
  /** Rows the page covers (a rendered page is one text for all of them). */
  count: number;
  last: BatchKey | null;
}

interface DataJsonPage {
  count: number;
  json: string;
  exact: boolean;
  last_at: string;
  last_uid: string;
}

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

/**
 * A double as JSON.stringify writes the number the driver parses from PostgreSQL's text of it:
 * null for NULL, NaN and the infinities, `0` for minus zero, the text itself otherwise. Only the
 * exponent form differs between the two (`1e-05` against `0.00001`): a batch holding one is
 * rendered by toDataRowWire instead (DATA_JSON_EXACT).
 */
const jsonNumber = (text: string) =>
  `CASE WHEN ${text} IS NULL OR ${text} IN ('NaN', 'Infinity', '-Infinity') THEN 'null' WHEN ${text} IN ('0', '-0') THEN '0' ELSE ${text} END`;

/**
 * A member's key as SQL text of JSON: `"key":` after a comma, or after the brace for the first; with
 * the opening quote of a text value (one concatenation less per row).
 */
const memberKey = (m: DataRowMember, first: boolean) => `'${first ? '{' : ','}${JSON.stringify(m.key).replaceAll("'", "''")}:${m.kind === 'iso' ? '"' : ''}'`;

/**
 * A member's value as PostgreSQL writes it from the batch's row `b` and the row's texts `x` (the
 * moment it describes, `x.at`, and each number column's text), as JSON.stringify writes the
 * mapping's value for the rows DATA_JSON_EXACT admits.
 */
function memberValue(m: DataRowMember): string {
  switch (m.kind) {
    case 'id':
      return `b.${m.column}`;
    case 'unix':
      return 'floor(extract(epoch FROM x.at))::bigint';
    case 'iso':
      // Opened by memberKey.
      return `to_char(x.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '+00:00"'`;
    case 'number':
      return jsonNumber(`x.${m.column}`);
  }
}

/** The SQL types a `number` member may read: pg gives them as numbers, and their text is the number's. */
const NUMBER_TYPES: readonly SqlType[] = ['double precision', 'integer', 'smallint'];

/** The number columns the members write, each read once as text in the batch's LATERAL. */
const NUMBER_COLUMNS = [...new Set(DATA_ROW_MEMBERS.flatMap((m: DataRowMember) => (m.kind === 'number' ? [m.column] : [])))];
for (const column of NUMBER_COLUMNS) {
  const { type } = UPLINK_COLUMNS[column as UplinkColumn];
  if (!NUMBER_TYPES.includes(type)) throw new Error(`data row member column ${column} is ${type}: dataJsonSql writes ${NUMBER_TYPES.join(', ')} only`);
}
if ('omitUnless' in DATA_ROW_MEMBERS[0]) throw new Error('the first data row member must always be written: the others follow it with a comma');

/**
 * A data row's wire JSON (libs/domain toDataRowWire, docs/api.md §5) written by PostgreSQL, byte
 * for byte what JSON.stringify(toDataRowWire(row)) writes, for the rows DATA_JSON_EXACT admits:
 * DATA_ROW_MEMBERS in their order, no spaces, a run of members with the same `omitUnless` written
 * or left out by one CASE (nested in the run its `omitUnless` extends). Generated from the members,
 * as toDataRowWire is, so the two cannot part; uplink-reads.repository.int-spec.ts compares them on
 * both databases, member by member.
 */
const DATA_JSON = (() => {
  // Runs of members left out together, innermost last: a run whose `omitUnless` extends the one
  // around it is written inside it (the altitude inside the position), so each row tests each
  // column once.
  const top: string[] = [];
  const runs: { when: readonly string[]; test: readonly string[]; parts: string[] }[] = [];
  const close = () => {
    const run = runs.pop();
    if (!run) return;
    const part = `CASE WHEN ${run.test.map((c) => `b.${c} IS NULL`).join(' OR ')} THEN '' ELSE ${run.parts.join(' || ')} END`;
    (runs.at(-1)?.parts ?? top).push(part);
  };
  const extendsRun = (when: readonly string[], run: { when: readonly string[] }) => run.when.every((c, i) => when[i] === c);
  DATA_ROW_MEMBERS.forEach((m: DataRowMember, i) => {
    const part = `${memberKey(m, i === 0)} || ${memberValue(m)}`;
    const when = m.kind === 'number' ? (m.omitUnless ?? []) : [];
    for (let run = runs.at(-1); run && !extendsRun(when, run); run = runs.at(-1)) close();
    const around = runs.at(-1)?.when ?? [];
    if (when.length > around.length) runs.push({ when, test: when.slice(around.length), parts: [part] });
    else (runs.at(-1)?.parts ?? top).push(part);
  });
  while (runs.length > 0) close();
  return `${top.join('\n           || ')} || '}'`;
})();

/**
 * Where DATA_JSON is exact: no number in exponent form (PostgreSQL's `1e-05` against
 * JSON.stringify's `0.00001`), a four-digit year, a uid a double holds.
 */
const DATA_JSON_EXACT = [
  NUMBER_COLUMNS.length > 0 ? `strpos(concat(${NUMBER_COLUMNS.map((c) => `x.${c}`).join(', ')}), 'e') = 0` : null,
  DATA_ROW_MEMBERS.some((m: DataRowMember) => m.kind === 'unix' || m.kind === 'iso')
    ? `extract(year FROM x.at AT TIME ZONE 'UTC') BETWEEN 1000 AND 9999`
    : null,
  ...DATA_ROW_MEMBERS.flatMap((m: DataRowMember) => (m.kind === 'id' ? [`b.${m.column}::bigint < 9007199254740992`] : [])),
]
  .filter((c) => c !== null)
  .join('\n           AND ');

/** The row's texts DATA_JSON writes: the moment it describes, and each number column as PostgreSQL writes it. */
const DATA_TEXTS = sqlList(['coalesce(b.ts_device, b.received_at) AS at', ...NUMBER_COLUMNS.map((c) => `b.${c}::text AS ${c}`)], '                       ');

/**
 * One keyset batch of data rows (uplinkRangeSql's, same parameters) as a single row: the batch's
 * wire JSON joined with commas, whether DATA_JSON was exact for all of it, its row count and its
 * last key. The service then does no work per row: on a 100,000-row read that was 60% of the
 * api's CPU, and it kept rows alive across the turns of the loop the bulk scheduler gives each
 * export, so that the young generation's collections copied them (docs/benchmarks.md, figure 3).
 */
export function dataJsonSql(order: 'asc' | 'desc', keyset: boolean, issues: UplinkIssues | null = null): string {
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  const back = order === 'asc' ? 'DESC' : 'ASC';
  return `SELECT count(*)::int AS count,
         string_agg(${DATA_JSON}, ',' ORDER BY b.received_at ${dir}, b.uid::bigint ${dir}) AS json,
         coalesce(bool_and(${DATA_JSON_EXACT}), true) AS exact,
         (array_agg(b.received_at::text ORDER BY b.received_at ${back}, b.uid::bigint ${back}))[1] AS last_at,
         (array_agg(b.uid ORDER BY b.received_at ${back}, b.uid::bigint ${back}))[1] AS last_uid
       FROM (${uplinkRangeSql(order, keyset, { data: true, issues })}) b,
       LATERAL (SELECT ${DATA_TEXTS}) x`;
}

export const UPLINKS_AFTER_UID_SQL = `SELECT ${COLUMNS}
       ${FROM}
         WHERE u.device_id = $1 AND u.uid > $2::bigint AND ($3::bigint IS NULL OR u.uid <= $3::bigint)
         ORDER BY u.uid LIMIT $4`;

export const LATEST_UPLINK_SQL = `SELECT ${COLUMNS}
       ${FROM} WHERE u.device_id = $1 ORDER BY u.received_at DESC, u.uid DESC LIMIT 1`;

/** The select list of an UplinkRow from `uplinks u LEFT JOIN networks n ON n.uid = u.network_ref` (the event router reads by uid). */
export const UPLINK_ROW_SELECT = COLUMNS;

type Query = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/**
 * Reads a device's history in keyset batches ordered by (received_at, uid): each batch is one short
 * indexed query, so a long read holds no cursor, no transaction and no more than two batches in memory.
 * What a user asks for (history, exports) may be a moment stale and is bounded in time: it goes
 * through ReadDatabase. The data cache's rebuild and the live feed read the primary: they must
 * see what the version or the notice they follow says was committed.
 */
@Injectable()
export class UplinkReadsRepository {
  private readonly primary: Query = (sql, params) => this.ds.query(sql, params);
  private readonly user: Query = (sql, params) => this.reads.query(sql, params);

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly reads: ReadDatabase,
  ) {}

  rows(deviceUid: number, range: UplinkRange): AsyncGenerator<UplinkRow[]> {
    return this.rowBatches<UplinkRow>(this.user, deviceUid, range, false);
  }

  /** The same, with a data row's columns only (DATA_ROW_COLUMNS): the CSV and NDJSON exports. */
  dataRows(deviceUid: number, range: UplinkRange): AsyncGenerator<DataRow[]> {
    return this.rowBatches<DataRow>(this.user, deviceUid, range, true);
  }

  /** A device's whole history as data rows, from the primary: the data cache's rendering of one version. */
  dataRowsForCache(deviceUid: number): AsyncGenerator<DataRow[]> {
    return this.rowBatches<DataRow>(this.primary, deviceUid, CACHE_RANGE, true);
  }

  /**
   * The data rows as their wire JSON, one text per batch (the rows joined with commas), written by
   * PostgreSQL (dataJsonSql). A batch it cannot write exactly is read again as rows and rendered
   * by toDataRowWire, so the answer is always the mapping's. `startAfter`: only the rows after
   * that one in the range's order (rowKey).
   */
  dataJson(deviceUid: number, range: UplinkRange, startAfter: BatchKey | null = null): AsyncGenerator<string[]> {
    return this.batches(range, startAfter, async (size, after) => {
      const params = this.rangeParams(deviceUid, range, size, after);
      const keyset = after !== null;
      const issues = range.issues ?? null;
      // A page of a data history, the most read statement of all: prepared, one name per variant.
      const name = `data_json_${range.order}_${keyset ? 'after' : 'first'}_${issues ?? 'all'}`;
      const [page] = await this.reads.query<DataJsonPage>(dataJsonSql(range.order, keyset, issues), params, name);
      if (!page || page.count === 0) return { items: [], count: 0, last: null };
      if (page.exact) return { items: [page.json], count: page.count, last: { at: page.last_at, uid: page.last_uid } };
      const rows = await this.user<DataRow>(uplinkRangeSql(range.order, after !== null, { data: true, issues: range.issues ?? null }), params);
      // The next batch starts after the last row written, which may not be the page's (a row can
      // arrive or go in between); whether there is a next one, the page said (a row gone here
      // must not end the history early).
      const end = rows.at(-1);
      return {
        items: [rows.map((row) => JSON.stringify(toDataRowWire(row))).join(',')],
        count: page.count,
        last: end ? { at: end.received_at, uid: end.uid } : null,
      };
    });
  }

  /**
   * The keyset key of one of the device's uplinks, for dataJson's `startAfter`; null when the row
   * is gone. From the primary: the row may have come from the data cache, which is built there.
   */
  async rowKey(deviceUid: number, uid: string): Promise<BatchKey | null> {
    const [row] = await this.primary<{ at: string }>('SELECT received_at::text AS at FROM uplinks WHERE device_id = $1 AND uid = $2::bigint', [deviceUid, uid]);
    return row ? { at: row.at, uid } : null;
  }

  private rowBatches<T extends { received_at: Date; uid: string }>(query: Query, deviceUid: number, range: UplinkRange, data: boolean): AsyncGenerator<T[]> {
    return this.batches(range, null, async (size, after) => {
      const sql = uplinkRangeSql(range.order, after !== null, { data, issues: range.issues ?? null });
      const items = await query<T>(sql, this.rangeParams(deviceUid, range, size, after));
      const last = items.at(-1);
      return { items, count: items.length, last: last ? { at: last.received_at, uid: last.uid } : null };
    });
  }

  private rangeParams(deviceUid: number, range: UplinkRange, size: number, after: BatchKey | null): unknown[] {
    const params: unknown[] = [deviceUid, range.from, range.to, size];
    if (after) params.push(after.at, after.uid);
    return params;
  }

  /**
   * Keyset batches: the next is asked for as soon as one arrives, so PostgreSQL reads it while this
   * one is rendered and written: a stream holds at most two batches and one query at a time.
   */
  private async *batches<T>(
    range: UplinkRange,
    start: BatchKey | null,
    readPage: (size: number, after: BatchKey | null) => Promise<BatchPage<T>>,
  ): AsyncGenerator<T[]> {
    const read = (size: number, after: BatchKey | null): Promise<BatchPage<T>> => {
      const page = readPage(size, after);
      // A read ahead can fail while the batch before it is still being written (the client slow):
      // its failure waits for the await that takes it, or is dropped with a reader that stopped
      // early; never an unhandled rejection, which would end the process.
      page.catch(() => undefined);
      return page;
    };
    let left = range.limit ?? Number.POSITIVE_INFINITY;
    let size = Math.min(READ_BATCH, left);
    let next: Promise<BatchPage<T>> | null = read(size, start);
    while (next) {
      const page: BatchPage<T> = await next;
      next = null;
      if (page.count === 0 || !page.last) return;
      left -= page.count;
      if (page.count === size && left > 0) {
        size = Math.min(READ_BATCH, left);
        next = read(size, page.last);
      }
      yield page.items;
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

  /**
   * The newest uplink uid of each device ('0' for one with none), in one statement: kept on the
   * device row by ingestion (`last_uplink_uid`), in the transaction that stores the uplinks.
   */
  async newestUids(deviceUids: readonly number[]): Promise<Map<number, string>> {
    if (deviceUids.length === 0) return new Map();
    const rows: { device: number; uid: string | null }[] = await this.ds.query(
      'SELECT d.uid AS device, d.last_uplink_uid::text AS uid FROM devices d WHERE d.uid = ANY($1::int[])',
      [deviceUids],
    );
    const found = new Map(rows.map((r) => [Number(r.device), r.uid ?? '0']));
    return new Map(deviceUids.map((d) => [d, found.get(d) ?? '0']));
  }

  /** The newest uplink uid of any device ('0' when there is none). */
  async newestUidOverall(): Promise<string> {
    const rows: { uid: string | null }[] = await this.ds.query('SELECT max(uid)::text AS uid FROM uplinks');
    return rows[0]?.uid ?? '0';
  }

  /** The uid of the device's newest stored uplink ('0' when it has none), as newestUids keeps it. */
  async newestUid(deviceUid: number): Promise<string> {
    return (await this.newestUids([deviceUid])).get(deviceUid) ?? '0';
  }

  /** The device's newest uplink, for decoding it again without storing. */
  async latest(deviceUid: number): Promise<UplinkRow | null> {
    const rows: UplinkRow[] = await this.ds.query(LATEST_UPLINK_SQL, [deviceUid]);
    return rows[0] ?? null;
  }
}
