import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source';
import { MIGRATIONS } from '../migrations';
import { TimePartitions1795830000000 } from '../migrations/1795830000000-time-partitions';
import { suiteDatabase } from '../testing/suite-database';
import { RollupBackfillRepository } from './rollup-backfill.repository';

/**
 * An existing database with data migrates to time partitions (migration 1795830000000): 1,000,000
 * uplinks on PostgreSQL (100,000 on the embedded database, whose inserts are slower), every row
 * kept and found, the rollups of the old uplinks built afterwards by the backfill. The time the
 * migration takes is printed: the README's upgrade note quotes it.
 */
const ROWS = process.env.TEST_DATABASE_URL ? 1_000_000 : 100_000;
const DEVICES = 100;
const T0 = Date.UTC(2026, 0, 1) / 1000;

describe(`migrating ${ROWS.toLocaleString('en')} uplinks to time partitions`, () => {
  let ds: DataSource;
  let stop: () => Promise<void>;
  const at = MIGRATIONS.indexOf(TimePartitions1795830000000);

  beforeAll(async () => {
    const db = await suiteDatabase('partmig', { empty: true });
    stop = db.stop;
    const options = dataSourceOptions({ url: db.url, poolSize: 2 });
    const before = await new DataSource({ ...options, migrations: MIGRATIONS.slice(0, at) }).initialize();
    await before.runMigrations({ transaction: 'each' });
    const [account] = await before.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices)
       VALUES ('mig', 'mig', 'mig@example.org', 'mig@example.org', 'x', '2999-01-01', 1000) RETURNING id`,
    );
    await before.query(`INSERT INTO devices (eui, owner_id, label) SELECT upper(lpad(to_hex(g), 16, '0')), $1, 'd' || g FROM generate_series(1, $2::int) g`, [
      account.id,
      DEVICES,
    ]);
    // Rows of every device, a minute apart, over the last weeks; every tenth with a gateway.
    const perStatement = 100_000;
    for (let first = 0; first < ROWS; first += perStatement) {
      await before.query(
        `WITH u AS (
           INSERT INTO uplinks (device_id, received_at, port, payload, temperature, decoded, message_id)
           SELECT d.uid, to_timestamp($2::bigint + (g / $4::int) * 60), 1, '\\x01', (g % 300) / 10.0, jsonb_build_object('co2', g % 1000), 'm' || g
           FROM generate_series($1::int, $1::int + $3::int - 1) g JOIN devices d ON d.label = 'd' || (1 + g % $4::int)
           RETURNING uid, device_id, received_at)
         INSERT INTO uplink_gateways (uplink_id, device_id, gateway_id, received_at) SELECT uid, device_id, 'gw', received_at FROM u WHERE uid % 10 = 0`,
        [first, T0, Math.min(perStatement, ROWS - first), DEVICES],
      );
    }
    await before.destroy();
    ds = await new DataSource({ ...options, migrations: MIGRATIONS }).initialize();
  }, 600_000);
  afterAll(async () => {
    await ds?.destroy();
    await stop?.();
  });

  it('keeps every row in the history partition, finds it by the new keys, and rolls the old uplinks up afterwards', async () => {
    const started = Date.now();
    await ds.runMigrations({ transaction: 'each' });
    const ms = Date.now() - started;
    process.stdout.write(
      `time partitions migration: ${ROWS} uplinks in ${(ms / 1000).toFixed(1)} s (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'})\n`,
    );

    const [{ n, partitions }] = await ds.query(
      `SELECT count(*)::int AS n, (SELECT count(*)::int FROM pg_inherits WHERE inhparent = 'uplinks'::regclass) AS partitions FROM uplinks`,
    );
    expect({ n, partitions }).toEqual({ n: ROWS, partitions: 1 });
    expect((await ds.query('SELECT count(*)::int AS n FROM uplink_gateways'))[0].n).toBe(ROWS / 10);
    const [{ device }] = await ds.query(`SELECT uid AS device FROM devices WHERE label = 'd1'`);
    // The newest hundred of a device, by the primary key; a message id, by its index.
    const newest = await ds.query('SELECT uid FROM uplinks WHERE device_id = $1 ORDER BY received_at DESC, uid DESC LIMIT 100', [device]);
    expect(newest).toHaveLength(100);
    expect(await ds.query(`SELECT count(*)::int AS n FROM uplinks WHERE device_id = $1 AND message_id = 'm100'`, [device])).toEqual([{ n: 1 }]);
    // Each device's newest uid is on its row (the live feed's bound), as ingestion keeps it from now on.
    expect(
      await ds.query(
        `SELECT count(*)::int AS n FROM devices d WHERE d.last_uplink_uid IS DISTINCT FROM (SELECT max(uid) FROM uplinks u WHERE u.device_id = d.uid)`,
      ),
    ).toEqual([{ n: 0 }]);
    // Every device with uplinks waits for its rollups; one device's are built and agree with its uplinks.
    expect((await ds.query('SELECT count(*)::int AS n FROM rollup_backfill'))[0].n).toBe(DEVICES);
    const backfill = new RollupBackfillRepository(ds);
    const [{ until }] = await ds.query('SELECT until FROM rollup_backfill WHERE device_id = $1', [device]);
    await ds.query('DELETE FROM rollup_backfill WHERE device_id <> $1', [device]);
    await backfill.run(120_000);
    expect(await backfill.pending()).toBe(0);
    const [daily] = await ds.query('SELECT sum(n)::int AS n, count(*)::int AS days FROM uplink_rollups_daily WHERE device_id = $1 AND bucket < $2', [
      device,
      until,
    ]);
    expect(daily.n).toBe(ROWS / DEVICES);
    const [check] = await ds.query(
      `SELECT (SELECT sum((m -> 'decoded.co2' ->> 1)::numeric) FROM uplink_rollups_hourly WHERE device_id = $1) AS rolled,
              (SELECT sum((decoded ->> 'co2')::numeric) FROM uplinks WHERE device_id = $1) AS raw`,
      [device],
    );
    expect(check.rolled).toBe(check.raw);
  });
});
