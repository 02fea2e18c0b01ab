import { applyUplinks, type DeviceValues, type MetadataUplink, type Measurements, NO_MEASUREMENTS, uplinkOffer } from '@dts/domain';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../data-source';
import { suiteTimeseriesSettings } from '../testing/suite-database';
import { TimePartitionsRepository } from '../timeseries/time-partitions.repository';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded/embedded-postgres';
import type { LiveBus } from '../live/live-bus';
import { Statements } from '../sql/statements';
import { IngestRepository, type UplinkToStore } from './ingest.repository';
import { IngestTargetsCache } from './ingest-targets.cache';

/**
 * The ingestion statement carries out the device-metadata rules of libs/domain (applyUplinks): the
 * same batches, in random order of time and with values missing at random, move a device's row in
 * the database and the rules' reference value alike.
 */
describe('device metadata: the statement and the rules agree', () => {
  let db: EmbeddedPostgres;
  let ds: DataSource;
  let repo: IngestRepository;
  let deviceUid: number;
  /** An uplink of the test's device with nothing but what a test gives it. */
  const toStore = (given: Pick<UplinkToStore, 'receivedAt' | 'messageId' | 'measurements'> & Partial<UplinkToStore>): UplinkToStore => ({
    deviceUid,
    networkRef: null,
    port: 1,
    fcnt: null,
    payload: Uint8Array.of(1),
    sf: null,
    rssi: null,
    snr: null,
    geoloc: null,
    decoded: {},
    valid: true,
    errors: null,
    warnings: null,
    tsDevice: null,
    tsGps: null,
    apiRef: null,
    simulated: false,
    gateways: [],
    ...given,
  });

  beforeAll(async () => {
    db = await startEmbeddedPostgres({ dataDir: null, maxConnections: 4 });
    await runMigrations({ url: db.url, poolSize: 1 });
    ds = await new DataSource(dataSourceOptions({ url: db.url, poolSize: 2 })).initialize();
    repo = new IngestRepository(
      ds,
      { publish: async () => undefined } as unknown as LiveBus,
      new Statements(ds, false),
      new IngestTargetsCache(db.url),
      new TimePartitionsRepository(ds, suiteTimeseriesSettings()),
    );
    const [account] = await ds.query(
      `INSERT INTO accounts (username, username_key, email, email_key, password_hash, expires_on, max_devices)
       VALUES ('rules', 'rules', 'rules@example.org', 'rules@example.org', 'x', '2999-01-01', 10) RETURNING id`,
    );
    [{ uid: deviceUid }] = await ds.query(`INSERT INTO devices (eui, owner_id, label) VALUES ('00000000000000C1', $1, 'rules') RETURNING uid`, [account.id]);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.stop();
  });

  async function deviceValues(): Promise<DeviceValues> {
    const [r] = await ds.query('SELECT * FROM devices WHERE uid = $1', [deviceUid]);
    return {
      activityFirst: r.ts_activity_first,
      activityLast: r.ts_activity_last,
      dataFirst: r.ts_data_first,
      dataLast: r.ts_data_last,
      batteryVoltage: r.battery_voltage,
      batteryPercent: r.battery_percent,
      batteryAt: r.battery_at,
      temperatureDc: r.temperature_dc,
      temperatureAt: r.temperature_at,
      lat: r.lat,
      lon: r.lon,
      alt: r.alt,
      positionAt: r.position_at,
      firmwareVersion: r.firmware_version,
      firmwareAt: r.firmware_at,
      signalDbm: r.signal_dbm,
      signalPercent: r.signal_percent,
      signalAt: r.signal_at,
    };
  }

  it('after every batch', async () => {
    // A fixed sequence (a linear congruential generator): the same batches on every run.
    let seed = 18;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const rng = { next, between: (min: number, max: number) => min + (max - min) * next() };
    const maybe = <T>(value: T): T | null => (rng.next() < 0.5 ? value : null);
    let expected = await deviceValues();
    let message = 0;
    for (let batch = 0; batch < 25; batch++) {
      const uplinks: UplinkToStore[] = Array.from({ length: 1 + Math.floor(rng.next() * 4) }, () => {
        const lat = maybe(Math.round(rng.between(-80, 80)));
        const measurements: Measurements = {
          ...NO_MEASUREMENTS,
          temperature: maybe(Math.round(rng.between(-100, 300)) / 10),
          battery_voltage: maybe(Math.round(rng.between(30, 42)) / 10),
          battery_percent: maybe(Math.round(rng.between(0, 100))),
          lat,
          lon: lat === null ? null : maybe(Math.round(rng.between(-170, 170))),
          alt: maybe(Math.round(rng.between(0, 100))),
          firmware_version: maybe(`1.${Math.floor(rng.next() * 9)}`),
        };
        // Few distinct seconds, so that ties and late uplinks are common.
        const receivedAt = new Date(Date.UTC(2026, 4, 1, 12, 0, Math.floor(rng.next() * 12)));
        return toStore({ receivedAt, messageId: `m${message++}`, rssi: maybe(Math.round(rng.between(-120, -30))), valid: rng.next() < 0.8, measurements });
      });
      await repo.store(uplinks);
      const offered: MetadataUplink[] = uplinks.map((u) => ({ receivedAt: u.receivedAt, rssi: u.rssi, measurements: u.measurements, ...uplinkOffer(u) }));
      expected = applyUplinks(expected, offered);
      expect(await deviceValues()).toEqual(expected);
    }
  });

  it('stores an uplink dated past every partition: the partition is made and the batch written', async () => {
    const partitions = new TimePartitionsRepository(ds, suiteTimeseriesSettings());
    const last = (await partitions.list('uplinks')).at(-1)!;
    const receivedAt = new Date(last.to.getTime() + 40 * 86_400_000);
    const uplink = toStore({ receivedAt, messageId: 'beyond', measurements: { ...NO_MEASUREMENTS, temperature: 21 } });
    expect(await repo.store([uplink])).toEqual(['stored']);
    const [{ part }] = await ds.query(`SELECT tableoid::regclass::text AS part FROM uplinks WHERE device_id = $1 AND message_id = 'beyond'`, [deviceUid]);
    expect((await partitions.list('uplinks')).find((p) => p.name === part)).toMatchObject({ to: expect.any(Date) });
    expect(part).not.toBe(last.name);
    // Stored once: the same again is a redelivery.
    expect(await repo.store([uplink])).toEqual(['redelivery']);
  });

  it('writes nothing for a device deleted after the look-up that let its uplink in: the uplink is gone', async () => {
    // Another instance deleted it a moment ago; this process's look-up cache has not heard yet.
    await ds.query('UPDATE devices SET deleted_at = now() WHERE uid = $1', [deviceUid]);
    try {
      const before = await deviceValues();
      const late = toStore({ receivedAt: new Date(Date.UTC(2026, 4, 2)), messageId: 'after-deletion', measurements: { ...NO_MEASUREMENTS, temperature: 30 } });
      expect(await repo.store([late])).toEqual(['gone']);
      expect(await ds.query(`SELECT uid FROM uplinks WHERE device_id = $1 AND message_id = 'after-deletion'`, [deviceUid])).toEqual([]);
      expect(await deviceValues()).toEqual(before);
    } finally {
      await ds.query('UPDATE devices SET deleted_at = NULL WHERE uid = $1', [deviceUid]);
    }
  });
});
