import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountWithCredentials, bearer, tokenClient } from './support/accounts';
import { eventually } from '@dts/platform';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
interface Example {
  kind: string;
  description: string;
  result: { passed: boolean; message: string | null } | null;
}
interface Codec {
  uid: number;
  name: string;
  script: string;
  examples: Example[];
  updated_unix: number;
}

const VENDOR = join(__dirname, '../../../test-data/lorawan-devices/vendor');
const read = (path: string) => readFileSync(join(VENDOR, path), 'utf8');
/** The codec YAML and the scripts it names, as the console's import sends them. */
const repositoryCodec = (vendor: string, yamlName: string) => {
  const yaml = read(`${vendor}/${yamlName}`);
  const files: Record<string, string> = {};
  for (const [, name] of yaml.matchAll(/fileName:\s*(\S+)/g)) files[name!] = read(`${vendor}/${name}`);
  return { yaml, files };
};
const GOOD =
  'function decodeUplink(input) { return { data: { first: input.bytes[0], port: input.fPort }, warnings: input.bytes.length > 1 ? ["long"] : [] }; }';

/*
 * The codec workbench (docs/api.md §13): importing a codec from The Things Network device
 * repository's layout with its examples, reading and editing one codec, and trying a draft script
 * on given bytes without storing anything.
 */
