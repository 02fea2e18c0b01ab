import { eventually, freePort, type LocalRedisCluster, startRedisCluster } from '@dts/platform';
import type { Cluster } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { expectError, expectSuccess } from './support/envelope';
import { lpp } from './support/payloads';
import { at } from './support/present';
import {
  API_MAIN,
  composeEnvironment,
  composeIngestSecret,
  MIGRATE_MAIN,
  type Proc,
  startProcess,
  stopProcesses,
  waitReady,
  WORKER_MAIN,
} from './support/processes';
import { startStandInNetwork, type StandInNetwork } from './support/services';
import { SseClient } from './support/sse-client';
import { createTestDatabase, realDatabaseUrl, realRedisUrl, type TestDatabase } from './support/test-database';

/*
 * The service on a Redis Cluster: three masters started here (redis-server --cluster-enabled yes,
 * redis-cli --cluster create, a password on every node), two api processes and a standalone worker
 * from dist/ with the environment docker-compose.yml gives them, REDIS_CLUSTER_NODES in place of
 * REDIS_URL, on PostgreSQL. What one instance establishes the other honours — sessions, the
 * account's rate limit, cache versions, live notices — the worker runs queued jobs, and the keys
 * really are spread over the masters, the queues' in one slot.
 *
 * In the PostgreSQL + Redis pass of `npm test` (the embedded database lives inside one process);
 * there a machine without redis-server or redis-cli fails the suite rather than skipping it.
 */

const TITLE = 'the service on a three-master Redis Cluster: two api processes and a worker';
const suite = realDatabaseUrl && realRedisUrl ? describe : describe.skip;
const title = realDatabaseUrl && realRedisUrl ? TITLE : `${TITLE} (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL)`;

const ACCOUNT_LIMIT = 120;
const newEui = () => randomBytes(8).toString('hex').toUpperCase();

/** `probe` until `done` accepts its answer, on the shared `eventually`: the error names the last answer. */
function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string, ms = 20_000): Promise<T> {
  return eventually(
    async () => {
      const last = await probe();
      if (!done(last)) throw new Error(JSON.stringify(last));
      return last;
    },
    { what, timeoutMs: ms, intervalMs: 150 },
  );
}

