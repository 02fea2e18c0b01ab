import { ROUTES } from '@dts/client';
import type { CreateIntegrationRequest, DeliveryWire, IntegrationWire, UplinkEventWire, UplinkRecordWire } from '@dts/domain';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials } from './support/accounts';
import { expectApiError, expectError } from './support/envelope';
import { eventually } from '@dts/platform';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { lpp } from './support/payloads';
import { allEventsRouted } from './support/outbox';
import { at } from './support/present';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * Outbound integrations (docs/api.md §18): the routes, and webhooks delivered for real to a local
 * receiver that verifies every signature with the Standard Webhooks reference library — in order
 * per device, after the receiver was down for a while, redelivered on request, disabled when the
 * receiver says it is gone and re-enabled by the account.
 */

type Account = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

describe('integrations', () => {
  let svc: TestService;
  let ds: DataSource;
  let alice: Account;
  let bob: Account;
  const receiver = new WebhookReceiver();

  const ingest = (items: object[]) => svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items).expect(202);
  const device = async (who: Account, body: Record<string, unknown> = {}) => {
    const eui = newEui();
    await who.client.devices.register(eui, { decoder_ref: 2, ...body });
    return eui;
  };
  const webhook = async (who: Account, path: string, extra: Partial<CreateIntegrationRequest> = {}) => {
    const created = await who.client.integrations.create({ name: path, kind: 'webhook', url: `${receiver.url}${path}`, events: ['uplink'], ...extra });
    receiver.secret(path, created.secret!);
    return created;
  };
  const count = async (table: string) => Number((await ds.query(`SELECT count(*) AS n FROM ${table}`))[0].n);

  beforeAll(async () => {
    await receiver.start();
    svc = await startTestService({
      env: {
        // The receiver is on loopback; the SSRF guard's refusals are tested below with a service of its own.
        OUTBOUND_ALLOW_PRIVATE: 'true',
        RATE_LIMIT_PER_MINUTE: '100000',
        INTEGRATION_TIMEOUT_MS: '2000',
        INTEGRATION_DISABLE_AFTER_SECONDS: '6',
        // A broker that really listens on PostgreSQL's port is allowed; Redis's stays refused.
        MQTT_ALLOWED_PORTS: '5432',
      },
    });
    ds = svc.app.get<DataSource>(getDataSourceToken());
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
  });
  afterAll(async () => {
    await svc?.close();
    await receiver.stop();
  });

  describe('routes', () => {
    it('creates a webhook (201, its secret once), lists, reads, changes and deletes it', async () => {
      const res = await alice.sessionClient.request<IntegrationWire & { secret: string }>(ROUTES.integrationsCreate, {
        body: { name: 'Ours', kind: 'webhook', url: `${receiver.url}/crud`, events: ['uplink', 'alert'], devices: { tags: ['x'] } },
      });
      expect(res.status).toBe(201);
      const created = res.data;
      expect(created).toEqual({
        uid: expect.any(Number),
        name: 'Ours',
        kind: 'webhook',
        url: `${receiver.url}/crud`,
        events: ['uplink', 'alert'],
        devices: { euis: null, folder: null, tags: ['x'] },
        enabled: true,
        disabled_reason: null,
        disabled_unix: null,
        failing_since_unix: null,
        last_error: null,
        last_success_unix: null,
        pending: 0,
        topic: null,
        qos: null,
        username: null,
        has_password: false,
        created_unix: expect.any(Number),
        updated_unix: expect.any(Number),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      const { secret: _secret, ...listed } = created;
      expect(await alice.client.integrations.list()).toContainEqual(listed);
      expect(await alice.client.integrations.get(created.uid)).toEqual(listed);
      expect(JSON.stringify(await alice.client.integrations.list())).not.toContain(created.secret);

      const changed = await alice.client.integrations.update(created.uid, { name: 'Renamed', events: ['command'], devices: null, enabled: false });
      expect(changed).toMatchObject({ name: 'Renamed', events: ['command'], devices: null, enabled: false });
      // Stored encrypted: the secret's text is nowhere in the row.
      const [row] = await ds.query('SELECT secret_encrypted FROM integrations WHERE uid = $1', [created.uid]);
      expect(Buffer.from(row.secret_encrypted).toString('latin1')).not.toContain(created.secret.slice(6));

      expect(await alice.client.integrations.remove(created.uid)).toEqual({ uid: created.uid, deleted: true });
      await expectApiError(alice.client.integrations.get(created.uid), 404, 'NOT_FOUND');
      await expectApiError(alice.client.integrations.remove(created.uid), 404, 'NOT_FOUND');
    });

    const body = (extra: Record<string, unknown>) => ({ name: 'bad', kind: 'webhook', url: 'https://example.org/hook', events: ['uplink'], ...extra });
    it.each<[string, Record<string, unknown>, string]>([
      ['an unknown event kind', { events: ['uplink', 'downlink'] }, 'events'],
      ['no event kind', { events: [] }, 'events'],
      ['an unknown kind', { kind: 'kafka' }, 'kind'],
      ['a URL that is not http(s)', { url: 'file:///etc/passwd' }, 'url'],
      ['a URL with credentials', { url: 'http://user:pw@example.org/' }, 'url'],
      ['an mqtt URL for a webhook', { url: 'mqtt://example.org' }, 'url'],
      ['an mqtt member on a webhook', { topic: 'a/b' }, 'topic'],
      ['an http URL for mqtt', { kind: 'mqtt', url: 'https://example.org' }, 'url'],
      ['a topic with a wildcard', { kind: 'mqtt', url: 'mqtt://127.0.0.1', topic: 'dts/#' }, 'topic'],
      ['a topic with an unknown placeholder', { kind: 'mqtt', url: 'mqtt://127.0.0.1', topic: 'dts/{eui}' }, 'topic'],
      ['qos 2', { kind: 'mqtt', url: 'mqtt://127.0.0.1', qos: 2 }, 'qos'],
      ['an EUI that is not one', { devices: { euis: ['XYZ'] } }, 'devices.euis'],
      ['an unknown member', { secret: 'whsec_mine' }, 'secret'],
      ['an unknown filter member', { devices: { label: 'x' } }, 'devices.label'],
      // Issue 28: stored as given while the parsed URL was called; `\` made the two differ in host.
      ['a backslash (read as / by the caller, as userinfo by others)', { url: 'http://a.example\\@127.0.0.1/' }, 'url'],
      ['CR and LF', { url: 'https://example.org/hook\r\nX-Injected: 1' }, 'url'],
      ['a TAB inside the host', { url: 'https://exa\tmple.org/hook' }, 'url'],
      ['a C1 control character', { url: 'https://example.org/\u0085' }, 'url'],
      ['a backslash in a broker URL', { kind: 'mqtt', url: 'mqtt://a.example\\@127.0.0.1' }, 'url'],
      ['broker port 0', { kind: 'mqtt', url: 'mqtt://127.0.0.1:0' }, 'url'],
      ['broker port 70000', { kind: 'mqtt', url: 'mqtt://127.0.0.1:70000' }, 'url'],
      ['a broker on SSH’s port', { kind: 'mqtt', url: 'mqtt://127.0.0.1:22' }, 'url'],
      ['a broker on SMTP’s port', { kind: 'mqtt', url: 'mqtts://127.0.0.1:25' }, 'url'],
      ['a broker on Redis’s port (not in MQTT_ALLOWED_PORTS)', { kind: 'mqtt', url: 'mqtt://127.0.0.1:6379' }, 'url'],
    ])('refuses %s (400 naming it), storing nothing', async (_what, extra, field) => {
      const before = await count('integrations');
      expectError(
        await svc.http().post('/user/integration').set('Authorization', `Bearer ${alice.appToken}`).send(body(extra)),
        400,
        'VALIDATION_FAILED',
        field,
      );
      expect(await count('integrations')).toBe(before);
    });

    it('stores and shows a URL as it is called (the WHATWG-parsed href), at creation and on change', async () => {
      const port = new URL(receiver.url).port;
      const created = await alice.client.integrations.create({
        name: 'normalised',
        kind: 'webhook',
        url: ` HTTP://127.0.0.1:${port}/norm/./a/../hook path?x=1 `,
        events: ['uplink'],
      });
      expect(created.url).toBe(`http://127.0.0.1:${port}/norm/hook%20path?x=1`);
      expect((await alice.client.integrations.get(created.uid)).url).toBe(created.url);
      const [row] = await ds.query('SELECT url FROM integrations WHERE uid = $1', [created.uid]);
      expect(row.url).toBe(created.url);
      const changed = await alice.client.integrations.update(created.uid, { url: `http://2130706433:${port}/other` });
      expect(changed.url).toBe(`http://127.0.0.1:${port}/other`);
      // A refused change leaves the stored URL as it was.
      await expectApiError(alice.client.integrations.update(created.uid, { url: `http://127.0.0.1:${port}/a\\b` }), 400, 'VALIDATION_FAILED', 'url');
      await expectApiError(alice.client.integrations.update(created.uid, { url: `http://127.0.0.1:${port}/a\tb` }), 400, 'VALIDATION_FAILED', 'url');
      expect((await alice.client.integrations.get(created.uid)).url).toBe(`http://127.0.0.1:${port}/other`);
      await expectApiError(bob.client.integrations.update(created.uid, { url: `http://127.0.0.1:${port}/bobs` }), 404, 'NOT_FOUND');

      const broker = await alice.client.integrations.create({ name: 'pg port', kind: 'mqtt', url: ' MQTT://127.0.0.1:5432 ', events: ['uplink'] });
      expect(broker.url).toBe('mqtt://127.0.0.1:5432');
      await expectApiError(alice.client.integrations.update(broker.uid, { url: 'mqtt://127.0.0.1:6379' }), 400, 'VALIDATION_FAILED', 'url');
      expect((await alice.client.integrations.get(broker.uid)).url).toBe('mqtt://127.0.0.1:5432');
      for (const uid of [created.uid, broker.uid]) await alice.client.integrations.remove(uid);
    });

    it('refuses a device filter naming another account’s device (404), storing nothing', async () => {
      const bobs = await device(bob);
      const before = await count('integrations');
      await expectApiError(
        alice.client.integrations.create({ name: 'x', kind: 'webhook', url: `${receiver.url}/x`, events: ['uplink'], devices: { euis: [bobs] } }),
        404,
        'NOT_FOUND',
        'devices.euis',
      );
      expect(await count('integrations')).toBe(before);
    });

    it('answers 401 without credentials and 404 for another account’s integration', async () => {
      const mine = await webhook(alice, '/owned');
      expectError(await svc.http().get('/user/integration'), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().post('/user/integration').send(body({})), 401, 'AUTH_REQUIRED');
      await expectApiError(bob.client.integrations.get(mine.uid), 404, 'NOT_FOUND');
      await expectApiError(bob.client.integrations.update(mine.uid, { name: 'mine now' }), 404, 'NOT_FOUND');
      await expectApiError(bob.client.integrations.deliveries(mine.uid), 404, 'NOT_FOUND');
      expect((await alice.client.integrations.get(mine.uid)).name).toBe('/owned');
      expectError(
        await svc.http().patch(`/user/integration/${mine.uid}`).set('Authorization', `Bearer ${alice.appToken}`).send({ name: null }),
        400,
        'VALIDATION_FAILED',
        'name',
      );
      await alice.client.integrations.remove(mine.uid);
    });
  });

  describe('webhook deliveries', () => {
    it('posts every uplink of a folder, signed, in order, as the table row', async () => {
      const inFolder = await device(alice, { folder: 'park' });
      const elsewhere = await device(alice, { folder: 'barn' });
      const hook = await webhook(alice, '/folder', { devices: { folder: 'park' } });
      const items = [1, 2, 3].flatMap((fcnt) => [
        { devEUI: inFolder, port: 1, payload_hex: lpp({ t: 20 + fcnt }), fcnt },
        { devEUI: elsewhere, port: 1, payload_hex: lpp({ t: 30 + fcnt }), fcnt },
      ]);
      await ingest(items);
      const got = await receiver.waitFor('/folder', (l) => l.length >= 3);
      expect(got.every((r) => r.verified)).toBe(true);
      const bodies = got.map((r) => r.body as UplinkEventWire);
      expect(bodies.map((b) => b.data.temperature)).toEqual([21, 22, 23]);
      expect(bodies.map((b) => b.devEUI)).toEqual([inFolder, inFolder, inFolder]);
      expect(bodies[0]).toEqual({ type: 'uplink', version: 1, id: got[0]!.id, timestamp: expect.any(String), devEUI: inFolder, data: expect.any(Object) });
      expect(got[0]!.headers['content-type']).toBe('application/json');
      const table = (await alice.client.uplinks.table(inFolder)) as UplinkRecordWire[];
      expect(bodies.map((b) => b.data)).toEqual(table);

      // Each answer is recorded just after the receiver has the event. Once every event is routed and
      // no delivery is pending, nothing more can be sent: the other folder's uplinks were not queued.
      await allEventsRouted(ds);
      const deliveries = await eventually(
        async () => {
          const list = await alice.client.integrations.deliveries(hook.uid);
          return !list.some((d) => d.state === 'pending') && list;
        },
        { what: 'the answers to be recorded' },
      );
      expect(deliveries).toHaveLength(3);
      expect(receiver.at('/folder')).toHaveLength(3);
      expect(deliveries.every((d) => d.state === 'delivered' && d.attempts === 1 && d.response_status === 200 && d.devEUI === inFolder)).toBe(true);
      expect(deliveries.map((d) => d.event_id)).toEqual(got.map((r) => r.id).reverse());
      await alice.client.integrations.remove(hook.uid);
    });

    it('a receiver down for a while gets every event once it is back, in order per device', async () => {
      const [a, b] = [await device(alice), await device(alice)];
      const hook = await webhook(alice, '/flaky', { devices: { euis: [a, b] } });
      let down = true;
      receiver.answer('/flaky', () => (down ? 503 : 200));
      for (let fcnt = 1; fcnt <= 5; fcnt++) {
        await ingest([
          { devEUI: a, port: 1, payload_hex: lpp({ t: fcnt }), fcnt },
          { devEUI: b, port: 1, payload_hex: lpp({ t: 100 + fcnt }), fcnt },
        ]);
      }
      // Routed, tried and refused: the worker gets there in its own time.
      const refused = (d: DeliveryWire) => d.attempts >= 1 && d.response_status === 503 && /503/.test(d.error ?? '');
      await eventually(
        async () => {
          const waiting = await alice.client.integrations.deliveries(hook.uid, { state: 'pending' });
          expect(waiting).toHaveLength(10);
          expect(waiting.some(refused)).toBe(true);
          expect((await alice.client.integrations.get(hook.uid)).failing_since_unix).not.toBeNull();
        },
        { what: 'ten deliveries waiting, one refused', timeoutMs: 10_000 },
      );
      expect(receiver.at('/flaky')).toHaveLength(0);
      down = false;
      const got = await receiver.waitFor('/flaky', (l) => l.length >= 10, 30_000);
      const temps = (eui: string) => got.filter((r) => r.body.devEUI === eui).map((r) => (r.body as UplinkEventWire).data.temperature);
      expect(temps(a)).toEqual([1, 2, 3, 4, 5]);
      expect(temps(b)).toEqual([101, 102, 103, 104, 105]);
      expect(new Set(got.map((r) => r.id)).size).toBe(10);
      // Each answer is recorded just after the receiver has the event: wait for the last record.
      await eventually(
        async () => expect(await alice.client.integrations.get(hook.uid)).toMatchObject({ enabled: true, failing_since_unix: null, pending: 0 }),
        {
          what: 'the last answer to be recorded',
        },
      );
      const list = await alice.client.integrations.deliveries(hook.uid);
      expect(list.every((d) => d.state === 'delivered')).toBe(true);
      expect(Math.max(...list.map((d) => d.attempts))).toBeGreaterThan(1);
      await alice.client.integrations.remove(hook.uid);
    });

    it('redelivers a delivery on request, with the same webhook-id', async () => {
      const eui = await device(alice);
      const hook = await webhook(alice, '/again', { devices: { euis: [eui] } });
      await ingest([{ devEUI: eui, port: 1, payload_hex: lpp({ t: 5 }), fcnt: 1 }]);
      const first = at(await receiver.waitFor('/again', (l) => l.length >= 1), 0, 'delivery');
      // Asked again while its first attempt is still in flight, a delivery is sent once (it is still
      // pending): wait for the first answer's record.
      const delivery = await eventually(
        async () => {
          const d = at(await alice.client.integrations.deliveries(hook.uid), 0, 'delivery');
          expect(d.state).toBe('delivered');
          return d;
        },
        { what: 'the first answer to be recorded' },
      );
      const again = await alice.client.integrations.redeliver(hook.uid, delivery.id);
      expect(again).toMatchObject({ id: delivery.id, state: 'pending' });
      const got = await receiver.waitFor('/again', (l) => l.length >= 2);
      expect(got[1]!.id).toBe(first.id);
      expect(got[1]!.raw).toBe(first.raw);
      await expectApiError(alice.client.integrations.redeliver(hook.uid, 999_999_999), 404, 'NOT_FOUND', 'id');
      await expectApiError(bob.client.integrations.redeliver(hook.uid, delivery.id), 404, 'NOT_FOUND');
      await alice.client.integrations.remove(hook.uid);
    });

    it('redelivers a pending delivery waiting out its backoff at once, and sends it once', async () => {
      const eui = await device(alice);
      const hook = await webhook(alice, '/backoff', { devices: { euis: [eui] } });
      let down = true;
      receiver.answer('/backoff', () => (down ? 503 : 200));
      await ingest([{ devEUI: eui, port: 1, payload_hex: lpp({ t: 7 }), fcnt: 1 }]);
      // Three refusals (well inside INTEGRATION_DISABLE_AFTER_SECONDS): the next attempt is 2–4 s away.
      const first = async () => (await alice.client.integrations.deliveries(hook.uid))[0];
      const waiting = await eventually(
        async () => {
          const d = await first();
          expect(d?.attempts).toBeGreaterThanOrEqual(3);
          return d;
        },
        { what: 'three refused attempts' },
      );
      expect(waiting).toMatchObject({ state: 'pending', attempts: 3, response_status: 503 });
      down = false;
      const again = await alice.client.integrations.redeliver(hook.uid, waiting!.id);
      // Due now, not at the end of its backoff.
      expect(again).toMatchObject({ id: waiting!.id, state: 'pending' });
      expect(again.next_attempt_unix).toBeLessThanOrEqual(waiting!.next_attempt_unix!);
      expect(again.next_attempt_unix).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
      const got = at(await receiver.waitFor('/backoff', (l) => l.length >= 1), 0, 'delivery');
      await eventually(async () => expect(await first()).toMatchObject({ state: 'delivered', attempts: 4, response_status: 200 }), {
        what: 'the redelivery to be recorded',
      });
      // Sent once: a later event of the device, in the same lane, comes after any second send of the first.
      await ingest([{ devEUI: eui, port: 1, payload_hex: lpp({ t: 8 }), fcnt: 2 }]);
      const both = await receiver.waitFor('/backoff', (l) => l.some((r) => (r.body as UplinkEventWire).data.temperature === 8));
      expect(both).toHaveLength(2);
      expect(both[1]!.id).not.toBe(got.id);
      await alice.client.integrations.remove(hook.uid);
    });

    it('is disabled with the reason when the receiver answers 410 Gone; re-enabled, it sends what waited', async () => {
      const eui = await device(alice);
      const hook = await webhook(alice, '/gone', { devices: { euis: [eui] } });
      let gone = true;
      receiver.answer('/gone', () => (gone ? 410 : 200));
      await ingest([{ devEUI: eui, port: 1, payload_hex: lpp({ t: 1 }), fcnt: 1 }]);
      await eventually(
        async () =>
          expect(await alice.client.integrations.get(hook.uid)).toMatchObject({
            enabled: false,
            disabled_reason: expect.stringMatching(/410 Gone/),
            pending: 1,
          }),
        { what: 'the integration to be disabled' },
      );
      // Disabled: nothing more is queued for it, once the new uplink is routed.
      await ingest([{ devEUI: eui, port: 1, payload_hex: lpp({ t: 2 }), fcnt: 2 }]);
      await allEventsRouted(ds);
      expect((await alice.client.integrations.get(hook.uid)).pending).toBe(1);
      gone = false;
      expect(await alice.client.integrations.update(hook.uid, { enabled: true })).toMatchObject({ enabled: true, disabled_reason: null });
      const got = at(await receiver.waitFor('/gone', (l) => l.length >= 1), 0, 'delivery');
      expect((got.body as UplinkEventWire).data.temperature).toBe(1);
      await alice.client.integrations.remove(hook.uid);
    });

    it('is disabled after failing continuously for INTEGRATION_DISABLE_AFTER_SECONDS', async () => {
      const eui = await device(alice);
      const hook = await webhook(alice, '/dead', { devices: { euis: [eui] } });
      receiver.answer('/dead', () => 500);
      await ingest([{ devEUI: eui, port: 1, payload_hex: lpp({ t: 1 }), fcnt: 1 }]);
      // Real time by nature: the limit is INTEGRATION_DISABLE_AFTER_SECONDS (6 s here) of failing.
      await eventually(
        async () =>
          expect(await alice.client.integrations.get(hook.uid)).toMatchObject({
            enabled: false,
            disabled_reason: expect.stringMatching(/every delivery failed since .*HTTP 500/),
            pending: 1,
          }),
        { what: 'the integration to be disabled', timeoutMs: 20_000, intervalMs: 100 },
      );
      await alice.client.integrations.remove(hook.uid);
    });

    it('never sends an account’s events to another account’s integration', async () => {
      const alices = await device(alice);
      const hook = await webhook(bob, '/bob');
      await ingest([{ devEUI: alices, port: 1, payload_hex: lpp({ t: 1 }), fcnt: 1 }]);
      // Routed without a delivery for Bob: nothing can be sent to him.
      await allEventsRouted(ds);
      expect(receiver.at('/bob')).toHaveLength(0);
      expect(await bob.client.integrations.deliveries(hook.uid)).toEqual([]);
      await bob.client.integrations.remove(hook.uid);
    });
  });
});

describe('integrations behind the SSRF guard', () => {
  let svc: TestService;
  let who: Account;
  beforeAll(async () => {
    svc = await startTestService();
    who = await accountWithCredentials(svc, 'guarded');
  });
  afterAll(() => svc?.close());

  it.each([
    ['http://127.0.0.1:8080/hook', 'webhook'],
    ['http://169.254.169.254/latest/meta-data', 'webhook'],
    ['http://2130706433/', 'webhook'],
    ['http://[::1]:3000/', 'webhook'],
    ['mqtt://127.0.0.1:1883', 'mqtt'],
    ['mqtts://10.0.0.1', 'mqtt'],
    ['http://a.example\\@127.0.0.1/', 'webhook'],
    // A public address: only the port is wrong, and no MQTT_ALLOWED_PORTS allows it here.
    ['mqtt://8.8.8.8:5432', 'mqtt'],
  ] as const)('refuses %s (400 naming url), storing nothing', async (url, kind) => {
    await expectApiError(who.client.integrations.create({ name: 'x', kind, url, events: ['uplink'] }), 400, 'VALIDATION_FAILED', 'url');
    expect(await who.client.integrations.list()).toEqual([]);
  });
});

/**
 * Redelivery against a failing attempt in flight (docs/api.md §18), step by step: the receiver holds
 * each attempt until the test answers it. The delivery is given a past of 20 attempts while its first
 * is held, so that its second attempt's failure asks for a backoff of about an hour: only the
 * redelivery asked for meanwhile can bring the next attempt soon.
 */
describe('redelivery while a failing attempt is in flight', () => {
  let svc: TestService;
  let ds: DataSource;
  let who: Account;
  const receiver = new WebhookReceiver();
  /** Long enough that a held attempt never times out while the test works (a loaded machine included). */
  const TIMEOUT_MS = 20_000;

  beforeAll(async () => {
    await receiver.start();
    svc = await startTestService({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '100000', INTEGRATION_TIMEOUT_MS: String(TIMEOUT_MS) } });
    ds = svc.app.get<DataSource>(getDataSourceToken());
    who = await accountWithCredentials(svc, 'redeliverer');
  });
  afterAll(async () => {
    await svc?.close();
    await receiver.stop();
  });

  /** Polls `read` until `done` holds of its answer (bounded), and returns that answer. */
  const until = <T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 20_000): Promise<T> =>
    eventually(
      async () => {
        const v = await read();
        if (!done(v)) throw new Error(JSON.stringify(v));
        return v;
      },
      { what, timeoutMs },
    ) as Promise<T>;
  const laneOf = async (hook: number) =>
    at(
      (await ds.query(
        `SELECT next_at <= now() AS due, next_at > now() + interval '10 minutes' AS backing_off FROM integration_lanes WHERE integration_id = $1`,
        [hook],
      )) as { due: boolean | null; backing_off: boolean | null }[],
      0,
      'lane',
    );
  const deliveryOf = async (hook: number) =>
    at(
      (await ds.query(
        `SELECT id::text AS id, state, attempts, next_attempt_at <= now() AS due FROM integration_deliveries WHERE integration_id = $1 ORDER BY id`,
        [hook],
      )) as { id: string; state: string; attempts: number; due: boolean | null }[],
      0,
      'delivery',
    );

  /**
   * A device's uplink to a webhook whose receiver holds the first two attempts until told and
   * answers 200 from the third. Resolves once the second attempt, whose failure backs off for about
   * an hour, is held; `refuse` answers it 503.
   */
  const heldFailingAttempt = async (path: string) => {
    const eui = newEui();
    await who.client.devices.register(eui, { decoder_ref: 2 });
    const hook = await who.client.integrations.create({
      name: path,
      kind: 'webhook',
      url: `${receiver.url}${path}`,
      events: ['uplink'],
      devices: { euis: [eui] },
    });
    receiver.secret(path, hook.secret!);
    const answers: ((status: number) => void)[] = [];
    receiver.answer(path, () => (answers.length < 2 ? new Promise<number>((resolve) => answers.push(resolve)) : 200));
    await svc
      .http()
      .post('/ingest/rest')
      .set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET)
      .send([{ devEUI: eui, port: 1, payload_hex: lpp({ t: 1 }), fcnt: 1 }])
      .expect(202);
    await receiver.until('the first attempt to be held', () => answers.length === 1);
    // The worker counts from the stored attempts: the first failure makes them 20, and the second's backoff is capped (an hour, 50–100 %).
    await ds.query(`UPDATE integration_deliveries SET attempts = 19 WHERE integration_id = $1`, [hook.uid]);
    at(answers, 0)(503);
    await receiver.until('the second attempt to be held', () => answers.length === 2, 10_000);
    expect(await deliveryOf(hook.uid)).toMatchObject({ state: 'pending', attempts: 20 });
    return { hook: hook.uid, eui, refuse: () => at(answers, 1)(503) };
  };

  it('sends the redelivery once the attempt has failed, not after its backoff, and never beside it', async () => {
    const { hook, refuse } = await heldFailingAttempt('/inflight');
    const { id } = await deliveryOf(hook);
    expect(await who.client.integrations.redeliver(hook, Number(id))).toMatchObject({ id: Number(id), state: 'pending' });
    // The lane stays its holder's: not due, so no second attempt starts beside the one in flight.
    expect(await laneOf(hook)).toMatchObject({ due: false, backing_off: false });

    const refused = Date.now();
    refuse();
    await receiver.waitFor('/inflight', (l) => l.length >= 1, 10_000);
    const resentIn = Date.now() - refused;
    const done = await until(
      'the redelivery to be recorded',
      () => deliveryOf(hook),
      (d) => d.state !== 'pending',
    );
    expect(done).toMatchObject({ state: 'delivered', attempts: 22 });
    expect(receiver.attempts.get(at(receiver.at('/inflight'), 0).id)).toBe(3);
    expect(receiver.peakOpenPerDevice.get('/inflight')).toBe(1);
    process.stdout.write(`redelivery during a failing attempt: sent again ${resentIn} ms after the refusal\n`);
    // Well under the hour the failure asked for.
    expect(resentIn).toBeLessThan(10_000);
  });

  it('lets a new event wait out the backoff of a failure in flight (only a redelivery cuts it)', async () => {
    const { hook, eui, refuse } = await heldFailingAttempt('/newer');
    await svc
      .http()
      .post('/ingest/rest')
      .set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET)
      .send([{ devEUI: eui, port: 1, payload_hex: lpp({ t: 2 }), fcnt: 2 }])
      .expect(202);
    await until(
      'the new event’s delivery',
      async () => (await ds.query(`SELECT count(*)::int AS n FROM integration_deliveries WHERE integration_id = $1`, [hook]))[0].n as number,
      (n) => n === 2,
    );
    refuse();
    // Released after the failure: due in about an hour (while held it is due at the lease's end, a minute away).
    await until(
      'the failure to be recorded and the lane released',
      () => laneOf(hook),
      (l) => l.backing_off === true,
    );
    expect(await deliveryOf(hook)).toMatchObject({ state: 'pending', attempts: 21, due: false });
    expect(receiver.requests.get('/newer')).toBe(2);
  });
});
