import { LiveBus } from '@dts/persistence';
import { randomBytes } from 'node:crypto';
import { LiveFeedService } from '../src/modules/live/live-feed.service';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { realRedisUrl } from './support/test-database';
import { lpp } from './support/payloads';
import { SseClient, until } from './support/sse-client';

/*
 * GET /user/device/live/{eui}: Server-Sent Events of a device's new uplinks and command status
 * changes, across instances (two api instances on one database, and one Redis when configured).
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- event data is read member by member
type Json = Record<string, any>;

const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const T0 = 1_777_000_000;

/** Where notices travel: LISTEN/NOTIFY of the database always; Redis pub/sub too when a test Redis is given. */
const TRANSPORTS: ['database' | 'redis', Record<string, string>][] = [
  ['database', { REDIS_URL: '' }],
  ...(realRedisUrl ? [['redis', {}] as ['redis', Record<string, string>]] : []),
];

describe.each(TRANSPORTS)('live feed across two instances (notices through the %s)', (_transport, env) => {
  let a: TestService;
  let b: TestService;
  let alice: Caller;
  let bob: Caller;
  let device: { uid: number; devEUI: string };
  let other: { uid: number; devEUI: string };
  const clients: SseClient[] = [];
  let fcnt = 0;

  const open = async (svc: TestService, who: Caller, eui: string, headers: Record<string, string> = {}) => {
    const client = await SseClient.open(`${svc.url}/user/device/live/${eui}`, { Authorization: `Bearer ${who.appToken}`, ...headers });
    clients.push(client);
    return client;
  };
  const ingest = async (items: object[]) => {
    const res = await a.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items);
    expect(expectSuccess<{ accepted: number }>(res, 202).accepted).toBe(items.length);
  };
  const uplink = (eui: string, t: number) => ({ devEUI: eui, port: 1, payload_hex: lpp({ t }), time_stamp_unix: T0 + ++fcnt, fcnt });
  const tableRows = async (eui: string) =>
    expectSuccess<Json[]>(
      await a
        .http()
        .get(`/user/device/table/${eui}`)
        .set(...bearer(alice.appToken)),
    );

  beforeAll(async () => {
    a = await startTestService({ env });
    b = await startTestService({ sameDatabaseAs: a, env });
    [alice, bob] = await Promise.all([accountWithCredentials(a, 'alice'), accountWithCredentials(a, 'bob')]);
    device = expectSuccess(
      await a
        .http()
        .post(`/user/device/${newEui()}`)
        .set(...bearer(alice.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
    other = expectSuccess(
      await a
        .http()
        .post(`/user/device/${newEui()}`)
        .set(...bearer(alice.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
  }, 60_000);
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    // Each test starts with no client on either instance.
    for (const svc of [a, b])
      if (svc.app.getHttpServer().listening) await until(() => svc.app.get(LiveFeedService).stats().clients === 0, 'the release of the last test’s clients');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('holds the stream open with the event-stream headers', async () => {
    const client = await open(b, alice, device.devEUI);
    expect(client.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(client.res.headers['x-accel-buffering']).toBe('no');
    expect(client.res.headers['cache-control']).toBe('no-cache, no-transform');
    await until(() => client.comments.length > 0, 'the opening comment');
  });

  it('sends an uplink stored through instance a to a client of instance b, and none of another device', async () => {
    const client = await open(b, alice, device.devEUI);
    await until(() => client.comments.length > 0, 'the opening comment');
    // The other device's uplink is announced first; by the time this device's arrives, it was passed over.
    await ingest([uplink(other.devEUI, 9)]);
    await ingest([uplink(device.devEUI, 21.5)]);
    const event = await client.waitFor((e) => e.event === 'uplink', 'uplink event');
    const row = (await tableRows(device.devEUI)).at(-1)!;
    expect(event).toEqual({ event: 'uplink', id: String(row.uplink.uid), data: row });
    expect(event.data).toMatchObject({ temperature: 21.5, uplink: { devEUI: device.devEUI } });
    expect(client.events).toHaveLength(1);
  });

  it('sends each uplink of a batch once, in order, to every client on either instance', async () => {
    const onB = await open(b, alice, device.devEUI);
    const onA = await open(a, alice, device.devEUI);
    const onB2 = await open(b, alice, device.devEUI);
    await until(() => [onA, onB, onB2].every((c) => c.comments.length > 0), 'the opening comments');
    await ingest([uplink(device.devEUI, 1), uplink(other.devEUI, 2), uplink(device.devEUI, 3)]);
    await ingest([uplink(device.devEUI, 4)]);
    const rows = (await tableRows(device.devEUI)).slice(-3);
    for (const client of [onA, onB, onB2]) {
      await client.waitFor((e) => e.id === String(rows[2]!.uplink.uid), 'the last uplink');
      expect(client.events.map((e) => e.id)).toEqual(rows.map((r) => String(r.uplink.uid)));
      expect(client.events.map((e) => e.data.temperature)).toEqual([1, 3, 4]);
    }
  });

  it('replays the uplinks after Last-Event-ID, then continues live', async () => {
    await ingest([uplink(device.devEUI, 5), uplink(device.devEUI, 6), uplink(device.devEUI, 7)]);
    const rows = await tableRows(device.devEUI);
    const lastSeen = rows.at(-3)!.uplink.uid as number;
    const client = await open(b, alice, device.devEUI, { 'Last-Event-ID': String(lastSeen) });
    await client.waitFor((e) => e.data.temperature === 7, 'the replayed uplinks');
    await ingest([uplink(device.devEUI, 8)]);
    const live = await client.waitFor((e) => e.data.temperature === 8, 'the live uplink');
    expect(client.events.map((e) => e.data.temperature)).toEqual([6, 7, 8]);
    expect(client.events.slice(0, 2).map((e) => e.data)).toEqual(rows.slice(-2));
    expect(Number(live.id)).toBeGreaterThan(Number(client.events[1]!.id));
    // An id that is not an uplink uid is ignored: the stream starts live.
    const fresh = await open(b, alice, device.devEUI, { 'Last-Event-ID': 'garbage' });
    await ingest([uplink(device.devEUI, 9)]);
    await fresh.waitFor((e) => e.data.temperature === 9, 'the live uplink');
    expect(fresh.events.map((e) => e.data.temperature)).toEqual([9]);
  });

  it('sends the status changes of a command created on a and scheduled by a worker', async () => {
    const client = await open(b, alice, device.devEUI);
    await until(() => client.comments.length > 0, 'the opening comment');
    const created = expectSuccess<Json>(
      await a
        .http()
        .post(`/user/device/command/${device.devEUI}`)
        .set(...bearer(alice.appToken))
        .send({ port: 5, payload_hex: 'CAFE' }),
      201,
    );
    const scheduled = await client.waitFor((e) => e.event === 'command' && e.data.uid === created.uid && e.data.status === 'Scheduled', 'Scheduled');
    expect(scheduled.id).toBeNull();
    const listed = expectSuccess<Json[]>(
      await a
        .http()
        .get(`/user/device/command/${device.devEUI}`)
        .set(...bearer(alice.appToken)),
    ).find((c) => c.uid === created.uid);
    expect(scheduled.data).toEqual(listed);
    // Created may be seen or, when the worker was quicker than the read, folded into Scheduled; never twice, never out of order.
    const statuses = client.events.filter((e) => e.event === 'command').map((e) => e.data.status as string);
    expect([['Created', 'Scheduled'], ['Scheduled']]).toContainEqual(statuses);
    expect(client.events.every((e) => e.event === 'command')).toBe(true);
  });

  it('refuses before the stream starts: 401, 404 for another account’s or an unknown device, 400 for a bad EUI', async () => {
    const path = `/user/device/live/${device.devEUI}`;
    const anonymous = await b.http().get(path).set('Accept', 'text/event-stream');
    expectError(anonymous, 401, 'AUTH_REQUIRED');
    expect(anonymous.headers['content-type']).toMatch(/^application\/json/);
    expectError(
      await b
        .http()
        .get(path)
        .set(...bearer(bob.appToken)),
      404,
      'NOT_FOUND',
    );
    expectError(
      await b
        .http()
        .get(`/user/device/live/${newEui()}`)
        .set(...bearer(alice.appToken)),
      404,
      'NOT_FOUND',
    );
    expectError(
      await b
        .http()
        .get('/user/device/live/not-an-eui')
        .set(...bearer(alice.appToken)),
      400,
      'VALIDATION_FAILED',
      'eui',
    );
    expect(b.app.get(LiveFeedService).stats()).toMatchObject({ clients: 0, devices: 0 });
  });

  it('follows a device shared with another account', async () => {
    const shared = expectSuccess<{ devEUI: string }>(
      await a
        .http()
        .post(`/user/device/${newEui()}`)
        .set(...bearer(alice.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
    await a
      .http()
      .post(`/user/device/share/${shared.devEUI}`)
      .set(...bearer(alice.appToken))
      .send({ username: bob.account.username })
      .expect(201);
    const client = await open(b, bob, shared.devEUI);
    await until(() => client.comments.length > 0, 'the opening comment');
    await ingest([uplink(shared.devEUI, 12.5)]);
    expect((await client.waitFor((e) => e.event === 'uplink', 'uplink event')).data.temperature).toBe(12.5);

    // The share ends: the next uplink does not reach bob, and his stream is closed.
    await a
      .http()
      .delete(`/user/device/share/${shared.devEUI}/${bob.account.id}`)
      .set(...bearer(alice.appToken))
      .expect(200);
    await ingest([uplink(shared.devEUI, 13.5)]);
    await client.ended;
    expect(client.events.map((e) => e.data.temperature)).toEqual([12.5]);
  });

  it('keeps one subscription per process, and releases a device’s hub when its last client leaves', async () => {
    const feed = b.app.get(LiveFeedService);
    const bus = b.app.get(LiveBus);
    const first = await open(b, alice, device.devEUI);
    const second = await open(b, alice, device.devEUI);
    const third = await open(b, alice, other.devEUI);
    await until(() => [first, second, third].every((c) => c.comments.length > 0), 'the opening comments');
    expect(feed.stats()).toEqual({ clients: 3, devices: 2, listening: true });
    // The feed's hubs, the stream registry (revocations), the in-process worker's event pump and
    // the credential cache (token requests), on one subscription.
    expect(bus.listenerCount).toBe(4);
    expect(bus.subscribed).toBe(true);

    first.close();
    await until(() => feed.stats().clients === 2, 'the first client’s release');
    expect(feed.stats().devices).toBe(2);
    second.close();
    third.close();
    await until(() => feed.stats().clients === 0, 'the other clients’ release');
    expect(feed.stats()).toEqual({ clients: 0, devices: 0, listening: true });
    // Nothing is written to a client that has gone: an uplink now reaches no hub.
    await ingest([uplink(device.devEUI, 30)]);
    const after = await open(b, alice, device.devEUI);
    await ingest([uplink(device.devEUI, 31)]);
    expect((await after.waitFor((e) => e.event === 'uplink', 'uplink event')).data.temperature).toBe(31);
    // Uplinks only: the simulated class-A network sends the earlier test's queued command on an
    // uplink, so its 'Sent' may reach this client too, whenever that hand-off lands.
    expect(after.events.filter((e) => e.event === 'uplink').map((e) => e.data.temperature)).toEqual([31]);
  });

  // Last: it stops instance b.
  it('ends its open streams when an instance shuts down, so that it can stop', async () => {
    const client = await SseClient.open(`${b.url}/user/device/live/${device.devEUI}`, { Authorization: `Bearer ${alice.appToken}` });
    const ended = new Promise<void>((resolve) => client.res.on('close', resolve));
    await until(() => client.comments.length > 0, 'the opening comment');
    const bus = b.app.get(LiveBus);
    await b.close();
    await ended;
    expect(bus.subscribed).toBe(false);
  });
});