suite(title, () => {
  const prefix = `dts-cluster-${randomBytes(4).toString('hex')}`;
  const admin = { username: 'clusteradmin', password: 'cluster admin password' };
  const procs: Proc[] = [];
  let cluster: LocalRedisCluster;
  let redis: Cluster;
  let db: TestDatabase | null = null;
  let network: StandInNetwork;
  let secret = '';
  const ports = { api1: 0, api2: 0, worker: 0 };
  const started = Date.now();

  const via = { api1: () => request(`http://127.0.0.1:${ports.api1}`), api2: () => request(`http://127.0.0.1:${ports.api2}`) };
  type Via = keyof typeof via;
  const sessionCookie = (res: request.Response) => {
    const cookie = (res.headers['set-cookie'] as unknown as string[] | undefined)?.find((c) => c.startsWith('dts_session='));
    if (!cookie) throw new Error(`no session cookie in ${res.status} ${res.text}`);
    return cookie.split(';')[0]!;
  };
  const newAccount = async (where: Via, name: string) => {
    const username = `${name}_${randomBytes(3).toString('hex')}`;
    const account = { username, email: `${username}@example.org`, password: `pw-${randomBytes(8).toString('hex')}` };
    const id = expectSuccess<{ id: number }>(await via[where]().post('/auth/register').send(account), 201).id;
    return { id, ...account };
  };
  const login = async (where: Via, who: { username: string; password: string }) =>
    sessionCookie(await via[where]().post('/auth/login').send({ username: who.username, password: who.password }));
  const newDevice = async (cookie: string, decoderRef: number) => {
    const eui = newEui();
    const device = expectSuccess<{ uid: number }>(await via.api1().post(`/user/device/${eui}`).set('Cookie', cookie).send({ decoder_ref: decoderRef }), 201);
    return { eui, uid: device.uid };
  };
  const query = async <T extends object>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: db!.url! });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  /** Keys matching `match` on one master (SCAN there), by port. */
  const keysOn = async (port: number, match: string): Promise<string[]> => {
    const node = cluster.node(port);
    try {
      const keys: string[] = [];
      for await (const batch of node.scanStream({ match, count: 1000 }) as AsyncIterable<string[]>) keys.push(...batch);
      return keys;
    } finally {
      node.disconnect();
    }
  };

  beforeAll(async () => {
    [cluster, network] = await Promise.all([startRedisCluster({ password: `cluster-${randomBytes(8).toString('hex')}` }), startStandInNetwork()]);
    redis = cluster.client();
    db = await createTestDatabase();
    ports.api1 = await freePort();
    ports.api2 = await freePort();
    ports.worker = await freePort();
    const local = {
      DATABASE_URL: db.url!,
      // compose gives a single Redis: a cluster instead (both together are refused).
      REDIS_URL: '',
      REDIS_CLUSTER_NODES: cluster.setting,
      REDIS_PREFIX: prefix,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOG_PRETTY: 'false',
      DB_POOL_SIZE: '4',
      // The stand-in ChirpStack is on loopback, which the SSRF guard refuses by default.
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_PER_MINUTE: String(ACCOUNT_LIMIT),
    };
    const env = (service: string, extra: Record<string, string>) => ({ ...composeEnvironment(service), ...local, ...extra });
    secret = composeIngestSecret();

    const migrate = startProcess('migrate', process.execPath, [MIGRATE_MAIN], env('migrate', {}));
    procs.push(migrate);
    const migrated = await migrate.exited;
    if (migrated !== 0) throw new Error(`migrate exited with ${migrated}:\n${migrate.output()}`);

    const bootstrap = { ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password };
    const api1 = startProcess(
      'api-1',
      process.execPath,
      [API_MAIN],
      env('api-1', { PORT: String(ports.api1), PUBLIC_BASE_URL: `http://127.0.0.1:${ports.api1}`, ...bootstrap }),
    );
    const api2 = startProcess(
      'api-2',
      process.execPath,
      [API_MAIN],
      env('api-2', { PORT: String(ports.api2), PUBLIC_BASE_URL: `http://127.0.0.1:${ports.api2}`, ...bootstrap }),
    );
    const worker = startProcess('worker', process.execPath, [WORKER_MAIN], env('worker', { WORKER_HEALTH_PORT: String(ports.worker) }));
    procs.push(api1, api2, worker);
    await Promise.all([
      waitReady(`http://127.0.0.1:${ports.api1}/health/ready`, api1, 90_000),
      waitReady(`http://127.0.0.1:${ports.api2}/health/ready`, api2, 90_000),
      waitReady(`http://127.0.0.1:${ports.worker}/health/ready`, worker, 90_000),
    ]);
    process.stdout.write(`Redis Cluster topology ready in ${Date.now() - started} ms\n`);
  }, 180_000);

  afterAll(async () => {
    await stopProcesses(procs);
    redis?.disconnect();
    await network?.close();
    await cluster?.stop();
    await db?.drop();
    process.stdout.write(`Redis Cluster suite took ${Date.now() - started} ms\n`);
  }, 60_000);

  it('reports every master in readiness, on the api and the worker', async () => {
    for (const url of [`http://127.0.0.1:${ports.api1}`, `http://127.0.0.1:${ports.worker}`]) {
      const ready = await request(url).get('/health/ready');
      expect(ready.status).toBe(200);
      expect(expectSuccess<{ details: Record<string, unknown> }>(ready).details.redis).toMatchObject({ status: 'up', masters: 3 });
    }
  });

  it('honours on api-2 sessions started on api-1, lists them there, and ends them everywhere', async () => {
    const account = await newAccount('api1', 'sess');
    // Ten sessions, five made on each instance: their keys hash to slots all over the cluster.
    const cookies: string[] = [];
    for (let i = 0; i < 10; i++) cookies.push(await login(i % 2 ? 'api2' : 'api1', account));
    for (const [i, cookie] of cookies.entries())
      expect(expectSuccess<{ id: number }>(await via[i % 2 ? 'api1' : 'api2']().get('/user').set('Cookie', cookie)).id).toBe(account.id);
    // Random digests name them: ten sessions on one master of three would be a 1-in-20,000 draw.
    const holding = await Promise.all(cluster.nodes.map(async (n) => (await keysOn(n.port, `${prefix}:sess:*`)).length));
    expect(holding.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
    expect(holding.reduce((a, b) => a + b, 0)).toBe(10);

    // The listing reads every session of the account (keys in many slots) on the other instance.
    const listed = expectSuccess<{ id: string; current: boolean }[]>(await via.api2().get('/user/session').set('Cookie', at(cookies, 0)));
    expect(listed).toHaveLength(10);
    expect(listed.filter((s) => s.current)).toHaveLength(1);

    // Logout on api-2 ends the session on api-1.
    await via.api2().post('/auth/logout').set('Cookie', at(cookies, 1)).expect(200);
    expectError(await via.api1().get('/user').set('Cookie', at(cookies, 1)), 401, 'AUTH_REQUIRED');
    // "Sign out everywhere else" on api-1 ends the other eight on both instances, the caller's kept.
    expect(expectSuccess<{ ended: number }>(await via.api1().delete('/user/session').set('Cookie', at(cookies, 0))).ended).toBe(8);
    for (const cookie of cookies.slice(2)) {
      expectError(await via.api1().get('/user').set('Cookie', cookie), 401, 'AUTH_REQUIRED');
      expectError(await via.api2().get('/user').set('Cookie', cookie), 401, 'AUTH_REQUIRED');
    }
    expect(expectSuccess<{ id: number }>(await via.api2().get('/user').set('Cookie', at(cookies, 0))).id).toBe(account.id);
    await via.api1().post('/auth/logout').set('Cookie', at(cookies, 0)).expect(200);
    expectError(await via.api2().get('/user').set('Cookie', at(cookies, 0)), 401, 'AUTH_REQUIRED');
  });

  it('counts the account rate limit across both instances: 429 with Retry-After on either once used up', async () => {
    const account = await newAccount('api2', 'rate');
    const cookie = await login('api1', account);
    const statuses: number[] = [];
    const retryAfter: number[] = [];
    // Bursts spread over both instances, as a load balancer would, until well past the limit.
    for (let round = 0; round < 18; round++) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => via[i % 2 ? 'api1' : 'api2']().get('/user').set('Cookie', cookie)));
      for (const a of answers) {
        statuses.push(a.status);
        if (a.status === 429) retryAfter.push(Number(a.headers['retry-after']));
      }
    }
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const admitted = statuses.filter((s) => s === 200).length;
    // Exact on one instance; across instances a window passes the limit only by hits not yet sent to the store.
    expect(admitted).toBeGreaterThanOrEqual(ACCOUNT_LIMIT - 2);
    expect(admitted).toBeLessThanOrEqual(ACCOUNT_LIMIT * 1.5);
    expect(retryAfter.length).toBeGreaterThan(0);
    expect(retryAfter.every((s) => s > 0 && s <= 60)).toBe(true);
    for (const where of ['api1', 'api2'] as const) {
      const refused = await via[where]().get('/user').set('Cookie', cookie);
      expectError(refused, 429, 'RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('dispatches commands queued on api-1 through the worker to the network, each once', async () => {
    const account = await newAccount('api1', 'cmd');
    const cookie = await login('api1', account);
    const chirpstack = expectSuccess<{ uid: number }>(
      await via
        .api2()
        .post('/user/network')
        .set('Cookie', cookie)
        .send({ name: 'lab chirpstack', adapter: 'chirpstack', base_url: network.url, api_key: 'cluster-key' }),
      201,
    );
    const device = await newDevice(cookie, 1);
    expectSuccess(await via.api2().post(`/user/device/meta/${device.eui}`).set('Cookie', cookie).send({ network_ref: chirpstack.uid }));
    const created: number[] = [];
    for (let i = 0; i < 6; i++) {
      const command = expectSuccess<{ uid: number }>(
        await via[i % 2 ? 'api2' : 'api1']()
          .post(`/user/device/command/${device.eui}`)
          .set('Cookie', cookie)
          .send({ port: 10 + i, payload_hex: (i + 1).toString(16).padStart(2, '0') }),
        201,
      );
      created.push(command.uid);
    }
    const path = `/api/devices/${device.eui.toLowerCase()}/queue`;
    await until(
      async () => network.calls.filter((c) => c.path === path).length,
      (n) => n >= created.length,
      'the dispatch of six commands',
    );
    const statuses = await until(
      () => query<{ uid: number; status: string }>('SELECT uid, status FROM commands WHERE uid = ANY($1::int[]) ORDER BY uid', [created]),
      (rows) => rows.every((r) => r.status !== 'Created'),
      'every command leaving Created',
    );
    expect(statuses.map((r) => r.status)).toEqual(created.map(() => 'Scheduled'));
    expect(
      network.calls
        .filter((c) => c.path === path)
        .map((c) => c.fPort)
        .sort((a, b) => a - b),
    ).toEqual([10, 11, 12, 13, 14, 15]);
  });

  it('sends a live client of api-2 the uplink ingested through api-1', async () => {
    const account = await newAccount('api2', 'live');
    const cookie = await login('api2', account);
    const device = await newDevice(cookie, 2);
    const client = await SseClient.open(`http://127.0.0.1:${ports.api2}/user/device/live/${device.eui}`, { Cookie: cookie });
    try {
      await until(
        async () => client.comments.length,
        (n) => n > 0,
        'the opening comment',
      );
      const sent = { devEUI: device.eui, port: 1, payload_hex: lpp({ t: 23.5 }), fcnt: 1, time_stamp_unix: 1_777_500_000 };
      expect(expectSuccess<{ accepted: number }>(await via.api1().post('/ingest/rest').set('X-Ingest-Secret', secret).send(sent), 202).accepted).toBe(1);
      const event = await client.waitFor((e) => e.event === 'uplink', 'the uplink from api-1');
      expect(event.data).toMatchObject({ temperature: 23.5, uplink: { devEUI: device.eui } });
    } finally {
      client.close();
    }
  });

  it('serves the cache from the cluster, and an invalidation on api-1 makes api-2 serve fresh data', async () => {
    const adminCookie = await login('api1', admin);
    const account = await newAccount('api1', 'cache');
    const cookie = await login('api1', account);
    const device = await newDevice(cookie, 2);
    const items = [0, 1, 2].map((i) => ({ devEUI: device.eui, port: 1, payload_hex: lpp({ t: 20 + i }), fcnt: i, time_stamp_unix: 1_777_600_000 + i * 60 }));
    expect(expectSuccess<{ accepted: number }>(await via.api1().post('/ingest/rest').set('X-Ingest-Secret', secret).send(items), 202).accepted).toBe(3);
    type Row = { temperature: number | null };
    const data = async (where: Via) => expectSuccess<Row[]>(await via[where]().get(`/user/device/data/${device.eui}`).set('Cookie', cookie));
    const status = async () =>
      expectSuccess<{ version: number; rows: number; stale: boolean }>(await via.api2().get(`/cache/status/${device.eui}`).set('Cookie', adminCookie));

    // A read of a stale entry has the worker build it (neither api runs processors).
    expect((await data('api2')).map((r) => r.temperature)).toEqual([20, 21, 22]);
    const built = await until(status, (s) => !s.stale, 'the first cache build');
    expect(built.rows).toBe(3);

    // The entry's one chunk is a key in the cluster; what api-2 serves is that key's text.
    const chunkKey = `${prefix}:cache:${device.uid}:${built.version}:0`;
    const chunk = await redis.get(chunkKey);
    expect(chunk).toContain('"temperature":20');
    await redis.set(chunkKey, chunk!.replace('"temperature":20', '"temperature":-99'), 'KEEPTTL');
    expect((await data('api2')).map((r) => r.temperature)).toEqual([-99, 21, 22]);

    // Invalidated on api-1: api-2 serves the database at once, never the old entry.
    const invalidated = expectSuccess<{ version: number }>(await via.api1().post(`/cache/invalidate/${device.eui}`).set('Cookie', adminCookie).send({}), 202);
    expect(invalidated.version).toBeGreaterThan(built.version);
    expect((await data('api2')).map((r) => r.temperature)).toEqual([20, 21, 22]);
    // The worker rebuilds it and prunes the old version's chunks, wherever in the cluster they are.
    const rebuilt = await until(status, (s) => !s.stale && s.version === invalidated.version, 'the rebuild after the invalidation');
    expect(rebuilt.rows).toBe(3);
    await until(
      () => redis.exists(chunkKey),
      (n) => n === 0,
      'the old version pruned',
    );

    // A new uplink through api-1 moves the version on: api-2 shows it.
    const more = { devEUI: device.eui, port: 1, payload_hex: lpp({ t: 30 }), fcnt: 3, time_stamp_unix: 1_777_600_300 };
    expectSuccess(await via.api1().post('/ingest/rest').set('X-Ingest-Secret', secret).send(more), 202);
    expect((await data('api2')).map((r) => r.temperature)).toEqual([20, 21, 22, 30]);
  });

  it('spreads the service’s keys over every master, and keeps each queue’s keys in one slot', async () => {
    const byNode = await Promise.all(
      cluster.nodes.map(async (n) => ({
        port: n.port,
        // Sessions, their accounts' sets, cache chunks, login failures; then the rate windows, `{<prefix>:rl:…}:hits`.
        service: [...(await keysOn(n.port, `${prefix}:*`)), ...(await keysOn(n.port, `{${prefix}:*`))],
        queues: await keysOn(n.port, `{${prefix}}:q:*`),
      })),
    );
    // The service's own keys land on every master...
    expect(byNode.filter((n) => n.service.length > 0)).toHaveLength(3);
    expect(byNode.flatMap((n) => n.service).some((k) => k.startsWith(`${prefix}:cache:`))).toBe(true);
    expect(byNode.flatMap((n) => n.service).some((k) => k.startsWith(`{${prefix}:rl:`))).toBe(true);
    // ...while BullMQ's keys of every queue are on one master, in one hash slot ({prefix} is the tag).
    const queueNodes = byNode.filter((n) => n.queues.length > 0);
    expect(queueNodes).toHaveLength(1);
    const queueKeys = at(queueNodes, 0).queues;
    expect(queueKeys.some((k) => k.startsWith(`{${prefix}}:q:command-dispatch:`))).toBe(true);
    expect(queueKeys.some((k) => k.startsWith(`{${prefix}}:q:cache-rebuild:`))).toBe(true);
    const slots = new Set(await Promise.all(queueKeys.slice(0, 200).map((k) => redis.cluster('KEYSLOT', k))));
    expect([...slots]).toEqual([await redis.cluster('KEYSLOT', prefix)]);
    // Every master holds keys (DBSIZE), and every key is one of the service's: nothing was written
    // outside the prefixes (BullMQ's default "bull:", a key without its tag). Counted apart, as jobs
    // come and go meanwhile.
    const known = new RegExp(`^(${prefix}:|\\{${prefix}:|\\{${prefix}\\}:q:)`);
    for (const n of cluster.nodes) {
      const node = cluster.node(n.port);
      try {
        expect({ port: n.port, keys: Number(await node.dbsize()) > 0 }).toEqual({ port: n.port, keys: true });
      } finally {
        node.disconnect();
      }
      const strangers = (await keysOn(n.port, '*')).filter((k) => !known.test(k));
      expect({ port: n.port, strangers }).toEqual({ port: n.port, strangers: [] });
    }
  });
});
