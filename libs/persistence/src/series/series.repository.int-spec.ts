import { COLUMN_DATA_TYPES } from '@dts/domain';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { suiteDatabase, suiteTimeseriesSettings } from '../testing/suite-database';
import { ReadDatabase } from '../read/read-database';
import { RollupBackfillRepository } from '../timeseries/rollup-backfill.repository';
import { UplinksRepository } from '../uplinks/uplinks.repository';
import { type SeriesRequest, SeriesRepository, type SeriesRow } from './series.repository';
import { seriesMemberKey } from './series.sql';

const HOUR = 3_600;
/** 2026-03-02 00:00 UTC; the history runs three days from here, "now" in the middle of its last hour. */
const T0 = 1_772_409_600;
const NOW = T0 + 71 * HOUR + 1_700;
/** The uplinks' answer written independently of the repository: one pass, grouped, as the route always did (average: exact sum ÷ count). */
async function reference(ds: DataSource, r: SeriesRequest): Promise<SeriesRow[]> {
  const value = (alias: string) =>
    alias === 'pressure'
      ? `CASE WHEN jsonb_typeof(u.decoded -> 'pressure') = 'number' THEN (u.decoded ->> 'pressure')::float8 END`
      : `u.${alias === 'battery' ? 'battery_voltage' : alias}`;
  const columns = r.members.flatMap((alias, i) => {
    const v = value(alias);
    const agg = { min: `min(${v})`, avg: `(sum((${v})::numeric) / nullif(count(${v}), 0))::float8`, max: `max(${v})`, count: `count(${v})::int` };
    return r.aggregates.map((a) => `${agg[a]} AS m${i}_${a}`);
  });
  return ds.query(
    `SELECT extract(epoch FROM date_bin(make_interval(secs => $4), u.received_at, to_timestamp(0)))::bigint AS t, ${columns.join(', ')}
     FROM uplinks u WHERE u.device_id = $1 AND u.received_at >= to_timestamp($2) AND u.received_at < to_timestamp($3::bigint + 1)
     GROUP BY 1 ORDER BY 1`,
    [r.deviceUid, r.from, r.to, r.intervalSeconds],
  );
}

const DAY = 86_400;
const SETTINGS = suiteTimeseriesSettings();

