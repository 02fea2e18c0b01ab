import type { InvitationWire, OrganisationWire, TestEventWire, TestSendWire } from '@dts/domain';
import { generateWebhookSecret } from '@dts/domain';
import { eventually, TokenCryptoService } from '@dts/platform';
import { getDataSourceToken } from '@nestjs/typeorm';
import { connectAsync } from 'mqtt';
import { randomBytes } from 'node:crypto';
import type { Test } from 'supertest';
import type { DataSource } from 'typeorm';
import { accountWithCredentials } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';
import { WebhookReceiver } from './support/webhook-receiver';

/*
 * POST /user/integration/{uid}/test (docs/api.md §18): one signed test event, sent now through the
 * worker's own sender — to a real local receiver that verifies the Standard Webhooks signature with
 * the reference library, and to the real Mosquitto on 127.0.0.1:1883 — answered with the outcome
 * and stored nowhere.
 */

type Person = Awaited<ReturnType<typeof accountWithCredentials>>;

describe('integration test send', () => {
  let svc: TestService;
  let db: DataSource;
  let alice: Person;
  let bob: Person;
  const receiver = new WebhookReceiver();
  const run = randomBytes(4).toString('hex');

  const as = (who: Person, organisation?: string) => {
    const set = (t: Test) => (organisation === undefined ? t.set('Cookie', who.cookie) : t.set('Cookie', who.cookie).set('X-Organisation', organisation));
    return {
      get: (path: string) => set(svc.http().get(path)),
      post: (path: string, body: object = {}) => set(svc.http().post(path)).send(body),
    };
  };
  const webhook = async (who: Person, path: string, organisation?: string) => {
    const created = expectSuccess<{ uid: number; secret: string }>(
      await as(who, organisation).post('/user/integration', { name: path, kind: 'webhook', url: `${receiver.url}${path}`, events: ['uplink'] }),
      201,
    );
    receiver.secret(path, created.secret);
    return created.uid;
  };
  const stored = async () => Number((await db.query('SELECT count(*) AS n FROM integration_deliveries'))[0].n);

  beforeAll(async () => {
    await receiver.start();
    svc = await startTestService({
      env: { OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '100000', AUTH_RATE_LIMIT_PER_MINUTE: '1000', INTEGRATION_TIMEOUT_MS: '1500' },
    });
    db = svc.app.get<DataSource>(getDataSourceToken());
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
  });
  afterAll(async () => {
    await svc?.close();
    await receiver.stop();
  });

  it('posts one signed test event to the webhook, as a real event goes, and answers how it went; nothing stored', async () => {
    const uid = await webhook(alice, '/ok');
    const before = await stored();
    const outcome = expectSuccess<TestSendWire>(await as(alice).post(`/user/integration/${uid}/test`));
    expect(outcome).toEqual({ delivered: true, response_status: 200, latency_ms: expect.any(Number), error: null });
    expect(outcome.latency_ms).toBeGreaterThanOrEqual(0);
    const [got, ...more] = receiver.at('/ok');
    expect(more).toEqual([]);
    // Verified by standardwebhooks' own verifier with the secret shown at creation.
    expect(got!.verified).toBe(true);
    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['webhook-id']).toMatch(/^evt_test_[0-9a-f]{16}$/);
    const body = got!.body as unknown as TestEventWire;
    expect(body).toEqual({
      type: 'test',
      version: 1,
      id: got!.headers['webhook-id'],
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      devEUI: null,
      data: { integration: uid, name: '/ok', message: expect.any(String) },
    });
    // Each test is an event of its own.
    expectSuccess(await as(alice).post(`/user/integration/${uid}/test`));
    expect(new Set(receiver.at('/ok').map((r) => r.id)).size).toBe(2);
    expect(await stored()).toBe(before);
    expect(
      expectSuccess<{ failing_since_unix: number | null; last_error: string | null; pending: number }>(await as(alice).get(`/user/integration/${uid}`)),
    ).toMatchObject({
      failing_since_unix: null,
      last_error: null,
      pending: 0,
    });
  });

  it('tells a failing receiver, a receiver that does not answer in time and one that cannot be reached, without changing the integration', async () => {
    const uid = await webhook(alice, '/down');
    receiver.answer('/down', () => 503);
    const before = expectSuccess(await as(alice).get(`/user/integration/${uid}`));
    expect(expectSuccess<TestSendWire>(await as(alice).post(`/user/integration/${uid}/test`))).toEqual({
      delivered: false,
      response_status: 503,
      latency_ms: expect.any(Number),
      error: expect.stringMatching(/^HTTP 503/),
    });
    receiver.answer('/down', () => 'hang');
    const started = Date.now();
    const hung = expectSuccess<TestSendWire>(await as(alice).post(`/user/integration/${uid}/test`));
    // INTEGRATION_TIMEOUT_MS bounds it, as it bounds a delivery.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(hung).toMatchObject({ delivered: false, response_status: null, error: expect.any(String) });
    expect(hung.latency_ms).toBeGreaterThanOrEqual(1_400);
    // 410 would disable a real delivery's integration; a test only tells it.
    receiver.answer('/down', () => 410);
    expect(expectSuccess<TestSendWire>(await as(alice).post(`/user/integration/${uid}/test`))).toMatchObject({ delivered: false, response_status: 410 });
    expect(expectSuccess(await as(alice).get(`/user/integration/${uid}`))).toEqual(before);
    // A closed port: no answer at all.
    const closed = expectSuccess<{ uid: number }>(
      await as(alice).post('/user/integration', { name: 'closed', kind: 'webhook', url: 'http://127.0.0.1:9/hook', events: ['uplink'] }),
      201,
    );
    expect(expectSuccess<TestSendWire>(await as(alice).post(`/user/integration/${closed.uid}/test`))).toMatchObject({
      delivered: false,
      response_status: null,
      error: expect.stringMatching(/\S/),
    });
  });

  it('publishes the test event to the real Mosquitto on 127.0.0.1:1883, on the topic template', async () => {
    const sub = await connectAsync('mqtt://127.0.0.1:1883', { clean: true, reconnectPeriod: 0 });
    const messages: { topic: string; body: TestEventWire }[] = [];
    sub.on('message', (topic, payload) => messages.push({ topic, body: JSON.parse(payload.toString()) as TestEventWire }));
    await sub.subscribeAsync(`dts-test-send-${run}/#`, { qos: 1 });
    try {
      const created = expectSuccess<{ uid: number }>(
        await as(alice).post('/user/integration', {
          name: 'broker',
          kind: 'mqtt',
          url: 'mqtt://127.0.0.1:1883',
          events: ['alert'],
          topic: `dts-test-send-${run}/{account}/{devEUI}/{event}`,
        }),
        201,
      );
      expect(expectSuccess<TestSendWire>(await as(alice).post(`/user/integration/${created.uid}/test`))).toEqual({
        delivered: true,
        response_status: null,
        latency_ms: expect.any(Number),
        error: null,
      });
      await eventually(
        () => {
          if (messages.length === 0) throw new Error('no message yet');
        },
        { what: 'the test message', timeoutMs: 10_000 },
      );
      expect(messages).toEqual([
        {
          topic: `dts-test-send-${run}/${alice.account.id}/test/test`,
          body: expect.objectContaining({ type: 'test', version: 1, devEUI: null, data: expect.objectContaining({ integration: created.uid }) }),
        },
      ]);
      // A broker that refuses the connection (nothing listens on 127.0.0.1:1884): told, not thrown.
      const nowhere = expectSuccess<{ uid: number }>(
        await as(alice).post('/user/integration', { name: 'nowhere', kind: 'mqtt', url: 'mqtt://127.0.0.1:1884', events: ['alert'] }),
        201,
      );
      expect(expectSuccess<TestSendWire>(await as(alice).post(`/user/integration/${nowhere.uid}/test`))).toMatchObject({
        delivered: false,
        response_status: null,
        error: expect.stringMatching(/broker not connected|no connection/),
      });
    } finally {
      await sub.endAsync();
    }
  });

  it('refuses a bad uid naming it, no credentials (401), another account’s integration (404) and a role under admin (403)', async () => {
    const uid = await webhook(alice, '/guarded');
    expectError(await as(alice).post('/user/integration/abc/test'), 400, 'VALIDATION_FAILED', 'uid');
    expectError(await svc.http().post(`/user/integration/${uid}/test`).send({}), 401, 'AUTH_REQUIRED');
    expectError(await as(bob).post(`/user/integration/${uid}/test`), 404, 'NOT_FOUND', 'uid');
    expectError(await as(alice).post('/user/integration/999999999/test'), 404, 'NOT_FOUND', 'uid');
    expect(receiver.at('/guarded')).toEqual([]);

    // In an organisation: its admins test, an operator and a viewer are refused.
    const [olga, vera] = await Promise.all([accountWithCredentials(svc, 'olga'), accountWithCredentials(svc, 'vera')]);
    // Invitations reach verified addresses only; the mail round trip is organisations.e2e-spec's.
    await db.query('UPDATE accounts SET email_verified_at = now() WHERE id = ANY($1)', [[alice.account.id, olga.account.id, vera.account.id]]);
    const team = expectSuccess<OrganisationWire>(await as(alice).post('/org', { name: `hooks-${run}` }), 201);
    for (const [who, role] of [
      [olga, 'operator'],
      [vera, 'viewer'],
    ] as const) {
      const invitation = expectSuccess<InvitationWire>(await as(alice).post(`/org/${team.id}/member`, { username: who.account.username, role }), 201);
      expectSuccess(await as(who).post(`/user/invitation/${invitation.uid}/accept`));
    }
    const teamHook = await webhook(alice, '/team', team.name);
    expectError(await as(vera, team.name).post(`/user/integration/${teamHook}/test`), 403, 'ROLE_REQUIRED');
    expectError(await as(olga, team.name).post(`/user/integration/${teamHook}/test`), 403, 'ROLE_REQUIRED');
    expect(receiver.at('/team')).toEqual([]);
    expect(expectSuccess<TestSendWire>(await as(alice, team.name).post(`/user/integration/${teamHook}/test`))).toMatchObject({ delivered: true });
    // The organisation's integration is not the person's own.
    expectError(await as(alice).post(`/user/integration/${teamHook}/test`), 404, 'NOT_FOUND', 'uid');
  });

  describe('the address checks of deliveries', () => {
    let strict: TestService;
    beforeAll(async () => {
      strict = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    });
    afterAll(async () => {
      await strict?.close();
    });

    it('judges the address at connection: a URL to loopback stored before the rule is not called', async () => {
      const carol = await accountWithCredentials(strict, 'carol');
      const crypto = strict.app.get(TokenCryptoService, { strict: false });
      const strictDb = strict.app.get<DataSource>(getDataSourceToken());
      // Refused at configuration (§12), so written to the table as an old row would be.
      expectError(
        await strict
          .http()
          .post('/user/integration')
          .set('Cookie', carol.cookie)
          .send({ name: 'x', kind: 'webhook', url: `${receiver.url}/strict`, events: ['uplink'] }),
        400,
        'VALIDATION_FAILED',
        'url',
      );
      const [row] = (await strictDb.query(
        `INSERT INTO integrations (account_id, name, kind, url, events, secret_encrypted) VALUES ($1, 'old', 'webhook', $2, '{uplink}', $3) RETURNING uid`,
        [carol.account.id, `${receiver.url}/strict`, crypto.encrypt(generateWebhookSecret())],
      )) as { uid: number }[];
      const uid = row!.uid;
      const outcome = expectSuccess<TestSendWire>(await strict.http().post(`/user/integration/${uid}/test`).set('Cookie', carol.cookie).send({}));
      expect(outcome).toMatchObject({ delivered: false, response_status: null, error: expect.stringMatching(/127\.0\.0\.1|private|loopback|not allowed/i) });
      expect(receiver.at('/strict')).toEqual([]);
    });
  });
});
