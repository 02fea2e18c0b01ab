import type { EventWire, UplinkEventWire } from '@dts/domain';
import { connectAsync, type MqttClient } from 'mqtt';
import { randomBytes } from 'node:crypto';
import { accountWithCredentials } from './support/accounts';
import { expectApiError } from './support/envelope';
import { eventually } from '@dts/platform';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { AuthBroker } from './support/mosquitto';
import { lpp } from './support/payloads';

/**
 * MQTT integrations against real brokers: the Mosquitto these machines run on 127.0.0.1:1883
 * (anonymous), and one the test starts with a password file, stopped and started again to show that
 * what could not be published waits in the database and goes out once the broker is back.
 */

type Account = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

/** A subscriber that keeps what arrives on its topics. */
async function subscriber(url: string, topic: string, auth: { username?: string; password?: string } = {}) {
  const client: MqttClient = await connectAsync(url, { ...auth, reconnectPeriod: 200, clean: true });
  const messages: { topic: string; body: EventWire; qos: number }[] = [];
  client.on('message', (t, payload, packet) => messages.push({ topic: t, body: JSON.parse(payload.toString()) as EventWire, qos: packet.qos }));
  await client.subscribeAsync(topic, { qos: 1 });
  const waitFor = async (n: number, timeoutMs = 20_000) => {
    await eventually(
      () => {
        if (messages.length < n) throw new Error(`${messages.length} of ${n} messages`);
      },
      { what: `${n} messages on ${topic}`, timeoutMs },
    );
    return messages;
  };
  return { client, messages, waitFor };
}

