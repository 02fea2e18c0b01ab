import { type AlertEventWire, type AlertWire, type CreateRuleRequest, QUEUES, type RuleWire } from '@dts/domain';
import { getQueueToken } from '@nestjs/bullmq';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { accountWithCredentials } from './support/accounts';
import { expectApiError, expectError } from './support/envelope';
import { eventually } from '@dts/platform';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { allEventsRouted } from './support/outbox';
import { lpp } from './support/payloads';
import { at } from './support/present';
import { startSmtpServer, verificationToken } from './support/smtp-server';
import { type LiveEvent, SseClient, until as untilSeen } from './support/sse-client';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * Alert rules and alerts (docs/api.md §19): the routes, and alerts raised and cleared for real by
 * uplinks (fence, threshold, battery) and by the clock (offline) — stored, listed, acknowledged,
 * shown on the device's live feed, sent to the integrations that want `alert` and by e-mail.
 */

type Account = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
// The Vondelpark, roughly: [lon, lat].
const PARK = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [4.86, 52.354],
      [4.882, 52.354],
      [4.882, 52.362],
      [4.86, 52.362],
      [4.86, 52.354],
    ],
  ] as [number, number][][],
};
const INSIDE: [number, number, number] = [52.358, 4.87, 2];
const OUTSIDE: [number, number, number] = [52.37, 4.9, 2];

