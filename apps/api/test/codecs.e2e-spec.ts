import { accountWithCredentials, bearer } from './support/accounts';
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
  const as = (who: Caller) => ({
    get: (path: string) => svc.http().get(path).set(...bearer(who.appToken)),
    post: (path: string, body: object) => svc.http().post(path).set(...bearer(who.appToken)).send(body),
    delete: (path: string) => svc.http().delete(path).set(...bearer(who.appToken)),
  });
  const ingest = (eui: string, hex: string, fcnt: number) =>
    svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send({ devEUI: eui, port: 2, payload_hex: hex, fcnt, time_stamp_unix: 1_777_636_800 + fcnt });

  beforeAll(async () => {
    svc = await startTestService();
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
  });
  afterAll(() => svc?.close());

  it('stores a codec, lists it among the decoders, and decodes uplinks with it', async () => {
    const codec = expectSuccess<{ uid: number; name: string; script: string }>(await as(alice).post('/user/codec', { name: 'LHT-like', description: 'vendor codec', script: CODEC }), 201);
    expect(codec).toMatchObject({ name: 'LHT-like', script: CODEC });
    expect(expectSuccess<{ uid: number }[]>(await as(alice).get('/user/codec')).map((c) => c.uid)).toEqual([codec.uid]);
    expect(expectSuccess<{ uid: number; interface: string }[]>(await as(alice).get('/datamodel/decoder')).find((d) => d.uid === codec.uid)).toMatchObject({ interface: 'javascript' });

    await as(alice).post('/user/device/70B3D57ED00C0DE1', { decoder_ref: codec.uid }).expect(201);
    expect(expectSuccess<{ accepted: number }>(await ingest('70B3D57ED00C0DE1', '086601C8', 1), 202).accepted).toBe(1);
    expect(expectSuccess<{ accepted: number }>(await ingest('70B3D57ED00C0DE1', '0102', 2), 202).accepted).toBe(1);
    const table = expectSuccess<{ payload_decoded: Record<string, unknown>; payload_valid: boolean; temperature: number | null }[]>(await as(alice).get('/user/device/table/70B3D57ED00C0DE1'));
    expect(table[0]).toMatchObject({ payload_decoded: { temperature: 21.5, humidity: 45.6 }, payload_valid: true, temperature: 21.5 });
    expect(table[1]).toMatchObject({ payload_valid: false, temperature: null });
    const [meta] = expectSuccess<{ temperature_dc: number }[]>(await as(alice).get('/user/device/meta/70B3D57ED00C0DE1'));
    expect(meta.temperature_dc).toBe(215);
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
    const [meta] = expectSuccess<{ decoder_ref: number | null }[]>(await as(alice).get('/user/device/meta/70B3D57ED00C0DE4'));
    expect(meta.decoder_ref).toBeNull();
    await ingest('70B3D57ED00C0DE4', '086601C8', 1).expect(202);
    const [row] = expectSuccess<{ payload_decoded: object; payload_valid: boolean }[]>(await as(alice).get('/user/device/table/70B3D57ED00C0DE4'));
    expect(row).toMatchObject({ payload_decoded: {}, payload_valid: true });
    expectError(await as(alice).delete(`/user/codec/${codec.uid}`), 404, 'NOT_FOUND');
    expectError(await as(alice).delete('/user/codec/abc'), 400, 'VALIDATION_FAILED', 'uid');
  });
});
