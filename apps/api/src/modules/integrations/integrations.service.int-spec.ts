import { type Eui, MAX_INTEGRATIONS_PER_ACCOUNT, normalizeEui } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { refusal, serviceTestingModule, type ServiceTestingModule } from '../../testing/service-testing-module';
import { DevicesModule } from '../devices/devices.module';
import { DevicesService } from '../devices/devices.service';
import type { CreateIntegrationDto } from './dto';
import { IntegrationsModule } from './integrations.module';
import { IntegrationsService } from './integrations.service';

/**
 * The rules of integrations as an account manages them (the cap, URLs as called and behind the
 * SSRF guard, device filters, ownership), without HTTP. Deliveries, and the disabling of a failing
 * integration, are the worker's (libs/jobs) and stay with their own specs and the e2e files.
 * URLs are IP literals: no name is resolved, so nothing here depends on DNS.
 */
describe('IntegrationsService', () => {
  let t: ServiceTestingModule;
  let integrations: IntegrationsService;

  beforeAll(async () => {
    t = await serviceTestingModule([IntegrationsModule, DevicesModule]);
    integrations = t.get(IntegrationsService);
  });
  afterAll(() => t?.close());

  const PUBLIC = 'http://93.184.216.34';
  const hook = (extra: Partial<CreateIntegrationDto> = {}): CreateIntegrationDto =>
    ({ name: 'hook', kind: 'webhook', url: `${PUBLIC}/hook`, events: ['uplink'], ...extra }) as CreateIntegrationDto;
  const stored = async (who: AuthPrincipal) =>
    (await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM integrations WHERE account_id = $1', [who.accountId]))[0]!.n;

  it('creates a webhook with a secret shown once and kept encrypted; changes and deletes it', async () => {
    const alice = await t.account();
    const created = await integrations.create(alice, hook());
    expect(created).toMatchObject({ kind: 'webhook', url: `${PUBLIC}/hook`, events: ['uplink'], enabled: true, secret: expect.stringMatching(/^whsec_/) });
    expect(await integrations.one(alice, created.uid)).not.toHaveProperty('secret');
    const [row] = await t.sql<{ secret_encrypted: Buffer }>('SELECT secret_encrypted FROM integrations WHERE uid = $1', [created.uid]);
    expect(Buffer.from(row!.secret_encrypted).toString('latin1')).not.toContain(created.secret!.slice(6));
    expect(await integrations.update(alice, created.uid, { name: 'Renamed', events: ['command'], enabled: false })).toMatchObject({
      name: 'Renamed',
      events: ['command'],
      enabled: false,
    });
    expect(await integrations.delete(alice, created.uid)).toEqual({ uid: created.uid, deleted: true });
    expect(await refusal(integrations.one(alice, created.uid))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
    expect(await refusal(integrations.delete(alice, created.uid))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
  });

  it(`stops at ${MAX_INTEGRATIONS_PER_ACCOUNT} integrations per account (LIMIT_REACHED); a deletion makes room`, async () => {
    const carol = await t.account();
    const made: number[] = [];
    for (let i = 0; i < MAX_INTEGRATIONS_PER_ACCOUNT; i++) made.push((await integrations.create(carol, hook({ name: `h${i}` }))).uid);
    expect(await refusal(integrations.create(carol, hook()))).toMatchObject({ code: 'LIMIT_REACHED' });
    expect(await stored(carol)).toBe(MAX_INTEGRATIONS_PER_ACCOUNT);
    await integrations.delete(carol, made[0]!);
    await integrations.create(carol, hook());
  });

  it('counts the cap per account: another account’s integrations leave room', async () => {
    const [one, two] = [await t.account(), await t.account()];
    for (let i = 0; i < 3; i++) await integrations.create(one, hook());
    await integrations.create(two, hook());
    expect([await stored(one), await stored(two)]).toEqual([3, 1]);
  });

  it('stores and shows a URL as it is called (the WHATWG-parsed href), at creation and on change', async () => {
    const alice = await t.account();
    const created = await integrations.create(alice, hook({ url: ' HTTP://93.184.216.34:8080/norm/./a/../hook path?x=1 ' }));
    expect(created.url).toBe('http://93.184.216.34:8080/norm/hook%20path?x=1');
    const [row] = await t.sql<{ url: string }>('SELECT url FROM integrations WHERE uid = $1', [created.uid]);
    expect(row!.url).toBe(created.url);
    expect((await integrations.update(alice, created.uid, { url: 'http://1572395042/other' })).url).toBe('http://93.184.216.34/other');
  });

  it('leaves the stored URL as it was when a change is refused', async () => {
    const alice = await t.account();
    const created = await integrations.create(alice, hook());
    for (const url of [`${PUBLIC}/a\\b`, `${PUBLIC}/a\tb`, 'http://127.0.0.1/inside']) {
      expect(await refusal(integrations.update(alice, created.uid, { url }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'url' });
    }
    expect((await integrations.one(alice, created.uid)).url).toBe(`${PUBLIC}/hook`);
  });

  it.each<[string, Partial<CreateIntegrationDto>, string]>([
    ['a URL that is not http(s)', { url: 'file:///etc/passwd' }, 'url'],
    ['a URL with credentials', { url: 'http://user:pw@93.184.216.34/' }, 'url'],
    ['an mqtt URL for a webhook', { url: 'mqtt://93.184.216.34' }, 'url'],
    ['an mqtt member on a webhook', { topic: 'a/b' }, 'topic'],
    ['an http URL for mqtt', { kind: 'mqtt', url: `${PUBLIC}/` }, 'url'],
    ['a backslash (read as / by the caller, as userinfo by others)', { url: 'http://a.example\\@127.0.0.1/' }, 'url'],
    ['CR and LF', { url: `${PUBLIC}/hook\r\nX-Injected: 1` }, 'url'],
    ['broker port 0', { kind: 'mqtt', url: 'mqtt://93.184.216.34:0' }, 'url'],
    ['a broker on SSH’s port', { kind: 'mqtt', url: 'mqtt://93.184.216.34:22' }, 'url'],
    ['a broker on Redis’s port (not in MQTT_ALLOWED_PORTS)', { kind: 'mqtt', url: 'mqtt://93.184.216.34:6379' }, 'url'],
  ])('refuses %s (VALIDATION_FAILED naming it), storing nothing', async (_what, extra, field) => {
    const alice = await t.account();
    expect(await refusal(integrations.create(alice, hook(extra)))).toMatchObject({ code: 'VALIDATION_FAILED', field });
    expect(await stored(alice)).toBe(0);
  });

  it.each([
    ['http://127.0.0.1:8080/hook', 'webhook'],
    ['http://169.254.169.254/latest/meta-data', 'webhook'],
    ['http://2130706433/', 'webhook'],
    ['http://[::1]:3000/', 'webhook'],
    ['mqtt://127.0.0.1:1883', 'mqtt'],
    ['mqtts://10.0.0.1', 'mqtt'],
  ] as const)('refuses %s behind the SSRF guard (VALIDATION_FAILED on url), storing nothing', async (url, kind) => {
    const alice = await t.account();
    expect(await refusal(integrations.create(alice, hook({ kind, url })))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'url' });
    expect(await stored(alice)).toBe(0);
  });

  it('gives an mqtt integration the default topic and qos 1, and no secret', async () => {
    const alice = await t.account();
    const created = await integrations.create(alice, hook({ kind: 'mqtt', url: 'mqtt://93.184.216.34' }));
    expect(created).toMatchObject({ kind: 'mqtt', qos: 1, secret: null });
    expect(typeof created.topic).toBe('string');
  });

  it('refuses null for name, url, events or enabled on change', async () => {
    const alice = await t.account();
    const { uid } = await integrations.create(alice, hook());
    for (const member of ['name', 'url', 'events', 'enabled'] as const) {
      expect(await refusal(integrations.update(alice, uid, { [member]: null } as never))).toMatchObject({ code: 'VALIDATION_FAILED', field: member });
    }
  });

  it('takes a device filter of the account’s own devices, and refuses another account’s device (NOT_FOUND), storing nothing', async () => {
    const [alice, bob] = [await t.account(), await t.account()];
    const register = async (who: AuthPrincipal) => {
      const eui = normalizeEui(randomBytes(8).toString('hex'))! as Eui;
      await t.get(DevicesService).register(who, eui, {});
      return eui;
    };
    const [mine, bobs] = [await register(alice), await register(bob)];
    expect((await integrations.create(alice, hook({ devices: { euis: [mine.toLowerCase()] } }))).devices).toMatchObject({ euis: [mine] });
    expect(await refusal(integrations.create(alice, hook({ devices: { euis: [bobs] } })))).toMatchObject({ code: 'NOT_FOUND', field: 'devices.euis' });
    expect(await stored(alice)).toBe(1);
  });

  it('answers NOT_FOUND for another account’s integration on read, change, deliveries and delete, changing nothing', async () => {
    const [alice, bob] = [await t.account(), await t.account()];
    const { uid } = await integrations.create(alice, hook({ name: 'mine' }));
    expect(await refusal(integrations.one(bob, uid))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
    expect(await refusal(integrations.update(bob, uid, { name: 'mine now' }))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
    expect(await refusal(integrations.listDeliveries(bob, uid, {}))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
    expect(await refusal(integrations.delete(bob, uid))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
    expect((await integrations.one(alice, uid)).name).toBe('mine');
    expect(await integrations.list(bob)).toEqual([]);
  });
});
