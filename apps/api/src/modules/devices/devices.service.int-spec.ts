import { getQueueToken } from '@nestjs/bullmq';
import { type Eui, formatDate, normalizeEui, QUEUES } from '@dts/domain';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { type ApiException } from '../../common/http/api.exception';
import { refusal, serviceTestingModule, type ServiceTestingModule } from '../../testing/service-testing-module';
import { DeviceHandoversService } from './device-handovers.service';
import { DeviceSharesService } from './device-shares.service';
import { DevicesModule } from './devices.module';
import { DevicesService } from './devices.service';

/** The rules of devices, their shares and hand-overs, without HTTP. */
describe('DevicesService, DeviceSharesService, DeviceHandoversService', () => {
  let t: ServiceTestingModule;
  let devices: DevicesService;
  let shares: DeviceSharesService;
  let handovers: DeviceHandoversService;

  beforeAll(async () => {
    t = await serviceTestingModule([DevicesModule]);
    devices = t.get(DevicesService);
    shares = t.get(DeviceSharesService);
    handovers = t.get(DeviceHandoversService);
  });
  afterAll(() => t?.close());

  const newEui = (): Eui => normalizeEui(randomBytes(8).toString('hex'))!;
  const register = (who: AuthPrincipal, eui: Eui = newEui(), dto = {}) => devices.register(who, eui, dto);

  describe('registering', () => {
    it('registers with the defaults: label the EUI, the default network and decoder, owned by the caller', async () => {
      const alice = await t.account();
      const eui = newEui();
      expect(await register(alice, eui)).toMatchObject({
        devEUI: eui,
        label: eui,
        owner_ref: alice.accountId,
        username: alice.username,
        network_ref: 1,
        decoder_ref: 1,
        tags: null,
        folder: null,
      });
      expect(await devices.list(alice)).toEqual([eui]);
    });

    it('refuses the same EUI twice on one account (DEVICE_EXISTS) and on another (DEVICE_OWNED_ELSEWHERE)', async () => {
      const [alice, bob] = [await t.account(), await t.account()];
      const eui = newEui();
      await register(alice, eui);
      expect(await refusal(register(alice, eui))).toMatchObject({ code: 'DEVICE_EXISTS', field: 'eui' });
      expect(await refusal(register(bob, eui))).toMatchObject({ code: 'DEVICE_OWNED_ELSEWHERE', field: 'eui' });
      expect(await devices.list(bob)).toEqual([]);
    });

    it('refuses an expired account (ACCOUNT_EXPIRED), storing nothing', async () => {
      const dave = await t.account({ expiresOn: formatDate(new Date(Date.now() - 86_400_000)) });
      expect(await refusal(register(dave))).toMatchObject({ code: 'ACCOUNT_EXPIRED' });
      expect(await devices.list(dave)).toEqual([]);
    });

    it('refuses a reference that does not exist, naming it, storing nothing', async () => {
      const alice = await t.account();
      expect(await refusal(register(alice, newEui(), { network_ref: 999_999 }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'network_ref' });
      expect(await devices.list(alice)).toEqual([]);
    });

    it('stops at max_devices (DEVICE_LIMIT_REACHED), also for concurrent registrations', async () => {
      const erin = await t.account({ maxDevices: 3 });
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, () => register(erin)));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
      for (const o of outcomes.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
        expect((o.reason as ApiException).entries[0]!.code).toBe('DEVICE_LIMIT_REACHED');
      }
      expect(await devices.list(erin)).toHaveLength(3);
    });

    it('counts a deleted device out of the limit', async () => {
      const erin = await t.account({ maxDevices: 1 });
      const first = await register(erin);
      await devices.remove(erin, first.devEUI as Eui);
      await register(erin);
    });
  });

  describe('removing', () => {
    it('by the owner: gone from the owner’s and the sharers’ listings, a purge queued, the EUI free again', async () => {
      const [alice, bob] = [await t.account(), await t.account()];
      const { devEUI } = await register(alice);
      const eui = devEUI as Eui;
      await shares.share(alice, eui, bob.username);
      const { uid } = (await t.sql<{ uid: number }>('SELECT uid FROM devices WHERE eui = $1', [eui]))[0]!;
      expect(await devices.remove(alice, eui)).toEqual({ devEUI: eui, removed: true });
      expect(await devices.list(alice)).toEqual([]);
      expect(await devices.list(bob)).toEqual([]);
      expect(await refusal(devices.remove(alice, eui))).toMatchObject({ code: 'NOT_FOUND', field: 'eui' });
      const purge = await t.module.get<Queue>(getQueueToken(QUEUES.devicePurge), { strict: false }).getJob(`device.purge-${uid}`);
      expect(purge?.data).toEqual({ deviceUid: uid });
      await register(bob, eui);
    });

    it('by a user it is shared with: only the association ends', async () => {
      const [alice, bob] = [await t.account(), await t.account()];
      const eui = (await register(alice)).devEUI as Eui;
      await shares.share(alice, eui, bob.username);
      await devices.remove(bob, eui);
      expect(await devices.list(bob)).toEqual([]);
      expect(await devices.list(alice)).toEqual([eui]);
    });

    it('by another account: NOT_FOUND (never FORBIDDEN), the device stays', async () => {
      const [alice, carol] = [await t.account(), await t.account()];
      const eui = (await register(alice)).devEUI as Eui;
      expect(await refusal(devices.remove(carol, eui))).toMatchObject({ code: 'NOT_FOUND', field: 'eui' });
      expect(await devices.list(alice)).toEqual([eui]);
    });
  });

  describe('sharing', () => {
    it('shares by username (any case), idempotently, and tells owner / shared / none', async () => {
      const [alice, bob, carol] = [await t.account(), await t.account(), await t.account()];
      const eui = (await register(alice)).devEUI as Eui;
      expect(await shares.share(alice, eui, bob.username.toUpperCase())).toEqual({ devEUI: eui, user_id: bob.accountId, username: bob.username });
      await shares.share(alice, eui, bob.username);
      expect(await shares.list(alice, eui)).toHaveLength(1);
      expect(await devices.list(bob)).toEqual([eui]);
      expect(await devices.relation(alice, eui, alice.accountId)).toEqual({ result: 'owner' });
      expect(await devices.relation(alice, eui, bob.accountId)).toEqual({ result: 'shared' });
      expect(await devices.relation(bob, eui, carol.accountId)).toEqual({ result: 'none' });
      expect(await refusal(devices.relation(carol, eui, alice.accountId))).toMatchObject({ code: 'NOT_FOUND', field: 'eui' });
    });

    it('lets only the owner share: FORBIDDEN for a sharer, NOT_FOUND for a stranger', async () => {
      const [alice, bob, carol] = [await t.account(), await t.account(), await t.account()];
      const eui = (await register(alice)).devEUI as Eui;
      await shares.share(alice, eui, bob.username);
      expect(await refusal(shares.share(bob, eui, carol.username))).toMatchObject({ code: 'FORBIDDEN' });
      expect(await refusal(shares.share(carol, eui, carol.username))).toMatchObject({ code: 'NOT_FOUND' });
      expect(await refusal(shares.list(bob, eui))).toMatchObject({ code: 'FORBIDDEN' });
    });

    it('refuses an unknown username (NOT_FOUND) and the owner itself (VALIDATION_FAILED)', async () => {
      const alice = await t.account();
      const eui = (await register(alice)).devEUI as Eui;
      expect(await refusal(shares.share(alice, eui, 'nobody-by-this-name'))).toMatchObject({ code: 'NOT_FOUND', field: 'username' });
      expect(await refusal(shares.share(alice, eui, alice.username))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'username' });
    });

    it('lets a sharer end its own share only; the owner ends any; a second end is NOT_FOUND', async () => {
      const [alice, bob, carol] = [await t.account(), await t.account(), await t.account()];
      const eui = (await register(alice)).devEUI as Eui;
      await shares.share(alice, eui, bob.username);
      await shares.share(alice, eui, carol.username);
      expect(await refusal(shares.unshare(bob, eui, carol.accountId))).toMatchObject({ code: 'FORBIDDEN', field: 'uid' });
      expect(await shares.unshare(bob, eui, bob.accountId)).toEqual({ devEUI: eui, user_id: bob.accountId, removed: true });
      expect(await devices.list(bob)).toEqual([]);
      await shares.unshare(alice, eui, carol.accountId);
      expect(await refusal(shares.unshare(alice, eui, carol.accountId))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
    });
  });

  describe('hand-over', () => {
    it('moves nothing until the receiver accepts; then the device is the receiver’s', async () => {
      const [alice, bob] = [await t.account(), await t.account()];
      const eui = (await register(alice)).devEUI as Eui;
      const offer = await handovers.offerTo(alice, eui, bob.username);
      expect(offer).toMatchObject({ devEUI: eui, from: { user_id: alice.accountId }, to: { user_id: bob.accountId } });
      expect(await devices.list(bob)).toEqual([]);
      expect((await handovers.list(bob)).received.map((o) => o.devEUI)).toEqual([eui]);
      expect((await handovers.list(alice)).made.map((o) => o.devEUI)).toEqual([eui]);
      expect(await handovers.accept(bob, eui)).toMatchObject({ devEUI: eui, owner_ref: bob.accountId });
      expect(await devices.list(bob)).toEqual([eui]);
      expect(await devices.list(alice)).toEqual([]);
      expect(await handovers.list(bob)).toEqual({ received: [], made: [] });
    });

    it('ends an offer by decline or withdrawal; nothing is left to accept', async () => {
      const [alice, bob] = [await t.account(), await t.account()];
      const eui = (await register(alice)).devEUI as Eui;
      await handovers.offerTo(alice, eui, bob.username);
      expect(await handovers.decline(bob, eui)).toEqual({ devEUI: eui, outcome: 'declined' });
      expect(await refusal(handovers.accept(bob, eui))).toMatchObject({ code: 'NOT_FOUND', field: 'eui' });
      await handovers.offerTo(alice, eui, bob.username);
      expect(await handovers.withdraw(alice, eui)).toEqual({ devEUI: eui, outcome: 'withdrawn' });
      expect(await refusal(handovers.accept(bob, eui))).toMatchObject({ code: 'NOT_FOUND', field: 'eui' });
      expect(await devices.list(alice)).toEqual([eui]);
    });

    it('checks the receiver’s max_devices when it accepts, not when offered', async () => {
      const alice = await t.account();
      const full = await t.account({ maxDevices: 1 });
      await register(full);
      const [one, two] = [(await register(alice)).devEUI as Eui, (await register(alice)).devEUI as Eui];
      await handovers.offerTo(alice, one, full.username);
      await handovers.offerTo(alice, two, full.username);
      expect((await handovers.list(full)).received).toHaveLength(2);
      expect(await refusal(handovers.accept(full, one))).toMatchObject({ code: 'DEVICE_LIMIT_REACHED', field: 'eui' });
      expect(await devices.list(alice)).toContain(one);
    });

    it('refuses offers to oneself, to nobody, and by a user the device is only shared with', async () => {
      const [alice, bob] = [await t.account(), await t.account()];
      const eui = (await register(alice)).devEUI as Eui;
      expect(await refusal(handovers.offerTo(alice, eui, alice.username))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'username' });
      expect(await refusal(handovers.offerTo(alice, eui, 'nobody-by-this-name'))).toMatchObject({ code: 'NOT_FOUND', field: 'username' });
      await shares.share(alice, eui, bob.username);
      expect(await refusal(handovers.offerTo(bob, eui, bob.username))).toMatchObject({ code: 'FORBIDDEN' });
    });

    it('ends the shares of a device that changes hands', async () => {
      const [alice, bob, carol] = [await t.account(), await t.account(), await t.account()];
      const eui = (await register(alice)).devEUI as Eui;
      await shares.share(alice, eui, carol.username);
      await handovers.offerTo(alice, eui, bob.username);
      await handovers.accept(bob, eui);
      expect(await devices.list(carol)).toEqual([]);
      expect(await shares.list(bob, eui)).toEqual([]);
    });
  });
});
