import { DATA_ROW_MEMBERS, type DataRowMember, toDataRowWire } from '@dts/domain';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { ReadDatabase } from '../read/read-database';
import { suiteDatabase } from '../testing/suite-database';
import type { SqlType } from '../sql/columns';
import { DATA_ROW_COLUMNS, UPLINK_COLUMNS, type UplinkColumn } from './uplink-columns';
import { READ_BATCH, type UplinkRange, UplinkReadsRepository } from './uplink-reads.repository';

/**
 * Values of each SQL type a data row may read, as SQL, that PostgreSQL writes as JSON.stringify
 * would: the fast path must take them. NaN, the infinities, minus zero, long digits, small and
 * large decimals, microseconds, an offset, old and far dates. A data row member reading a column
 * of a type not here fails the suite below: say its values here.
 */
const EXACT: Partial<Record<SqlType, readonly string[]>> = {
  'double precision': [
    'NULL',
    `'NaN'`,
    `'Infinity'`,
    `'-Infinity'`,
    '-0',
    '0',
    '0.1::float8 + 0.2::float8',
    '0.0001',
    '1e-4',
    '123456789012345.6',
    '12345678901234',
    '-40.123456789',
    '99.99999999999999',
    '46.1',
    '-12.5',
    '1',
    '-1',
  ],
  integer: ['NULL', '0', '-1', '2147483647', '-2147483648'],
  smallint: ['NULL', '0', '-32768', '32767'],
  timestamptz: [
    'NULL',
    `'2026-05-01 12:03:04.123456+00'`,
    `'1969-12-31 23:59:59.5+00'`,
    `'2026-05-01 12:03:06.999999+02'`,
    `'1000-01-01 00:00:00+00'`,
    `'9999-12-31 23:59:59+00'`,
  ],
};

/** Values PostgreSQL writes otherwise (an exponent, a year of three digits): a batch holding one is rendered by toDataRowWire. */
const INEXACT: Partial<Record<SqlType, readonly string[]>> = {
  'double precision': ['0.00001', '1e15', '-1e300', '1e-300'],
  timestamptz: [`'0999-12-31 23:59:59+00'`],
};

/** The columns a data row reads that a fixture fills (the uid is drawn; received_at places the row in time and a partition). */
const FILLED = DATA_ROW_COLUMNS.filter((c) => c !== 'uid' && c !== 'received_at');

/** A column's exact values: without NULL where the column refuses it. */
const exactValues = (column: UplinkColumn): readonly string[] => {
  const { type, nullable } = UPLINK_COLUMNS[column];
  const values = EXACT[type];
  if (!values) throw new Error(`a data row reads ${column} (${type}): give EXACT values of ${type}`);
  return nullable ? values : values.filter((v) => v !== 'NULL');
};

/** A fixture uplink: received_at and the filled columns, as SQL. */
type Uplink = { at: string } & Partial<Record<UplinkColumn, string>>;

/**
 * `count` uplinks a second apart (at microseconds), each filled column given every one of its exact
 * values in the first rows, then drawn by a seeded generator, NULL one time in four where allowed:
 * every member is seen null and valued, written and left out (the test says so).
 */
function varied(count: number, seed = 7): Uplink[] {
  let state = seed;
  // A linear congruential generator's high bits (its low ones repeat within a few draws).
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) >>> 16;
  return Array.from({ length: count }, (_, i): Uplink => {
    const row: Uplink = { at: `'2026-05-01 12:03:04.123456+00'::timestamptz + interval '${i} seconds'` };
    FILLED.forEach((column, j) => {
      const values = exactValues(column);
      // The first rows take every value of each column in turn; the rest draw them.
      if (i < values.length) row[column] = values[(i + 3 * j) % values.length];
      else row[column] = UPLINK_COLUMNS[column].nullable && next() % 4 === 0 ? 'NULL' : values[next() % values.length];
    });
    return row;
  });
}

