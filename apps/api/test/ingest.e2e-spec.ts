import { CHIRPSTACK_UPLINK_SAMPLE, TTN_UPLINK_SAMPLE } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import { accountWithCredentials, bearer, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { lpp } from './support/payloads';
import { at } from './support/present';

/*
 * POST /ingest/ttn, /ingest/chirpstack?event=up and /ingest/rest (docs/api.md §5, §11): per-item
 * results, redeliveries stored once, ownership, credentials, limits, and what an uplink does to the
 * device's table, data rows and metadata.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are read member by member
type Json = Record<string, any>;
interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; devEUI: string | null; code: string; message: string; field?: string }[];
}

const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const SECRET = TEST_SECRETS.INGEST_SECRET;
const secretHeader: [string, string] = ['X-Ingest-Secret', SECRET];
/** 2026-05-01T12:00:00Z, the time of the sample bodies. */
const T0 = 1_777_636_800;

const TTN_UPLINK = TTN_UPLINK_SAMPLE;
const CHIRPSTACK_UPLINK = CHIRPSTACK_UPLINK_SAMPLE;

const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

/** The TTN sample for another device and payload; `over` changes the message's identity and time. */
function ttnBody(eui: string, hex: string | null, over: { correlation?: string; receivedAt?: string; fcnt?: number } = {}): Json {
  const body: Json = structuredClone(TTN_UPLINK);
  body.end_device_ids.dev_eui = eui;
  body.end_device_ids.device_id = `eui-${eui.toLowerCase()}`;
  if (hex === null) delete body.uplink_message.frm_payload;
  else body.uplink_message.frm_payload = b64(hex);
  if (over.correlation) body.correlation_ids = ['gs:uplink:01HX0000000000000000000000', `as:up:${over.correlation}`];
  if (over.receivedAt) body.uplink_message.received_at = over.receivedAt;
  if (over.fcnt !== undefined) body.uplink_message.f_cnt = over.fcnt;
  return body;
}

function chirpstackBody(eui: string, hex: string | null, over: { dedup?: string; time?: string; fcnt?: number } = {}): Json {
  const body: Json = structuredClone(CHIRPSTACK_UPLINK);
  body.deviceInfo.devEui = eui.toLowerCase();
  if (hex === null) delete body.data;
  else body.data = b64(hex);
  if (over.dedup) body.deduplicationId = over.dedup;
  if (over.time) body.time = over.time;
  if (over.fcnt !== undefined) body.fCnt = over.fcnt;
  return body;
}

describe('ingestion', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  let dataTypes: { uid: number; alias: string }[];

  const as = (who: Caller) => tokenClient(svc, who.appToken);
  const ingest = (route: 'ttn' | 'chirpstack' | 'rest', body: unknown, credential: [string, string] | null = secretHeader) => {
    const req = svc.http().post(route === 'chirpstack' ? '/ingest/chirpstack?event=up' : `/ingest/${route}`);
    if (credential) req.set(...credential);
    return req.send(body as object);
  };
  const accepted = async (res: Awaited<ReturnType<typeof ingest>>) => expectSuccess<IngestResult>(res, 202);
  const register = async (who: Caller, decoderRef = 2, eui = newEui()) => {
    expectSuccess(await as(who).post(`/user/device/${eui}`, { decoder_ref: decoderRef }), 201);
    return eui;
  };
  const table = async (who: Caller, eui: string, query = '') => expectSuccess<Json[]>(await as(who).get(`/user/device/table/${eui}${query}`));
  const data = async (who: Caller, eui: string, query = '') => {
    const res = await as(who).get(`/user/device/data/${eui}${query}`);
    expectSuccess(res);
    return { rows: res.body.data as Json[], meta: res.body.meta };
  };
  const meta = async (who: Caller, eui: string) => {
    const list = expectSuccess<Json[]>(await as(who).get(`/user/device/meta/${eui}`));
    expect(list).toHaveLength(1);
    return list[0]!;
  };

  beforeAll(async () => {
    svc = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_PER_MINUTE: '100000' } });
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
    dataTypes = expectSuccess(await as(alice).get('/datamodel/data/type/all'));
  }, 60_000);
  afterAll(() => svc?.close());

  describe('a Cayenne LPP device fed by each route shows its decoded values everywhere', () => {
    const position: [number, number, number] = [52.0907, 5.1214, 12.5];
    const payload = lpp({ t: 21.5, h: 55, gps: position });

    const cases: {
      route: 'ttn' | 'chirpstack' | 'rest';
      body: (eui: string) => Json;
      expected: { port: number; SF: number; RSSI: number; SNR: number; network: string; geoloc: [number, number] | null };
    }[] = [
      {
        route: 'ttn',
        body: (eui) => {
          const b = ttnBody(eui, payload);
          // The weaker gateway first: the best RSSI is not simply the first one.
          b.uplink_message.rx_metadata.reverse();
          return b;
        },
        expected: { port: 2, SF: 9, RSSI: -97, SNR: 7.25, network: 'The Things Stack', geoloc: [52.09, 5.12] },
      },
      {
        route: 'chirpstack',
        body: (eui) => {
          const b = chirpstackBody(eui, payload);
          b.rxInfo.unshift({ gatewayId: '0016c001f1530000', uplinkId: 1, rssi: -101, snr: -2, channel: 2, context: 'AA==', metadata: {}, crcStatus: 'CRC_OK' });
          return b;
        },
        expected: { port: 1, SF: 7, RSSI: -36, SNR: 10.5, network: 'ChirpStack', geoloc: null },
      },
      {
        route: 'rest',
        body: (eui) => ({
          devEUI: eui.toLowerCase(),
          port: 5,
          payload_hex: payload,
          time_stamp_unix: T0,
          fcnt: 1,
          SF: 10,
          SNR: 3.5,
          gateways: [
            { gateway_id: 'g-far', rssi: -110, snr: 1 },
            { gateway_id: 'g-near', rssi: -88, snr: 3.5 },
          ],
        }),
        expected: { port: 5, SF: 10, RSSI: -88, SNR: 3.5, network: 'Generic REST', geoloc: null },
      },
    ];

    it.each(cases)('POST /ingest/$route', async ({ route, body, expected }) => {
      const eui = await register(alice, 2);
      const result = await accepted(await ingest(route, body(eui), bearer(alice.appToken)));
      expect(result).toEqual({ accepted: 1, duplicates: 0, rejected: [] });

      const rows = await table(alice, eui);
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row).toMatchObject({
        uplink: {
          time_stamp_unix: T0,
          devEUI: eui,
          port: expected.port,
          SF: expected.SF,
          RSSI: expected.RSSI,
          SNR: expected.SNR,
          payload_raw: b64(payload),
          network: expected.network,
          api_ref: alice.appTokenUid,
          user_ref: alice.account.id,
        },
        payload_decoded: { temperature: 21.5, humidity: 55, lat: position[0], lon: position[1], alt: position[2] },
        payload_port: expected.port,
        payload_hex: payload,
        payload_valid: true,
        ts_net_unix: T0,
        ts_unix: T0,
        temperature: 21.5,
        humidity: 55,
        LAT: position[0],
        LON: position[1],
        ALT: position[2],
        battery_voltage: null,
      });
      expect(Number(row.payload_length)).toBe(payload.length / 2);
      expect(typeof row.uplink.uid).toBe('number');
      if (expected.geoloc) expect(row).toMatchObject({ geoloc_LAT: expected.geoloc[0], geoloc_LON: expected.geoloc[1] });
      else expect(row).toMatchObject({ geoloc_LAT: null, geoloc_LON: null, geoloc_ALT: null });

      const plain = await data(alice, eui);
      expect(plain.meta).toEqual([]);
      expect(plain.rows).toHaveLength(1);
      expect(plain.rows[0]).toMatchObject({
        uid: row.uplink.uid,
        ts_unix: T0,
        time_stamp: '2026-05-01T12:00:00+00:00',
        temperature: 21.5,
        humidity: 55,
        battery: null,
      });
      if (expected.geoloc) expect(plain.rows[0]).toMatchObject({ geoloc_LAT: expected.geoloc[0], geoloc_LON: expected.geoloc[1] });
      else expect(Object.keys(plain.rows[0]!).sort()).toEqual(['battery', 'humidity', 'temperature', 'time_stamp', 'ts_unix', 'uid']);

      const filtered = await data(alice, eui, '?filter=LAT,LON,ALT,temperature,humidity');
      expect(filtered.rows).toEqual([
        { uid: row.uplink.uid, ts_unix: T0, ts_net_unix: T0, LAT: position[0], LON: position[1], ALT: position[2], temperature: 21.5, humidity: 55 },
      ]);
      const uidOf = (alias: string) => dataTypes.find((t) => t.alias === alias)!.uid;
      expect(filtered.meta).toEqual({ data_types: ['LAT', 'LON', 'ALT', 'temperature', 'humidity'].map(uidOf), cache_file_version: expect.any(Number) });
      expect(Number.isInteger(filtered.meta.cache_file_version)).toBe(true);

      const m = await meta(alice, eui);
      expect(m).toMatchObject({
        devEUI: eui,
        temperature_dc: 215,
        lat: position[0],
        lon: position[1],
        alt: position[2],
        signal_dbm: expected.RSSI,
        ts_activity_first_unix: T0,
        ts_activity_last_unix: T0,
        ts_data_first_unix: T0,
        ts_data_last_unix: T0,
      });
      expect(m.signal_percent).toEqual(expect.any(Number));
      expect(m.signal_percent).toBeGreaterThanOrEqual(0);
      expect(m.signal_percent).toBeLessThanOrEqual(100);
    });
  });

  describe('real-shaped bodies with members at their zero value left out', () => {
    it('TTN: absent f_cnt, f_port and frm_payload are stored as 0, 0 and an empty payload', async () => {
      const eui = await register(alice, 2);
      const body = ttnBody(eui, null);
      delete body.uplink_message.f_cnt;
      delete body.uplink_message.f_port;
      expect(await accepted(await ingest('ttn', body))).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      const row = at(await table(alice, eui), 0);
      expect(row).toMatchObject({ uplink: { port: 0, payload_raw: '' }, payload_hex: '', payload_port: 0, temperature: null });
      expect(Number(row.payload_length)).toBe(0);
      // An empty payload is no Cayenne LPP: stored, marked invalid.
      expect(row.payload_valid).toBe(false);
    });

    it('ChirpStack: absent fCnt and data are stored as 0 and an empty payload', async () => {
      const eui = await register(alice, 2);
      const body = chirpstackBody(eui, null);
      delete body.fCnt;
      expect(await accepted(await ingest('chirpstack', body))).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      const [row] = await table(alice, eui);
      expect(row).toMatchObject({ uplink: { port: 1, payload_raw: '' }, payload_hex: '', payload_valid: false });
    });

    it('takes the samples exactly as the networks send them (the shipped payloads decode)', async () => {
      const eui = await register(alice, 2);
      const ttn: Json = structuredClone(TTN_UPLINK);
      ttn.end_device_ids.dev_eui = eui;
      const cs: Json = structuredClone(CHIRPSTACK_UPLINK);
      cs.deviceInfo.devEui = eui;
      expect(await accepted(await ingest('ttn', ttn))).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await accepted(await ingest('chirpstack', cs))).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      const rows = await table(alice, eui);
      // 12:00:00.120 (TTN) before 12:00:00.456 (ChirpStack).
      expect(rows.map((r) => [r.uplink.network, r.temperature, r.payload_decoded])).toEqual([
        ['The Things Stack', 27.2, { temperature_3: 27.2, temperature_5: 25.5, temperature: 27.2 }],
        ['ChirpStack', 22.9, { temperature_1: 22.9, temperature: 22.9 }],
      ]);
    });
  });

  describe('redeliveries are stored once', () => {
    it('TTN: the same message (as:up correlation id) again, even with another time', async () => {
      const eui = await register(alice, 2);
      const body = ttnBody(eui, lpp({ t: 20 }), { correlation: 'redelivered-1' });
      expect(await accepted(await ingest('ttn', body))).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await accepted(await ingest('ttn', body))).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
      const later = ttnBody(eui, lpp({ t: 20 }), { correlation: 'redelivered-1', receivedAt: '2026-05-01T12:00:03.000Z' });
      expect(await accepted(await ingest('ttn', later, bearer(alice.appToken)))).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
      expect(await table(alice, eui)).toHaveLength(1);
      // Another message of the device is new.
      expect(await accepted(await ingest('ttn', ttnBody(eui, lpp({ t: 21 }), { correlation: 'redelivered-2', fcnt: 18 })))).toMatchObject({
        accepted: 1,
        duplicates: 0,
      });
      expect((await table(alice, eui)).map((r) => r.temperature)).toEqual([20, 21]);
    });

    it('ChirpStack: the same deduplicationId again', async () => {
      const eui = await register(alice, 2);
      const body = chirpstackBody(eui, lpp({ t: 19 }), { dedup: '0e6a5b0c-1111-4b8d-9386-a5c902f9202d' });
      expect(await accepted(await ingest('chirpstack', body))).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await accepted(await ingest('chirpstack', { ...body, time: '2026-05-01T12:00:09.000Z' }))).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
      expect(await table(alice, eui)).toHaveLength(1);
      const other = chirpstackBody(eui, lpp({ t: 19.5 }), { dedup: '0e6a5b0c-2222-4b8d-9386-a5c902f9202d', fcnt: 11 });
      expect(await accepted(await ingest('chirpstack', other))).toMatchObject({ accepted: 1, duplicates: 0 });
      expect(await table(alice, eui)).toHaveLength(2);
    });

    it('REST: the same fcnt and time_stamp_unix again, across requests and inside one array', async () => {
      const eui = await register(alice, 2);
      const item = (fcnt: number, ts: number, t: number) => ({ devEUI: eui, port: 1, payload_hex: lpp({ t }), fcnt, time_stamp_unix: ts });
      expect(await accepted(await ingest('rest', item(1, T0, 10)))).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect(await accepted(await ingest('rest', item(1, T0, 10)))).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
      expect(await accepted(await ingest('rest', [item(2, T0 + 60, 11), item(2, T0 + 60, 11), item(3, T0 + 120, 12), item(1, T0, 10)]))).toEqual({
        accepted: 2,
        duplicates: 2,
        rejected: [],
      });
      // The same frame counter at another time is another message (counter reset, or a new session).
      expect(await accepted(await ingest('rest', item(1, T0 + 180, 13)))).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
      expect((await table(alice, eui)).map((r) => [r.uplink.time_stamp_unix, r.temperature])).toEqual([
        [T0, 10],
        [T0 + 60, 11],
        [T0 + 120, 12],
        [T0 + 180, 13],
      ]);
    });
  });

  describe('ownership and credentials', () => {
    const restItem = (eui: string, fcnt = 1) => ({ devEUI: eui, port: 1, payload_hex: lpp({ t: 20 }), fcnt, time_stamp_unix: T0 + fcnt });

    it('with an account’s token, an unknown EUI and another account’s device get the same NOT_FOUND, and nothing is stored', async () => {
      const bobs = await register(bob, 2);
      const unknown = newEui();
      const mine = await register(alice, 2);
      const result = await accepted(await ingest('rest', [restItem(unknown), restItem(bobs), restItem(mine)], bearer(alice.appToken)));
      expect(result.accepted).toBe(1);
      expect(result.duplicates).toBe(0);
      expect(result.rejected).toEqual([
        expect.objectContaining({ index: 0, devEUI: unknown, code: 'NOT_FOUND', message: expect.any(String) }),
        expect.objectContaining({ index: 1, devEUI: bobs, code: 'NOT_FOUND', message: expect.any(String) }),
      ]);
      const { index: _a, devEUI: _b, ...first } = result.rejected[0]!;
      const { index: _c, devEUI: _d, ...second } = result.rejected[1]!;
      expect(second).toEqual(first);
      expect(await table(bob, bobs)).toEqual([]);
      expect(await table(alice, mine)).toHaveLength(1);

      for (const route of ['ttn', 'chirpstack'] as const) {
        const body = route === 'ttn' ? ttnBody(bobs, lpp({ t: 1 })) : chirpstackBody(bobs, lpp({ t: 1 }));
        const r = await accepted(await ingest(route, body, bearer(alice.appToken)));
        expect(r).toEqual({
          accepted: 0,
          duplicates: 0,
          rejected: [expect.objectContaining({ index: 0, devEUI: bobs, code: 'NOT_FOUND', message: first.message })],
        });
      }
      expect(await table(bob, bobs)).toEqual([]);
    });

    it('a valid token of another account is accepted by the route, but its items for devices it does not own are rejected', async () => {
      const alices = await register(alice, 2);
      const bobs = await register(bob, 2);
      const result = await accepted(await ingest('rest', [restItem(alices), restItem(bobs)], bearer(bob.appToken)));
      expect(result).toEqual({ accepted: 1, duplicates: 0, rejected: [expect.objectContaining({ index: 0, devEUI: alices, code: 'NOT_FOUND' })] });
      expect(await table(alice, alices)).toEqual([]);
      const row = at(await table(bob, bobs), 0);
      expect(row.uplink).toMatchObject({ api_ref: bob.appTokenUid, user_ref: bob.account.id });
    });

    it('the platform secret writes to any account’s device, in X-Ingest-Secret or in a token header', async () => {
      const alices = await register(alice, 2);
      const bobs = await register(bob, 2);
      const forms: [string, string][] = [secretHeader, ['Authorization', `Bearer ${SECRET}`], ['Authorization', SECRET], ['token', SECRET]];
      for (const [i, form] of forms.entries()) {
        const result = await accepted(await ingest('rest', [restItem(alices, i + 1), restItem(bobs, i + 1)], form));
        expect(result).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
      }
      expect(await accepted(await ingest('ttn', ttnBody(bobs, lpp({ t: 5 })), ['Authorization', `Bearer ${SECRET}`]))).toMatchObject({ accepted: 1 });
      expect(await accepted(await ingest('chirpstack', chirpstackBody(alices, lpp({ t: 5 })), secretHeader))).toMatchObject({ accepted: 1 });
      expect(await table(alice, alices)).toHaveLength(5);
      const bobRows = await table(bob, bobs);
      expect(bobRows).toHaveLength(5);
      // Delivered by the platform, not by a token of the account.
      expect(bobRows[0]!.uplink).toMatchObject({ api_ref: null, user_ref: bob.account.id });
      // An unknown EUI is still rejected with the secret.
      const unknown = newEui();
      expect(await accepted(await ingest('rest', restItem(unknown)))).toEqual({
        accepted: 0,
        duplicates: 0,
        rejected: [expect.objectContaining({ index: 0, devEUI: unknown, code: 'NOT_FOUND' })],
      });
    });

    it('no credentials: 401 AUTH_REQUIRED on every route, nothing stored', async () => {
      const eui = await register(alice, 2);
      expectError(await ingest('rest', restItem(eui), null), 401, 'AUTH_REQUIRED');
      expectError(await ingest('ttn', ttnBody(eui, lpp({ t: 1 })), null), 401, 'AUTH_REQUIRED');
      expectError(await ingest('chirpstack', chirpstackBody(eui, lpp({ t: 1 })), null), 401, 'AUTH_REQUIRED');
      expect(await table(alice, eui)).toEqual([]);
    });

    it('a wrong ingest secret: 401 INVALID_TOKEN, nothing stored', async () => {
      const eui = await register(alice, 2);
      expectError(await ingest('rest', restItem(eui), ['Authorization', `Bearer ${SECRET}-wrong`]), 401, 'INVALID_TOKEN');
      expectError(await ingest('ttn', ttnBody(eui, lpp({ t: 1 })), ['token', 'not-the-secret']), 401, 'INVALID_TOKEN');
      expect(await table(alice, eui)).toEqual([]);
    });

    it('a wrong X-Ingest-Secret: 401 INVALID_TOKEN, nothing stored', async () => {
      const eui = await register(alice, 2);
      expectError(await ingest('rest', restItem(eui), ['X-Ingest-Secret', `${SECRET}-wrong`]), 401, 'INVALID_TOKEN');
      expectError(await ingest('chirpstack', chirpstackBody(eui, lpp({ t: 1 })), ['X-Ingest-Secret', 'nope']), 401, 'INVALID_TOKEN');
      expect(await table(alice, eui)).toEqual([]);
    });
  });

  describe('refused items', () => {
    it('a payload over 242 bytes is PAYLOAD_TOO_LARGE on every route and stored nowhere; 242 bytes pass', async () => {
      const eui = await register(alice, 1);
      const big = '00'.repeat(243);
      const r1 = await accepted(
        await ingest('rest', [
          { devEUI: eui, port: 1, payload_hex: big },
          { devEUI: eui, port: 1, payload_raw: b64(big) },
          { devEUI: eui, port: 1, payload_hex: '00'.repeat(242), fcnt: 1, time_stamp_unix: T0 },
        ]),
      );
      expect(r1).toEqual({
        accepted: 1,
        duplicates: 0,
        rejected: [
          expect.objectContaining({ index: 0, devEUI: eui, code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('payload_hex') }),
          expect.objectContaining({ index: 1, devEUI: eui, code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('payload_raw') }),
        ],
      });
      expect(await accepted(await ingest('ttn', ttnBody(eui, big)))).toEqual({
        accepted: 0,
        duplicates: 0,
        rejected: [expect.objectContaining({ index: 0, devEUI: eui, code: 'PAYLOAD_TOO_LARGE' })],
      });
      expect(await accepted(await ingest('chirpstack', chirpstackBody(eui, big)))).toEqual({
        accepted: 0,
        duplicates: 0,
        rejected: [expect.objectContaining({ index: 0, devEUI: eui, code: 'PAYLOAD_TOO_LARGE' })],
      });
      const rows = await table(alice, eui);
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.payload_length)).toBe(242);
    });

    it('malformed Base64 or hex, a missing port and an unknown member are VALIDATION_FAILED naming the field; the other items are stored', async () => {
      const eui = await register(alice, 2);
      const good = (fcnt: number, t: number) => ({ devEUI: eui, port: 1, payload_hex: lpp({ t }), fcnt, time_stamp_unix: T0 + fcnt });
      const result = await accepted(
        await ingest('rest', [
          good(1, 10),
          { devEUI: eui, port: 1, payload_raw: '***not base64***' },
          { devEUI: eui, port: 1, payload_hex: '0g' },
          { devEUI: eui, payload_hex: '0167' },
          { devEUI: eui, port: 1, payload_hex: '01', colour: 'red' },
          good(2, 11),
        ]),
      );
      expect(result.accepted).toBe(2);
      expect(result.duplicates).toBe(0);
      expect(result.rejected.map((r) => [r.index, r.devEUI, r.code])).toEqual([
        [1, eui, 'VALIDATION_FAILED'],
        [2, eui, 'VALIDATION_FAILED'],
        [3, eui, 'VALIDATION_FAILED'],
        [4, eui, 'VALIDATION_FAILED'],
      ]);
      for (const [i, field] of ['payload_raw', 'payload_hex', 'port', 'colour'].entries()) {
        expect(result.rejected[i]!.message).toContain(field);
        if (result.rejected[i]!.field !== undefined) expect(result.rejected[i]!.field).toBe(field);
      }
      expect((await table(alice, eui)).map((r) => r.temperature)).toEqual([10, 11]);
    });

    it('a malformed webhook payload is a rejected item naming the member, with 202', async () => {
      const eui = await register(alice, 2);
      const ttn = ttnBody(eui, null);
      ttn.uplink_message.frm_payload = '%%%';
      const r1 = await accepted(await ingest('ttn', ttn));
      expect(r1).toEqual({
        accepted: 0,
        duplicates: 0,
        rejected: [expect.objectContaining({ index: 0, devEUI: eui, code: 'VALIDATION_FAILED', message: expect.stringContaining('frm_payload') })],
      });
      const cs = chirpstackBody(eui, null);
      cs.data = 'not base64!';
      const r2 = await accepted(await ingest('chirpstack', cs));
      expect(r2).toEqual({
        accepted: 0,
        duplicates: 0,
        rejected: [expect.objectContaining({ index: 0, devEUI: eui, code: 'VALIDATION_FAILED', message: expect.stringContaining('data') })],
      });
      expect(await table(alice, eui)).toEqual([]);
    });

    it('a payload the decoder rejects is still stored, with payload_valid false', async () => {
      const eui = await register(alice, 2);
      expect(await accepted(await ingest('rest', { devEUI: eui, port: 3, payload_hex: '03FE00', fcnt: 1, time_stamp_unix: T0 }))).toEqual({
        accepted: 1,
        duplicates: 0,
        rejected: [],
      });
      const row = at(await table(alice, eui), 0);
      expect(row).toMatchObject({ payload_valid: false, payload_hex: '03FE00', payload_port: 3, temperature: null, humidity: null, LAT: null });
      expect(row.uplink).toMatchObject({ payload_raw: b64('03FE00'), port: 3 });
      const m = await meta(alice, eui);
      expect(m).toMatchObject({ ts_activity_last_unix: T0, temperature_dc: null });
    });
  });

  describe('refused requests', () => {
    it('more than 1,000 REST items: 400 VALIDATION_FAILED, nothing stored', async () => {
      const eui = await register(alice, 1);
      const items = Array.from({ length: 1001 }, (_, i) => ({ devEUI: eui, port: 1, payload_hex: '01', fcnt: i, time_stamp_unix: T0 + i }));
      expectError(await ingest('rest', items), 400, 'VALIDATION_FAILED');
      expect(await table(alice, eui)).toEqual([]);
    });

    it('an empty array: 400 VALIDATION_FAILED', async () => {
      expectError(await ingest('rest', []), 400, 'VALIDATION_FAILED');
    });

    it.each(['/ingest/rest', '/ingest/ttn', '/ingest/chirpstack?event=up'])('malformed JSON on %s: 400 MALFORMED_JSON', async (path) => {
      const res = await svc
        .http()
        .post(path)
        .set(...secretHeader)
        .set('Content-Type', 'application/json')
        .send('{"devEUI": "70B3D57ED0001234", "port": ');
      expectError(res, 400, 'MALFORMED_JSON');
    });

    it.each([
      ['', 'no event'],
      ['?event=gateway', 'an event ChirpStack does not send'],
      ['?event=', 'an empty event'],
    ])('/ingest/chirpstack with %s (%s): 400 VALIDATION_FAILED naming event, nothing stored', async (query) => {
      const eui = await register(alice, 2);
      const res = await svc
        .http()
        .post(`/ingest/chirpstack${query}`)
        .set(...secretHeader)
        .send(chirpstackBody(eui, lpp({ t: 1 })));
      expectError(res, 400, 'VALIDATION_FAILED', 'event');
      expect(await table(alice, eui)).toEqual([]);
    });
  });

  describe('volume and order', () => {
    it('accepts 500 REST items in one request; every row appears, in order', async () => {
      const a = await register(alice, 2);
      const b = await register(alice, 2);
      const items = Array.from({ length: 500 }, (_, i) => ({
        devEUI: i % 2 === 0 ? a : b,
        port: 1,
        payload_hex: lpp({ t: i / 10, h: (i % 200) / 2 }),
        fcnt: i,
        time_stamp_unix: T0 + i * 10,
        RSSI: -60 - (i % 50),
      }));
      expect(await accepted(await ingest('rest', items))).toEqual({ accepted: 500, duplicates: 0, rejected: [] });
      for (const [eui, parity] of [
        [a, 0],
        [b, 1],
      ] as const) {
        const expected = items.map((_, i) => i).filter((i) => i % 2 === parity);
        const rows = await table(alice, eui);
        expect(rows.map((r) => r.uplink.time_stamp_unix)).toEqual(expected.map((i) => T0 + i * 10));
        expect(rows.map((r) => r.temperature)).toEqual(expected.map((i) => i / 10));
        const dataRows = (await data(alice, eui)).rows;
        expect(dataRows.map((r) => [r.ts_unix, r.temperature, r.humidity])).toEqual(expected.map((i) => [T0 + i * 10, i / 10, (i % 200) / 2]));
        const uids = rows.map((r) => r.uplink.uid);
        expect(dataRows.map((r) => r.uid)).toEqual(uids);
        expect(new Set(uids).size).toBe(250);
      }
      const m = await meta(alice, b);
      expect(m).toMatchObject({ ts_activity_first_unix: T0 + 10, ts_activity_last_unix: T0 + 4990, temperature_dc: 499, signal_dbm: -60 - (499 % 50) });
    });

    it('an older uplink arriving later does not move the device metadata backwards', async () => {
      const eui = await register(alice, 2);
      const send = (ts: number, hex: string, rssi: number, fcnt: number) =>
        ingest('rest', { devEUI: eui, port: 1, payload_hex: hex, time_stamp_unix: ts, fcnt, RSSI: rssi });
      expect(await accepted(await send(T0 + 3600, lpp({ t: 25, gps: [10, 20, 30], volt: 3.6 }), -70, 2))).toMatchObject({ accepted: 1 });
      const newest = {
        temperature_dc: 250,
        lat: 10,
        lon: 20,
        alt: 30,
        battery_voltage: 3.6,
        signal_dbm: -70,
        ts_activity_last_unix: T0 + 3600,
        ts_data_last_unix: T0 + 3600,
      };
      expect(await meta(alice, eui)).toMatchObject(newest);

      expect(await accepted(await send(T0, lpp({ t: 5, gps: [-10, -20, -30], volt: 3.1 }), -119, 1))).toMatchObject({ accepted: 1 });
      expect(await meta(alice, eui)).toMatchObject({ ...newest, ts_activity_first_unix: T0, ts_data_first_unix: T0 });
      // The table still lists them by time, oldest first.
      expect((await table(alice, eui)).map((r) => r.temperature)).toEqual([5, 25]);

      // Both in one delivery, the newer first: the newer one wins.
      expect(
        await accepted(
          await ingest('rest', [
            { devEUI: eui, port: 1, payload_hex: lpp({ t: 30 }), time_stamp_unix: T0 + 7200, fcnt: 4, RSSI: -100 },
            { devEUI: eui, port: 1, payload_hex: lpp({ t: 27, gps: [11, 21, 31] }), time_stamp_unix: T0 + 5400, fcnt: 3, RSSI: -90 },
          ]),
        ),
      ).toMatchObject({ accepted: 2 });
      expect(await meta(alice, eui)).toMatchObject({
        temperature_dc: 300,
        lat: 11,
        lon: 21,
        alt: 31,
        battery_voltage: 3.6,
        signal_dbm: -100,
        ts_activity_first_unix: T0,
        ts_activity_last_unix: T0 + 7200,
      });
    });

    it('a late uplink that carries the latest value of a member still updates that member', async () => {
      const eui = await register(alice, 2);
      const send = (ts: number, hex: string, fcnt: number) =>
        ingest('rest', { devEUI: eui, port: 1, payload_hex: hex, time_stamp_unix: ts, fcnt, RSSI: -80 - fcnt });
      expect(await accepted(await send(T0, lpp({ t: 10, gps: [1, 2, 3] }), 1))).toMatchObject({ accepted: 1 });
      // The newest uplink carries no temperature and no position (the decoder rejects it).
      expect(await accepted(await send(T0 + 200, '03FE00', 3))).toMatchObject({ accepted: 1 });
      expect(await meta(alice, eui)).toMatchObject({ temperature_dc: 100, lat: 1, signal_dbm: -83, ts_activity_last_unix: T0 + 200 });
      // Late, but newer than the temperature and position shown: those are now its values.
      expect(await accepted(await send(T0 + 100, lpp({ t: 15, gps: [4, 5, 6] }), 2))).toMatchObject({ accepted: 1 });
      expect(await meta(alice, eui)).toMatchObject({ temperature_dc: 150, lat: 4, lon: 5, alt: 6, signal_dbm: -83, ts_activity_last_unix: T0 + 200 });
    });
  });
});
