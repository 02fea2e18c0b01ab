import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
interface ImportAnswer {
  dry_run: boolean;
  format: string;
  rows: number;
  created: number;
  valid: boolean;
  devices: { row: number; devEUI: string; label: string; decoder_ref: number | null; network_ref: number | null; folder: string | null; tags: unknown }[];
  problems: { row: number | null; field: string; code: string; message: string }[];
  devices_owned: number;
  max_devices: number;
}
const EXPORTS = join(__dirname, '../../../test-data/device-exports');
const eui = () => randomBytes(8).toString('hex').toUpperCase();

/*
 * Bulk registration (docs/api.md §4): rows as JSON or CSV, or The Things Stack's and ChirpStack's
 * device exports; all or none; every problem named by row and member; a dry run that stores
 * nothing; within max_devices.
 */
describe('POST /user/device/import', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  const post = (who: Caller, body: unknown, query = '') =>
    svc
      .http()
      .post(`/user/device/import${query}`)
      .set(...bearer(who.appToken))
      .send(body as object);
  const csv = (who: Caller, text: string, query = '') =>
    svc
      .http()
      .post(`/user/device/import${query}`)
      .set(...bearer(who.appToken))
      .set('Content-Type', 'text/csv')
      .send(text);
  const owned = async (who: Caller) =>
    expectSuccess<string[]>(
      await svc
        .http()
        .get('/user/device')
        .set(...bearer(who.appToken)),
    );

  beforeAll(async () => {
    svc = await startTestService({ env: { ACCOUNT_MAX_DEVICES: '10050' } });
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
  });
  afterAll(() => svc?.close());

  it('registers JSON rows with references by uid or name and answers 201 with what it registered', async () => {
    const [a, b] = [eui(), eui()];
    const answer = expectSuccess<ImportAnswer>(
      await post(alice, [
        { eui: a, label: 'Shed', decoder: 'Cayenne LPP', network: 'ChirpStack', folder: 'Farm', tags: ['north'] },
        { eui: b.toLowerCase().replace(/(..)(?!$)/g, '$1-'), decoder: 2, type: 1 },
      ]),
      201,
    );
    expect(answer).toMatchObject({ dry_run: false, format: 'rows', rows: 2, created: 2, valid: true, problems: [] });
    expect(answer.devices).toEqual([
      { row: 1, devEUI: a, label: 'Shed', type_ref: null, decoder_ref: 2, network_ref: 3, icon_ref: null, folder: 'Farm', tags: ['north'] },
      { row: 2, devEUI: b, label: b, type_ref: 1, decoder_ref: 2, network_ref: 1, icon_ref: null, folder: null, tags: null },
    ]);
    const [meta] = expectSuccess<{ label: string; decoder_ref: number; network_ref: number; folder: string; tags: unknown }[]>(
      await svc
        .http()
        .get(`/user/device/meta/${a}`)
        .set(...bearer(alice.appToken)),
    );
    expect(meta).toMatchObject({ label: 'Shed', decoder_ref: 2, network_ref: 3, folder: 'Farm', tags: ['north'] });
  });

  it('registers CSV (text/csv) the same way', async () => {
    const [a, b] = [eui(), eui()];
    const answer = expectSuccess<ImportAnswer>(await csv(alice, `eui,label,decoder,tags\r\n${a},"Pump, west",Cayenne LPP,"x, y"\r\n${b},,,\r\n`), 201);
    expect(answer).toMatchObject({ format: 'csv', created: 2 });
    expect(answer.devices.map((d) => [d.devEUI, d.label, d.decoder_ref, d.tags])).toEqual([
      [a, 'Pump, west', 2, ['x', 'y']],
      [b, b, 1, null],
    ]);
    expect(await owned(alice)).toEqual(expect.arrayContaining([a, b]));
  });

  it('imports The Things Stack’s and ChirpStack’s device exports (test-data/device-exports)', async () => {
    const tts = expectSuccess<ImportAnswer>(await post(alice, JSON.parse(readFileSync(join(EXPORTS, 'tts-end-devices-list.json'), 'utf8'))), 201);
    expect(tts).toMatchObject({ format: 'tts', created: 2 });
    expect(tts.devices[0]).toMatchObject({ devEUI: '70B3D57ED005A001', label: 'Greenhouse temperature', network_ref: 2, folder: 'vondelpark-sensors' });
    const ttsCsv = expectSuccess<ImportAnswer>(await csv(alice, readFileSync(join(EXPORTS, 'tts-devices.csv'), 'utf8')), 201);
    expect(ttsCsv).toMatchObject({ format: 'tts-csv', created: 2 });
    const chirpstack = expectSuccess<ImportAnswer>(await post(alice, JSON.parse(readFileSync(join(EXPORTS, 'chirpstack-devices-list.json'), 'utf8'))), 201);
    expect(chirpstack).toMatchObject({ format: 'chirpstack', created: 2 });
    expect(chirpstack.devices[0]).toMatchObject({ devEUI: '0004A30B001C0530', label: 'meadow-weather-1', network_ref: 3, tags: { zone: 'meadow' } });
  });

  it('a dry run stores nothing and lists every row and every problem (200)', async () => {
    const before = await owned(bob);
    const good = eui();
    const dry = expectSuccess<ImportAnswer>(
      await post(bob, [{ eui: good, label: 'ok' }, { eui: 'xyz' }, { eui: good }, { eui: eui(), decoder: 'No such decoder' }], '?dry_run=true'),
    );
    expect(dry).toMatchObject({ dry_run: true, rows: 4, created: 0, valid: false, devices_owned: before.length, max_devices: 10050 });
    expect(dry.problems).toEqual([
      { row: 2, field: 'rows[1].eui', code: 'VALIDATION_FAILED', message: 'row 2: "xyz" is not an EUI (16 hexadecimal digits)' },
      { row: 3, field: 'rows[2].eui', code: 'VALIDATION_FAILED', message: `row 3: ${good} is also on row 1` },
      { row: 4, field: 'rows[3].decoder', code: 'VALIDATION_FAILED', message: 'row 4: decoder "No such decoder" does not exist' },
    ]);
    expect(await owned(bob)).toEqual(before);
    const clean = expectSuccess<ImportAnswer>(await csv(bob, `eui\n${eui()}\n`, '?dry_run=true'));
    expect(clean).toMatchObject({ dry_run: true, valid: true, created: 0, problems: [] });
    expect(await owned(bob)).toEqual(before);
  });

  it('refuses the whole import on any problem, naming row and member, and stores none of it', async () => {
    const good = eui();
    const errors = expectError(
      await post(bob, [{ eui: good }, { eui: eui(), label: '' }, { eui: eui(), colour: 'red' }, { eui: eui(), network: 999 }]),
      400,
      'VALIDATION_FAILED',
      'rows[2].colour',
    );
    expect(errors.map((e) => e.field)).toEqual(['rows[2].colour', 'rows[3].network']);
    expect(await owned(bob)).not.toContain(good);
    expectError(await csv(bob, `eui,colour\n${good},red\n`), 400, 'VALIDATION_FAILED', 'columns.colour');
    expectError(await post(bob, { devices: [] }), 400, 'VALIDATION_FAILED', 'body');
    expectError(await post(bob, []), 400, 'VALIDATION_FAILED', 'rows');
    expectError(await post(bob, [{ eui: good }], '?dry_run=maybe'), 400, 'VALIDATION_FAILED', 'dry_run');
    expect(await owned(bob)).not.toContain(good);
  });

  // Issue 28: a tags cell of 5,000 nested arrays was a 500 (the stack exhausted) instead of a refusal.
  it('refuses CSV tags past the JSON body limits (depth 64) with 400 naming the row’s tags, storing none', async () => {
    const [deep, fine] = [eui(), eui()];
    const cell = (json: string) => `"${json.replace(/"/g, '""')}"`;
    const text = `eui,label,tags
${fine},ok,${cell('{"zone":"north"}')}
${deep},deep,${cell('['.repeat(5_000) + ']'.repeat(5_000))}
`;
    const errors = expectError(await csv(alice, text), 400, 'VALIDATION_FAILED', 'rows[1].tags');
    expect(errors).toEqual([{ code: 'VALIDATION_FAILED', field: 'rows[1].tags', message: 'row 2: tags are nested deeper than 64 levels' }]);
    const dry = expectSuccess<ImportAnswer>(await csv(alice, text, '?dry_run=true'));
    expect(dry).toMatchObject({ valid: false, created: 0 });
    expect(dry.problems).toEqual([{ row: 2, field: 'rows[1].tags', code: 'VALIDATION_FAILED', message: 'row 2: tags are nested deeper than 64 levels' }]);
    expect(await owned(alice)).not.toEqual(expect.arrayContaining([deep]));
    expect(await owned(alice)).not.toEqual(expect.arrayContaining([fine]));
    // The same through a JSON body is refused by the body's own check, before any row is read.
    expectError(await post(alice, [{ eui: deep, tags: JSON.parse('['.repeat(100) + ']'.repeat(100)) }]), 400, 'VALIDATION_FAILED', 'body');
    expectError(await svc.http().post('/user/device/import').set('Content-Type', 'text/csv').send(text), 401, 'AUTH_REQUIRED');
    expect(await owned(alice)).not.toEqual(expect.arrayContaining([deep]));
  });

  it('refuses EUIs already registered (409 naming the row) and more devices than max_devices (403), storing none', async () => {
    const mine = eui();
    await svc
      .http()
      .post(`/user/device/${mine}`)
      .set(...bearer(alice.appToken))
      .send({})
      .expect(201);
    const fresh = eui();
    const taken = expectError(await post(bob, [{ eui: fresh }, { eui: mine }]), 409, 'DEVICE_OWNED_ELSEWHERE', 'rows[1].eui');
    expect(taken[0]!.message).toBe(`row 2: ${mine} is already registered on another account`);
    expectError(await post(alice, [{ eui: mine }]), 409, 'DEVICE_EXISTS', 'rows[0].eui');
    expect(await owned(bob)).not.toContain(fresh);
    const small = await startTestService({ env: { ACCOUNT_MAX_DEVICES: '3' }, sameDatabaseAs: svc });
    try {
      const carol = await accountWithCredentials(small, 'carol');
      const res = await small
        .http()
        .post('/user/device/import')
        .set(...bearer(carol.appToken))
        .send([{ eui: eui() }, { eui: eui() }, { eui: eui() }, { eui: eui() }]);
      expectError(res, 403, 'DEVICE_LIMIT_REACHED', 'rows');
      expect(
        expectSuccess<string[]>(
          await small
            .http()
            .get('/user/device')
            .set(...bearer(carol.appToken)),
        ),
      ).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('a row may name only the account’s own codecs and networks: another account’s is a row problem', async () => {
    const codec = expectSuccess<{ uid: number }>(
      await svc
        .http()
        .post('/user/codec')
        .set(...bearer(alice.appToken))
        .send({ name: 'alice codec', script: 'function decodeUplink(i) { return { data: {} }; }' }),
      201,
    );
    expectError(await post(bob, [{ eui: eui(), decoder: codec.uid }]), 400, 'VALIDATION_FAILED', 'rows[0].decoder');
    expectError(await post(bob, [{ eui: eui(), decoder: 'alice codec' }]), 400, 'VALIDATION_FAILED', 'rows[0].decoder');
    expectSuccess(await post(alice, [{ eui: eui(), decoder: 'alice codec' }]), 201);
    expectError(
      await svc
        .http()
        .post('/user/device/import')
        .send([{ eui: eui() }]),
      401,
      'AUTH_REQUIRED',
    );
  });

  it('registers 10,000 rows in one request (one statement), and refuses 10,001', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ eui: eui(), label: `bulk ${i}`, folder: 'bulk', decoder: 'Cayenne LPP' }));
    const started = Date.now();
    const answer = expectSuccess<ImportAnswer>(
      await svc
        .http()
        .post('/user/device/import')
        .set(...bearer(bob.appToken))
        .send(rows),
      201,
    );
    process.stdout.write(`device import: 10,000 rows in ${Date.now() - started} ms\n`);
    expect(answer.created).toBe(10_000);
    expect((await owned(bob)).length).toBeGreaterThanOrEqual(10_000);
    expectError(await post(bob, [...rows, { eui: eui() }]), 400, 'VALIDATION_FAILED', 'rows');
  }, 120_000);
});
