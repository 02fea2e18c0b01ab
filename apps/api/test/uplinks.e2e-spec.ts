import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { eventually } from '@dts/platform';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { lpp } from './support/payloads';

/*
 * GET /user/device/table/{eui}, GET /user/device/data/{eui} and GET /test/uplink/{eui}
 * (docs/api.md §5, §11, §15).
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read member by member
type Json = Record<string, any>;

const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const T0 = 1_777_000_000;

const RECORD_MEMBERS = [
  'uplink',
  'payload_decoded',
  'payload_port',
  'payload_length',
  'payload_hex',
  'payload_valid',
  'payload_errors',
  'payload_warnings',
  'ts_network_unix',
  'ts_net_unix',
  'ts_gps_unix',
  'ts_unix',
  'LAT',
  'LON',
  'ALT',
  'geoloc_LAT',
  'geoloc_LON',
  'geoloc_ALT',
  'temperature',
  'humidity',
  'battery_voltage',
  'battery_percent',
  'firmware_version',
].sort();
const UPLINK_MEMBERS = [
  'uid',
  'time_stamp_unix',
  'devEUI',
  'port',
  'SF',
  'RSSI',
  'SNR',
  'payload_raw',
  'network',
  'geoloc_lat',
  'geoloc_lon',
  'geoloc_alt',
  'api_ref',
  'user_ref',
  'device_ref',
].sort();
const DATA_MEMBERS = ['uid', 'ts_unix', 'time_stamp', 'humidity', 'temperature', 'battery'].sort();
const GEOLOC_MEMBERS = ['geoloc_LAT', 'geoloc_LON', 'geoloc_ALT'];

const isoOf = (unix: number) => new Date(unix * 1000).toISOString().replace('.000Z', '+00:00');

describe('uplink table, data rows and test decoding', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  let carol: Caller;
  let db: DataSource;
  let dataTypes: { uid: number; alias: string }[];

  const as = (who: Caller) => tokenClient(svc, who.appToken);
  const ingest = async (items: object | object[]) => {
    const res = await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items);
    const result = expectSuccess<{ accepted: number; rejected: unknown[] }>(res, 202);
    expect(result.rejected).toEqual([]);
    return result;
  };
  const register = async (who: Caller, decoderRef = 2, eui = newEui()) => {
    const device = expectSuccess<{ uid: number; devEUI: string }>(await as(who).post(`/user/device/${eui}`, { decoder_ref: decoderRef }), 201);
    return device;
  };
  const table = async (who: Caller, eui: string, query = '') => expectSuccess<Json[]>(await as(who).get(`/user/device/table/${eui}${query}`));
  const data = async (who: Caller, eui: string, query = '') => {
    const res = await as(who).get(`/user/device/data/${eui}${query}`);
    expectSuccess(res);
    return { rows: res.body.data as Json[], meta: res.body.meta };
  };

  /*
   * The main device: five uplinks a hundred seconds apart, delivered out of order.
   *   0: temperature 20, humidity 40, RSSI/SNR/SF given
   *   1: temperature 20.5 and a network position (geoloc_lat/lon/alt)
   *   2: temperature 21 and a battery voltage
   *   3: temperature 21.5
   *   4: temperature 22 and a decoded GPS position
   */
  let main: { uid: number; devEUI: string };
  const times = [0, 1, 2, 3, 4].map((i) => T0 + i * 100);
  const items = [
    { port: 1, payload_hex: lpp({ t: 20, h: 40 }), RSSI: -80, SNR: 5.5, SF: 7, fcnt: 10 },
    { port: 2, payload_hex: lpp({ t: 20.5 }), geoloc_lat: 52.1, geoloc_lon: 5.2, geoloc_alt: 7, fcnt: 11 },
    { port: 3, payload_hex: lpp({ t: 21, volt: 3.3 }), fcnt: 12 },
    { port: 4, payload_hex: lpp({ t: 21.5 }), fcnt: 13 },
    { port: 5, payload_hex: lpp({ t: 22, gps: [-33.8688, 151.2093, 58] }), fcnt: 14 },
  ];

  beforeAll(async () => {
    svc = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_PER_MINUTE: '100000' } });
    db = svc.app.get<DataSource>(getDataSourceToken());
    [alice, bob, carol] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob'), accountWithCredentials(svc, 'carol')]);
    dataTypes = expectSuccess(await as(alice).get('/datamodel/data/type/all'));
    main = await register(alice, 2);
    const order = [3, 0, 4, 2, 1];
    await ingest(order.map((i) => ({ devEUI: main.devEUI, time_stamp_unix: times[i], ...items[i] })));
  }, 60_000);
  afterAll(() => svc?.close());

  describe('GET /user/device/table/{eui}', () => {
    it('returns every member of the uplink record, null where absent, oldest first', async () => {
      const rows = await table(alice, main.devEUI);
      expect(rows).toHaveLength(5);
      for (const row of rows) {
        expect(Object.keys(row).sort()).toEqual(RECORD_MEMBERS);
        expect(Object.keys(row.uplink).sort()).toEqual(UPLINK_MEMBERS);
      }
      expect(rows.map((r) => r.uplink.time_stamp_unix)).toEqual(times);
      expect(rows.map((r) => r.temperature)).toEqual([20, 20.5, 21, 21.5, 22]);
      rows.forEach((row, i) => {
        const hex = items[i]!.payload_hex;
        expect(row).toMatchObject({
          uplink: {
            time_stamp_unix: times[i],
            devEUI: main.devEUI,
            port: items[i]!.port,
            payload_raw: Buffer.from(hex, 'hex').toString('base64'),
            network: 'Generic REST',
            user_ref: alice.account.id,
            device_ref: main.uid,
            api_ref: null,
          },
          payload_port: items[i]!.port,
          payload_hex: hex,
          payload_valid: true,
          ts_network_unix: times[i],
          ts_net_unix: times[i],
          ts_unix: times[i],
          ts_gps_unix: null,
          battery_percent: null,
          firmware_version: null,
        });
        expect(Number(row.payload_length)).toBe(hex.length / 2);
        expect(Number.isInteger(row.uplink.uid)).toBe(true);
      });
      expect(rows[0]).toMatchObject({
        uplink: { SF: 7, RSSI: -80, SNR: 5.5, geoloc_lat: null, geoloc_lon: null, geoloc_alt: null },
        humidity: 40,
        payload_decoded: { temperature: 20, humidity: 40 },
      });
      expect(rows[1]).toMatchObject({
        uplink: { SF: null, RSSI: null, SNR: null, geoloc_lat: 52.1, geoloc_lon: 5.2, geoloc_alt: 7 },
        geoloc_LAT: 52.1,
        geoloc_LON: 5.2,
        geoloc_ALT: 7,
        LAT: null,
        humidity: null,
      });
      expect(rows[2]).toMatchObject({ battery_voltage: 3.3, geoloc_LAT: null, geoloc_LON: null, geoloc_ALT: null, LAT: null, LON: null, ALT: null });
      expect(rows[4]).toMatchObject({
        LAT: -33.8688,
        LON: 151.2093,
        ALT: 58,
        payload_decoded: { lat: -33.8688, lon: 151.2093, alt: 58 },
        battery_voltage: null,
      });
      // Uids are the uplinks' own and increase with the order of arrival, not of time.
      expect(new Set(rows.map((r) => r.uplink.uid)).size).toBe(5);
    });

    it.each([
      [`?from=${T0 + 100}&to=${T0 + 300}`, [1, 2, 3]],
      [`?from=${T0 + 200}&to=${T0 + 200}`, [2]],
      [`?from=${T0 + 101}&to=${T0 + 299}`, [2]],
      [`?from=${T0 + 300}`, [3, 4]],
      [`?to=${T0 + 100}`, [0, 1]],
      ['?limit=2', [0, 1]],
      ['?order=desc', [4, 3, 2, 1, 0]],
      ['?order=asc', [0, 1, 2, 3, 4]],
      ['?order=desc&limit=2', [4, 3]],
      [`?from=${T0 + 100}&to=${T0 + 300}&order=desc&limit=2`, [3, 2]],
      [`?from=${T0 + 100}&limit=3`, [1, 2, 3]],
      [`?to=${T0 + 300}&order=desc`, [3, 2, 1, 0]],
      ['?limit=100000', [0, 1, 2, 3, 4]],
      [`?from=${T0 + 1000}`, []],
    ])('narrows with %s (table and data)', async (query, expected) => {
      const want = expected.map((i) => times[i]);
      expect((await table(alice, main.devEUI, query)).map((r) => r.uplink.time_stamp_unix)).toEqual(want);
      expect((await data(alice, main.devEUI, query)).rows.map((r) => r.ts_unix)).toEqual(want);
      expect((await data(alice, main.devEUI, `${query}${query ? '&' : '?'}filter=temperature`)).rows.map((r) => r.ts_unix)).toEqual(want);
    });

    it.each([
      ['?from=abc', 'from'],
      ['?to=abc', 'to'],
      ['?from=1.5', 'from'],
      ['?limit=0', 'limit'],
      ['?limit=100001', 'limit'],
      ['?limit=-1', 'limit'],
      ['?limit=ten', 'limit'],
      ['?order=up', 'order'],
      ['?order=DESCENDING', 'order'],
      ['?colour=red', 'colour'],
    ])('refuses %s naming %s (table and data)', async (query, field) => {
      expectError(await as(alice).get(`/user/device/table/${main.devEUI}${query}`), 400, 'VALIDATION_FAILED', field);
      expectError(await as(alice).get(`/user/device/data/${main.devEUI}${query}`), 400, 'VALIDATION_FAILED', field);
      expectError(await as(alice).get(`/user/device/data/${main.devEUI}${query}&filter=temperature`), 400, 'VALIDATION_FAILED', field);
    });

    it('refuses from after to, naming the member', async () => {
      for (const path of ['table', 'data']) {
        const res = await as(alice).get(`/user/device/${path}/${main.devEUI}?from=${T0 + 300}&to=${T0 + 100}`);
        const errors = expectError(res, 400, 'VALIDATION_FAILED');
        expect(errors.some((e) => e.field === 'from' || e.field === 'to')).toBe(true);
      }
    });

    it('filter is not a member of the table route', async () => {
      expectError(await as(alice).get(`/user/device/table/${main.devEUI}?filter=LAT`), 400, 'VALIDATION_FAILED', 'filter');
    });
  });

  describe('GET /user/device/data/{eui}', () => {
    it('rows carry uid, ts_unix, time_stamp, humidity, temperature, battery always, and the network position only where there is one', async () => {
      const { rows, meta } = await data(alice, main.devEUI);
      expect(meta).toEqual([]);
      const tableRows = await table(alice, main.devEUI);
      expect(rows).toHaveLength(5);
      rows.forEach((row, i) => {
        const expectedKeys = i === 1 ? [...DATA_MEMBERS, ...GEOLOC_MEMBERS].sort() : DATA_MEMBERS;
        expect(Object.keys(row).sort()).toEqual(expectedKeys);
        expect(row.uid).toBe(tableRows[i]!.uplink.uid);
        expect(row.ts_unix).toBe(times[i]);
        expect(row.time_stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
        expect(row.time_stamp).toBe(isoOf(times[i]!));
      });
      expect(rows.map((r) => [r.temperature, r.humidity, r.battery])).toEqual([
        [20, 40, null],
        [20.5, null, null],
        [21, null, 3.3],
        [21.5, null, null],
        [22, null, null],
      ]);
      expect(rows[1]).toMatchObject({ geoloc_LAT: 52.1, geoloc_LON: 5.2, geoloc_ALT: 7 });
    });

    it('with filter: uid, ts_unix, ts_net_unix and the requested members only; meta {data_types, cache_file_version}', async () => {
      const uidOf = (alias: string) => dataTypes.find((t) => t.alias === alias)!.uid;
      const tableRows = await table(alice, main.devEUI);
      const { rows, meta } = await data(alice, main.devEUI, '?filter=LAT,LON,ALT,temperature,humidity');
      expect(meta).toEqual({ data_types: ['LAT', 'LON', 'ALT', 'temperature', 'humidity'].map(uidOf), cache_file_version: expect.any(Number) });
      expect(Number.isInteger(meta.cache_file_version)).toBe(true);
      expect(rows).toEqual(
        tableRows.map((r, i) => ({
          uid: r.uplink.uid,
          ts_unix: times[i],
          ts_net_unix: times[i],
          LAT: i === 4 ? -33.8688 : null,
          LON: i === 4 ? 151.2093 : null,
          ALT: i === 4 ? 58 : null,
          temperature: [20, 20.5, 21, 21.5, 22][i],
          humidity: i === 0 ? 40 : null,
        })),
      );

      const other = await data(alice, main.devEUI, '?filter=geoloc_LAT,geoloc_LON,RSSI,battery');
      expect(other.meta.data_types).toEqual(['geoloc_LAT', 'geoloc_LON', 'RSSI', 'battery'].map(uidOf));
      expect(Object.keys(other.rows[0]!).sort()).toEqual(['RSSI', 'battery', 'geoloc_LAT', 'geoloc_LON', 'ts_net_unix', 'ts_unix', 'uid'].sort());
      expect(other.rows.map((r) => [r.geoloc_LAT, r.geoloc_LON, r.RSSI, r.battery])).toEqual([
        [null, null, -80, null],
        [52.1, 5.2, null, null],
        [null, null, null, 3.3],
        [null, null, null, null],
        [null, null, null, null],
      ]);
    });

    it.each(['LAT,bogus', 'bogus', 'LAT,,LON', '', 'LAT;LON'])('refuses filter=%p naming filter', async (filter) => {
      expectError(await as(alice).get(`/user/device/data/${main.devEUI}?filter=${encodeURIComponent(filter)}`), 400, 'VALIDATION_FAILED', 'filter');
    });
  });

  describe('access', () => {
    it.each(['table', 'data', 'test'])('%s: another account gets 404, no credentials 401, a bad EUI 400, an unknown EUI 404', async (route) => {
      const path = (eui: string) => (route === 'test' ? `/test/uplink/${eui}` : `/user/device/${route}/${eui}`);
      expectError(await as(carol).get(path(main.devEUI)), 404, 'NOT_FOUND');
      expectError(await svc.http().get(path(main.devEUI)), 401, 'AUTH_REQUIRED');
      expectError(await as(alice).get(path('not-an-eui')), 400, 'VALIDATION_FAILED', 'eui');
      expectError(await as(alice).get(path('70B3D57ED00000')), 400, 'VALIDATION_FAILED', 'eui');
      expectError(await as(alice).get(path(newEui())), 404, 'NOT_FOUND');
      // Lower case and separators name the same device.
      const spaced = main.devEUI.toLowerCase().match(/../g)!.join('-');
      expectSuccess(await as(alice).get(path(spaced)));
    });

    it('a device shared with another account can be read by that account', async () => {
      const shared = await register(alice, 2);
      await ingest([1, 2, 3].map((i) => ({ devEUI: shared.devEUI, port: 1, payload_hex: lpp({ t: i }), fcnt: i, time_stamp_unix: T0 + i })));
      expectError(await as(bob).get(`/user/device/table/${shared.devEUI}`), 404, 'NOT_FOUND');
      await as(alice).post(`/user/device/share/${shared.devEUI}`, { username: bob.account.username }).expect(201);
      const mine = await table(alice, shared.devEUI);
      expect(await table(bob, shared.devEUI)).toEqual(mine);
      expect((await data(bob, shared.devEUI)).rows).toEqual((await data(alice, shared.devEUI)).rows);
      expect((await data(bob, shared.devEUI, '?filter=temperature')).rows.map((r) => r.temperature)).toEqual([1, 2, 3]);
      const test = expectSuccess<Json>(await as(bob).get(`/test/uplink/${shared.devEUI}`));
      expect(test.uplink).toEqual(mine[2]);
      expectError(await as(carol).get(`/user/device/data/${shared.devEUI}`), 404, 'NOT_FOUND');
    });
  });

  describe('Cayenne LPP types beyond the measurements', () => {
    it('stores Load (122) and unsigned 32-bit values as the vectors of independent implementations decode them', async () => {
      const device = await register(alice, 2);
      // test-data/cayenne-lpp: pycayennelpp's generated Load (−5.432 kg, 160.987 kg), generic and
      // frequency at 4294967295; ElectronicCats' frequency, energy and distance; one frame.
      const frame = ['017affeac8', '027a0274db', '0364ffffffff', '0476ffffffff', '057633be27a0', '068300795b30', '078200000022', '0867ffd1'].join('');
      await ingest({ devEUI: device.devEUI, port: 1, payload_hex: frame, fcnt: 1, time_stamp_unix: T0 });
      const [row] = await table(alice, device.devEUI);
      expect(row).toMatchObject({ payload_valid: true, temperature: -4.7 });
      expect(row!.payload_decoded).toEqual({
        load_1: -5.432,
        load_2: 160.987,
        generic_3: 4294967295,
        frequency_4: 4294967295,
        frequency_5: 868100000,
        energy_6: 7953.2,
        distance_7: 0.034,
        temperature_8: -4.7,
        temperature: -4.7,
      });
    });
  });

  describe('GET /test/uplink/{eui}', () => {
    it('404 before any uplink; then decodes the newest stored uplink with the current decoder, storing nothing', async () => {
      const device = await register(alice, 2);
      expectError(await as(alice).get(`/test/uplink/${device.devEUI}`), 404, 'NOT_FOUND');
      await ingest([
        { devEUI: device.devEUI, port: 1, payload_hex: lpp({ t: 11.5, h: 60 }), fcnt: 2, time_stamp_unix: T0 + 60 },
        { devEUI: device.devEUI, port: 1, payload_hex: lpp({ t: 10 }), fcnt: 1, time_stamp_unix: T0 },
      ]);
      const before = await table(alice, device.devEUI);
      const test = expectSuccess<Json>(await as(alice).get(`/test/uplink/${device.devEUI}`));
      expect(Object.keys(test).sort()).toEqual(['decoder', 'errors', 'payload_decoded', 'uplink', 'valid', 'warnings']);
      expect(test).toMatchObject({ decoder: 'Cayenne LPP', valid: true, errors: [], payload_decoded: { temperature: 11.5, humidity: 60 } });
      expect(test.uplink).toEqual(before[1]);
      expect(await table(alice, device.devEUI)).toEqual(before);

      // Another decoder: the answer follows it at once.
      await as(alice).post(`/user/device/meta/${device.devEUI}`, { decoder_ref: 1 }).expect(200);
      const raw = expectSuccess<Json>(await as(alice).get(`/test/uplink/${device.devEUI}`));
      expect(raw).toMatchObject({ decoder: 'raw', valid: true, errors: [], payload_decoded: {} });
      expect(raw.uplink.payload_hex).toBe(before[1]!.payload_hex);

      // Once the worker has re-decoded the history, mark the stored decoding: a test run must not replace it.
      await pollTable(device.devEUI, (rows) => rows.every((r) => r.temperature === null && Object.keys(r.payload_decoded).length === 0));
      await db.query(`UPDATE uplinks SET decoded = '{"stored": true}'::jsonb WHERE device_id = $1`, [device.uid]);
      const stored = await table(alice, device.devEUI);
      expect(stored.map((r) => r.payload_decoded)).toEqual([{ stored: true }, { stored: true }]);
      const again = expectSuccess<Json>(await as(alice).get(`/test/uplink/${device.devEUI}`));
      expect(again).toMatchObject({ decoder: 'raw', valid: true, errors: [], payload_decoded: {} });
      expect(again.uplink.payload_decoded).toEqual({ stored: true });
      expect(await table(alice, device.devEUI)).toEqual(stored);
    });

    it('tells a payload the current decoder rejects: valid false with the reason, and stores nothing', async () => {
      const device = await register(alice, 1);
      await ingest({ devEUI: device.devEUI, port: 1, payload_hex: '03FE00', fcnt: 1, time_stamp_unix: T0 });
      const before = await table(alice, device.devEUI);
      expect(before[0]).toMatchObject({ payload_valid: true, payload_decoded: {} });
      expect(expectSuccess<Json>(await as(alice).get(`/test/uplink/${device.devEUI}`))).toMatchObject({ decoder: 'raw', valid: true, errors: [] });

      await db.query('UPDATE devices SET decoder_ref = 2 WHERE uid = $1', [device.uid]); // no re-decode job: the table stays as stored
      const test = expectSuccess<Json>(await as(alice).get(`/test/uplink/${device.devEUI}`));
      expect(test).toMatchObject({ decoder: 'Cayenne LPP', valid: false });
      expect(test.errors).toHaveLength(1);
      expect(test.errors[0]).toMatch(/LPP type 254/);
      expect(await table(alice, device.devEUI)).toEqual(before);
    });
  });

  async function pollTable(eui: string, done: (rows: Json[]) => boolean, timeoutMs = 15_000): Promise<Json[]> {
    let rows: Json[] = [];
    await eventually(
      async () => {
        rows = await table(alice, eui);
        return done(rows);
      },
      { what: `the table of ${eui}`, timeoutMs, intervalMs: 250 },
    ).catch(() => undefined); // the caller's expectations say what it is
    return rows;
  }

  describe('re-decoding after a decoder change', () => {
    it('a raw device that receives LPP payloads shows the decoded values once its decoder is Cayenne LPP', async () => {
      const device = await register(alice, 1);
      const temps = [18.5, -2.5, 30];
      await ingest(temps.map((t, i) => ({ devEUI: device.devEUI, port: 1, payload_hex: lpp({ t, h: 50 + i }), fcnt: i, time_stamp_unix: T0 + i * 60 })));
      const raw = await table(alice, device.devEUI);
      expect(raw.map((r) => [r.temperature, r.payload_decoded])).toEqual(temps.map(() => [null, {}]));
      expect((await data(alice, device.devEUI)).rows.map((r) => r.temperature)).toEqual([null, null, null]);

      await as(alice).post(`/user/device/meta/${device.devEUI}`, { decoder_ref: 2 }).expect(200);
      const rows = await pollTable(device.devEUI, (r) => r.every((row) => row.temperature !== null));
      expect(rows.map((r) => r.temperature)).toEqual(temps);
      expect(rows.map((r) => r.humidity)).toEqual([50, 51, 52]);
      expect(rows.every((r) => r.payload_valid === true)).toBe(true);
      expect(rows.map((r) => r.payload_decoded.temperature)).toEqual(temps);
      // The same uplinks, decoded again: uids and times unchanged.
      expect(rows.map((r) => r.uplink)).toEqual(raw.map((r) => r.uplink));
      // The data view follows (the worker moves the device's cache version on when it is done).
      let dataTemps: unknown[] = [];
      await eventually(
        async () => {
          dataTemps = (await data(alice, device.devEUI)).rows.map((r) => r.temperature);
          return dataTemps.every((t) => t !== null);
        },
        { what: 'the data view to follow', timeoutMs: 15_000, intervalMs: 250 },
      ).catch(() => undefined); // the expectation says what it is
      expect(dataTemps).toEqual(temps);
      expect((await data(alice, device.devEUI, '?filter=temperature,humidity')).rows.map((r) => [r.temperature, r.humidity])).toEqual([
        [18.5, 50],
        [-2.5, 51],
        [30, 52],
      ]);
    }, 30_000);
  });

  describe('a long history', () => {
    const N = 20_000;
    let device: { uid: number; devEUI: string };

    beforeAll(async () => {
      device = await register(alice, 2);
      // Inserted newest first: the uids run against time, so the order must come from the time.
      await db.query(
        `INSERT INTO uplinks (device_id, received_at, network_ref, port, payload, sf, rssi, decoded, valid, temperature, humidity)
         SELECT $1, to_timestamp($2::bigint + ($3::int - g)), 4, 1, '\\x0167'::bytea, 7, -90, jsonb_build_object('temperature', (($3::int - g) % 500) / 10.0), true,
                (($3::int - g) % 500) / 10.0, NULL
         FROM generate_series(0, $3::int) g`,
        [device.uid, T0, N - 1],
      );
    }, 60_000);

    it('the table streams all 20,000 rows, oldest first', async () => {
      const res = await as(alice).get(`/user/device/table/${device.devEUI}`);
      const rows = expectSuccess<Json[]>(res);
      expect(rows).toHaveLength(N);
      let ordered = true;
      let values = true;
      for (let k = 0; k < N; k++) {
        if (rows[k]!.uplink.time_stamp_unix !== T0 + k) ordered = false;
        if (rows[k]!.temperature !== (k % 500) / 10 || rows[k]!.uplink.devEUI !== device.devEUI) values = false;
      }
      expect({ ordered, values }).toEqual({ ordered: true, values: true });
      expect(new Set(rows.map((r) => r.uplink.uid)).size).toBe(N);
      expect(res.headers['content-length']).toBeUndefined(); // streamed, not buffered whole
    }, 60_000);

    it('the data rows too, with and without filter, and narrowed', async () => {
      const plain = await data(alice, device.devEUI);
      expect(plain.rows).toHaveLength(N);
      expect(plain.rows.every((r, k) => r.ts_unix === T0 + k && r.temperature === (k % 500) / 10 && r.time_stamp === isoOf(T0 + k))).toBe(true);
      const filtered = await data(alice, device.devEUI, '?filter=temperature');
      expect(filtered.rows).toHaveLength(N);
      expect(filtered.rows.every((r, k) => r.ts_unix === T0 + k && r.temperature === (k % 500) / 10)).toBe(true);
      expect(filtered.rows.map((r) => r.uid)).toEqual(plain.rows.map((r) => r.uid));

      const desc = await data(alice, device.devEUI, '?order=desc&limit=3');
      expect(desc.rows.map((r) => r.ts_unix)).toEqual([T0 + N - 1, T0 + N - 2, T0 + N - 3]);
      // A window that crosses the read batches.
      const window = await table(alice, device.devEUI, `?from=${T0 + 1500}&to=${T0 + 6499}`);
      expect(window).toHaveLength(5000);
      expect(window[0]!.uplink.time_stamp_unix).toBe(T0 + 1500);
      expect(window[4999]!.uplink.time_stamp_unix).toBe(T0 + 6499);
      const limited = await table(alice, device.devEUI, '?order=desc&limit=4500');
      expect(limited).toHaveLength(4500);
      expect(limited.every((r, k) => r.uplink.time_stamp_unix === T0 + N - 1 - k)).toBe(true);
    }, 60_000);
  });
});