describe('UplinkReadsRepository.dataJson (data rows written by PostgreSQL)', () => {
  let ds: DataSource;
  let stop: () => Promise<void>;
  let reads: UplinkReadsRepository;
  let userReads: ReadDatabase;
  let account: number;
  const sqls: string[] = [];

  const insert = async (eui: string, uplinks: Uplink[], uid?: string): Promise<number> => {
    const [{ uid: device }] = await ds.query(`INSERT INTO devices (eui, owner_id, label) VALUES ($1, $2, 'reads') RETURNING uid`, [eui, account]);
    if (uplinks.length === 0) return device;
    const values = uplinks.map(
      (u) => `(${[uid ?? `nextval('uplinks_uid_seq')`, device, u.at, ...FILLED.map((c) => u[c] ?? 'NULL'), 1, `'\\x01'::bytea`].join(', ')})`,
    );
    await ds.query(`INSERT INTO uplinks (uid, device_id, received_at, ${FILLED.join(', ')}, port, payload) VALUES ${values.join(', ')}`);
    return device;
  };
  const collect = async <T>(batches: AsyncIterable<T[]>): Promise<T[]> => {
    const all: T[] = [];
    for await (const batch of batches) all.push(...batch);
    return all;
  };
  /** The answer of the fast read, the mapping's answer, and whether the fast read fell back to rows. */
  const both = async (device: number, range: Partial<UplinkRange> = {}) => {
    const r: UplinkRange = { from: null, to: null, order: 'asc', limit: null, ...range };
    sqls.length = 0;
    const json = (await collect(reads.dataJson(device, r))).join(',');
    const fellBack = sqls.some((sql) => !sql.includes('string_agg'));
    const expected = (await collect(reads.dataRows(device, r))).map((row) => JSON.stringify(toDataRowWire(row))).join(',');
    return { json, expected, fellBack };
  };

  beforeAll(async () => {
    const db = await suiteDatabase('reads');
    stop = db.stop;
    const url = db.url;
    await runMigrations({ url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url, poolSize: 3 })).initialize();
    userReads = new ReadDatabase({ primaryUrl: url, replicaUrl: null, poolSize: 2, statementTimeoutMs: 10_000, embedded: db.embedded });
    const query = userReads.query.bind(userReads);
    jest.spyOn(userReads, 'query').mockImplementation((sql, params) => {
      sqls.push(sql);
      return query(sql, params);
    });
    reads = new UplinkReadsRepository(ds, userReads);
    [{ id: account }] = await ds.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices)
       VALUES ('reads', 'reads', 'reads@example.org', 'reads@example.org', 'x', '2999-01-01', 10) RETURNING id`,
    );
  });
  afterAll(async () => {
    await userReads?.onApplicationShutdown();
    await ds?.destroy();
    await stop?.();
  });

  it('writes what the mapping writes, in PostgreSQL, member by member, for every kind of value of every column a data row reads', async () => {
    const uplinks = varied(120);
    const device = await insert('00000000000000E1', uplinks);
    for (const order of ['asc', 'desc'] as const) {
      const { json, expected, fellBack } = await both(device, { order });
      expect(json).toBe(expected);
      expect(fellBack).toBe(false);
      // The rows hold what the test says: each member null and valued, left out and written.
      const rows = JSON.parse(`[${json}]`) as Record<string, unknown>[];
      expect(rows).toHaveLength(uplinks.length);
      for (const m of DATA_ROW_MEMBERS as readonly DataRowMember[]) {
        const seen = new Set(rows.map((row) => (!(m.key in row) ? 'absent' : row[m.key] === null ? 'null' : 'valued')));
        const expectedSeen = m.kind !== 'number' ? ['valued'] : m.omitUnless ? ['absent', 'null', 'valued'] : ['null', 'valued'];
        expect([m.key, [...seen].sort()]).toEqual([m.key, expectedSeen]);
      }
    }
    // Every exact value of every filled column is in the rows.
    for (const column of FILLED) {
      expect([column, new Set(uplinks.map((u) => u[column])).size]).toEqual([column, exactValues(column).length]);
    }
  });

  it('renders a batch holding a value the database would write otherwise (an exponent, a year before 1000, a uid past 2^53) with the mapping', async () => {
    const cases = FILLED.flatMap((column) => (INEXACT[UPLINK_COLUMNS[column].type] ?? []).map((value) => ({ column, value })));
    expect(cases.length).toBeGreaterThan(0);
    let n = 0;
    for (const { column, value } of cases) {
      // The inexact value in a row whose other columns hold values, so that the member is written.
      const uplinks = varied(5, 11 + n);
      const row: Uplink = { at: `'2026-05-01 12:03:04.123456+00'::timestamptz + interval '5 seconds'` };
      for (const c of FILLED) row[c] = exactValues(c).find((v) => v !== 'NULL' && !v.includes('NaN') && !v.includes('Infinity'));
      row[column] = value;
      const device = await insert(`00000000000001${String(n++).padStart(2, '0')}`, [...uplinks, row]);
      const { json, expected, fellBack } = await both(device);
      expect([column, value, json]).toEqual([column, value, expected]);
      expect([column, value, fellBack]).toEqual([column, value, true]);
      expect(JSON.parse(`[${json}]`)).toHaveLength(6);
    }
    const device = await insert('00000000000000E2', varied(1), '9007199254740993');
    const { json, expected, fellBack } = await both(device);
    expect(json).toBe(expected);
    expect(fellBack).toBe(true);
  });

  it('walks a long history in keyset batches in both orders, within a range and a limit, as the rows do', async () => {
    // Pairs share a received_at (the uid breaks the tie). Whole milliseconds, as ingestion writes
    // them: the rows' keyset is a JavaScript Date.
    const uplinks = varied(2 * READ_BATCH + 7, 3).map((u, i) => ({
      ...u,
      at: `'2026-06-01 00:00:00+00'::timestamptz + interval '${Math.floor(i / 2)} seconds 250 milliseconds'`,
    }));
    const device = await insert('00000000000000E3', uplinks);
    const from = Date.parse('2026-06-01T00:05:00Z') / 1000;
    for (const range of [{}, { order: 'desc' as const }, { limit: READ_BATCH + 3 }, { from, to: from + 1_000, order: 'desc' as const }]) {
      const { json, expected, fellBack } = await both(device, range);
      const uids = (text: string) => (JSON.parse(`[${text}]`) as { uid: number }[]).map((row) => row.uid);
      expect(uids(json)).toEqual(uids(expected));
      expect(json).toBe(expected);
      expect(fellBack).toBe(false);
    }
    expect(JSON.parse(`[${(await both(device)).json}]`)).toHaveLength(2 * READ_BATCH + 7);
  });

  it('ends at once on a device without uplinks', async () => {
    const { json, expected } = await both(await insert('00000000000000E4', []));
    expect(json).toBe('');
    expect(expected).toBe('');
  });
});
