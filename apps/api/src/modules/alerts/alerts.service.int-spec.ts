import { type Eui, normalizeEui } from '@dts/domain';
import { randomBytes } from 'node:crypto';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { refusal, serviceTestingModule, type ServiceTestingModule } from '../../testing/service-testing-module';
import { DeviceSharesService } from '../devices/device-shares.service';
import { DevicesModule } from '../devices/devices.module';
import { DevicesService } from '../devices/devices.service';
import { AlertsModule } from './alerts.module';
import { AlertsService } from './alerts.service';

/**
 * The rules of an account's alerts as it reads and acknowledges them (docs/api.md §19), without
 * HTTP. Alerts are raised by the worker's rule evaluation (libs/jobs, and the alerts e2e file):
 * here they are rows put in place, as that evaluation leaves them.
 */
describe('AlertsService', () => {
  let t: ServiceTestingModule;
  let alerts: AlertsService;

  beforeAll(async () => {
    t = await serviceTestingModule([AlertsModule, DevicesModule]);
    alerts = t.get(AlertsService);
  });
  afterAll(() => t?.close());

  async function device(who: AuthPrincipal): Promise<Eui> {
    const eui = normalizeEui(randomBytes(8).toString('hex'))!;
    await t.get(DevicesService).register(who, eui, {});
    return eui;
  }

  /** An alert of `who` on `eui`, raised `minutesAgo`, cleared or not. */
  async function raised(who: AuthPrincipal, eui: Eui, { minutesAgo = 1, cleared = false } = {}): Promise<number> {
    const [row] = await t.sql<{ uid: string }>(
      `INSERT INTO alerts (account_id, rule_name, rule_kind, device_id, message, details, raised_at, cleared_at)
       SELECT $1, 'Hot', 'threshold', d.uid, 'too hot', '{}'::jsonb, now() - $3 * interval '1 minute', CASE WHEN $4 THEN now() END
       FROM devices d WHERE d.eui = $2 RETURNING uid::text`,
      [who.accountId, eui, minutesAgo, cleared],
    );
    return Number(row!.uid);
  }

  it('lists an account’s alerts newest first, active or cleared', async () => {
    const alice = await t.account();
    const eui = await device(alice);
    const older = await raised(alice, eui, { minutesAgo: 10, cleared: true });
    const newer = await raised(alice, eui, { minutesAgo: 1 });
    const listed = await alerts.list(alice, {});
    expect(listed.map((a) => [a.uid, a.state, a.devEUI])).toEqual([
      [newer, 'active', eui],
      [older, 'cleared', eui],
    ]);
  });

  it('filters by state and by device', async () => {
    const alice = await t.account();
    const [one, two] = [await device(alice), await device(alice)];
    const active = await raised(alice, one);
    const cleared = await raised(alice, two, { cleared: true });
    expect((await alerts.list(alice, { state: 'active' })).map((a) => a.uid)).toEqual([active]);
    expect((await alerts.list(alice, { state: 'cleared' })).map((a) => a.uid)).toEqual([cleared]);
    expect((await alerts.list(alice, { eui: two })).map((a) => a.uid)).toEqual([cleared]);
  });

  it('acknowledges once: the first time stays, and the filters follow', async () => {
    const alice = await t.account();
    const eui = await device(alice);
    const uid = await raised(alice, eui);
    const first = await alerts.acknowledge(alice, uid);
    expect(first).toMatchObject({ uid, acknowledged: true, acknowledged_unix: expect.any(Number) });
    expect((await alerts.acknowledge(alice, uid)).acknowledged_unix).toBe(first.acknowledged_unix);
    expect((await alerts.list(alice, { state: 'acknowledged' })).map((a) => a.uid)).toEqual([uid]);
    expect(await alerts.list(alice, { state: 'unacknowledged' })).toEqual([]);
  });

  it('never shows or acknowledges another account’s alert (NOT_FOUND)', async () => {
    const [alice, bob] = [await t.account(), await t.account()];
    const uid = await raised(alice, await device(alice));
    expect(await refusal(alerts.one(bob, uid))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
    expect(await refusal(alerts.acknowledge(bob, uid))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
    expect(await alerts.list(bob, {})).toEqual([]);
    expect((await alerts.one(alice, uid)).acknowledged).toBe(false);
  });

  it('answers NOT_FOUND for a device filter the account cannot see, VALIDATION_FAILED for one that is no EUI', async () => {
    const [alice, bob] = [await t.account(), await t.account()];
    const bobs = await device(bob);
    expect(await refusal(alerts.list(alice, { eui: bobs }))).toMatchObject({ code: 'NOT_FOUND', field: 'eui' });
    expect(await refusal(alerts.list(alice, { eui: 'xyz' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'eui' });
  });

  it('lets a user a device is shared with filter by it, seeing only its own alerts', async () => {
    const [alice, bob] = [await t.account(), await t.account()];
    const eui = await device(alice);
    await t.get(DeviceSharesService).share(alice, eui, bob.username);
    await raised(alice, eui);
    expect(await alerts.list(bob, { eui })).toEqual([]);
  });

  it('hides the alerts of a deleted device from acknowledgement', async () => {
    const alice = await t.account();
    const eui = await device(alice);
    const uid = await raised(alice, eui);
    await t.get(DevicesService).remove(alice, eui);
    expect(await refusal(alerts.acknowledge(alice, uid))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
  });

  it('refuses from after to (VALIDATION_FAILED on from)', async () => {
    const alice = await t.account();
    expect(await refusal(alerts.list(alice, { from: 200, to: 100 }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'from' });
  });
});
