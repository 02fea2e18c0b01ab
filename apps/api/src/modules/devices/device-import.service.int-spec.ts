import { type Eui, formatDate, normalizeEui } from '@dts/domain';
import { CodecsRepository } from '@dts/persistence';
import { randomBytes } from 'node:crypto';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { refusals, serviceTestingModule, type ServiceTestingModule } from '../../testing/service-testing-module';
import { DeviceImportService } from './device-import.service';
import { DevicesModule } from './devices.module';
import { DevicesService } from './devices.service';

/**
 * The rules of bulk registration (docs/api.md §4), without HTTP: all rows or none, every problem
 * named by row and member, duplicates in the file and in the database, the device limit. The body
 * forms (JSON, CSV, network exports) are read by libs/domain, whose own specs cover them.
 */
describe('DeviceImportService', () => {
  let t: ServiceTestingModule;
  let imports: DeviceImportService;
  let devices: DevicesService;

  beforeAll(async () => {
    t = await serviceTestingModule([DevicesModule]);
    imports = t.get(DeviceImportService);
    devices = t.get(DevicesService);
  });
  afterAll(() => t?.close());

  const eui = (): Eui => normalizeEui(randomBytes(8).toString('hex'))!;

  it('registers every row, with references by uid or name and the defaults elsewhere', async () => {
    const alice = await t.account();
    const [a, b] = [eui(), eui()];
    const answer = await imports.import(
      alice,
      [
        { eui: a, label: 'Shed', decoder: 'Cayenne LPP', network: 'ChirpStack', folder: 'Farm', tags: ['north'] },
        { eui: b.toLowerCase(), decoder: 2, type: 1 },
      ],
      false,
    );
    expect(answer).toMatchObject({ dry_run: false, rows: 2, created: 2, valid: true, problems: [], devices_owned: 0 });
    expect(answer.devices).toEqual([
      { row: 1, devEUI: a, label: 'Shed', type_ref: null, decoder_ref: 2, network_ref: 3, icon_ref: null, folder: 'Farm', tags: ['north'] },
      { row: 2, devEUI: b, label: b, type_ref: 1, decoder_ref: 2, network_ref: 1, icon_ref: null, folder: null, tags: null },
    ]);
    expect((await devices.list(alice)).sort()).toEqual([a, b].sort());
  });

  it('a dry run stores nothing and lists every problem, in row order', async () => {
    const bob = await t.account();
    const good = eui();
    const dry = await imports.import(bob, [{ eui: good, label: 'ok' }, { eui: 'xyz' }, { eui: good }, { eui: eui(), decoder: 'No such decoder' }], true);
    expect(dry).toMatchObject({ dry_run: true, rows: 4, created: 0, valid: false });
    expect(dry.problems).toEqual([
      { row: 2, field: 'rows[1].eui', code: 'VALIDATION_FAILED', message: 'row 2: "xyz" is not an EUI (16 hexadecimal digits)' },
      { row: 3, field: 'rows[2].eui', code: 'VALIDATION_FAILED', message: `row 3: ${good} is also on row 1` },
      { row: 4, field: 'rows[3].decoder', code: 'VALIDATION_FAILED', message: 'row 4: decoder "No such decoder" does not exist' },
    ]);
    expect(await devices.list(bob)).toEqual([]);
  });

  it('a clean dry run is valid and still stores nothing', async () => {
    const bob = await t.account();
    expect(await imports.import(bob, [{ eui: eui() }], true)).toMatchObject({ valid: true, created: 0, problems: [] });
    expect(await devices.list(bob)).toEqual([]);
  });

  it('refuses the whole import on any problem (partial failure stores none of the good rows)', async () => {
    const bob = await t.account();
    const good = eui();
    const entries = await refusals(imports.import(bob, [{ eui: good }, { eui: eui(), colour: 'red' }, { eui: eui(), network: 999 }], false));
    expect(entries.map((e) => [e.code, e.field])).toEqual([
      ['VALIDATION_FAILED', 'rows[1].colour'],
      ['VALIDATION_FAILED', 'rows[2].network'],
    ]);
    expect(await devices.list(bob)).toEqual([]);
  });

  it('refuses an EUI twice in the file, naming the later row', async () => {
    const bob = await t.account();
    const twice = eui();
    const entries = await refusals(imports.import(bob, [{ eui: twice }, { eui: eui() }, { eui: twice.toLowerCase() }], false));
    expect(entries).toEqual([{ code: 'VALIDATION_FAILED', field: 'rows[2].eui', message: `row 3: ${twice} is also on row 1` }]);
    expect(await devices.list(bob)).toEqual([]);
  });

  it('refuses EUIs already registered: DEVICE_EXISTS on the account, DEVICE_OWNED_ELSEWHERE on another', async () => {
    const [alice, bob] = [await t.account(), await t.account()];
    const mine = eui();
    await devices.register(alice, mine, {});
    const fresh = eui();
    expect(await refusals(imports.import(bob, [{ eui: fresh }, { eui: mine }], false))).toMatchObject([
      { code: 'DEVICE_OWNED_ELSEWHERE', field: 'rows[1].eui', message: `row 2: ${mine} is already registered on another account` },
    ]);
    expect(await refusals(imports.import(alice, [{ eui: mine }], false))).toMatchObject([{ code: 'DEVICE_EXISTS', field: 'rows[0].eui' }]);
    expect(await devices.list(bob)).toEqual([]);
  });

  it('refuses more devices than max_devices (DEVICE_LIMIT_REACHED on rows), counting those owned', async () => {
    const carol = await t.account({ maxDevices: 3 });
    await devices.register(carol, eui(), {});
    expect(await refusals(imports.import(carol, [{ eui: eui() }, { eui: eui() }, { eui: eui() }], false))).toMatchObject([
      { code: 'DEVICE_LIMIT_REACHED', field: 'rows' },
    ]);
    expect(await devices.list(carol)).toHaveLength(1);
    expect((await imports.import(carol, [{ eui: eui() }, { eui: eui() }], false)).created).toBe(2);
  });

  it('orders problems by kind: validation first, then taken EUIs, then the limit', async () => {
    const [alice, dave] = [await t.account(), await t.account({ maxDevices: 1 })];
    const taken = eui();
    await devices.register(alice, taken, {});
    const dry = await imports.import(dave, [{ eui: taken }, { eui: eui() }, { eui: 'nope' }], true);
    expect(dry.problems.map((p) => p.code)).toEqual(['VALIDATION_FAILED', 'DEVICE_OWNED_ELSEWHERE', 'DEVICE_LIMIT_REACHED']);
  });

  it('lets a row name only the account’s own codecs: another account’s is a row problem', async () => {
    const [alice, bob] = [await t.account(), await t.account()];
    const codec = await t.get(CodecsRepository).create(alice.accountId, {
      name: 'alice codec',
      description: '',
      script: 'function decodeUplink(i) { return { data: {} }; }',
      examples: [],
    });
    const uid = codec!.uid;
    expect(await refusals(imports.import(bob, [{ eui: eui(), decoder: uid }], false))).toMatchObject([{ field: 'rows[0].decoder' }]);
    expect(await refusals(imports.import(bob, [{ eui: eui(), decoder: 'alice codec' }], false))).toMatchObject([{ field: 'rows[0].decoder' }]);
    expect((await imports.import(alice, [{ eui: eui(), decoder: 'alice codec' }], false)).devices[0]!.decoder_ref).toBe(uid);
  });

  it('refuses an empty import and an expired account', async () => {
    const alice = await t.account();
    expect(await refusals(imports.import(alice, [], false))).toMatchObject([{ code: 'VALIDATION_FAILED', field: 'rows' }]);
    const old = await t.account({ expiresOn: formatDate(new Date(Date.now() - 86_400_000)) });
    expect(await refusals(imports.import(old, [{ eui: eui() }], false))).toMatchObject([{ code: 'ACCOUNT_EXPIRED' }]);
  });

  it('registers CSV the same way', async () => {
    const alice: AuthPrincipal = await t.account();
    const [a, b] = [eui(), eui()];
    const answer = await imports.import(alice, `eui,label,decoder,tags\r\n${a},"Pump, west",Cayenne LPP,"x, y"\r\n${b},,,\r\n`, false);
    expect(answer).toMatchObject({ format: 'csv', created: 2 });
    expect(answer.devices.map((d) => [d.devEUI, d.label, d.decoder_ref, d.tags])).toEqual([
      [a, 'Pump, west', 2, ['x', 'y']],
      [b, b, 1, null],
    ]);
  });
});
