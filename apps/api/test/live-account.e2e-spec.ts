import { randomBytes } from 'node:crypto';
import { LiveFeedService } from '../src/modules/live/live-feed.service';
import { accountWithCredentials, bearer } from './support/accounts';
import { expectError, expectSuccess } from './support/envelope';
import { startTestService, TEST_SECRETS, type TestService } from './support/harness';
import { lpp } from './support/payloads';
import { SseClient, until } from './support/sse-client';

/*
 * GET /user/live: the live feed of every device of the account on one connection, through the same
 * device hubs as GET /user/device/live/{eui} (apps/api/test/live.e2e-spec.ts covers those across
 * instances and transports).
 */

type Caller = Awaited<ReturnType<typeof accountWithCredentials>>;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();
const T0 = 1_777_100_000;

describe('GET /user/live', () => {
  let svc: TestService;
  let alice: Caller;
  let bob: Caller;
  let d1: string;
  let d2: string;
  let bobs: string;
  const clients: SseClient[] = [];
  let fcnt = 0;

  const open = async (who: Caller, headers: Record<string, string> = {}) => {
    const client = await SseClient.open(`${svc.url}/user/live`, { Authorization: `Bearer ${who.appToken}`, ...headers });
    clients.push(client);
    await until(() => client.comments.length > 0, 'the opening comment');
    return client;
  };
  const ingest = async (items: object[]) =>
    expect(
      expectSuccess<{ accepted: number }>(await svc.http().post('/ingest/rest').set('X-Ingest-Secret', TEST_SECRETS.INGEST_SECRET).send(items), 202).accepted,
    ).toBe(items.length);
  const uplink = (eui: string, t: number) => ({ devEUI: eui, port: 1, payload_hex: lpp({ t }), time_stamp_unix: T0 + ++fcnt, fcnt });
  const register = async (who: Caller, eui = newEui()) => {
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/${eui}`)
        .set(...bearer(who.appToken))
        .send({ decoder_ref: 2 }),
      201,
    );
    return eui;
  };
  const temperatures = (client: SseClient) => client.events.filter((e) => e.event === 'uplink').map((e) => e.data.temperature as number);

  beforeAll(async () => {
    svc = await startTestService();
    [alice, bob] = await Promise.all([accountWithCredentials(svc, 'alice'), accountWithCredentials(svc, 'bob')]);
    d1 = await register(alice);
    d2 = await register(alice);
    bobs = await register(bob);
  }, 120_000);
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await until(() => svc.app.get(LiveFeedService).stats().clients === 0, 'the release of the last test’s clients');
  });
  afterAll(() => svc?.close());

  it('needs credentials', async () => {
    expectError(await svc.http().get('/user/live'), 401, 'AUTH_REQUIRED');
    expectError(await svc.http().get('/user/live').set('Authorization', 'Bearer nope'), 401, 'INVALID_TOKEN');
  });

  it('sends the uplinks and command changes of every device of the account, and none of another account', async () => {
    const client = await open(alice);
    const other = await open(bob);
    expect(client.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await ingest([uplink(d1, 1), uplink(bobs, 99), uplink(d2, 2)]);
    await ingest([uplink(d1, 3)]);
    // Each device's hub writes on its own: d2's uplink may come after d1's last one.
    await client.waitFor((e) => e.data.temperature === 3, 'the last uplink');
    await client.waitFor((e) => e.data.temperature === 2, 'the other device’s uplink');
    expect(temperatures(client).sort()).toEqual([1, 2, 3]);
    expect(new Set(client.events.map((e) => e.data.uplink.devEUI))).toEqual(new Set([d1, d2]));
    // Each device's uplinks in uid order.
    const d1Ids = client.events.filter((e) => e.data.uplink.devEUI === d1).map((e) => Number(e.id));
    expect(d1Ids).toEqual([...d1Ids].sort((a, b) => a - b));

    const command = expectSuccess<{ uid: number }>(
      await svc
        .http()
        .post(`/user/device/command/${d2}`)
        .set(...bearer(alice.appToken))
        .send({ port: 3, payload_hex: 'BEEF' }),
      201,
    );
    const scheduled = await client.waitFor((e) => e.event === 'command' && e.data.uid === command.uid && e.data.status === 'Scheduled', 'the command');
    expect(scheduled.data.devEUI).toBe(d2);
    await other.waitFor((e) => e.data.temperature === 99, 'bob’s uplink');
    expect(other.events.map((e) => e.data.uplink?.devEUI ?? e.data.devEUI)).toEqual([bobs]);
  });

  it('picks up a device registered or shared after it opened, and lets go of one no longer shared', async () => {
    const client = await open(alice);
    const later = await register(alice);
    await ingest([uplink(later, 10)]);
    await client.waitFor((e) => e.data.temperature === 10, 'the new device’s uplink');

    const shared = await register(bob);
    expectSuccess(
      await svc
        .http()
        .post(`/user/device/share/${shared}`)
        .set(...bearer(bob.appToken))
        .send({ username: alice.account.username }),
      201,
    );
    await ingest([uplink(shared, 11)]);
    await client.waitFor((e) => e.data.temperature === 11, 'the shared device’s uplink');

    expectSuccess(
      await svc
        .http()
        .delete(`/user/device/share/${shared}/${alice.account.id}`)
        .set(...bearer(bob.appToken)),
    );
    await ingest([uplink(shared, 12)]);
    await ingest([uplink(d1, 13)]);
    // The stream goes on for the rest of the account's devices.
    await client.waitFor((e) => e.data.temperature === 13, 'a later uplink of its own device');
    expect(temperatures(client)).toEqual([10, 11, 13]);
  });

  it('replays the account’s uplinks after Last-Event-ID, in uid order, then continues live', async () => {
    await ingest([uplink(d1, 20), uplink(d2, 21), uplink(d1, 22), uplink(d2, 23)]);
    const rows = expectSuccess<{ uplink: { uid: number }; temperature: number }[]>(
      await svc
        .http()
        .get(`/user/device/table/${d1}`)
        .set(...bearer(alice.appToken)),
    );
    const after = rows.find((r) => r.temperature === 20)!.uplink.uid;
    const client = await open(alice, { 'Last-Event-ID': String(after) });
    await client.waitFor((e) => e.data.temperature === 23, 'the replayed uplinks');
    await ingest([uplink(d2, 24)]);
    await client.waitFor((e) => e.data.temperature === 24, 'the live uplink');
    expect(temperatures(client)).toEqual([21, 22, 23, 24]);
    const ids = client.events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('is one client in the hub of each device, released when it leaves', async () => {
    const feed = svc.app.get(LiveFeedService);
    const client = await open(alice);
    expect(feed.stats().clients).toBe(1);
    expect(feed.stats().devices).toBeGreaterThanOrEqual(2);
    client.close();
    await until(() => feed.stats().clients === 0 && feed.stats().devices === 0, 'the hubs to go');
  });
});
