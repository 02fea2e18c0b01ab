import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountWithCredentials, tokenClient } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;

const CODEC = `
function decodeUplink(input) {
  var b = input.bytes;
  if (b.length !== 4) return { errors: ['expected 4 bytes, got ' + b.length] };
  return { data: { temperature: ((b[0] << 24 >> 16) | b[1]) / 100, humidity: ((b[2] << 8) | b[3]) / 10 }, warnings: [], errors: [] };
}`;

describe('/user/codec and decoding with an account’s codec', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  const as = (who: Caller) => tokenClient(svc, who.appToken);
  const ingest = (eui: string, hex: string, fcnt: number) =>
    svc
      .http()
      .post('/ingest/rest')
      .set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET)
      .send({ devEUI: eui, port: 2, payload_hex: hex, fcnt, time_stamp_unix: 1_777_636_800 + fcnt });

  beforeAll(async () => {
    svc = await startTestService();
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
  });
  afterAll(() => svc?.close());

  it('stores a codec, lists it among the decoders, and decodes uplinks with it', async () => {
    const codec = expectSuccess<{ uid: number; name: string; script: string }>(
      await as(alice).post('/user/codec', { name: 'LHT-like', description: 'vendor codec', script: CODEC }),
      201,
    );
    expect(codec).toMatchObject({ name: 'LHT-like', script: CODEC });
    expect(expectSuccess<{ uid: number }[]>(await as(alice).get('/user/codec')).map((c) => c.uid)).toEqual([codec.uid]);
    expect(expectSuccess<{ uid: number; interface: string }[]>(await as(alice).get('/datamodel/decoder')).find((d) => d.uid === codec.uid)).toMatchObject({
      interface: 'javascript',
    });

    await as(alice).post('/user/device/70B3D57ED00C0DE1', { decoder_ref: codec.uid }).expect(201);
    expect(expectSuccess<{ accepted: number }>(await ingest('70B3D57ED00C0DE1', '086601C8', 1), 202).accepted).toBe(1);
    expect(expectSuccess<{ accepted: number }>(await ingest('70B3D57ED00C0DE1', '0102', 2), 202).accepted).toBe(1);
    const table = expectSuccess<{ payload_decoded: Record<string, unknown>; payload_valid: boolean; temperature: number | null }[]>(
      await as(alice).get('/user/device/table/70B3D57ED00C0DE1'),
    );
    expect(table[0]).toMatchObject({ payload_decoded: { temperature: 21.5, humidity: 45.6 }, payload_valid: true, temperature: 21.5 });
    expect(table[1]).toMatchObject({ payload_valid: false, temperature: null });
    const [meta] = expectSuccess<[{ temperature_dc: number }]>(await as(alice).get('/user/device/meta/70B3D57ED00C0DE1'));
    expect(meta.temperature_dc).toBe(215);
  });

  describe('real vendor codecs (test-data/lorawan-devices) and real captures: the measurements by the codec-output table (docs/api.md §13)', () => {
    const TEST_DATA = join(__dirname, '../../../test-data');
    const read = (path: string) => readFileSync(join(TEST_DATA, path), 'utf8');
    type Row = {
      payload_valid: boolean;
      payload_decoded: Record<string, unknown>;
      temperature: number | null;
      humidity: number | null;
      battery_voltage: number | null;
      battery_percent: number | null;
    };

    it('Milesight EM300-TH over The Things Stack: its `battery` 92 is battery_percent, not a voltage', async () => {
      const codec = expectSuccess<{ uid: number }>(
        await as(alice).post('/user/codec', { name: 'EM300-TH', script: read('lorawan-devices/vendor/milesight-iot/em300-th.js') }),
        201,
      );
      const body = JSON.parse(read('the-things-stack/captured/milesight-em300-th.tts-industries.payload.json')) as { end_device_ids: { dev_eui: string } };
      const eui = body.end_device_ids.dev_eui;
      await as(alice).post(`/user/device/${eui}`, { decoder_ref: codec.uid }).expect(201);
      const res = await svc.http().post('/ingest/ttn').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(body);
      expect(expectSuccess<{ accepted: number }>(res, 202).accepted).toBe(1);
      const [row] = expectSuccess<Row[]>(await as(alice).get(`/user/device/table/${eui}`));
      expect(row).toMatchObject({
        payload_valid: true,
        payload_decoded: { battery: 92, temperature: 30.8, humidity: 50.5 },
        temperature: 30.8,
        humidity: 50.5,
        battery_percent: 92,
        battery_voltage: null,
      });
      // The data row's `battery` is volts (docs/api.md §11): none here.
      const data = await as(alice).get(`/user/device/data/${eui}`);
      expect(data.body.data[0]).toMatchObject({ temperature: 30.8, humidity: 50.5, battery: null });
      const [meta] = expectSuccess<{ battery_percent: number | null; battery_voltage: number | null }[]>(await as(alice).get(`/user/device/meta/${eui}`));
      expect(meta).toMatchObject({ battery_percent: 92, battery_voltage: null });
    });

    it('Decentlab DL-SHT35 over ChirpStack: nested {value, unit} members', async () => {
      const codec = expectSuccess<{ uid: number }>(
        await as(alice).post('/user/codec', { name: 'DL-SHT35', script: read('lorawan-devices/vendor/decentlab/dl-sht35.js') }),
        201,
      );
      const body = JSON.parse(read('chirpstack/captured/decentlab-dl-sht35-001.payload.json')) as { deviceInfo: { devEui: string } };
      const eui = body.deviceInfo.devEui.toUpperCase();
      await as(alice).post(`/user/device/${eui}`, { decoder_ref: codec.uid }).expect(201);
      const res = await svc.http().post('/ingest/chirpstack?event=up').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(body);
      expect(expectSuccess<{ accepted: number }>(res, 202).accepted).toBe(1);
      const [row] = expectSuccess<Row[]>(await as(alice).get(`/user/device/table/${eui}`));
      expect(row).toMatchObject({ payload_valid: true, battery_voltage: 3.168, battery_percent: null });
      expect(row!.payload_decoded.battery_voltage).toMatchObject({ unit: 'V', value: 3.168 });
      expect(row!.temperature).toBe((row!.payload_decoded.air_temperature as { value: number }).value);
      expect(row!.humidity).toBe((row!.payload_decoded.air_humidity as { value: number }).value);
    });
  });

  describe('the decoder’s errors and warnings kept with each uplink (payload_errors, payload_warnings)', () => {
    const WARNING_CODEC = `
function decodeUplink(input) {
  var b = input.bytes;
  if (b.length < 4) return { errors: ['expected 4 bytes, got ' + b.length, 'port ' + input.fPort] };
  var w = b.length > 4 ? ['trailing bytes: ' + (b.length - 4)] : [];
  return { data: { temperature: ((b[0] << 24 >> 16) | b[1]) / 100 }, warnings: w, errors: [] };
}`;
    type Row = { uplink: { uid: number }; payload_valid: boolean; payload_errors: string[]; payload_warnings: string[]; payload_decoded: object };
    const EUI = '70B3D57ED00C0DE6';
    const rows = async (query = '') => expectSuccess<Row[]>(await as(alice).get(`/user/device/table/${EUI}${query}`));

    beforeAll(async () => {
      const codec = expectSuccess<{ uid: number }>(await as(alice).post('/user/codec', { name: 'warns', script: WARNING_CODEC }), 201);
      await as(alice).post(`/user/device/${EUI}`, { decoder_ref: codec.uid }).expect(201);
      for (const [hex, fcnt] of [
        ['086601C8', 1],
        ['086601C8FF', 2],
        ['0102', 3],
        ['086601C8FFFF', 4],
      ] as const)
        expect(expectSuccess<{ accepted: number }>(await ingest(EUI, hex, fcnt), 202).accepted).toBe(1);
    });

    it('shows them on every table row, [] for none, and the warnings no longer inside payload_decoded', async () => {
      const all = await rows();
      expect(all.map((r) => [r.payload_valid, r.payload_errors, r.payload_warnings])).toEqual([
        [true, [], []],
        [true, [], ['trailing bytes: 1']],
        [false, ['expected 4 bytes, got 2', 'port 2'], []],
        [true, [], ['trailing bytes: 2']],
      ]);
      expect(all[1]!.payload_decoded).toEqual({ temperature: 21.5 });
      const test = expectSuccess<{ errors: string[]; warnings: string[]; uplink: Row }>(await as(alice).get(`/test/uplink/${EUI}`));
      expect(test).toMatchObject({ errors: [], warnings: ['trailing bytes: 2'], uplink: { payload_warnings: ['trailing bytes: 2'] } });
    });

    it('filters by them: issues=errors|warnings|any|none, with the other members of the query', async () => {
      const uids = async (query: string) => (await rows(query)).map((r) => r.uplink.uid);
      const all = (await rows()).map((r) => r.uplink.uid);
      expect(await uids('?issues=errors')).toEqual([all[2]]);
      expect(await uids('?issues=warnings')).toEqual([all[1], all[3]]);
      expect(await uids('?issues=any')).toEqual([all[1], all[2], all[3]]);
      expect(await uids('?issues=none')).toEqual([all[0]]);
      expect(await uids('?issues=any&order=desc&limit=2')).toEqual([all[3], all[2]]);
      expect(await uids(`?issues=warnings&to=${1_777_636_800 + 3}`)).toEqual([all[1]]);
    });

    it('exports them: CSV columns of JSON text, NDJSON members', async () => {
      const csv = await as(alice).get(`/user/device/table/${EUI}?format=csv&issues=errors`);
      expect(csv.status).toBe(200);
      const [header, line] = csv.text.trim().split('\r\n');
      const columns = header!.split(',');
      expect(columns).toContain('payload_errors');
      expect(columns).toContain('payload_warnings');
      expect(line).toContain('"[""expected 4 bytes, got 2"",""port 2""]"');
      const ndjson = await as(alice).get(`/user/device/table/${EUI}?format=ndjson&issues=warnings`);
      const lines = ndjson.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Row);
      expect(lines.map((l) => l.payload_warnings)).toEqual([['trailing bytes: 1'], ['trailing bytes: 2']]);
    });

    it('refuses another filter naming issues, needs credentials, and is 404 for another account', async () => {
      expectError(await as(alice).get(`/user/device/table/${EUI}?issues=bad`), 400, 'VALIDATION_FAILED', 'issues');
      expectError(await as(alice).get(`/user/device/table/${EUI}?issues=errors&issues=warnings`), 400, 'VALIDATION_FAILED', 'issues');
      expectError(await svc.http().get(`/user/device/table/${EUI}?issues=errors`), 401, 'AUTH_REQUIRED');
      expectError(await as(bob).get(`/user/device/table/${EUI}?issues=errors`), 404, 'NOT_FOUND');
    });

    it('keeps a built-in decoder’s reason as the one error (DT Tracker, a heartbeat cut short)', async () => {
      const eui = '70B3D57ED00C0DE7';
      await as(alice).post(`/user/device/${eui}`, { decoder_ref: 3 }).expect(201);
      expect(expectSuccess<{ accepted: number }>(await ingest(eui, '01', 1), 202).accepted).toBe(1);
      const [row] = expectSuccess<Row[]>(await as(alice).get(`/user/device/table/${eui}?issues=errors`));
      expect(row).toMatchObject({ payload_valid: false, payload_errors: ['a heartbeat has 10 bytes, not 1'], payload_warnings: [] });
    });
  });

  it('keeps a hostile codec from hurting anything: loops and allocations make invalid uplinks, nothing more', async () => {
    const looping = expectSuccess<{ uid: number }>(
      await as(alice).post('/user/codec', { name: 'loops', script: 'function decodeUplink(i) { if (i.bytes[0] === 1) { for (;;) {} } return { data: {} }; }' }),
      201,
    );
    await as(alice).post('/user/device/70B3D57ED00C0DE2', { decoder_ref: looping.uid }).expect(201);
    expect(expectSuccess<{ accepted: number }>(await ingest('70B3D57ED00C0DE2', '01', 1), 202).accepted).toBe(1);
    const [row] = expectSuccess<{ payload_valid: boolean; payload_hex: string }[]>(await as(alice).get('/user/device/table/70B3D57ED00C0DE2'));
    expect(row).toMatchObject({ payload_valid: false, payload_hex: '01' });
    const test = expectSuccess<{ valid: boolean; errors: string[] }>(await as(alice).get('/test/uplink/70B3D57ED00C0DE2'));
    expect(test.valid).toBe(false);
    expect(test.errors[0]).toMatch(/time limit/);
    expectSuccess(await svc.http().get('/version'));
  });

  it.each([
    [{ name: 'x', script: 'function (' }, 'script'],
    [{ name: 'x', script: 'function encodeDownlink() {}' }, 'script'],
    [{ name: 'x', script: 'while (true) {}' }, 'script'],
    [{ name: '', script: CODEC }, 'name'],
    [{ script: CODEC }, 'name'],
    [{ name: 'x' }, 'script'],
    [{ name: 'x', script: CODEC, language: 'js' }, 'language'],
    [{ name: 'raw', script: CODEC }, 'name'],
  ])('refuses %j naming %s, storing nothing', async (body, field) => {
    expectError(await as(bob).post('/user/codec', body), 400, 'VALIDATION_FAILED', field);
    expect(expectSuccess<unknown[]>(await as(bob).get('/user/codec'))).toEqual([]);
  });

  it('keeps codecs to their account: another account can neither see, use nor delete them', async () => {
    const mine = expectSuccess<{ uid: number }>(await as(alice).post('/user/codec', { name: 'private', script: CODEC }), 201);
    expect(expectSuccess<{ uid: number }[]>(await as(bob).get('/datamodel/decoder')).map((d) => d.uid)).not.toContain(mine.uid);
    expectError(await as(bob).get(`/datamodel/decoder/${mine.uid}`), 404, 'NOT_FOUND');
    expectError(await as(bob).post('/user/device/70B3D57ED00C0DE3', { decoder_ref: mine.uid }), 400, 'VALIDATION_FAILED', 'decoder_ref');
    expectError(await as(bob).delete(`/user/codec/${mine.uid}`), 404, 'NOT_FOUND');
    expectError(await svc.http().get('/user/codec'), 401, 'AUTH_REQUIRED');
  });

  it('deletes a codec; its devices then store payloads undecoded', async () => {
    const codec = expectSuccess<{ uid: number }>(await as(alice).post('/user/codec', { name: 'short-lived', script: CODEC }), 201);
    await as(alice).post('/user/device/70B3D57ED00C0DE4', { decoder_ref: codec.uid }).expect(201);
    expect(expectSuccess(await as(alice).delete(`/user/codec/${codec.uid}`))).toEqual({ uid: codec.uid, deleted: true });
    const [meta] = expectSuccess<[{ decoder_ref: number | null }]>(await as(alice).get('/user/device/meta/70B3D57ED00C0DE4'));
    expect(meta.decoder_ref).toBeNull();
    await ingest('70B3D57ED00C0DE4', '086601C8', 1).expect(202);
    const [row] = expectSuccess<{ payload_decoded: object; payload_valid: boolean }[]>(await as(alice).get('/user/device/table/70B3D57ED00C0DE4'));
    expect(row).toMatchObject({ payload_decoded: {}, payload_valid: true });
    expectError(await as(alice).delete(`/user/codec/${codec.uid}`), 404, 'NOT_FOUND');
    expectError(await as(alice).delete('/user/codec/abc'), 400, 'VALIDATION_FAILED', 'uid');
  });
});
