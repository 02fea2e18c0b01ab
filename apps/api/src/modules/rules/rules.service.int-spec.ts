import { type Eui, normalizeEui } from '@dts/domain';
import { FencesRepository } from '@dts/persistence';
import { randomBytes } from 'node:crypto';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { refusals, serviceTestingModule, type ServiceTestingModule } from '../../testing/service-testing-module';
import { DevicesModule } from '../devices/devices.module';
import { DevicesService } from '../devices/devices.service';
import type { CreateRuleDto } from './dto/rule.dto';
import { RulesModule } from './rules.module';
import { RulesService } from './rules.service';

/**
 * The rules of alert rules as an account defines them (docs/api.md §19), without HTTP: what each
 * kind takes, ownership of fences and devices, and the offline watch armed at creation. Their
 * evaluation (raise, clear, hysteresis, mail caps) is the worker's: libs/jobs and the e2e files.
 */
describe('RulesService', () => {
  let t: ServiceTestingModule;
  let rules: RulesService;

  beforeAll(async () => {
    t = await serviceTestingModule([RulesModule, DevicesModule]);
    rules = t.get(RulesService);
  });
  afterAll(() => t?.close());

  const SQUARE = {
    type: 'Polygon',
    coordinates: [
      [
        [4.86, 52.35],
        [4.88, 52.35],
        [4.88, 52.36],
        [4.86, 52.36],
        [4.86, 52.35],
      ],
    ],
  };
  const fenceOf = async (who: AuthPrincipal) => (await t.get(FencesRepository).create(who.accountId, 'park', SQUARE)).uid;
  const deviceOf = async (who: AuthPrincipal): Promise<Eui> => {
    const eui = normalizeEui(randomBytes(8).toString('hex'))!;
    await t.get(DevicesService).register(who, eui, {});
    return eui;
  };
  const stored = async (who: AuthPrincipal) =>
    (await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM alert_rules WHERE account_id = $1', [who.accountId]))[0]!.n;

  it('creates a fence rule with every other member null, lists, reads, changes and deletes it', async () => {
    const alice = await t.account();
    const fence = await fenceOf(alice);
    const rule = await rules.create(alice, { name: 'Leaves', kind: 'fence', fence, on: 'leave' } as CreateRuleDto);
    expect(rule).toMatchObject({ name: 'Leaves', kind: 'fence', enabled: true, devices: null, email: false, fence, on: 'leave', minutes: null, above: null });
    expect(await rules.list(alice)).toEqual([rule]);
    expect(await rules.update(alice, rule.uid, { on: 'enter', email: true })).toMatchObject({ on: 'enter', email: true, name: 'Leaves' });
    expect(await rules.delete(alice, rule.uid)).toEqual({ uid: rule.uid, deleted: true });
    expect(await refusals(rules.one(alice, rule.uid))).toMatchObject([{ code: 'NOT_FOUND', field: 'uid' }]);
  });

  it('replaces a threshold’s above with a below given alone (and back)', async () => {
    const alice = await t.account();
    const hot = await rules.create(alice, { name: 'Hot', kind: 'threshold', member: 'temperature', above: 30 } as CreateRuleDto);
    expect(await rules.update(alice, hot.uid, { below: 0 })).toMatchObject({ above: null, below: 0 });
    expect(await rules.update(alice, hot.uid, { above: 5 })).toMatchObject({ above: 5, below: null });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a fence rule without its fence', { kind: 'fence', on: 'leave' }, 'fence'],
    ['a fence rule without on', { kind: 'fence', fence: 1 }, 'on'],
    ['a member of another kind', { kind: 'offline', minutes: 5, fence: 1 }, 'fence'],
    ['a threshold with both limits', { kind: 'threshold', member: 'temperature', above: 1, below: 0 }, 'below'],
    ['a threshold without a limit', { kind: 'threshold', member: 'temperature' }, 'above'],
    ['a battery percentage above 100', { kind: 'battery', measure: 'percent', below: 120 }, 'below'],
    ['a battery rule without its measure', { kind: 'battery', below: 3 }, 'measure'],
  ])('refuses %s (VALIDATION_FAILED naming it), storing nothing', async (_what, body, field) => {
    const alice = await t.account();
    expect(await refusals(rules.create(alice, { name: 'bad', ...body } as CreateRuleDto))).toContainEqual(
      expect.objectContaining({ code: 'VALIDATION_FAILED', field }),
    );
    expect(await stored(alice)).toBe(0);
  });

  it('refuses another account’s fence (NOT_FOUND on fence) or device (NOT_FOUND on devices.euis), storing nothing', async () => {
    const [alice, bob] = [await t.account(), await t.account()];
    const [bobsFence, bobsDevice] = [await fenceOf(bob), await deviceOf(bob)];
    expect(await refusals(rules.create(alice, { name: 'x', kind: 'fence', fence: bobsFence, on: 'leave' } as CreateRuleDto))).toMatchObject([
      { code: 'NOT_FOUND', field: 'fence' },
    ]);
    expect(await refusals(rules.create(alice, { name: 'x', kind: 'offline', minutes: 5, devices: { euis: [bobsDevice] } } as CreateRuleDto))).toMatchObject([
      { code: 'NOT_FOUND', field: 'devices.euis' },
    ]);
    expect(await stored(alice)).toBe(0);
  });

  it('answers NOT_FOUND for another account’s rule on read, change and delete, changing nothing', async () => {
    const [alice, bob] = [await t.account(), await t.account()];
    const mine = await rules.create(alice, { name: 'mine', kind: 'offline', minutes: 60 } as CreateRuleDto);
    expect(await refusals(rules.one(bob, mine.uid))).toMatchObject([{ code: 'NOT_FOUND', field: 'uid' }]);
    expect(await refusals(rules.update(bob, mine.uid, { name: 'bob’s now' }))).toMatchObject([{ code: 'NOT_FOUND', field: 'uid' }]);
    expect(await refusals(rules.delete(bob, mine.uid))).toMatchObject([{ code: 'NOT_FOUND', field: 'uid' }]);
    expect((await rules.one(alice, mine.uid)).name).toBe('mine');
  });

  it('refuses a member of another kind on change, and null for name, enabled or email', async () => {
    const alice = await t.account();
    const mine = await rules.create(alice, { name: 'mine', kind: 'offline', minutes: 60 } as CreateRuleDto);
    expect(await refusals(rules.update(alice, mine.uid, { fence: await fenceOf(alice) }))).toContainEqual(
      expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'fence' }),
    );
    for (const member of ['name', 'enabled', 'email'] as const) {
      expect(await refusals(rules.update(alice, mine.uid, { [member]: null } as never))).toMatchObject([{ code: 'VALIDATION_FAILED', field: member }]);
    }
  });

  describe('the offline watch', () => {
    const watched = async (ruleUid: number) =>
      (await t.sql<{ device_id: number }>('SELECT device_id FROM rule_states WHERE rule_id = $1 ORDER BY device_id', [ruleUid])).map((r) => r.device_id);
    const uidOf = async (eui: Eui) => (await t.sql<{ uid: number }>('SELECT uid FROM devices WHERE eui = $1', [eui]))[0]!.uid;

    it('arms every device of the account at creation, due `minutes` after it was last heard', async () => {
      const alice = await t.account();
      const [one, two] = [await deviceOf(alice), await deviceOf(alice)];
      const rule = await rules.create(alice, { name: 'silent', kind: 'offline', minutes: 30 } as CreateRuleDto);
      expect(await watched(rule.uid)).toEqual([await uidOf(one), await uidOf(two)].sort((a, b) => a - b));
      const [state] = await t.sql<{ state: string; minutes: number }>(
        `SELECT state, round(extract(epoch FROM due_at - observed_at) / 60)::int AS minutes FROM rule_states WHERE rule_id = $1 LIMIT 1`,
        [rule.uid],
      );
      expect(state).toEqual({ state: 'online', minutes: 30 });
    });

    it('arms only the devices its filter names, and nothing for a disabled rule or another kind', async () => {
      const alice = await t.account();
      const [one] = [await deviceOf(alice), await deviceOf(alice)];
      const filtered = await rules.create(alice, { name: 'one', kind: 'offline', minutes: 5, devices: { euis: [one] } } as CreateRuleDto);
      expect(await watched(filtered.uid)).toEqual([await uidOf(one)]);
      const off = await rules.create(alice, { name: 'off', kind: 'offline', minutes: 5, enabled: false } as CreateRuleDto);
      expect(await watched(off.uid)).toEqual([]);
      const hot = await rules.create(alice, { name: 'hot', kind: 'threshold', member: 't', above: 1 } as CreateRuleDto);
      expect(await watched(hot.uid)).toEqual([]);
    });
  });
});