describe('MQTT integrations', () => {
  let svc: TestService;
  let alice: Account;
  const broker = new AuthBroker('dts', `pw-${randomBytes(6).toString('hex')}`);
  const run = randomBytes(4).toString('hex');

  const ingest = (items: object[]) => svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items).expect(202);
  const device = async () => {
    const eui = newEui();
    await alice.client.devices.register(eui, { decoder_ref: 2 });
    return eui;
  };

  beforeAll(async () => {
    await broker.start();
    svc = await startTestService({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '100000', INTEGRATION_TIMEOUT_MS: '2000' } });
    alice = await accountWithCredentials(svc, 'mqtt');
  });
  afterAll(async () => {
    await svc?.close();
    await broker.dispose();
  });

  it('publishes every uplink to the anonymous broker on 127.0.0.1:1883, on the topic template, in order', async () => {
    const eui = await device();
    const sub = await subscriber('mqtt://127.0.0.1:1883', `dts-test-${run}/#`);
    try {
      const integration = await alice.client.integrations.create({
        name: 'local broker',
        kind: 'mqtt',
        url: 'mqtt://127.0.0.1:1883',
        events: ['uplink', 'command'],
        topic: `dts-test-${run}/{account}/{devEUI}/{event}`,
        devices: { euis: [eui] },
      });
      expect(integration).toMatchObject({
        kind: 'mqtt',
        topic: `dts-test-${run}/{account}/{devEUI}/{event}`,
        qos: 1,
        username: null,
        has_password: false,
        secret: null,
      });
      await ingest([1, 2, 3, 4].map((fcnt) => ({ devEUI: eui, port: 1, payload_hex: lpp({ t: fcnt }), fcnt })));
      const got = await sub.waitFor(4);
      expect(got.map((m) => m.topic)).toEqual(Array(4).fill(`dts-test-${run}/${alice.account.id}/${eui}/uplink`));
      expect(got.map((m) => (m.body as UplinkEventWire).data.temperature)).toEqual([1, 2, 3, 4]);
      expect(got[0]!.body).toMatchObject({ type: 'uplink', version: 1, devEUI: eui });
      // A command's status changes go out as command events.
      await alice.client.commands.create(eui, { port: 1, payload_hex: '01' });
      const withCommand = await sub.waitFor(5);
      expect(withCommand[4]).toMatchObject({
        topic: `dts-test-${run}/${alice.account.id}/${eui}/command`,
        body: { type: 'command', data: { status: 'Created' } },
      });
      // Each publish is recorded just after the broker has taken it: wait for the fifth record.
      const deliveries = await eventually(
        async () => {
          const list = await alice.client.integrations.deliveries(integration.uid, { state: 'delivered' });
          expect(list.length).toBeGreaterThanOrEqual(5);
          return list;
        },
        { what: 'the fifth publish to be recorded' },
      );
      expect(deliveries.every((d) => d.response_status === null && d.latency_ms !== null)).toBe(true);
      await alice.client.integrations.remove(integration.uid);
    } finally {
      await sub.client.endAsync();
    }
  });

  it('logs in to a broker that wants credentials; keeps what it could not publish while the broker was down, and sends it once back', async () => {
    const eui = await device();
    const wrong = await alice.client.integrations.create({
      name: 'wrong password',
      kind: 'mqtt',
      url: broker.url,
      events: ['uplink'],
      username: broker.username,
      password: 'not-the-password',
      devices: { euis: [eui] },
    });
    const right = await alice.client.integrations.create({
      name: 'right password',
      kind: 'mqtt',
      url: broker.url,
      events: ['uplink'],
      qos: 0,
      topic: `up/{devEUI}`,
      username: broker.username,
      password: broker.password,
      devices: { euis: [eui] },
    });
    expect(right).toMatchObject({ username: broker.username, has_password: true, qos: 0 });
    expect(JSON.stringify(await alice.client.integrations.list())).not.toContain(broker.password);
    let sub = await subscriber(broker.url, 'up/#', { username: broker.username, password: broker.password });
    await ingest([{ devEUI: eui, port: 1, payload_hex: lpp({ t: 1 }), fcnt: 1 }]);
    expect((await sub.waitFor(1))[0]).toMatchObject({ topic: `up/${eui}`, body: { type: 'uplink' } });
    const [refused] = await eventually(
      async () => {
        const list = await alice.client.integrations.deliveries(wrong.uid);
        return !!list[0]?.error && list;
      },
      { what: 'the refused login to be recorded' },
    );
    expect(refused).toMatchObject({ state: 'pending', error: expect.stringMatching(/not authori[sz]ed|bad user ?name or password|connection refused/i) });
    await alice.client.integrations.remove(wrong.uid);
    await sub.client.endAsync(true);

    await broker.stop();
    await ingest([2, 3, 4].map((fcnt) => ({ devEUI: eui, port: 1, payload_hex: lpp({ t: fcnt }), fcnt })));
    await eventually(async () => (await alice.client.integrations.deliveries(right.uid, { state: 'pending' })).some((d) => d.attempts > 0), {
      what: 'an attempt while the broker is down',
    });
    const waiting = await alice.client.integrations.deliveries(right.uid, { state: 'pending' });
    expect(waiting).toHaveLength(3);
    expect(waiting.some((d) => d.attempts >= 1 && /not connected|ECONNREFUSED|closed/i.test(d.error ?? ''))).toBe(true);

    await broker.start();
    sub = await subscriber(broker.url, 'up/#', { username: broker.username, password: broker.password });
    try {
      const got = await sub.waitFor(3, 90_000);
      expect(got.map((m) => (m.body as UplinkEventWire).data.temperature)).toEqual([2, 3, 4]);
      expect(got.every((m) => m.qos === 0)).toBe(true);
    } finally {
      await sub.client.endAsync(true);
    }
    await alice.client.integrations.remove(right.uid);
  }, 150_000);

  it('refuses a broker URL with credentials or a path, storing nothing', async () => {
    const before = (await alice.client.integrations.list()).length;
    await expectApiError(
      alice.client.integrations.create({ name: 'x', kind: 'mqtt', url: 'mqtt://u:p@127.0.0.1', events: ['uplink'] }),
      400,
      'VALIDATION_FAILED',
      'url',
    );
    await expectApiError(
      alice.client.integrations.create({ name: 'x', kind: 'mqtt', url: 'mqtt://127.0.0.1/topic', events: ['uplink'] }),
      400,
      'VALIDATION_FAILED',
      'url',
    );
    expect(await alice.client.integrations.list()).toHaveLength(before);
  });
});
