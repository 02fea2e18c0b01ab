import { toDataRowWire } from '@dts/domain';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { ReadDatabase } from '../read/read-database';
import { suiteDatabase } from '../testing/suite-database';
import { READ_BATCH, type UplinkRange, UplinkReadsRepository } from './uplink-reads.repository';

/** [received_at, ts_device, humidity, temperature, battery_voltage, geoloc_lat, geoloc_lon, geoloc_alt] as SQL. */
type Uplink = [string, string, string, string, string, string, string, string];

/** Values PostgreSQL writes as JSON.stringify would: the fast path must take them. */
const EXACT: Uplink[] = [
  [`'2026-05-01 12:03:04.123456+00'`, 'NULL', '55.5', '21.25', '3.3', 'NULL', 'NULL', 'NULL'],
  [`'2026-05-01 12:03:05+00'`, `'1969-12-31 23:59:59.5+00'`, 'NULL', '-0', '0', '46.1', '6.2', 'NULL'],
  [`'2026-05-01 12:03:06+00'`, `'2026-05-01 12:03:06.999999+02'`, `'NaN'`, `'Infinity'`, `'-Infinity'`, '46.1', '6.2', '-12.5'],
  [`'2026-05-01 12:03:07+00'`, 'NULL', '0.1::float8 + 0.2::float8', '0.0001', '123456789012345.6', '46.1', 'NULL', '400'],
  [`'2026-05-01 12:03:08+00'`, `'1000-01-01 00:00:00+00'`, '-40.123456789', '99.99999999999999', '1e-4', 'NULL', '6.2', 'NULL'],
  [`'2026-05-01 12:03:09+00'`, `'9999-12-31 23:59:59+00'`, '1', '-1', '12345678901234', `'NaN'`, '0', `'Infinity'`],
];

/** Values PostgreSQL writes otherwise (exponents, a year of three digits): the batch is rendered by toDataRowWire. */
const INEXACT: Uplink[] = [
  [`'2026-05-02 00:00:00+00'`, 'NULL', '0.00001', '21', '3.3', 'NULL', 'NULL', 'NULL'],
  [`'2026-05-02 00:00:01+00'`, 'NULL', '1e15', '-1e300', '3.3', '1e-300', '2', 'NULL'],
  [`'2026-05-02 00:00:02+00'`, `'0999-12-31 23:59:59+00'`, '50', '21', '3.3', 'NULL', 'NULL', 'NULL'],
];

describe('UplinkReadsRepository.dataJson (data rows written by PostgreSQL)', () => {
  let ds: DataSource;
  let stop: () => Promise<void>;
  let reads: UplinkReadsRepository;
  let userReads: ReadDatabase;
  let account: number;
  const sqls: string[] = [];

  const insert = async (eui: string, uplinks: Uplink[]): Promise<number> => {
    const [{ uid }] = await ds.query(`INSERT INTO devices (eui, owner_id, label) VALUES ($1, $2, 'reads') RETURNING uid`, [eui, account]);
    if (uplinks.length === 0) return uid;
    const values = uplinks.map((u) => `(${uid}, ${u[0]}, ${u[1]}, ${u.slice(2).join(', ')}, 1, '\\x01'::bytea)`);
    await ds.query(
      `INSERT INTO uplinks (device_id, received_at, ts_device, humidity, temperature, battery_voltage, geoloc_lat, geoloc_lon, geoloc_alt, port, payload)
       VALUES ${values.join(', ')}`,
    );
    return uid;
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

  it('writes what the mapping writes, in PostgreSQL, for NaN, infinities, minus zero, long digits, microseconds, old and far dates and every position form', async () => {
    const device = await insert('00000000000000E1', EXACT);
    for (const order of ['asc', 'desc'] as const) {
      const { json, expected, fellBack } = await both(device, { order });
      expect(json).toBe(expected);
      expect(JSON.parse(`[${json}]`)).toHaveLength(EXACT.length);
      expect(fellBack).toBe(false);
    }
  });

  it('renders a batch the database would write otherwise (an exponent, a year before 1000) with the mapping', async () => {
    const device = await insert('00000000000000E2', [...EXACT, ...INEXACT]);
    const { json, expected, fellBack } = await both(device);
    expect(json).toBe(expected);
    expect(JSON.parse(`[${json}]`)).toHaveLength(EXACT.length + INEXACT.length);
    expect(fellBack).toBe(true);
  });

  it('walks a long history in keyset batches in both orders, within a range and a limit, as the rows do', async () => {
    const device = await insert(
      '00000000000000E3',
      Array.from({ length: 2 * READ_BATCH + 7 }, (_, i): Uplink => {
        // Pairs share a received_at (the uid breaks the tie); every ninth has a position. Whole
        // milliseconds, as ingestion writes them: the rows' keyset is a JavaScript Date.
        const at = `'2026-06-01 00:00:00+00'::timestamptz + interval '${Math.floor(i / 2)} seconds 250 milliseconds'`;
        return [
          at,
          'NULL',
          String(40 + (i % 50) / 7),
          String(i % 13 === 0 ? 'NULL' : -5 + i / 3),
          '3.6',
          i % 9 ? 'NULL' : '47.5',
          i % 9 ? 'NULL' : '7.25',
          'NULL',
        ];
      }),
    );
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