describe('SeriesRepository (rollups kept up by every insert)', () => {
  let ds: DataSource;
  let reads: ReadDatabase;
  let stop: () => Promise<void>;
  let repo: SeriesRepository;
  let device: number;
  const ask = (over: Partial<SeriesRequest> = {}): SeriesRequest => ({
    deviceUid: device,
    members: ['temperature', 'humidity', 'pressure'],
    aggregates: ['min', 'avg', 'max', 'count'],
    from: T0 + 1_234,
    to: T0 + 70 * HOUR + 999,
    intervalSeconds: HOUR,
    now: NOW,
    ...over,
  });
  const expectSameAsUplinks = async (r: SeriesRequest, on: SeriesRepository = repo) => {
    const answer = await on.buckets(r);
    expect(answer.rows.length).toBeGreaterThan(0);
    expect(answer.rows).toEqual(await reference(ds, r));
  };
  const rollup = async (table: 'hourly' | 'daily', bucket: number): Promise<{ n: number; m: Record<string, [number, number, number, number]> } | null> => {
    const rows = await ds.query(`SELECT n, m FROM uplink_rollups_${table} WHERE device_id = $1 AND bucket = to_timestamp($2)`, [device, bucket]);
    return rows[0] ?? null;
  };

  beforeAll(async () => {
    const db = await suiteDatabase('series');
    stop = db.stop;
    const url = db.url;
    await runMigrations({ url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url, poolSize: 3 })).initialize();
    reads = new ReadDatabase({ primaryUrl: url, replicaUrl: null, poolSize: 2, statementTimeoutMs: 10_000, embedded: db.embedded });
    repo = new SeriesRepository(reads, new RollupBackfillRepository(ds), SETTINGS);
    const [account] = await ds.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices)
       VALUES ('series', 'series', 'series@example.org', 'series@example.org', 'x', '2999-01-01', 10) RETURNING id`,
    );
    [{ uid: device }] = await ds.query(`INSERT INTO devices (eui, owner_id, label) VALUES ('00000000000000C1', $1, 'series') RETURNING uid`, [account.id]);
    // Every 7 min 13 s for three days, not aligned to hours; no humidity in hours 5 and 6, and a
    // pressure that is sometimes text (not a number, so not a value); values with many digits.
    // Three statements, so that the rollup rows of their hours are merged from parts.
    for (const [first, last] of [
      [0, 200],
      [201, 400],
      [401, (3 * 24 * 3600) / 433],
    ]) {
      await ds.query(
        `INSERT INTO uplinks (device_id, received_at, port, payload, temperature, humidity, decoded)
         SELECT $1, to_timestamp($2::bigint + g * 433 + 0.25), 1, '\\x01', 15 + 5 * sin(g / 7.0),
                CASE WHEN (g * 433 / 3600) IN (5, 6) THEN NULL ELSE 60 + g % 17 / 3.0 END,
                CASE WHEN g % 5 = 0 THEN jsonb_build_object('pressure', 'n/a') ELSE jsonb_build_object('pressure', 1000 + g / 9.0) END
         FROM generate_series($3::int, $4::int) g`,
        [device, T0, first, Math.floor(last!)],
      );
    }
  });
  afterAll(async () => {
    await reads?.onApplicationShutdown();
    await ds?.destroy();
    await stop?.();
  });

  it('the rollup trigger (uplink_rollup_members) reads every data type stored in a column from that column, none from the decoded payload', async () => {
    // A new column alias (COLUMN_DATA_TYPES) needs a migration replacing uplink_rollup_members: this names the aliases it misses.
    const aliases = Object.keys(COLUMN_DATA_TYPES);
    const columns = [...new Set(aliases.map(seriesMemberKey))];
    const row = { ...Object.fromEntries(columns.map((c, i) => [c, i + 1])), decoded: Object.fromEntries(aliases.map((a) => [a, 999])) };
    const members: { key: string; v: number }[] = await ds.query(
      'SELECT k.key, k.v FROM jsonb_populate_record(NULL::uplinks, $1::jsonb) u CROSS JOIN LATERAL uplink_rollup_members(u) k',
      [JSON.stringify(row)],
    );
    const read = new Map(members.map((m) => [m.key, m.v]));
    const wrong = aliases.filter((a) => read.get(seriesMemberKey(a)) !== columns.indexOf(seriesMemberKey(a)) + 1 || read.has(`decoded.${a}`));
    expect(wrong).toEqual([]);
  });

  it('answers 1 h, 6 h, 1 d and finer buckets as the uplinks do, however the range cuts hours and days', async () => {
    await expectSameAsUplinks(ask());
    await expectSameAsUplinks(ask({ intervalSeconds: 6 * HOUR, aggregates: ['avg', 'count'] }));
    await expectSameAsUplinks(ask({ intervalSeconds: DAY, to: NOW + 10 * HOUR }));
    await expectSameAsUplinks(ask({ intervalSeconds: DAY, from: T0 - 5 * DAY, to: T0 + 10 * DAY }));
    await expectSameAsUplinks(ask({ from: T0 + 2 * HOUR, to: T0 + 5 * HOUR - 1 }));
    await expectSameAsUplinks(ask({ intervalSeconds: 300, from: T0 + 40 * HOUR + 17, to: T0 + 43 * HOUR }));
    await expectSameAsUplinks(ask({ intervalSeconds: 900, members: ['pressure', 'battery'] }));
    // Hours without humidity answer count 0, no value, in a bucket that holds uplinks.
    const gap = await repo.buckets(ask({ members: ['humidity'], from: T0 + 5 * HOUR, to: T0 + 7 * HOUR - 1 }));
    expect(gap).toEqual({
      rows: [
        { t: String(T0 + 5 * HOUR), m0_min: null, m0_avg: null, m0_max: null, m0_count: 0 },
        { t: String(T0 + 6 * HOUR), m0_min: null, m0_avg: null, m0_max: null, m0_count: 0 },
      ],
      rollupBackfillUntil: null,
    });
  });

  it('keeps an hourly and a daily row per bucket as uplinks are written, and reads whole hours and days from them', async () => {
    const hour = await rollup('hourly', T0 + HOUR);
    expect(hour).toMatchObject({ n: 8, m: { temperature: [8, expect.any(Number), expect.any(Number), expect.any(Number)] } });
    // Only numbers of the decoded payload named by a data type count, and not text.
    expect(Object.keys(hour!.m).sort()).toEqual(['decoded.pressure', 'humidity', 'temperature']);
    const day = await rollup('daily', T0);
    expect(day!.n).toBe(Math.floor(DAY / 433) + 1);
    // A rollup row changed behind the uplinks' back shows: whole hours and days are read from them.
    await ds.query(`UPDATE uplink_rollups_hourly SET m = jsonb_set(m, '{temperature,3}', '99') WHERE device_id = $1 AND bucket = to_timestamp($2)`, [
      device,
      T0 + 12 * HOUR,
    ]);
    await ds.query(`UPDATE uplink_rollups_daily SET m = jsonb_set(m, '{temperature,3}', '98') WHERE device_id = $1 AND bucket = to_timestamp($2)`, [
      device,
      T0 + DAY,
    ]);
    const hours = await repo.buckets(ask({ members: ['temperature'], from: T0 + 10 * HOUR, to: T0 + 20 * HOUR - 1 }));
    expect(hours.rows[2]).toMatchObject({ t: String(T0 + 12 * HOUR), m0_max: 99 });
    const days = await repo.buckets(ask({ members: ['temperature'], intervalSeconds: DAY, from: T0, to: T0 + 3 * DAY - 1 }));
    expect(days.rows[1]).toMatchObject({ t: String(T0 + DAY), m0_max: 98 });
    // Rebuilt from the uplinks, they agree again.
    await ds.query('SELECT uplink_rollups_rebuild($1, to_timestamp($2), to_timestamp($3))', [device, T0, T0 + 3 * DAY]);
    await expectSameAsUplinks(ask({ intervalSeconds: DAY, from: T0, to: T0 + 3 * DAY - 1 }));
    await expectSameAsUplinks(ask());
  });

  it('a late uplink joins its hour and day; a re-decode builds the days it touched again', async () => {
    const hour = T0 + 30 * HOUR;
    await ds.query(`INSERT INTO uplinks (device_id, received_at, port, payload, temperature) VALUES ($1, to_timestamp($2), 1, '\\x01', 80)`, [
      device,
      hour + 59,
    ]);
    await expectSameAsUplinks(ask());
    expect((await repo.buckets(ask())).rows.find((b) => Number(b.t) === hour)).toMatchObject({ m0_max: 80 });

    const rows: { uid: string; at: string }[] = await ds.query(
      `SELECT uid::text AS uid, received_at::text AS at FROM uplinks WHERE device_id = $1 AND received_at >= to_timestamp($2) AND received_at < to_timestamp($2 + 3600)`,
      [device, hour],
    );
    const none = { humidity: null, battery_voltage: null, battery_percent: null, lat: null, lon: null, alt: null, firmware_version: null };
    await new UplinksRepository(ds).applyDecoded(
      device,
      rows.map((r) => ({ uid: r.uid, at: r.at, decoded: { pressure: 7 }, valid: true, errors: null, warnings: null, temperature: -3, ...none })),
    );
    await expectSameAsUplinks(ask());
    await expectSameAsUplinks(ask({ intervalSeconds: DAY, from: T0, to: T0 + 3 * DAY - 1 }));
    expect((await repo.buckets(ask())).rows.find((b) => Number(b.t) === hour)).toMatchObject({ m0_min: -3, m0_max: -3, m2_avg: 7 });
  });

  it('answers from the rollups after the uplinks are gone (retention), and reads uplinks where a rollup stops', async () => {
    const [{ uid: other }] = await ds.query(
      `INSERT INTO devices (eui, owner_id, label) SELECT '00000000000000C3', owner_id, 'kept' FROM devices WHERE uid = $1 RETURNING uid`,
      [device],
    );
    await ds.query(
      `INSERT INTO uplinks (device_id, received_at, port, payload, temperature)
       SELECT $1, to_timestamp($2::bigint + g * 600), 1, '\\x01', g FROM generate_series(0, 431) g`,
      [other, T0],
    );
    const whole = { ...ask(), deviceUid: other, members: ['temperature'], intervalSeconds: DAY, from: T0, to: T0 + 3 * DAY - 1 };
    const before = await repo.buckets(whole);
    expect(before.rows.map((r) => r.m0_count)).toEqual([144, 144, 144]);
    await ds.query('DELETE FROM uplinks WHERE device_id = $1', [other]);
    expect((await repo.buckets(whole)).rows).toEqual(before.rows);
    // The hourly rollup past its retention is not read: those hours come from the uplinks (none left).
    const short = new SeriesRepository(reads, new RollupBackfillRepository(ds), { ...SETTINGS, hourlyRollupRetentionDays: 1, dailyRollupRetentionDays: 1 });
    const now = T0 + 3 * DAY + HOUR;
    const hourly = await short.buckets({ ...whole, intervalSeconds: HOUR, now });
    expect(hourly.rows.map((r) => Number(r.t))).toEqual(Array.from({ length: 24 }, (_, i) => T0 + 2 * DAY + i * HOUR));
  });

  it('while a device is being rolled up after an upgrade, reads its uplinks before `until` and says so; the backfill completes it', async () => {
    const [{ uid: old }] = await ds.query(
      `INSERT INTO devices (eui, owner_id, label) SELECT '00000000000000C4', owner_id, 'old' FROM devices WHERE uid = $1 RETURNING uid`,
      [device],
    );
    await ds.query(
      `INSERT INTO uplinks (device_id, received_at, port, payload, temperature)
       SELECT $1, to_timestamp($2::bigint + g * 3600), 1, '\\x01', g % 24 FROM generate_series(0, 30 * 24 - 1) g`,
      [old, T0],
    );
    // As the migration leaves an existing device: rollups missing, listed with `until`.
    await ds.query('DELETE FROM uplink_rollups_hourly WHERE device_id = $1', [old]);
    await ds.query('DELETE FROM uplink_rollups_daily WHERE device_id = $1', [old]);
    const until = T0 + 30 * DAY;
    await ds.query('INSERT INTO rollup_backfill (device_id, until) VALUES ($1, to_timestamp($2))', [old, until]);
    const backfill = new RollupBackfillRepository(ds);
    const pending = new SeriesRepository(reads, backfill, SETTINGS);
    const r = { ...ask(), deviceUid: old, members: ['temperature'], intervalSeconds: DAY, from: T0, to: T0 + 30 * DAY - 1, now: T0 + 40 * DAY };
    const during = await pending.buckets(r);
    expect(during.rollupBackfillUntil).toBe(until);
    expect(during.rows).toEqual(await reference(ds, r));
    expect(await backfill.run(60_000)).toBeGreaterThanOrEqual(5);
    expect(await backfill.pending()).toBe(0);
    const after = await pending.buckets(r);
    expect(after).toEqual({ rows: during.rows, rollupBackfillUntil: null });
    expect((await ds.query('SELECT count(*)::int AS n FROM uplink_rollups_daily WHERE device_id = $1', [old]))[0].n).toBe(30);
  });

  (process.env.TEST_DATABASE_URL ? it : it.skip)('a rebuild and a delivery for one device take turns (PostgreSQL: concurrent sessions)', async () => {
    const hour = T0 + 50 * HOUR;
    const writer = ds.createQueryRunner();
    await writer.connect();
    await writer.startTransaction();
    // As ingestion does: the device's row first, then its uplinks.
    await writer.query('SELECT 1 FROM devices WHERE uid = $1 FOR UPDATE', [device]);
    await writer.query(`INSERT INTO uplinks (device_id, received_at, port, payload, temperature) VALUES ($1, to_timestamp($2), 1, '\\x01', 90)`, [
      device,
      hour + 5,
    ]);
    const rebuilding = ds.query('SELECT uplink_rollups_rebuild($1, to_timestamp($2), to_timestamp($3))', [device, T0 + 2 * DAY, T0 + 3 * DAY]);
    // The rebuild waits for the device's lock; whatever it computes includes the writer's row.
    await writer.commitTransaction();
    await writer.release();
    await rebuilding;
    expect((await repo.buckets(ask())).rows.find((b) => Number(b.t) === hour)).toMatchObject({ m0_max: 90 });
    await expectSameAsUplinks(ask());
    await expectSameAsUplinks(ask({ intervalSeconds: DAY, from: T0, to: T0 + 3 * DAY - 1 }));
  });
});