describe('alert rules and alerts', () => {
  let svc: TestService;
  let ds: DataSource;
  let alice: Account;
  let bob: Account;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const receiver = new WebhookReceiver();
  let fence: number;
  let fcnt = 0;

  const ingest = (eui: string, payload: string, extra: Record<string, unknown> = {}) =>
    svc
      .http()
      .post('/ingest/rest')
      .set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET)
      .send({ devEUI: eui, port: 1, payload_hex: payload, fcnt: ++fcnt, ...extra })
      .expect(202);
  const device = async (who: Account = alice, label = 'Tracker') => {
    const eui = newEui();
    await who.client.devices.register(eui, { decoder_ref: 2, label });
    return eui;
  };
  const alertsOf = (eui: string) => alice.client.alerts.list({ eui });
  const waitAlerts = (eui: string, predicate: (a: AlertWire[]) => boolean, timeoutMs = 15_000) =>
    eventually(
      async () => {
        const list = await alertsOf(eui);
        if (!predicate(list)) throw new Error(JSON.stringify(list));
        return list;
      },
      { what: `the alerts of ${eui}`, timeoutMs },
    );
  /** Runs the offline check once, through its queue as its scheduler does, and waits for it to finish. */
  const offlineCheck = async () => {
    const job = await svc.app.get<Queue>(getQueueToken(QUEUES.alertsOfflineCheck)).add('alerts.offline-check', {});
    await eventually(async () => (await job.getState()) === 'completed', { what: 'an offline check' });
  };
  const count = async (table: string) => Number((await ds.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
  /** The device's live feed, collected in the background until aborted. */
  /** A live stream (a device's, or the account's feed when `eui` is null), open once its opening comment came: it has joined the device's hub. */
  const follow = async (eui: string | null, who: Account = alice) => {
    const feed = await SseClient.open(`${svc.url}${eui === null ? '/user/live' : `/user/device/live/${eui}`}`, { Authorization: `Bearer ${who.appToken}` });
    await untilSeen(() => feed.comments.length > 0, 'the opening comment');
    return feed;
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    await receiver.start();
    svc = await startTestService({
      env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, OUTBOUND_ALLOW_PRIVATE: 'true', RATE_LIMIT_PER_MINUTE: '100000', OFFLINE_CHECK_SECONDS: '1' },
    });
    ds = svc.app.get<DataSource>(getDataSourceToken());
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
    // Alert mail goes to verified addresses only (docs/api.md §3): alice's is.
    const token = verificationToken(await smtp.waitForMail(alice.account.email, 'Verify your e-mail address'));
    await svc.http().post('/auth/verify').send({ token }).expect(200);
    fence = (await alice.client.fences.create({ name: 'Vondelpark', geometry: PARK })).uid;
  });
  afterAll(async () => {
    await svc?.close();
    await receiver.stop();
    await smtp?.close();
  });

  describe('/user/rule', () => {
    it('creates (201), lists, reads, changes and deletes a rule', async () => {
      const res = await alice.sessionClient.request<RuleWire>(
        { method: 'POST', path: '/user/rule' },
        { body: { name: 'Leaves', kind: 'fence', fence, on: 'leave' } },
      );
      expect(res.status).toBe(201);
      expect(res.data).toEqual({
        uid: expect.any(Number),
        name: 'Leaves',
        kind: 'fence',
        enabled: true,
        devices: null,
        email: false,
        fence,
        on: 'leave',
        minutes: null,
        member: null,
        above: null,
        below: null,
        hysteresis: null,
        measure: null,
        created_unix: expect.any(Number),
        updated_unix: expect.any(Number),
      });
      expect(await alice.client.rules.list()).toContainEqual(res.data);
      expect(await alice.client.rules.get(res.data.uid)).toEqual(res.data);
      expect(await alice.client.rules.update(res.data.uid, { on: 'enter', email: true })).toMatchObject({ on: 'enter', email: true, name: 'Leaves' });
      const threshold = await alice.client.rules.create({ name: 'Hot', kind: 'threshold', member: 'temperature', above: 30 });
      expect(await alice.client.rules.update(threshold.uid, { below: 0 })).toMatchObject({ above: null, below: 0 });
      expect(await alice.client.rules.remove(res.data.uid)).toEqual({ uid: res.data.uid, deleted: true });
      await alice.client.rules.remove(threshold.uid);
      await expectApiError(alice.client.rules.get(res.data.uid), 404, 'NOT_FOUND');
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an unknown kind', { kind: 'geofence' }, 'kind'],
      ['a fence rule without its fence', { kind: 'fence', on: 'leave' }, 'fence'],
      ['a fence rule without on', { kind: 'fence', fence: 1 }, 'on'],
      ['on that is neither enter nor leave', { kind: 'fence', fence: 1, on: 'cross' }, 'on'],
      ['a member of another kind', { kind: 'offline', minutes: 5, fence: 1 }, 'fence'],
      ['offline minutes of 0', { kind: 'offline', minutes: 0 }, 'minutes'],
      ['a threshold with both limits', { kind: 'threshold', member: 'temperature', above: 1, below: 0 }, 'below'],
      ['a threshold without a limit', { kind: 'threshold', member: 'temperature' }, 'above'],
      ['a member name that is not one', { kind: 'threshold', member: 'a b', above: 1 }, 'member'],
      ['a negative hysteresis', { kind: 'threshold', member: 't', above: 1, hysteresis: -1 }, 'hysteresis'],
      ['a battery percentage above 100', { kind: 'battery', measure: 'percent', below: 120 }, 'below'],
      ['a battery rule without its measure', { kind: 'battery', below: 3 }, 'measure'],
      ['an unknown member', { kind: 'offline', minutes: 5, severity: 'high' }, 'severity'],
    ])('refuses %s (400 naming it), storing nothing', async (_what, body, field) => {
      const before = await count('alert_rules');
      expectError(
        await svc
          .http()
          .post('/user/rule')
          .set('Authorization', `Bearer ${alice.appToken}`)
          .send({ name: 'bad', ...body }),
        400,
        'VALIDATION_FAILED',
        field,
      );
      expect(await count('alert_rules')).toBe(before);
    });

    it('refuses another account’s fence or device (404 naming it), storing nothing; 401 without credentials; 404 across accounts', async () => {
      const bobsFence = (await bob.client.fences.create({ name: 'Bob’s', geometry: PARK })).uid;
      const bobsDevice = await device(bob);
      const before = await count('alert_rules');
      await expectApiError(alice.client.rules.create({ name: 'x', kind: 'fence', fence: bobsFence, on: 'leave' }), 404, 'NOT_FOUND', 'fence');
      await expectApiError(
        alice.client.rules.create({ name: 'x', kind: 'offline', minutes: 5, devices: { euis: [bobsDevice] } }),
        404,
        'NOT_FOUND',
        'devices.euis',
      );
      expect(await count('alert_rules')).toBe(before);
      expectError(await svc.http().get('/user/rule'), 401, 'AUTH_REQUIRED');
      expectError(await svc.http().get('/user/alert'), 401, 'AUTH_REQUIRED');
      const mine = await alice.client.rules.create({ name: 'mine', kind: 'offline', minutes: 60 });
      await expectApiError(bob.client.rules.get(mine.uid), 404, 'NOT_FOUND');
      await expectApiError(bob.client.rules.update(mine.uid, { name: 'bob’s now' }), 404, 'NOT_FOUND');
      await expectApiError(bob.client.rules.remove(mine.uid), 404, 'NOT_FOUND');
      await expectApiError(alice.client.rules.update(mine.uid, { fence: bobsFence }), 400, 'VALIDATION_FAILED', 'fence');
      expect((await alice.client.rules.get(mine.uid)).name).toBe('mine');
      await alice.client.rules.remove(mine.uid);
      await expectApiError(alice.client.alerts.list({ eui: bobsDevice }), 404, 'NOT_FOUND', 'eui');
    });
  });

  describe('alerts', () => {
    it('judges the uplinks after a fence is reshaped by its new shape (the router reads an edited fence again)', async () => {
      const moving = (await alice.client.fences.create({ name: 'Moving', geometry: PARK })).uid;
      const eui = await device(alice, 'Parked bike');
      await alice.client.rules.create({ name: 'Parked bike leaves', kind: 'fence', fence: moving, on: 'leave', devices: { euis: [eui] } });
      await ingest(eui, lpp({ gps: INSIDE }));
      await ingest(eui, lpp({ gps: INSIDE }));
      // Both judged (routed) and nothing raised.
      await allEventsRouted(ds);
      expect(await alertsOf(eui)).toEqual([]);
      // The park moves a few kilometres east: the bike, where it was, is now outside.
      await alice.client.fences.update(moving, {
        geometry: { type: 'Polygon', coordinates: [PARK.coordinates[0]!.map(([lon, lat]) => [lon + 0.1, lat] as [number, number])] },
      });
      await ingest(eui, lpp({ gps: INSIDE }));
      const [raised] = await waitAlerts(eui, (l) => l.length === 1);
      expect(raised).toMatchObject({ state: 'active', message: 'Parked bike left fence Moving', details: expect.objectContaining({ inside: false }) });
    });

    it('a tracker leaving a fence: raised once on the change, on the live feed, to the integration, by mail; cleared on return; acknowledged', async () => {
      const eui = await device(alice, 'Park bike');
      const rule = await alice.client.rules.create({ name: 'Bike leaves', kind: 'fence', fence, on: 'leave', email: true, devices: { euis: [eui] } });
      const hook = await alice.client.integrations.create({
        name: 'alerts',
        kind: 'webhook',
        url: `${receiver.url}/alerts`,
        events: ['alert'],
        devices: { euis: [eui] },
      });
      receiver.secret('/alerts', hook.secret!);
      const [live, accountFeed, bobsFeed] = await Promise.all([follow(eui), follow(null), follow(null, bob)]);

      await ingest(eui, lpp({ gps: INSIDE }));
      await ingest(eui, lpp({ gps: INSIDE }));
      // Both judged (routed) and nothing raised.
      await allEventsRouted(ds);
      expect(await alertsOf(eui)).toEqual([]);
      await ingest(eui, lpp({ gps: OUTSIDE }));
      const raised = at(await waitAlerts(eui, (l) => l.length === 1), 0, 'alert');
      expect(raised).toEqual({
        uid: expect.any(Number),
        rule: { uid: rule.uid, name: 'Bike leaves', kind: 'fence' },
        devEUI: eui,
        state: 'active',
        acknowledged: false,
        message: 'Park bike left fence Vondelpark',
        details: expect.objectContaining({ fence, on: 'leave', inside: false, lat: OUTSIDE[0], lon: OUTSIDE[1] }),
        raised_unix: expect.any(Number),
        cleared_unix: null,
        acknowledged_unix: null,
        // Its mail may have gone already.
        mail: { raised: { state: expect.stringMatching(/^(pending|sent)$/), reason: null }, cleared: null },
      });
      // A feed tells of an alert as it is when the notice is read: the clearing waits until both have told it active.
      const toldActive = (e: LiveEvent) => e.event === 'alert' && e.data.uid === raised.uid && e.data.state === 'active';
      await Promise.all([live.waitFor(toldActive, 'the raised alert'), accountFeed.waitFor(toldActive, 'the raised alert')]);
      await ingest(eui, lpp({ gps: OUTSIDE }));
      await ingest(eui, lpp({ gps: INSIDE }));
      const [cleared] = await waitAlerts(eui, (l) => l[0]?.state === 'cleared');
      expect(cleared).toMatchObject({
        uid: raised.uid,
        state: 'cleared',
        cleared_unix: expect.any(Number),
        details: expect.objectContaining({ cleared_by: expect.objectContaining({ inside: true }) }),
      });
      expect(await alertsOf(eui)).toHaveLength(1);

      const sent = await receiver.waitFor('/alerts', (l) => l.length >= 2);
      expect(sent.every((r) => r.verified)).toBe(true);
      expect(sent.map((r) => (r.body as AlertEventWire).data.state)).toEqual(['active', 'cleared']);
      expect(sent[0]!.body).toMatchObject({ type: 'alert', version: 1, devEUI: eui, data: { uid: raised.uid, message: raised.message } });

      const alertMail = /^(Alert|Cleared): /;
      await smtp.waitForMail(alice.account.email, alertMail, { count: 2 });
      expect(smtp.mailsTo(alice.account.email, alertMail).map((m) => m.subject)).toEqual([
        'Alert: Park bike left fence Vondelpark',
        'Cleared: Park bike left fence Vondelpark',
      ]);
      const sentBoth = { raised: { state: 'sent', reason: null }, cleared: { state: 'sent', reason: null } };
      await eventually(async () => expect((await alice.client.alerts.get(raised.uid)).mail).toEqual(sentBoth), { what: 'both mails to be recorded sent' });

      // This device's: the account's feed may still carry the notice of an earlier test's alert.
      const alertsOn = (feed: SseClient) =>
        feed.events
          .filter((e) => e.event === 'alert')
          .map((e) => e.data as AlertWire)
          .filter((a) => a.devEUI === eui);
      await eventually(() => alertsOn(live).length >= 2 && alertsOn(accountFeed).length >= 2, { what: 'both notices on both feeds' });
      for (const feed of [live, accountFeed, bobsFeed]) feed.close();
      for (const feed of [live, accountFeed]) {
        expect(alertsOn(feed).map((a) => [a.uid, a.state])).toEqual([
          [raised.uid, 'active'],
          [raised.uid, 'cleared'],
        ]);
      }
      expect(bobsFeed.events).toEqual([]);

      const acked = await alice.client.alerts.acknowledge(raised.uid);
      expect(acked).toMatchObject({ acknowledged: true, acknowledged_unix: expect.any(Number) });
      expect((await alice.client.alerts.acknowledge(raised.uid)).acknowledged_unix).toBe(acked.acknowledged_unix);
      expect(await alice.client.alerts.get(raised.uid)).toEqual(acked);
      expect((await alice.client.alerts.list({ state: 'acknowledged', eui })).map((a) => a.uid)).toEqual([raised.uid]);
      expect(await alice.client.alerts.list({ state: 'active', eui })).toEqual([]);
      expect(await alice.client.alerts.list({ state: 'unacknowledged', eui })).toEqual([]);
      expect(await alice.client.alerts.list({ eui, from: raised.raised_unix + 3600 })).toEqual([]);
      expect((await alice.client.alerts.list({ eui, from: raised.raised_unix, to: raised.raised_unix })).map((a) => a.uid)).toEqual([raised.uid]);

      // Another account never sees, reads or acknowledges it.
      expect(await bob.client.alerts.list()).toEqual([]);
      await expectApiError(bob.client.alerts.get(raised.uid), 404, 'NOT_FOUND');
      await expectApiError(bob.client.alerts.acknowledge(raised.uid), 404, 'NOT_FOUND');
      await alice.client.rules.remove(rule.uid);
      await alice.client.integrations.remove(hook.uid);
    });

    it('a threshold with hysteresis raises once while the value hovers at the limit', async () => {
      const eui = await device(alice, 'Greenhouse');
      const rule = await alice.client.rules.create({
        name: 'Hot',
        kind: 'threshold',
        member: 'temperature',
        above: 30,
        hysteresis: 0.5,
        devices: { euis: [eui] },
      });
      for (const t of [29, 31, 29.8, 30.4, 29.6]) await ingest(eui, lpp({ t }));
      const [hot] = await waitAlerts(eui, (l) => l.length === 1);
      expect(hot).toMatchObject({
        state: 'active',
        message: 'Greenhouse: temperature 31 is above 30',
        details: expect.objectContaining({ member: 'temperature', value: 31, above: 30, hysteresis: 0.5 }),
      });
      await ingest(eui, lpp({ t: 29.4 }));
      await waitAlerts(eui, (l) => l[0]?.state === 'cleared');
      await ingest(eui, lpp({ t: 31 }));
      const list = await waitAlerts(eui, (l) => l.length === 2);
      expect(list.map((a) => a.state)).toEqual(['active', 'cleared']);
      await alice.client.rules.remove(rule.uid);
    });

    it('a battery voltage below its limit', async () => {
      const eui = await device(alice, 'Sensor');
      const rule: CreateRuleRequest = { name: 'Low battery', kind: 'battery', measure: 'voltage', below: 3.3, hysteresis: 0.1, devices: { euis: [eui] } };
      const created = await alice.client.rules.create(rule);
      await ingest(eui, lpp({ volt: 3.6 }));
      await ingest(eui, lpp({ volt: 3.2 }));
      const low = at(await waitAlerts(eui, (l) => l.length === 1), 0, 'alert');
      expect(low.message).toBe('Sensor: battery at 3.2 V, below 3.3 V');
      await alice.client.rules.remove(created.uid);
    });

    it('a sensor gone silent: offline after N minutes without an uplink, cleared by the next', async () => {
      const eui = await device(alice, 'Silent');
      // Last heard two minutes ago.
      await ingest(eui, lpp({ t: 20 }), { time_stamp_unix: Math.floor(Date.now() / 1000) - 120 });
      const rule = await alice.client.rules.create({ name: 'Silent 1 min', kind: 'offline', minutes: 1, devices: { euis: [eui] } });
      const offline = at(await waitAlerts(eui, (l) => l.length === 1, 20_000), 0, 'alert');
      expect(offline).toMatchObject({ state: 'active', rule: { uid: rule.uid, kind: 'offline' }, message: 'Silent has sent nothing for 1 minute' });
      expect(offline.details).toMatchObject({ minutes: 1, last_uplink_unix: expect.any(Number) });
      // Checked again, still silent: no second alert.
      await offlineCheck();
      await offlineCheck();
      expect(await alertsOf(eui)).toHaveLength(1);
      await ingest(eui, lpp({ t: 21 }));
      const back = at(await waitAlerts(eui, (l) => l[0]?.state === 'cleared'), 0, 'alert');
      expect(back.uid).toBe(offline.uid);
      await alice.client.rules.remove(rule.uid);
    });
  });
});
