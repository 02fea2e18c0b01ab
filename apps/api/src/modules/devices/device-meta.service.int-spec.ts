import { type Eui, normalizeEui } from '@dts/domain';
import { AccountsRepository } from '@dts/persistence';
import { randomBytes } from 'node:crypto';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { refusal, serviceTestingModule, type ServiceTestingModule } from '../../testing/service-testing-module';
import { DeviceMetaService } from './device-meta.service';
import { DeviceSharesService } from './device-shares.service';
import { DevicesModule } from './devices.module';
import { DevicesService } from './devices.service';

/**
 * The rules of a device's retention of raw uplinks and of who may change what of a device
 * (docs/api.md §4), without HTTP. What the upkeep then removes is the worker's (libs/jobs
 * timeseries maintenance, libs/persistence RetentionRepository) and the retention e2e file's.
 */
describe('DeviceMetaService', () => {
  describe('without a platform default (raw uplinks kept unless an account or device says otherwise)', () => {
    let t: ServiceTestingModule;
    let meta: DeviceMetaService;
    let alice: AuthPrincipal;

    beforeAll(async () => {
      t = await serviceTestingModule([DevicesModule]);
      meta = t.get(DeviceMetaService);
      alice = await t.account();
    });
    afterAll(() => t?.close());

    const device = async (who: AuthPrincipal = alice): Promise<Eui> => {
      const eui = normalizeEui(randomBytes(8).toString('hex'))!;
      await t.get(DevicesService).register(who, eui, {});
      return eui;
    };
    const accountRetention = (who: AuthPrincipal, days: number | null) => t.get(AccountsRepository).adminUpdate(who.accountId, { uplinkRetentionDays: days });
    const shown = async (who: AuthPrincipal, eui: Eui) => (await meta.one(who, eui))[0]!;

    it('keeps everything by default: nothing in force', async () => {
      const owner = await t.account();
      const eui = await device(owner);
      expect(await shown(owner, eui)).toMatchObject({ uplink_retention_days: null, uplink_retention_effective_days: null });
    });

    it('sets a device’s retention shorter than its account’s, in force for the owner and a shared user', async () => {
      const [owner, bob] = [await t.account(), await t.account()];
      await accountRetention(owner, 30);
      const eui = await device(owner);
      await t.get(DeviceSharesService).share(owner, eui, bob.username);
      expect(await shown(owner, eui)).toMatchObject({ uplink_retention_days: null, uplink_retention_effective_days: 30 });
      const [answer] = await meta.update(owner, eui, { uplink_retention_days: 10 });
      expect(answer).toMatchObject({ devEUI: eui, uplink_retention_days: 10, uplink_retention_effective_days: 10 });
      expect(await shown(bob, eui)).toEqual(answer);
      expect((await meta.all(owner)).find((d) => d.devEUI === eui)).toEqual(answer);
    });

    it('takes the account’s own value (nothing longer), and null gives the device back to the account’s', async () => {
      const owner = await t.account();
      await accountRetention(owner, 30);
      const eui = await device(owner);
      expect((await meta.update(owner, eui, { uplink_retention_days: 30 }))[0]).toMatchObject({ uplink_retention_effective_days: 30 });
      expect((await meta.update(owner, eui, { uplink_retention_days: null }))[0]).toMatchObject({
        uplink_retention_days: null,
        uplink_retention_effective_days: 30,
      });
    });

    it('may not lengthen the account’s retention (VALIDATION_FAILED naming it), storing nothing of the change', async () => {
      const owner = await t.account();
      await accountRetention(owner, 30);
      const eui = await device(owner);
      await meta.update(owner, eui, { uplink_retention_days: 7, label: 'before' });
      const before = await shown(owner, eui);
      const problem = await refusal(meta.update(owner, eui, { uplink_retention_days: 31, label: 'after' }));
      expect(problem).toMatchObject({ code: 'VALIDATION_FAILED', field: 'uplink_retention_days' });
      expect(problem.message).toMatch(/a device may only shorten its account’s retention of 30 days/);
      expect(await shown(owner, eui)).toEqual(before);
    });

    it('with nothing in force on the account, any value is a shortening', async () => {
      const owner = await t.account();
      const eui = await device(owner);
      expect((await meta.update(owner, eui, { uplink_retention_days: 36_500 }))[0]).toMatchObject({ uplink_retention_effective_days: 36_500 });
    });

    it('counts a device’s value only where it is still the shorter after the account is shortened', async () => {
      const owner = await t.account();
      const eui = await device(owner);
      await meta.update(owner, eui, { uplink_retention_days: 20 });
      await accountRetention(owner, 5);
      expect(await shown(owner, eui)).toMatchObject({ uplink_retention_days: 20, uplink_retention_effective_days: 5 });
    });

    it('is the owner’s: a shared user gets FORBIDDEN naming it (and may still edit the label), another account NOT_FOUND', async () => {
      const [owner, bob, carol] = [await t.account(), await t.account(), await t.account()];
      const eui = await device(owner);
      await t.get(DeviceSharesService).share(owner, eui, bob.username);
      await meta.update(owner, eui, { uplink_retention_days: 15 });
      expect(await refusal(meta.update(bob, eui, { uplink_retention_days: 3 }))).toMatchObject({ code: 'FORBIDDEN', field: 'uplink_retention_days' });
      expect(await refusal(meta.update(bob, eui, { uplink_retention_days: null, label: 'bob' }))).toMatchObject({ code: 'FORBIDDEN' });
      expect(await refusal(meta.update(carol, eui, { uplink_retention_days: 3 }))).toMatchObject({ code: 'NOT_FOUND' });
      expect((await meta.update(bob, eui, { label: 'edited by bob' }))[0]).toMatchObject({ label: 'edited by bob', uplink_retention_days: 15 });
      expect(await refusal(meta.one(carol, eui))).toMatchObject({ code: 'NOT_FOUND' });
    });

    it('refuses an update naming nothing', async () => {
      const eui = await device();
      expect(await refusal(meta.update(alice, eui, {}))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'body' });
    });
  });

  describe('with a platform default (UPLINK_RETENTION_DAYS=90)', () => {
    let t: ServiceTestingModule;
    let meta: DeviceMetaService;

    beforeAll(async () => {
      t = await serviceTestingModule([DevicesModule], { env: { UPLINK_RETENTION_DAYS: '90' } });
      meta = t.get(DeviceMetaService);
    });
    afterAll(() => t?.close());

    it('is in force for an account without its own; a device may shorten it, not lengthen it', async () => {
      const owner = await t.account();
      const eui = normalizeEui(randomBytes(8).toString('hex'))!;
      await t.get(DevicesService).register(owner, eui, {});
      expect((await meta.one(owner, eui))[0]).toMatchObject({ uplink_retention_days: null, uplink_retention_effective_days: 90 });
      expect(await refusal(meta.update(owner, eui, { uplink_retention_days: 91 }))).toMatchObject({ field: 'uplink_retention_days' });
      expect((await meta.update(owner, eui, { uplink_retention_days: 60 }))[0]).toMatchObject({ uplink_retention_effective_days: 60 });
    });

    it('yields to an account’s own, longer or shorter', async () => {
      const owner = await t.account();
      await t.get(AccountsRepository).adminUpdate(owner.accountId, { uplinkRetentionDays: 365 });
      const eui = normalizeEui(randomBytes(8).toString('hex'))!;
      await t.get(DevicesService).register(owner, eui, {});
      expect((await meta.one(owner, eui))[0]).toMatchObject({ uplink_retention_effective_days: 365 });
      expect((await meta.update(owner, eui, { uplink_retention_days: 200 }))[0]).toMatchObject({ uplink_retention_effective_days: 200 });
    });
  });
});
