import { getQueueToken } from '@nestjs/bullmq';
import { commandDispatchJobId, type Eui, normalizeEui, QUEUES } from '@dts/domain';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { refusal, serviceTestingModule, type ServiceTestingModule } from '../../testing/service-testing-module';
import { DeviceSharesService } from '../devices/device-shares.service';
import { DevicesService } from '../devices/devices.service';
import { CommandsModule } from './commands.module';
import { CommandsService } from './commands.service';

/**
 * The rules of commands (queueing, cancellation, which states wait), without HTTP and without the
 * worker: nothing dispatches, so a command stays where the service (or the spec) put it.
 */
describe('CommandsService', () => {
  let t: ServiceTestingModule;
  let commands: CommandsService;
  let devices: DevicesService;
  let alice: AuthPrincipal;

  beforeAll(async () => {
    t = await serviceTestingModule([CommandsModule]);
    commands = t.get(CommandsService);
    devices = t.get(DevicesService);
    alice = await t.account();
  });
  afterAll(() => t?.close());

  /** The simulated network (the default) unless `networkRef` says otherwise. */
  async function device(who: AuthPrincipal = alice, networkRef?: number): Promise<Eui> {
    const eui = normalizeEui(randomBytes(8).toString('hex'))!;
    await devices.register(who, eui, networkRef === undefined ? {} : { network_ref: networkRef });
    return eui;
  }

  const status = async (eui: Eui, uid: number) => (await commands.list(alice, eui, {})).find((c) => c.uid === uid)?.status;
  const setStatus = (uid: number, to: string) => t.sql('UPDATE commands SET status = $2 WHERE uid = $1', [uid, to]);

  describe('queueing', () => {
    it('stores a raw command Created with its payload in three encodings, and queues its dispatch job', async () => {
      const eui = await device();
      const created = await commands.create(alice, eui, { port: 1, payload_hex: '48656c6c6f' });
      expect(created).toMatchObject({
        status: 'Created',
        network: 'Simulated',
        devEUI: eui,
        confirmed: 0,
        port: 1,
        payload_hex: '48656C6C6F',
        payload_base64: 'SGVsbG8=',
        payload_ASCII: 'Hello',
        reason: null,
      });
      const job = await t.module.get<Queue>(getQueueToken(QUEUES.commandDispatch), { strict: false }).getJob(commandDispatchJobId(created.uid));
      expect(job?.data).toEqual({ commandUid: created.uid });
    });

    it('takes base64 and confirmed the same way', async () => {
      const eui = await device();
      expect(await commands.create(alice, eui, { port: 223, confirmed: true, payload_base64: 'AQID' })).toMatchObject({
        confirmed: 1,
        port: 223,
        payload_hex: '010203',
      });
    });

    it('refuses a device whose network takes no downlinks (Generic REST), storing nothing', async () => {
      const rest = await device(alice, 4);
      expect(await refusal(commands.create(alice, rest, { port: 5, payload_hex: '01' }))).toMatchObject({ code: 'VALIDATION_FAILED', field: 'eui' });
      expect(await commands.list(alice, rest, {})).toEqual([]);
    });

    it('refuses params with a raw payload', async () => {
      const eui = await device();
      expect(await refusal(commands.create(alice, eui, { port: 5, payload_hex: '01', params: {} }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        field: 'params',
      });
    });

    it('lists newest first, and status keeps only the statuses named', async () => {
      const eui = await device();
      const one = await commands.create(alice, eui, { port: 5, payload_hex: '01' });
      const two = await commands.create(alice, eui, { port: 5, payload_hex: '02' });
      await setStatus(one.uid, 'Sent');
      expect((await commands.list(alice, eui, {})).map((c) => c.uid)).toEqual([two.uid, one.uid]);
      expect((await commands.list(alice, eui, { status: 'Sent' })).map((c) => c.uid)).toEqual([one.uid]);
      expect((await commands.list(alice, eui, { limit: 1 })).map((c) => c.uid)).toEqual([two.uid]);
      expect((await commands.list(alice, eui, { before: String(two.uid) })).map((c) => c.uid)).toEqual([one.uid]);
    });
  });

  describe('who may command a device', () => {
    it('another account gets NOT_FOUND on list, create and cancel, and stores nothing', async () => {
      const eui = await device();
      const { uid } = await commands.create(alice, eui, { port: 5, payload_hex: '01' });
      const carol = await t.account();
      expect(await refusal(commands.list(carol, eui, {}))).toMatchObject({ code: 'NOT_FOUND' });
      expect(await refusal(commands.create(carol, eui, { port: 5, payload_hex: '01' }))).toMatchObject({ code: 'NOT_FOUND' });
      expect(await refusal(commands.cancel(carol, eui, uid))).toMatchObject({ code: 'NOT_FOUND' });
      expect(await commands.list(alice, eui, {})).toHaveLength(1);
    });

    it('a user the device is shared with may list and send commands', async () => {
      const eui = await device();
      const bob = await t.account();
      await t.get(DeviceSharesService).share(alice, eui, bob.username);
      const sent = await commands.create(bob, eui, { port: 5, payload_hex: '01' });
      expect((await commands.list(bob, eui, {})).map((c) => c.uid)).toEqual([sent.uid]);
    });
  });

  describe('cancelling', () => {
    it('cancels a Created command: Cancelled, then COMMAND_NOT_CANCELLABLE', async () => {
      const eui = await device();
      const { uid } = await commands.create(alice, eui, { port: 5, payload_hex: '01' });
      expect(await commands.cancel(alice, eui, uid)).toEqual({ uid, status: 'Cancelled' });
      expect(await status(eui, uid)).toBe('Cancelled');
      expect(await refusal(commands.cancel(alice, eui, uid))).toMatchObject({ code: 'COMMAND_NOT_CANCELLABLE', field: 'uid' });
    });

    it('cancels a Scheduled command on the simulated network (its queue is the record)', async () => {
      const eui = await device();
      const { uid } = await commands.create(alice, eui, { port: 5, payload_hex: '01' });
      await setStatus(uid, 'Scheduled');
      expect(await commands.cancel(alice, eui, uid)).toEqual({ uid, status: 'Cancelled' });
    });

    it.each(['Sent', 'Acknowledged', 'Failed'])('refuses a %s command (COMMAND_NOT_CANCELLABLE), leaving it so', async (to) => {
      const eui = await device();
      const { uid } = await commands.create(alice, eui, { port: 5, payload_hex: '01' });
      await setStatus(uid, to);
      expect(await refusal(commands.cancel(alice, eui, uid))).toMatchObject({ code: 'COMMAND_NOT_CANCELLABLE', field: 'uid' });
      expect(await status(eui, uid)).toBe(to);
    });

    it('says why a Sent command is not cancellable', async () => {
      const eui = await device();
      const { uid } = await commands.create(alice, eui, { port: 5, payload_hex: '01' });
      await setStatus(uid, 'Sent');
      expect((await refusal(commands.cancel(alice, eui, uid))).message).toBe('the command is Sent: it was already handed to the device');
    });

    it('answers NOT_FOUND for an unknown uid and for another device’s command', async () => {
      const [eui, other] = [await device(), await device()];
      const { uid } = await commands.create(alice, eui, { port: 5, payload_hex: '01' });
      expect(await refusal(commands.cancel(alice, eui, 99_999_999))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
      expect(await refusal(commands.cancel(alice, other, uid))).toMatchObject({ code: 'NOT_FOUND', field: 'uid' });
      expect(await status(eui, uid)).toBe('Created');
    });

    it('flush cancels every waiting command and leaves those that reached the device', async () => {
      const eui = await device();
      const created = await commands.create(alice, eui, { port: 5, payload_hex: '01' });
      const scheduled = await commands.create(alice, eui, { port: 5, payload_hex: '02' });
      const sent = await commands.create(alice, eui, { port: 5, payload_hex: '03' });
      await setStatus(scheduled.uid, 'Scheduled');
      await setStatus(sent.uid, 'Sent');
      const flushed = await commands.flush(alice, eui);
      expect(flushed.devEUI).toBe(eui);
      expect([...flushed.cancelled].sort()).toEqual([created.uid, scheduled.uid].sort());
      expect(await status(eui, sent.uid)).toBe('Sent');
      expect(await status(eui, created.uid)).toBe('Cancelled');
    });
  });
});
