import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { suiteDatabase, suiteTimeseriesSettings } from '../testing/suite-database';
import { cutoffDay, partitionName } from './partition-bounds';
import { RetentionRepository } from './retention.repository';
import { TimePartitionsRepository } from './time-partitions.repository';
import type { TimeseriesSettings } from './timeseries-settings';

const DAY = 86_400_000;
const SETTINGS = suiteTimeseriesSettings();

/** Time partitions and retention on the database itself (both: embedded and PostgreSQL). */
describe('time partitions and retention', () => {
  let ds: DataSource;
  let stop: () => Promise<void>;
  let partitions: TimePartitionsRepository;
  let account: number;
  let seq = 0;

  const newDevice = async (retentionDays: number | null = null, owner = account): Promise<number> => {
    const eui = (0xd0000000 + seq++).toString(16).toUpperCase().padStart(16, '0');
    const [{ uid }] = await ds.query(`INSERT INTO devices (eui, owner_id, label, uplink_retention_days) VALUES ($1, $2, 'r', $3) RETURNING uid`, [
      eui,
      owner,
      retentionDays,
    ]);
    return uid;
  };
  /** One uplink a day at noon for `days` days up to `last` (a UTC midnight), with a gateway each. */
  const daily = async (device: number, last: Date, days: number) => {
    await ds.query(
      `WITH u AS (
         INSERT INTO uplinks (device_id, received_at, port, payload, temperature)
         SELECT $1, $2::timestamptz - g * interval '1 day' + interval '12 hours', 1, '\\x01', g FROM generate_series(0, $3 - 1) g
         RETURNING uid, device_id, received_at)
       INSERT INTO uplink_gateways (uplink_id, device_id, gateway_id, received_at) SELECT uid, device_id, 'gw', received_at FROM u`,
      [device, last.toISOString(), days],
    );
    await ds.query(
      `UPDATE devices SET ts_data_first = (SELECT min(received_at) FROM uplinks WHERE device_id = $1),
                          ts_data_last = (SELECT max(received_at) FROM uplinks WHERE device_id = $1) WHERE uid = $1`,
      [device],
    );
  };
  const count = async (table: string, device: number): Promise<number> =>
    (await ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE device_id = $1`, [device]))[0].n;
  const oldest = async (device: number): Promise<Date | null> =>
    (await ds.query('SELECT min(received_at) AS t FROM uplinks WHERE device_id = $1', [device]))[0].t;

  beforeAll(async () => {
    const db = await suiteDatabase('timeseries');
    stop = db.stop;
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 4 })).initialize();
    partitions = new TimePartitionsRepository(ds, SETTINGS);
    [{ id: account }] = await ds.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices)
       VALUES ('ts', 'ts', 'ts@example.org', 'ts@example.org', 'x', '2999-01-01', 100) RETURNING id`,
    );
  });
  afterAll(async () => {
    await ds?.destroy();
    await stop?.();
  });

  it('the migration leaves one history partition per table; partitions are added ahead, each once, whoever asks at once', async () => {
    for (const table of ['uplinks', 'uplink_gateways', 'uplink_rollups_hourly'] as const) {
      const [history] = await partitions.list(table);
      expect(history).toMatchObject({ name: `${table}_history`, from: null });
    }
    const history = (await partitions.list('uplinks'))[0]!;
    // Three months past the history partition, asked for by two callers together.
    const until = new Date(Date.UTC(history.to.getUTCFullYear(), history.to.getUTCMonth() + 2, 15));
    const [a, b] = await Promise.all([partitions.ensure(until), partitions.ensure(until)]);
    const made = [...a, ...b].filter((n) => n.startsWith('uplinks_p'));
    expect(made).toHaveLength(3);
    expect(new Set(made).size).toBe(3);
    const list = await partitions.list('uplinks');
    expect(list.map((p) => p.name)).toEqual([
      'uplinks_history',
      ...[0, 1, 2].map((i) => partitionName('uplinks', new Date(Date.UTC(history.to.getUTCFullYear(), history.to.getUTCMonth() + i, 1)))),
    ]);
    // Contiguous: each begins where the one before ends.
    list.slice(1).forEach((p, i) => expect(p.from).toEqual(list[i]!.to));
    expect(await partitions.ensure(until)).toEqual([]);
    // A changed interval applies from the last partition on.
    const weeks = await partitions.ensure(new Date(list.at(-1)!.to.getTime() + 10 * DAY), 'week');
    expect(weeks.filter((n) => n.startsWith('uplinks_p')).length).toBeGreaterThanOrEqual(2);
    // A row of each partition's range lands in it.
    const device = await newDevice();
    const at = new Date(list[2]!.from!.getTime() + DAY);
    await ds.query(`INSERT INTO uplinks (device_id, received_at, port, payload) VALUES ($1, $2, 1, '\\x01')`, [device, at.toISOString()]);
    const [{ part }] = await ds.query(`SELECT tableoid::regclass::text AS part FROM uplinks WHERE device_id = $1`, [device]);
    expect(part).toBe(list[2]!.name);
  });

  it('refuses a row past the last partition (what ingestion turns into a new partition) with the error it recognises', async () => {
    const device = await newDevice();
    const last = (await partitions.list('uplinks')).at(-1)!;
    const beyond = new Date(last.to.getTime() + 40 * DAY);
    const error = await ds
      .query(`INSERT INTO uplinks (device_id, received_at, port, payload) VALUES ($1, $2, 1, '\\x01')`, [device, beyond.toISOString()])
      .catch((e: unknown) => e);
    const { isMissingPartition } = await import('./time-partitions.repository');
    expect(isMissingPartition(error)).toBe(true);
    await partitions.ensure(beyond);
    await ds.query(`INSERT INTO uplinks (device_id, received_at, port, payload) VALUES ($1, $2, 1, '\\x01')`, [device, beyond.toISOString()]);
    expect(await count('uplinks', device)).toBe(1);
  });

  describe('retention', () => {
    const now = () => new Date();
    const retention = (settings: Partial<TimeseriesSettings> = {}) => {
      const s = { ...SETTINGS, ...settings };
      return new RetentionRepository(ds, new TimePartitionsRepository(ds, s), s);
    };

    it('the longest policy in force: null while any account keeps its uplinks', async () => {
      expect(await retention().policy()).toEqual({ platformDays: null, longestDays: null });
      expect(await retention({ uplinkRetentionDays: 30 }).policy()).toEqual({ platformDays: 30, longestDays: 30 });
      await ds.query('UPDATE accounts SET uplink_retention_days = 90 WHERE id = $1', [account]);
      expect(await retention({ uplinkRetentionDays: 30 }).policy()).toEqual({ platformDays: 30, longestDays: 90 });
      expect(await retention().policy()).toEqual({ platformDays: null, longestDays: 90 });
      await ds.query('UPDATE accounts SET uplink_retention_days = NULL WHERE id = $1', [account]);
    });

    it('a device with a shorter retention loses its old uplinks in batches, to a UTC midnight; its data now begins there; others keep theirs', async () => {
      const today = cutoffDay(now(), 0);
      const short = await newDevice(10);
      const kept = await newDevice();
      await daily(short, today, 40);
      await daily(kept, today, 40);
      const [{ version: before }] = await ds.query(
        `INSERT INTO data_cache (device_id) VALUES ($1) ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version RETURNING version`,
        [short],
      );
      const repo = retention();
      const removed = await repo.deleteExpiredRaw(now(), await repo.policy(), 60_000);
      // Noon of the tenth day back is after the cutoff (that day's midnight): 11 stay, 29 go.
      expect(removed).toBe(29);
      const cutoff = cutoffDay(now(), 10);
      expect(await oldest(short)).toEqual(new Date(cutoff.getTime() + 12 * 3_600_000));
      expect(await count('uplinks', short)).toBe(11);
      expect(await count('uplink_gateways', short)).toBe(11);
      expect(await count('uplinks', kept)).toBe(40);
      const [row] = await ds.query('SELECT ts_data_first FROM devices WHERE uid = $1', [short]);
      expect(row.ts_data_first).toEqual(cutoff);
      const [{ version: after }] = await ds.query('SELECT version FROM data_cache WHERE device_id = $1', [short]);
      expect(after).toBeGreaterThan(before);
      // The rollups outlive the uplinks: 40 days still answer.
      expect(await count('uplink_rollups_daily', short)).toBe(40);
      // Nothing left to do: a second run removes nothing.
      expect(await repo.deleteExpiredRaw(now(), await repo.policy(), 60_000)).toBe(0);
    });

    it('an account’s value applies to its devices, a device’s own only when shorter', async () => {
      const [{ id: other }] = await ds.query(
        `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices, uplink_retention_days)
         VALUES ('ts2', 'ts2', 'ts2@example.org', 'ts2@example.org', 'x', '2999-01-01', 100, 20) RETURNING id`,
      );
      const plain = await newDevice(null, other);
      const longer = await newDevice(50, other);
      const shorter = await newDevice(5, other);
      for (const d of [plain, longer, shorter]) await daily(d, cutoffDay(now(), 0), 30);
      const repo = retention({ uplinkRetentionDays: 60 });
      await repo.deleteExpiredRaw(now(), await repo.policy(), 60_000);
      expect([await count('uplinks', plain), await count('uplinks', longer), await count('uplinks', shorter)]).toEqual([21, 21, 6]);
    });

    it('whole partitions go when every policy has passed them, the gateways’ with them; the data starts move; rollups stay', async () => {
      const repo = retention({ uplinkRetentionDays: 1 });
      // Every account is at the platform's 1 day now: the history partition ends in the future, so it stays.
      await ds.query('UPDATE accounts SET uplink_retention_days = NULL');
      expect(await repo.dropExpiredRaw(now(), await repo.policy())).toEqual([]);
      // Seen from far in the future, the history partition and those after it up to the cutoff are past.
      const list = await partitions.list('uplinks');
      const future = new Date(list.at(-2)!.to.getTime() + 2 * DAY);
      const device = await newDevice();
      await daily(device, cutoffDay(now(), 0), 3);
      const dropped = await repo.dropExpiredRaw(future, await repo.policy());
      expect(dropped.map((p) => p.name)).toEqual(list.slice(0, -1).map((p) => p.name));
      expect((await partitions.list('uplinks')).map((p) => p.name)).toEqual([list.at(-1)!.name]);
      expect((await partitions.list('uplink_gateways')).length).toBe(1);
      expect(await count('uplinks', device)).toBe(0);
      expect(await count('uplink_gateways', device)).toBe(0);
      expect(await count('uplink_rollups_daily', device)).toBe(3);
      const [row] = await ds.query('SELECT ts_data_first FROM devices WHERE uid = $1', [device]);
      expect(row.ts_data_first).toBeNull();
      // Inserting still works: the newest partition is never dropped.
      await ds.query(`INSERT INTO uplinks (device_id, received_at, port, payload) VALUES ($1, $2, 1, '\\x01')`, [device, list.at(-1)!.from!.toISOString()]);
    });

    it('rollups past their own retention: hourly partitions dropped, daily rows deleted; images retired', async () => {
      const device = await newDevice();
      await ds.query(`INSERT INTO uplink_rollups_daily (device_id, bucket, n, m) VALUES ($1, '2001-01-01', 1, '{}'), ($1, $2, 1, '{}')`, [
        device,
        cutoffDay(now(), 0).toISOString(),
      ]);
      const repo = retention({ uplinkRetentionDays: 1, hourlyRollupRetentionDays: 1, dailyRollupRetentionDays: 365 });
      const far = new Date((await partitions.list('uplink_rollups_hourly'))[0]!.to.getTime() + 5 * DAY);
      const { hourlyPartitions } = await repo.expireRollups(far, 10_000);
      expect(hourlyPartitions).toBeGreaterThanOrEqual(1);
      expect(await count('uplink_rollups_daily', device)).toBe(1);
      const [{ uid: image }] = await ds.query(
        `INSERT INTO images (device_id, hash, bin_hash, content_type, size, ts_photo, ts_tx, filename, completed)
         VALUES ($1, repeat('a', 32), repeat('b', 64), 'image/jpeg', 1, '2001-01-01', '2001-01-01', 'x.jpg', true) RETURNING uid`,
        [device],
      );
      expect(await repo.retireExpiredImages(now(), 30, 100)).toEqual([image]);
      expect(await repo.retireExpiredImages(now(), 30, 100)).toEqual([]);
    });
  });
});
