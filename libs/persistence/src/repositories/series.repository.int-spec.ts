import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { suiteDatabase } from '../testing/suite-database';
import { UplinksRepository } from '../uplinks/uplinks.repository';
import { type SeriesRequest, SeriesRepository, type SeriesRow } from './series.repository';

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

describe('SeriesRepository (hourly rollup filled on read)', () => {
  let ds: DataSource;
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
  const expectSameAsUplinks = async (r: SeriesRequest) => {
    const answer = await repo.buckets(r);
    expect(answer.length).toBeGreaterThan(0);
    expect(answer).toEqual(await reference(ds, r));
  };
  const rollupRows = async (hour?: number): Promise<number> => {
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM uplink_rollups WHERE device_id = $1 AND ($2::bigint IS NULL OR hour = to_timestamp($2))`, [
      device,
      hour ?? null,
    ]);
    return n;
  };

  beforeAll(async () => {
    const db = await suiteDatabase('series');
    stop = db.stop;
    const url = db.url;
    await runMigrations({ url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url, poolSize: 3 })).initialize();
    repo = new SeriesRepository(ds);
    const [account] = await ds.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices)
       VALUES ('series', 'series', 'series@example.org', 'series@example.org', 'x', '2999-01-01', 10) RETURNING id`,
    );
    [{ uid: device }] = await ds.query(`INSERT INTO devices (eui, owner_id, label) VALUES ('00000000000000C1', $1, 'series') RETURNING uid`, [account.id]);
    // Every 7 min 13 s for three days, not aligned to hours; no humidity in hours 5 and 6, and a
    // pressure that is sometimes text (not a number, so not a value); values with many digits.
    await ds.query(
      `INSERT INTO uplinks (device_id, received_at, port, payload, temperature, humidity, decoded)
       SELECT $1, to_timestamp($2::bigint + g * 433 + 0.25), 1, '\\x01', 15 + 5 * sin(g / 7.0),
              CASE WHEN (g * 433 / 3600) IN (5, 6) THEN NULL ELSE 60 + g % 17 / 3.0 END,
              CASE WHEN g % 5 = 0 THEN jsonb_build_object('pressure', 'n/a') ELSE jsonb_build_object('pressure', 1000 + g / 9.0) END
       FROM generate_series(0, 3 * 24 * 3600 / 433) g`,
      [device, T0],
    );
  });
  afterAll(async () => {
    await ds?.destroy();
    await stop?.();
  });

  it('answers 1 h, 6 h and 1 d buckets as the uplinks do, the hours cut by from and to and the running hour from the uplinks', async () => {
    await expectSameAsUplinks(ask());
    // Hours inside the range are materialized, the cut and running ones are not.
    expect(await rollupRows(T0 + HOUR)).toBe(4);
    expect(await rollupRows(T0)).toBe(0);
    expect(await rollupRows(T0 + 70 * HOUR)).toBe(0);
    await expectSameAsUplinks(ask({ intervalSeconds: 6 * HOUR, aggregates: ['avg', 'count'] }));
    await expectSameAsUplinks(ask({ intervalSeconds: 86_400, to: NOW + 10 * HOUR }));
    await expectSameAsUplinks(ask({ from: T0 + 2 * HOUR, to: T0 + 5 * HOUR - 1 }));
    // Hours without humidity answer count 0, no value, in a bucket that holds uplinks.
    const gap = await repo.buckets(ask({ members: ['humidity'], from: T0 + 5 * HOUR, to: T0 + 7 * HOUR - 1 }));
    expect(gap).toEqual([
      { t: String(T0 + 5 * HOUR), m0_min: null, m0_avg: null, m0_max: null, m0_count: 0 },
      { t: String(T0 + 6 * HOUR), m0_min: null, m0_avg: null, m0_max: null, m0_count: 0 },
    ]);
  });

  it('materializes each hour once, per member, and reads it back from the rollup', async () => {
    const r = ask({ members: ['temperature'], from: T0 + 10 * HOUR, to: T0 + 20 * HOUR - 1 });
    const region = (await repo.rollupRegion(r))!;
    expect(region).toEqual({ from: T0 + 10 * HOUR, to: T0 + 20 * HOUR });
    await repo.buckets(r);
    expect(await repo.materialize(device, ['temperature'], region.from, region.to)).toBe(0);
    // A member not asked for before is added to the hours that exist for others.
    expect(await repo.materialize(device, ['temperature', 'battery'], region.from, region.to)).toBe(10);
    expect(await rollupRows(T0 + 10 * HOUR)).toBe(5);
    // The read takes a materialized hour from the rollup: a row changed behind its back shows.
    await ds.query(`UPDATE uplink_rollups SET hi = 99 WHERE device_id = $1 AND hour = to_timestamp($2) AND member = 'temperature'`, [device, T0 + 12 * HOUR]);
    const tampered = await repo.buckets(r);
    expect(tampered[2]).toMatchObject({ t: String(T0 + 12 * HOUR), m0_max: 99 });
    await ds.query(`DELETE FROM uplink_rollups WHERE device_id = $1 AND hour = to_timestamp($2)`, [device, T0 + 12 * HOUR]);
    await expectSameAsUplinks(r);
  });

  it('finer buckets and ranges without a whole, ended hour read only the uplinks', async () => {
    expect(await repo.rollupRegion(ask({ intervalSeconds: 300 }))).toBeNull();
    expect(await repo.rollupRegion(ask({ from: T0 + 30 * HOUR + 1, to: T0 + 31 * HOUR + 5 }))).toBeNull();
    expect(await repo.rollupRegion(ask({ from: NOW - 10, to: NOW + 5 * HOUR }))).toBeNull();
    // Beyond the device's uplinks nothing is materialized.
    expect(await repo.rollupRegion(ask({ from: T0 - 100 * HOUR, to: T0 + 3 * HOUR }))).toEqual({ from: T0, to: T0 + 3 * HOUR });
    await expectSameAsUplinks(ask({ intervalSeconds: 300, from: T0 + 40 * HOUR + 17, to: T0 + 43 * HOUR }));
    await expectSameAsUplinks(ask({ intervalSeconds: 900, members: ['pressure', 'battery'] }));
  });

  describe('changes to the uplinks drop the hours they touch', () => {
    const hour = T0 + 30 * HOUR;
    beforeEach(async () => {
      await repo.buckets(ask());
      expect(await rollupRows(hour)).toBe(4);
    });

    it('a late uplink in a materialized hour', async () => {
      await ds.query(`INSERT INTO uplinks (device_id, received_at, port, payload, temperature) VALUES ($1, to_timestamp($2), 1, '\\x01', 80)`, [
        device,
        hour + 59,
      ]);
      expect(await rollupRows(hour)).toBe(0);
      expect(await rollupRows(hour + HOUR)).toBe(4);
      await expectSameAsUplinks(ask());
      expect((await repo.buckets(ask())).find((b) => Number(b.t) === hour)).toMatchObject({ m0_max: 80 });
    });

    it('a re-decode of the device’s uplinks (the worker’s statement)', async () => {
      const rows: { uid: string }[] = await ds.query(
        `SELECT uid::text AS uid FROM uplinks WHERE device_id = $1 AND received_at >= to_timestamp($2) AND received_at < to_timestamp($2 + 3600)`,
        [device, hour],
      );
      const none = { humidity: null, battery_voltage: null, battery_percent: null, lat: null, lon: null, alt: null, firmware_version: null };
      await new UplinksRepository(ds).applyDecoded(
        rows.map((r) => ({ uid: r.uid, decoded: { pressure: 7 }, valid: true, errors: null, warnings: null, temperature: -3, ...none })),
      );
      expect(await rollupRows(hour)).toBe(0);
      await expectSameAsUplinks(ask());
      expect((await repo.buckets(ask())).find((b) => Number(b.t) === hour)).toMatchObject({ m0_min: -3, m0_max: -3, m2_avg: 7 });
    });

    it('deleting uplinks, and the device', async () => {
      await ds.query(`DELETE FROM uplinks WHERE device_id = $1 AND received_at < to_timestamp($2 + 1800) AND received_at >= to_timestamp($2)`, [device, hour]);
      expect(await rollupRows(hour)).toBe(0);
      await expectSameAsUplinks(ask());
      const [{ uid: other }] = await ds.query(
        `INSERT INTO devices (eui, owner_id, label) SELECT '00000000000000C2', owner_id, 'x' FROM devices WHERE uid = $1 RETURNING uid`,
        [device],
      );
      await ds.query(`INSERT INTO uplinks (device_id, received_at, port, payload, temperature) VALUES ($1, to_timestamp($2), 1, '\\x01', 1)`, [other, hour]);
      await repo.buckets({ ...ask(), deviceUid: other });
      await ds.query('DELETE FROM devices WHERE uid = $1', [other]);
      expect((await ds.query('SELECT count(*)::int AS n FROM uplink_rollups WHERE device_id = $1', [other]))[0].n).toBe(0);
    });
  });

  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    'an uplink written while its hour is materialized is in the rollup or drops it (PostgreSQL: concurrent sessions)',
    async () => {
      const hour = T0 + 50 * HOUR;
      await ds.query('DELETE FROM uplink_rollups WHERE device_id = $1', [device]);
      const writer = ds.createQueryRunner();
      await writer.connect();
      await writer.startTransaction();
      await writer.query(`INSERT INTO uplinks (device_id, received_at, port, payload, temperature) VALUES ($1, to_timestamp($2), 1, '\\x01', 90)`, [
        device,
        hour + 5,
      ]);
      // The writer holds the device's lock shared until it commits: the fill waits, then sees its row.
      const reading = repo.buckets(ask());
      await new Promise((resolve) => setTimeout(resolve, 300));
      await writer.commitTransaction();
      await writer.release();
      const answer = await reading;
      expect(answer.find((b) => Number(b.t) === hour)).toMatchObject({ m0_max: 90 });
      expect(await rollupRows(hour)).toBe(4);
      await expectSameAsUplinks(ask());
    },
  );
});
