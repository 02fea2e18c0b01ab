import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';

/*
 * The networks' messages as they really are (test-data/, sources in its READMEs), through
 * POST /ingest/ttn and POST /ingest/chirpstack (docs/api.md §5, §11): every message type a The
 * Things Stack webhook or a ChirpStack v4 HTTP integration sends is accepted, what carries
 * information moves the device, ChirpStack's Protobuf encoding reads as its JSON, the Packet Broker
 * hop is no gateway, and a device's signal is the last one heard.
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response and test-data bodies are read member by member
type Json = Record<string, any>;
interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; devEUI: string | null; code: string; message: string }[];
  event?: { type: string; action: string };
}

const DATA = join(__dirname, '../../../test-data');
const tts = (file: string): Json => JSON.parse(readFileSync(join(DATA, 'the-things-stack', file), 'utf8'));
const cs = (file: string): Json => JSON.parse(readFileSync(join(DATA, 'chirpstack', file), 'utf8'));
/** A ChirpStack Protobuf sample for another device: its 16-character devEui string replaced in place (same length, so the encoding stays valid). */
function csBin(file: string, eui: string, sampleEui = '0101010101010101'): Buffer {
  const bytes = readFileSync(join(DATA, 'chirpstack/protobuf', file));
  const at = bytes.indexOf(sampleEui);
  if (at < 0) throw new Error(`${file} does not hold ${sampleEui}`);
  bytes.write(eui.toLowerCase(), at, 'latin1');
  return bytes;
}
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const secretHeader: [string, string] = ['X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET];
const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** A TTS sample for another device. */
function forDevice(body: Json, eui: string): Json {
  const copy = structuredClone(body);
  copy.end_device_ids = { ...copy.end_device_ids, dev_eui: eui, device_id: `eui-${eui.toLowerCase()}` };
  return copy;
}
/** A ChirpStack JSON sample for another device. */
function csFor(body: Json, eui: string): Json {
  const copy = structuredClone(body);
  copy.deviceInfo = { ...copy.deviceInfo, devEui: eui.toLowerCase() };
  return copy;
}

describe('the networks’ own messages', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;

  const get = (who: Caller, path: string) =>
    svc
      .http()
      .get(path)
      .set(...bearer(who.appToken));
  const register = async (who: Caller) => {
    const eui = newEui();
    // The Cayenne LPP decoder (uid 2), as in ingest.e2e-spec.
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(who.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
    return eui;
  };
  const meta = async (who: Caller, eui: string) => expectSuccess<Json[]>(await get(who, `/user/device/meta/${eui}`))[0]!;
  const table = async (who: Caller, eui: string) => expectSuccess<Json[]>(await get(who, `/user/device/table/${eui}`));
  const dataRows = async (who: Caller, eui: string) => expectSuccess<Json[]>(await get(who, `/user/device/data/${eui}`));
  const toTts = (body: unknown, credential: [string, string] | null = secretHeader) => {
    const req = svc.http().post('/ingest/ttn');
    if (credential) req.set(...credential);
    return req.send(body as object);
  };
  const toCs = (event: string, body: unknown, credential: [string, string] | null = secretHeader) => {
    const req = svc.http().post(`/ingest/chirpstack?event=${event}`);
    if (credential) req.set(...credential);
    if (Buffer.isBuffer(body)) return req.set('Content-Type', 'application/octet-stream').send(body);
    return req.send(body as object);
  };
  const ok = async (res: Awaited<ReturnType<typeof toTts>>) => expectSuccess<IngestResult>(res, 202);

  beforeAll(async () => {
    svc = await startTestService({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', RATE_LIMIT_PER_MINUTE: '100000' } });
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
  }, 60_000);
  afterAll(() => svc?.close());

  describe('The Things Stack webhook', () => {
    const EVERY_MESSAGE = [
      'webhook-test/uplink_message.json',
      'webhook-test/uplink_normalized.json',
      'webhook-test/join_accept.json',
      'webhook-test/downlink_queued.json',
      'webhook-test/downlink_sent.json',
      'webhook-test/downlink_ack.json',
      'webhook-test/downlink_nack.json',
      'webhook-test/downlink_failed.json',
      'webhook-test/downlink_queue_invalidated.json',
      'webhook-test/location_solved.json',
      'webhook-test/service_data.json',
      'docs/uplink_message.json',
      'docs/join_accept.json',
      'docs/downlink_ack.json',
      'docs/downlink_nack.derived.json',
      'docs/downlink_sent.derived.json',
      'docs/downlink_queued.derived.json',
      'docs/downlink_failed.json',
      'formatter-test/uplink_message.json',
      'formatter-test/join_accept.json',
    ];

    it.each(EVERY_MESSAGE)('%s: 202, never a 4xx', async (file) => {
      const eui = await register(alice);
      const body = file.startsWith('formatter-test/') ? tts(file) : forDevice(tts(file), eui);
      const res = await toTts(body);
      expect(res.status).toBe(202);
    });

    it('a downlink event for a downlink this service did not send is reported as an unknown command, with 202', async () => {
      const eui = await register(alice);
      for (const file of ['docs/downlink_ack.json', 'docs/downlink_failed.json', 'webhook-test/downlink_nack.json', 'webhook-test/downlink_sent.json']) {
        expect(await ok(await toTts(forDevice(tts(file), eui)))).toEqual({
          accepted: 0,
          duplicates: 0,
          rejected: [expect.objectContaining({ index: 0, code: 'NOT_FOUND', message: 'no such command' })],
        });
      }
      const queued = await ok(await toTts(forDevice(tts('docs/downlink_queued.derived.json'), eui)));
      expect(queued).toEqual({ accepted: 0, duplicates: 0, rejected: [], event: { type: 'downlink_queued', action: expect.stringMatching(/^acknowledged/) } });
    });

    it('join_accept spans the device’s activity times; nothing else moves, no uplink is stored', async () => {
      const eui = await register(alice);
      const join = forDevice(tts('docs/join_accept.json'), eui);
      expect(await ok(await toTts(join))).toEqual({
        accepted: 1,
        duplicates: 0,
        rejected: [],
        event: { type: 'join_accept', action: 'device activity times span the join' },
      });
      const at = unix(join.join_accept.received_at);
      expect(await meta(alice, eui)).toMatchObject({ ts_activity_first_unix: at, ts_activity_last_unix: at, ts_data_last_unix: null, signal_dbm: null });
      expect(await table(alice, eui)).toEqual([]);
    });

    it('another account’s device, or an unknown one: NOT_FOUND in the 202 body, nothing moved', async () => {
      const eui = await register(alice);
      const join = forDevice(tts('docs/join_accept.json'), eui);
      const foreign = await ok(await toTts(join, bearer(bob.appToken)));
      expect(foreign).toMatchObject({ accepted: 0, rejected: [{ index: 0, devEUI: eui, code: 'NOT_FOUND' }] });
      expect(await meta(alice, eui)).toMatchObject({ ts_activity_last_unix: null });
      expect(await ok(await toTts(forDevice(tts('docs/join_accept.json'), newEui())))).toMatchObject({ rejected: [{ code: 'NOT_FOUND' }] });
    });

    it('location_solved sets the network position of the uplink it names (by as:up id), or of the latest uplink', async () => {
      const eui = await register(alice);
      const first = forDevice(tts('captured/milesight-em300-th.tts-community.payload.json'), eui);
      const second = forDevice(tts('captured/milesight-em300-th.tts-industries.payload.json'), eui);
      expect(await ok(await toTts(first))).toMatchObject({ accepted: 1 });
      expect(await ok(await toTts(second))).toMatchObject({ accepted: 1 });
      // The Industries capture (2023-05-18) is the older of the two: the first data row.
      expect(Date.parse(second.received_at)).toBeLessThan(Date.parse(first.received_at));
      const named = forDevice(tts('webhook-test/location_solved.json'), eui);
      named.correlation_ids = second.correlation_ids;
      const answer = await ok(await toTts(named));
      expect(answer).toMatchObject({ accepted: 1, event: { type: 'location_solved', action: expect.stringContaining(second.correlation_ids[0]) } });
      let rows = await dataRows(alice, eui);
      expect(rows.map((r) => [r.geoloc_LAT, r.geoloc_LON, r.geoloc_ALT])).toEqual([
        [10, 20, 30],
        [undefined, undefined, undefined],
      ]);

      const latest = forDevice({ ...tts('webhook-test/location_solved.json'), ...tts('docs/fragments/location_solved.lora-cloud.json') }, eui);
      expect(await ok(await toTts(latest))).toMatchObject({ accepted: 1, event: { action: expect.stringContaining('latest uplink') } });
      rows = await dataRows(alice, eui);
      expect(rows[1]).toMatchObject({ geoloc_LAT: 51.455, geoloc_LON: 5.458 });

      // An uplink id the service never stored: nothing moves.
      named.correlation_ids = ['as:up:01NOSUCHUPLINK'];
      expect(await ok(await toTts(named))).toMatchObject({ accepted: 0, event: { action: expect.stringMatching(/^nothing recorded/) } });
    });

    it('the Packet Broker hop is not a gateway: the gateway list shows the real one; its signal still counts', async () => {
      const eui = await register(alice);
      const body = forDevice(tts('captured/milesight-em300-th.tts-industries.payload.json'), eui);
      body.uplink_message.received_at = new Date().toISOString();
      expect(await ok(await toTts(body))).toMatchObject({ accepted: 1 });
      const gateways = expectSuccess<Json[]>(await get(alice, '/user/gateways'));
      const ids = gateways.map((g) => g.gateway_id);
      expect(ids).toContain('eui-6A7E111A10000000');
      expect(ids).not.toContain('packetbroker');
      expect(await meta(alice, eui)).toMatchObject({ signal_dbm: -24 });
    });

    it('a body with no message of The Things Stack, or a malformed member: 400 naming the field, nothing stored', async () => {
      const eui = await register(alice);
      expectError(await toTts({ end_device_ids: { dev_eui: eui } }), 400, 'VALIDATION_FAILED', 'body');
      const join = forDevice(tts('docs/join_accept.json'), eui);
      join.join_accept.received_at = 'yesterday';
      expectError(await toTts(join), 400, 'VALIDATION_FAILED', 'join_accept.received_at');
      const location = forDevice(tts('webhook-test/location_solved.json'), eui);
      location.location_solved.location.latitude = 91;
      expectError(await toTts(location), 400, 'VALIDATION_FAILED', 'location_solved.location.latitude');
      expect(await meta(alice, eui)).toMatchObject({ ts_activity_last_unix: null });
    });

    it('without credentials: 401 for any message type, nothing moved', async () => {
      const eui = await register(alice);
      expectError(await toTts(forDevice(tts('docs/join_accept.json'), eui), null), 401, 'AUTH_REQUIRED');
      expect(await meta(alice, eui)).toMatchObject({ ts_activity_last_unix: null });
    });
  });

  describe('ChirpStack v4 HTTP integration', () => {
    it('status moves the battery level and the link margin (margin_db); a late status moves neither', async () => {
      const eui = await register(alice);
      expect(await meta(alice, eui)).toMatchObject({ battery_percent: null, margin_db: null });
      const status = csFor(cs('docs/status.json'), eui);
      const answer = await ok(await toCs('status', status));
      expect(answer).toMatchObject({
        accepted: 1,
        rejected: [],
        event: { type: 'status', action: 'battery_percent 88.3 and margin_db 10 offered to the device' },
      });
      expect(await meta(alice, eui)).toMatchObject({ battery_percent: 88.3, margin_db: 10 });
      // The device on external power: no battery level, the margin still moves.
      const later = new Date(Date.parse(status.time) + 60_000).toISOString();
      expect(await ok(await toCs('status', { ...status, time: later, externalPowerSource: true, batteryLevel: undefined, margin: 7 }))).toMatchObject({
        accepted: 1,
        rejected: [],
        event: { action: expect.stringContaining('no battery level') },
      });
      expect(await meta(alice, eui)).toMatchObject({ battery_percent: 88.3, margin_db: 7 });
      // A status older than the device's margin does not move it back (the battery percent follows its own
      // rule: only a voltage gives the battery a moment, and this device has none).
      const earlier = new Date(Date.parse(status.time) - 60_000).toISOString();
      expect(await ok(await toCs('status', { ...status, time: earlier, batteryLevel: 12, margin: -3 }))).toMatchObject({ accepted: 1 });
      expect(await meta(alice, eui)).toMatchObject({ battery_percent: 12, margin_db: 7 });
      // Every device's metadata shows it too.
      const all = expectSuccess<Json[]>(await get(alice, '/user/device/meta/all'));
      expect(all.find((d) => d.devEUI === eui)).toMatchObject({ margin_db: 7 });
    });

    it('join spans the activity times; log and integration are acknowledged, saying what was done', async () => {
      const eui = await register(alice);
      const join = csFor(cs('docs/join.json'), eui);
      expect(await ok(await toCs('join', join))).toMatchObject({ accepted: 1, event: { type: 'join' } });
      expect(await meta(alice, eui)).toMatchObject({ ts_activity_last_unix: unix(join.time) });
      expect(await ok(await toCs('log', csFor(cs('docs/log.json'), eui)))).toEqual({
        accepted: 0,
        duplicates: 0,
        rejected: [],
        event: { type: 'log', action: 'logged: ERROR UPLINK_MIC' },
      });
      expect(await ok(await toCs('integration', csFor(cs('docs/integration.json'), eui)))).toMatchObject({
        accepted: 0,
        event: { type: 'integration', action: expect.stringMatching(/^acknowledged/) },
      });
      expect(await table(alice, eui)).toEqual([]);
    });

    it('location sets the network position of the uplink with the same deduplicationId', async () => {
      const eui = await register(alice);
      const up = csFor(cs('captured/decentlab-dl-sht35-001.payload.json'), eui);
      expect(await ok(await toCs('up', up))).toMatchObject({ accepted: 1 });
      const location = { ...csFor(cs('docs/location.json'), eui), deduplicationId: up.deduplicationId };
      expect(await ok(await toCs('location', location))).toMatchObject({ accepted: 1, event: { type: 'location' } });
      expect((await dataRows(alice, eui))[0]).toMatchObject({ geoloc_LAT: 37.344214, geoloc_LON: -8.839375, geoloc_ALT: 2 });
    });

    it('takes the Protobuf encoding (application/octet-stream) of every event, read as its JSON', async () => {
      const eui = await register(alice);
      expect(await ok(await toCs('up', csBin('up.bin', eui)))).toMatchObject({ accepted: 1, rejected: [] });
      const [row] = await table(alice, eui);
      expect(row).toMatchObject({ payload_hex: 'AA', payload_port: 1 });
      expect(await ok(await toCs('status', csBin('status.bin', eui)))).toMatchObject({ accepted: 1 });
      expect(await meta(alice, eui)).toMatchObject({ battery_percent: 88.3 });
      expect(await ok(await toCs('join', csBin('join.bin', eui)))).toMatchObject({ accepted: 1 });
      expect(await ok(await toCs('log', csBin('log.bin', eui)))).toMatchObject({ event: { action: 'logged: ERROR UPLINK_MIC' } });
      // location.bin names the docs' deduplicationId, which no stored uplink has.
      expect(await ok(await toCs('location', csBin('location.bin', eui)))).toMatchObject({ accepted: 0, event: { type: 'location' } });
      // ack and txack name a queue item this service never queued.
      expect(await ok(await toCs('ack', csBin('ack.bin', eui)))).toMatchObject({ rejected: [{ code: 'NOT_FOUND' }] });
      expect(await ok(await toCs('txack', csBin('txack.bin', eui)))).toMatchObject({ rejected: [{ code: 'NOT_FOUND' }] });

      const captured = await register(alice);
      const bin = csBin('captured/milesight-em300-th.payload.bin', captured, cs('captured/milesight-em300-th.payload.json').deviceInfo.devEui);
      expect(await ok(await toCs('up', bin))).toMatchObject({ accepted: 1 });
      expect((await table(alice, captured))[0]).toMatchObject({ payload_hex: '01755C03673401046865', payload_port: 85 });
    });

    it('a malformed Protobuf body or an unknown event: 400 naming the field, nothing stored; octet-stream elsewhere is 415', async () => {
      const eui = await register(alice);
      const up = csBin('up.bin', eui);
      expectError(await toCs('up', up.subarray(0, up.length - 4)), 400, 'VALIDATION_FAILED', 'body');
      expectError(await toCs('integration', Buffer.from([0x08, 0x01])), 400, 'VALIDATION_FAILED', 'event');
      expectError(await toCs('gateway', csFor(cs('docs/join.json'), eui)), 400, 'VALIDATION_FAILED', 'event');
      expectError(await toCs('status', { ...csFor(cs('docs/status.json'), eui), batteryLevel: 'full' }), 400, 'VALIDATION_FAILED', 'batteryLevel');
      expect(await table(alice, eui)).toEqual([]);
      expect(await meta(alice, eui)).toMatchObject({ battery_percent: null });
      const rest = await svc
        .http()
        .post('/ingest/rest')
        .set(...secretHeader)
        .set('Content-Type', 'application/octet-stream')
        .send(Buffer.from([1, 2, 3]));
      expectError(rest, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('without credentials: 401, also for Protobuf; another account’s device: NOT_FOUND', async () => {
      const eui = await register(alice);
      expectError(await toCs('status', csBin('status.bin', eui), null), 401, 'AUTH_REQUIRED');
      expect(await ok(await toCs('status', csBin('status.bin', eui), bearer(bob.appToken)))).toMatchObject({ accepted: 0, rejected: [{ code: 'NOT_FOUND' }] });
      expect(await meta(alice, eui)).toMatchObject({ battery_percent: null });
    });
  });

  describe('the device’s signal is the last one heard', () => {
    it('an uplink without radio data leaves it; the next one with radio data moves it', async () => {
      const eui = await register(alice);
      const rest = (items: object) =>
        svc
          .http()
          .post('/ingest/rest')
          .set(...secretHeader)
          .send(items);
      const T = 1_777_636_800;
      expect(await ok(await rest({ devEUI: eui, port: 1, payload_hex: '0167010A', time_stamp_unix: T, fcnt: 1, RSSI: -80 }))).toMatchObject({ accepted: 1 });
      expect(await meta(alice, eui)).toMatchObject({ signal_dbm: -80, signal_percent: expect.any(Number) });
      const { signal_percent: percent } = await meta(alice, eui);
      expect(await ok(await rest({ devEUI: eui, port: 1, payload_hex: '0167010B', time_stamp_unix: T + 60, fcnt: 2 }))).toMatchObject({ accepted: 1 });
      expect(await meta(alice, eui)).toMatchObject({ signal_dbm: -80, signal_percent: percent, ts_activity_last_unix: T + 60 });
      expect(await ok(await rest({ devEUI: eui, port: 1, payload_hex: '0167010C', time_stamp_unix: T + 120, fcnt: 3, RSSI: -100 }))).toMatchObject({
        accepted: 1,
      });
      expect(await meta(alice, eui)).toMatchObject({ signal_dbm: -100 });
    });
  });
});