describe('codec import, edit and try (/user/codec/import, /user/codec/{uid}, /user/codec/try)', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  const as = (who: Caller) => tokenClient(svc, who.appToken);
  const codecsOf = async (who: Caller) => expectSuccess<Codec[]>(await as(who).get('/user/codec'));

  beforeAll(async () => {
    svc = await startTestService({ env: { CODEC_CPU_MS_PER_MINUTE: '60000' } });
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
  });
  afterAll(() => svc?.close());

  it('imports Laird RS1xx (a 100 KB script, over the old 64 KiB) with its YAML: 8 uplink, 11 encoder and 11 decoder examples run and pass', async () => {
    const codec = expectSuccess<Codec>(
      await as(alice).post('/user/codec/import', { name: 'Laird RS1xx', ...repositoryCodec('laird', 'rs1xx-temp-rh-sensor-codec.yaml') }),
      201,
    );
    expect(Buffer.byteLength(codec.script)).toBe(100_581);
    expect(codec.examples).toHaveLength(30);
    expect(codec.examples.filter((e) => e.result?.passed)).toHaveLength(30);
    expect(codec.examples[0]).toMatchObject({
      kind: 'uplink',
      description: 'Send Temp RH Data Notification',
      input: { fPort: 1 },
      result: { passed: true, message: null },
    });
    // Stored with the codec, listed and shown.
    expect((await codecsOf(alice)).find((c) => c.uid === codec.uid)?.examples).toEqual(codec.examples);
    expect(expectSuccess<Codec>(await as(alice).get(`/user/codec/${codec.uid}`))).toEqual(codec);
    // And it decodes an uplink as a device's codec.
    await as(alice).post('/user/device/70B3D57ED00C1A01', { decoder_ref: codec.uid }).expect(201);
    await svc
      .http()
      .post('/ingest/rest')
      .set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET)
      .send({ devEUI: '70B3D57ED00C1A01', port: 1, payload_hex: '0100213443620501000001', fcnt: 1 })
      .expect(202);
    const [row] = expectSuccess<{ payload_valid: boolean; temperature: number }[]>(await as(alice).get('/user/device/table/70B3D57ED00C1A01'));
    expect(row).toMatchObject({ payload_valid: true, temperature: 98.67 });
  });

  it('imports a codec whose sections name different files (Tektelic: decoder and encoder, 141 KB together) and shows a failing example as failed', async () => {
    const tektelic = repositoryCodec('tektelic', 't00061xx-codec.yaml');
    const codec = expectSuccess<Codec>(await as(alice).post('/user/codec/import', { name: 'Tektelic smart room', ...tektelic }), 201);
    expect(codec.examples.map((e) => [e.kind, e.result?.passed])).toEqual([
      ['uplink', true],
      ['downlink_encode', true],
    ]);
    // A YAML whose example expects what the codec does not say: imported, the example failed with the difference.
    const wind = repositoryCodec('example', 'windsensor-codec.yaml');
    const wrong = wind.yaml.replace('speed: 42', 'speed: 43');
    const windCodec = expectSuccess<Codec>(
      await as(alice).post('/user/codec/import', { name: 'Wind (one wrong example)', yaml: wrong, files: wind.files }),
      201,
    );
    const failed = windCodec.examples.filter((e) => !e.result?.passed);
    expect(failed).toEqual([
      expect.objectContaining({
        description: '42 knots from the East',
        result: expect.objectContaining({ passed: false, message: 'output.data.speed: expected 43, got 42' }),
      }),
    ]);
  });

  it.each([
    [{ name: 'x', yaml: 'uplinkDecoder: {fileName: a.js}', files: {} }, 'files'],
    [{ name: 'x', yaml: 'uplinkDecoder: {fileName: a.js}', files: { 'a.js': 'function (' } }, 'files'],
    [{ name: 'x', yaml: 'downlinkEncoder: {fileName: a.js}', files: { 'a.js': GOOD } }, 'yaml.uplinkDecoder'],
    [{ name: 'x', yaml: 'uplinkDecoder: {fileName: a.js}', files: { 'a.js': GOOD, 'b.js': GOOD } }, 'files.b.js'],
    [{ name: 'x', yaml: 'uplinkDecoder: [', files: { 'a.js': GOOD } }, 'yaml'],
    [{ name: 'x', yaml: 'uplinkDecoder: {fileName: a.js}' }, 'files'],
    [{ yaml: 'uplinkDecoder: {fileName: a.js}', files: { 'a.js': GOOD } }, 'name'],
    [{ name: 'x', yaml: 'uplinkDecoder: {fileName: a.js}', files: { 'a.js': 'x'.repeat(600_000) } }, 'files'],
  ])('refuses the import %j naming %s, storing nothing', async (body, field) => {
    expectError(await as(bob).post('/user/codec/import', body), 400, 'VALIDATION_FAILED', field);
    expect(await codecsOf(bob)).toEqual([]);
  });

  it('edits a codec: a new script runs its examples again and re-decodes its devices; the name and description alone run nothing', async () => {
    const wind = repositoryCodec('example', 'windsensor-codec.yaml');
    const codec = expectSuccess<Codec>(await as(alice).post('/user/codec/import', { name: 'Wind', ...wind }), 201);
    expect(codec.examples.every((e) => e.result?.passed)).toBe(true);
    await as(alice).post('/user/device/70B3D57ED00C1A02', { decoder_ref: codec.uid }).expect(201);
    await svc
      .http()
      .post('/ingest/rest')
      .set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET)
      .send({ devEUI: '70B3D57ED00C1A02', port: 1, payload_hex: '0020', fcnt: 1 })
      .expect(202);
    const broken = wind.files['windsensor.js']!.replace('speed: input.bytes[1]', 'speed: input.bytes[1] * 2');
    expect(broken).not.toBe(wind.files['windsensor.js']);
    const edited = expectSuccess<Codec>(await as(alice).patch(`/user/codec/${codec.uid}`, { script: broken }));
    expect(edited.script).toBe(broken);
    expect(edited.examples.filter((e) => e.result && !e.result.passed).map((e) => e.description)).toEqual([
      '32 knots from the North',
      '42 knots from the East',
    ]);
    // The device's history is decoded again with the new script (device.redecode, in the worker).
    await eventually(
      async () => {
        const [row] = expectSuccess<{ payload_decoded: { speed?: number } }[]>(await as(alice).get('/user/device/table/70B3D57ED00C1A02'));
        expect(row?.payload_decoded.speed).toBe(64);
      },
      { what: 'the history decoded with the new script', timeoutMs: 15_000, intervalMs: 200 },
    );
    const renamed = expectSuccess<Codec>(await as(alice).patch(`/user/codec/${codec.uid}`, { name: 'Wind v2', description: 'doubled' }));
    expect(renamed).toMatchObject({ name: 'Wind v2', script: broken, examples: edited.examples });
  });

  it.each([
    [{}, 'body'],
    [{ script: 'function (' }, 'script'],
    [{ script: 'var x;' }, 'script'],
    [{ name: '' }, 'name'],
    [{ name: 'raw' }, 'name'],
    [{ script: GOOD, extra: 1 }, 'extra'],
  ])('refuses the edit %j naming %s, changing nothing', async (body, field) => {
    const codec = expectSuccess<Codec>(await as(bob).post('/user/codec', { name: `edit-${field}`, script: GOOD }), 201);
    expectError(await as(bob).patch(`/user/codec/${codec.uid}`, body), 400, 'VALIDATION_FAILED', field);
    expect(expectSuccess<Codec>(await as(bob).get(`/user/codec/${codec.uid}`))).toEqual(codec);
    await svc
      .http()
      .delete(`/user/codec/${codec.uid}`)
      .set(...bearer(bob.appToken))
      .expect(200);
  });

  it('tries a draft on hex or Base64 bytes: the codec’s output, warnings, the stored form and the measurements, with the limits; nothing stored', async () => {
    const before = await codecsOf(alice);
    const hex = expectSuccess<Record<string, unknown>>(await as(alice).post('/user/codec/try', { script: GOOD, fPort: 3, payload_hex: '0A0B' }));
    expect(hex).toMatchObject({
      problem: null,
      decoded: {
        output: { data: { first: 10, port: 3 }, warnings: ['long'] },
        valid: true,
        error: null,
        payload_decoded: { first: 10, port: 3 },
        payload_errors: [],
        payload_warnings: ['long'],
        measurements: { temperature: null },
      },
      examples: [],
      limits: { max_script_bytes: 524288, memory_bytes: 16777216, call_ms: 50, load_ms: 201, cpu_ms_per_request: 1000, cpu_ms_per_minute: 60000 },
    });
    expect(hex.cpu_ms).toEqual(expect.any(Number));
    const b64 = expectSuccess<{ decoded: { output: unknown } }>(await as(alice).post('/user/codec/try', { script: GOOD, fPort: 1, payload_base64: 'Bw==' }));
    expect(b64.decoded.output).toEqual({ data: { first: 7, port: 1 }, warnings: [] });
    // What goes wrong is the answer, not a refusal: a syntax error, a codec error, a loop.
    expect(expectSuccess<{ problem: string }>(await as(alice).post('/user/codec/try', { script: 'function (', fPort: 1, payload_hex: '01' })).problem).toMatch(
      /SyntaxError/,
    );
    const thrown = expectSuccess<{ decoded: { valid: boolean; error: string } }>(
      await as(alice).post('/user/codec/try', { script: 'function decodeUplink() { return { errors: ["bad length"] }; }', fPort: 1, payload_hex: '01' }),
    );
    expect(thrown.decoded).toMatchObject({ valid: false, error: 'bad length' });
    const loop = expectSuccess<{ decoded: { error: string } }>(
      await as(alice).post('/user/codec/try', { script: 'function decodeUplink() { for (;;) {} }', fPort: 1, payload_hex: '01' }),
    );
    expect(loop.decoded.error).toBe('codec: exceeded its time limit of 50 ms');
    expect(await codecsOf(alice)).toEqual(before);
  });

  it('tries a draft against a stored codec’s examples (examples_of): pass and fail per example', async () => {
    const wind = repositoryCodec('example', 'windsensor-codec.yaml');
    const codec = expectSuccess<Codec>(await as(alice).post('/user/codec/import', { name: 'Wind to try', ...wind }), 201);
    const draft = wind.files['windsensor.js']!.replace("'invalid LED color'", "'no such colour'");
    const tried = expectSuccess<{ examples: Example[]; decoded: null }>(await as(alice).post('/user/codec/try', { script: draft, examples_of: codec.uid }));
    expect(tried.decoded).toBeNull();
    expect(tried.examples.map((e) => [e.description, e.result?.passed])).toEqual([
      ['32 knots from the North', true],
      ['42 knots from the East', true],
      ['Unknown FPort', true],
      ['Turn green', true],
      ['Invalid color', false],
      ['Turn green', true],
    ]);
    // Nothing stored: the codec's own results are as they were.
    expect(expectSuccess<Codec>(await as(alice).get(`/user/codec/${codec.uid}`)).examples.every((e) => e.result?.passed)).toBe(true);
  });

  it.each([
    [{ fPort: 1, payload_hex: '01' }, 'script'],
    [{ script: GOOD }, 'payload_hex'],
    [{ script: GOOD, payload_hex: '01' }, 'fPort'],
    [{ script: GOOD, fPort: 1, payload_hex: 'XYZ' }, 'payload_hex'],
    [{ script: GOOD, fPort: 1, payload_hex: '01', payload_base64: 'AQ==' }, 'payload_base64'],
    [{ script: GOOD, fPort: 1, payload_base64: '***' }, 'payload_base64'],
    [{ script: GOOD, fPort: 256, payload_hex: '01' }, 'fPort'],
    [{ script: GOOD, fPort: 1, payload_hex: 'AA'.repeat(243) }, 'payload_hex'],
    [{ script: 'x'.repeat(600_000), fPort: 1, payload_hex: '01' }, 'script'],
    [{ script: GOOD, examples_of: 'one' }, 'examples_of'],
    [{ script: GOOD, fPort: 1, payload_hex: '01', bytes: [1] }, 'bytes'],
  ])('refuses the try %j naming %s', async (body, field) => {
    expectError(await as(alice).post('/user/codec/try', body), 400, 'VALIDATION_FAILED', field);
  });

  it('keeps codecs to their account: another account’s codec is 404 to read, edit or try the examples of; no credentials 401', async () => {
    const mine = expectSuccess<Codec>(await as(alice).post('/user/codec', { name: 'alice only', script: GOOD }), 201);
    expectError(await as(bob).get(`/user/codec/${mine.uid}`), 404, 'NOT_FOUND', 'uid');
    expectError(await as(bob).patch(`/user/codec/${mine.uid}`, { name: 'taken over' }), 404, 'NOT_FOUND', 'uid');
    expectError(await as(bob).post('/user/codec/try', { script: GOOD, examples_of: mine.uid }), 404, 'NOT_FOUND', 'examples_of');
    expect(expectSuccess<Codec>(await as(alice).get(`/user/codec/${mine.uid}`)).name).toBe('alice only');
    expectError(await as(alice).get('/user/codec/999999'), 404, 'NOT_FOUND', 'uid');
    expectError(await as(alice).get('/user/codec/abc'), 400, 'VALIDATION_FAILED', 'uid');
    for (const [method, path] of [
      ['get', `/user/codec/${mine.uid}`],
      ['patch', `/user/codec/${mine.uid}`],
      ['post', '/user/codec/try'],
      ['post', '/user/codec/import'],
    ] as const)
      expectError(await svc.http()[method](path).send({ script: GOOD }), 401, 'AUTH_REQUIRED');
  });

  it('a 512 KiB script is taken whole (a 4 MiB body), a larger body is 413', async () => {
    const big = `${GOOD}\n${'// vendor comment line\n'.repeat(23_000)}`.slice(0, 524_288);
    const t = expectSuccess<{ problem: null; decoded: { valid: boolean }; limits: { load_ms: number } }>(
      await as(alice).post('/user/codec/try', { script: big, fPort: 1, payload_hex: '01' }),
    );
    expect(Buffer.byteLength(big)).toBe(524_288);
    expect(t).toMatchObject({ problem: null, decoded: { valid: true }, limits: { load_ms: 712 } });
    expectError(await as(alice).post('/user/codec/try', { script: 'x'.repeat(4_300_000) }), 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('codec trials within the account’s codec budget', () => {
  let svc: TestService;
  let carol: Caller;
  let dave: Caller;
  beforeAll(async () => {
    svc = await startTestService({ env: { CODEC_CPU_MS_PER_MINUTE: '300', CODEC_CPU_MS_PER_DELIVERY: '200' } });
    [carol, dave] = await Promise.all([accountWithCredentials(svc, 'carol'), accountWithCredentials(svc, 'dave')]);
  });
  afterAll(() => svc?.close());

  it('refuses trials past the minute’s budget with 429 and Retry-After, while another account’s trial runs', async () => {
    const loop = { script: 'function decodeUplink() { for (;;) {} }', fPort: 1, payload_hex: '01' };
    const statuses: number[] = [];
    let refusal: { status: number; headers: Record<string, string>; body: { errors: { code: string; field: string }[] } } | null = null;
    for (let i = 0; i < 12 && !refusal; i++) {
      const res = await svc
        .http()
        .post('/user/codec/try')
        .set(...bearer(carol.appToken))
        .send(loop);
      statuses.push(res.status);
      if (res.status === 429) refusal = res as never;
    }
    expect(statuses.slice(0, 3).every((s) => s === 200)).toBe(true);
    expect(refusal).not.toBeNull();
    expect(refusal!.body.errors[0]).toMatchObject({ code: 'RATE_LIMITED', field: 'script' });
    expect(Number(refusal!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const other = await svc
      .http()
      .post('/user/codec/try')
      .set(...bearer(dave.appToken))
      .send({ script: GOOD, fPort: 1, payload_hex: '01' });
    expect(expectSuccess<{ decoded: { valid: boolean } }>(other).decoded.valid).toBe(true);
  });
});
