import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandDispatchJobId, QUEUES } from '@dts/domain';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import request from 'supertest';
import { expectError, expectSuccess } from './support/envelope';
import { eventually, freePort, pause } from '@dts/platform';
import {
  API_MAIN,
  composeEnvironment,
  composeIngestSecret,
  findNginx,
  MIGRATE_MAIN,
  nginxArgs,
  type Proc,
  renderNginxConf,
  startProcess,
  stopProcesses,
  waitReady,
  WORKER_MAIN,
} from './support/processes';
import { createTestDatabase, realDatabaseUrl, realRedisUrl, type TestDatabase } from './support/test-database';

/*
 * The production topology of docker-compose.yml, as real processes on loopback: the migration step,
 * two api instances and a worker from dist/ with the environment docker-compose.yml gives them, and
 * Debian's nginx running deploy/nginx.conf in front. What one instance establishes the other honours
 * (sessions, rate limits, cache versions), the worker dispatches each command once, and an instance
 * killed mid-traffic loses nothing it answered 202 for.
 *
 * Only with a real PostgreSQL and Redis (the embedded database lives inside one process). With them,
 * a missing nginx fails the suite: CI must not pass by skipping it.
 */

const TITLE = 'the compose topology: two api processes and a worker behind nginx';
const suite = realDatabaseUrl && realRedisUrl ? describe : describe.skip;
const title = realDatabaseUrl && realRedisUrl ? TITLE : `${TITLE} (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL)`;

const newEui = () => randomBytes(8).toString('hex').toUpperCase();

suite(title, () => {
  const nginx = findNginx();
  const prefix = `dts-deploy-${randomBytes(4).toString('hex')}`;
  const admin = { username: 'deployadmin', password: 'deployment admin password' };
  const procs: Proc[] = [];
  let db: TestDatabase | null = null;
  let scratch = '';
  let chirpstack: Server | null = null;
  const queued: { path: string; body: { queueItem: { fPort: number; data: string } } }[] = [];
  let secret = '';
  let api1: Proc;
  let ports: { nginx: number; api1: number; api2: number; worker: number; network: number };

  const via = {
    nginx: () => request(`http://127.0.0.1:${ports.nginx}`),
    api1: () => request(`http://127.0.0.1:${ports.api1}`),
    api2: () => request(`http://127.0.0.1:${ports.api2}`),
  };
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
    expectSuccess(await via.nginx().post(`/user/device/${eui}`).set('Cookie', cookie).send({ decoder_ref: decoderRef }), 201);
    return eui;
  };

  beforeAll(async () => {
    if (!nginx) throw new Error('nginx is not installed (apt-get install nginx): TEST_DATABASE_URL and TEST_REDIS_URL are set, so this suite must run');
    ports = { nginx: await freePort(), api1: await freePort(), api2: await freePort(), worker: await freePort(), network: await freePort() };
    scratch = mkdtempSync(join(tmpdir(), 'dts-deploy-'));
    // nginx's workers drop root: they must reach their temporary directories under it.
    chmodSync(scratch, 0o755);
    mkdirSync(join(scratch, 'temp'), { mode: 0o755 });

    chirpstack = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        queued.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id: `queue-item-${queued.length}` }));
      });
    });
    await new Promise<void>((resolve) => chirpstack!.listen(ports.network, '127.0.0.1', () => resolve()));

    db = await createTestDatabase();
    const local = {
      DATABASE_URL: db.url!,
      REDIS_URL: realRedisUrl!,
      REDIS_PREFIX: prefix,
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: `http://127.0.0.1:${ports.nginx}`,
      LOG_LEVEL: 'warn',
      LOG_PRETTY: 'false',
      DB_POOL_SIZE: '4',
      // The stand-in ChirpStack is on loopback, which the SSRF guard refuses by default.
      OUTBOUND_ALLOW_PRIVATE: 'true',
      AUTH_RATE_LIMIT_PER_MINUTE: '4',
      // nginx's address here (compose fixes it on its network).
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '100000',
    };
    const env = (service: string, extra: Record<string, string>) => ({ ...composeEnvironment(service), ...local, ...extra });
    secret = composeIngestSecret();

    const migrate = startProcess('migrate', process.execPath, [MIGRATE_MAIN], env('migrate', {}));
    procs.push(migrate);
    const migrated = await migrate.exited;
    if (migrated !== 0) throw new Error(`migrate exited with ${migrated}:\n${migrate.output()}`);

    // Both instances bootstrap the administrator at the same moment, as they would in compose.
    const bootstrap = { ADMIN_USERNAME: admin.username, ADMIN_PASSWORD: admin.password };
    api1 = startProcess('api-1', process.execPath, [API_MAIN], env('api-1', { PORT: String(ports.api1), ...bootstrap }));
    const api2 = startProcess('api-2', process.execPath, [API_MAIN], env('api-2', { PORT: String(ports.api2), ...bootstrap }));
    const worker = startProcess('worker', process.execPath, [WORKER_MAIN], env('worker', { WORKER_HEALTH_PORT: String(ports.worker) }));
    procs.push(api1, api2, worker);
    await Promise.all([
      waitReady(`http://127.0.0.1:${ports.api1}/health/ready`, api1),
      waitReady(`http://127.0.0.1:${ports.api2}/health/ready`, api2),
      waitReady(`http://127.0.0.1:${ports.worker}/health/ready`, worker),
    ]);

    const conf = join(scratch, 'nginx.conf');
    writeFileSync(conf, renderNginxConf(scratch, ports.nginx, ports.api1, ports.api2));
    const args = nginxArgs(scratch, conf);
    const checked = spawnSync(nginx, ['-t', ...args], { encoding: 'utf8' });
    if (checked.status !== 0) throw new Error(`nginx -t refused deploy/nginx.conf:\n${checked.stderr}`);
    const nginxProc = startProcess('nginx', nginx, args, {});
    procs.push(nginxProc);
    await waitReady(`http://127.0.0.1:${ports.nginx}/health/ready`, nginxProc, 10_000);
  }, 90_000);

  afterAll(async () => {
    await stopProcesses(procs);
    if (chirpstack) {
      chirpstack.closeAllConnections();
      await new Promise((r) => chirpstack!.close(r));
    }
    await db?.drop();
    if (realRedisUrl) {
      const redis = new Redis(realRedisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await redis.connect();
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
          if (keys.length) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    }
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }, 30_000);

  it('honours on api-2, directly and through nginx, a session started on api-1, and ends it everywhere', async () => {
    const account = await newAccount('api1', 'lb');
    const cookie = await login('api1', account);
    expect(expectSuccess<{ id: number; username: string }>(await via.api2().get('/user').set('Cookie', cookie))).toMatchObject({
      id: account.id,
      username: account.username,
    });
    expect(expectSuccess<{ id: number }>(await via.nginx().get('/user').set('Cookie', cookie)).id).toBe(account.id);
    expectError(await via.nginx().get('/user'), 401, 'AUTH_REQUIRED');

    await via.api2().post('/auth/logout').set('Cookie', cookie).expect(200);
    expectError(await via.api1().get('/user').set('Cookie', cookie), 401, 'AUTH_REQUIRED');
    expectError(await via.nginx().get('/user').set('Cookie', cookie), 401, 'AUTH_REQUIRED');
  });

  it('passes a sane X-Request-Id through nginx and makes one (nginx’s, not a UUID of the api) otherwise', async () => {
    const given = await via.nginx().get('/version').set('X-Request-Id', 'deploy-check.1');
    expect(given.headers['x-request-id']).toBe('deploy-check.1');
    const made = await via.nginx().get('/version');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
    const refused = await via.nginx().get('/version').set('X-Request-Id', 'not a token');
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('counts failed logins across both instances and nginx: 429 everywhere at the combined count', async () => {
    const account = await newAccount('nginx', 'brute');
    const attempt = (where: Via) => via[where]().post('/auth/login').send({ username: account.username, password: 'wrong password!' });
    // AUTH_RATE_LIMIT_PER_MINUTE=4: two on each instance use it up.
    for (const where of ['api1', 'api2', 'api1', 'api2'] as const) expectError(await attempt(where), 401, 'INVALID_CREDENTIALS');
    for (const where of ['api1', 'api2', 'nginx'] as const) {
      const limited = await attempt(where);
      expectError(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The right password is refused as well while the window lasts: the limit is not a guess counter.
    expectError(await via.api2().post('/auth/login').send({ username: account.username, password: account.password }), 429, 'RATE_LIMITED');
  });

  it('dispatches each command created through nginx exactly once, by the worker, to ChirpStack', async () => {
    const account = await newAccount('nginx', 'cmd');
    const cookie = await login('nginx', account);
    const network = expectSuccess<{ uid: number }>(
      await via
        .nginx()
        .post('/user/network')
        .set('Cookie', cookie)
        .send({ name: 'lab chirpstack', adapter: 'chirpstack', base_url: `http://127.0.0.1:${ports.network}`, api_key: 'deploy-key' }),
      201,
    );
    const eui = await newDevice(cookie, 1);
    expectSuccess(await via.nginx().post(`/user/device/meta/${eui}`).set('Cookie', cookie).send({ network_ref: network.uid }));

    const count = 12;
    const created: number[] = [];
    for (let i = 0; i < count; i++) {
      const command = expectSuccess<{ uid: number; status: string }>(
        await via
          .nginx()
          .post(`/user/device/command/${eui}`)
          .set('Cookie', cookie)
          .send({ port: 10 + i, payload_hex: (i + 1).toString(16).padStart(2, '0') }),
        201,
      );
      created.push(command.uid);
    }
    let commands: { uid: number; status: string }[] = [];
    await eventually(
      async () => {
        commands = expectSuccess<{ uid: number; status: string }[]>(await via.nginx().get(`/user/device/command/${eui}`).set('Cookie', cookie));
        return commands.every((c) => c.status !== 'Created');
      },
      { what: 'every command to leave Created', timeoutMs: 20_000, intervalMs: 200 },
    ).catch(() => undefined); // the expectation says which are left
    expect(commands.map((c) => [c.uid, c.status]).sort()).toEqual(created.map((uid) => [uid, 'Scheduled']).sort());
    // Duplicates would come from a second dispatcher racing the first: once every dispatch job has
    // ended (a job is removed when it completed or failed for good), none can still reach the network.
    const dispatch = new Queue(QUEUES.commandDispatch, { connection: { url: realRedisUrl!, maxRetriesPerRequest: null }, prefix: `${prefix}:q` });
    try {
      await eventually(async () => (await Promise.all(created.map((uid) => dispatch.getJob(commandDispatchJobId(uid))))).every((j) => j === undefined), {
        what: 'every dispatch job to end',
      });
    } finally {
      await dispatch.close();
    }
    const mine = queued.filter((q) => q.path === `/api/devices/${eui.toLowerCase()}/queue`);
    expect(mine.map((q) => q.body.queueItem.fPort).sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => 10 + i));
  });

  it('shows on api-2 a cache invalidation made on api-1, and the worker rebuilds the entry', async () => {
    const adminCookie = await login('api1', admin);
    const account = await newAccount('nginx', 'cache');
    const eui = await newDevice(await login('nginx', account), 2);
    const items = [0, 1, 2].map((i) => ({ devEUI: eui, port: 1, payload_hex: '036700E5', fcnt: i, time_stamp_unix: 1_777_300_000 + i * 60 }));
    expect(expectSuccess<{ accepted: number }>(await via.nginx().post('/ingest/rest').set('X-Ingest-Secret', secret).send(items), 202).accepted).toBe(3);

    const before = expectSuccess<{ version: number }>(await via.api2().get(`/cache/status/${eui}`).set('Cookie', adminCookie));
    const invalidated = expectSuccess<{ version: number }>(await via.api1().post(`/cache/invalidate/${eui}`).set('Cookie', adminCookie).send({}), 202);
    expect(invalidated.version).toBeGreaterThan(before.version);
    expect(expectSuccess<{ version: number }>(await via.api2().get(`/cache/status/${eui}`).set('Cookie', adminCookie)).version).toBe(invalidated.version);

    // Neither api runs processors (WORKER_IN_PROCESS=false): only the worker can have rebuilt it.
    let entry = { version: 0, rows: 0, stale: true };
    await eventually(
      async () => {
        entry = expectSuccess(await via.api2().get(`/cache/status/${eui}`).set('Cookie', adminCookie));
        return !entry.stale;
      },
      { what: 'the worker’s rebuild', timeoutMs: 15_000, intervalMs: 200 },
    ).catch(() => undefined); // the expectation says what it is
    expect(entry).toMatchObject({ version: invalidated.version, rows: 3, stale: false });
  });

  it('bounds the requests in progress per client address at nginx: the 65th is 429 in the envelope, another address is served', async () => {
    // 64 uploads that sent their headers and hold back the body: each is a request in progress
    // that nginx buffers itself (the api never sees them).
    const held: Socket[] = [];
    // A held request nginx answered at once (its budget still taken by requests of the tests before,
    // ending meanwhile) holds nothing: it is replaced until 64 are held.
    const answered = new Set<Socket>();
    const hold = async () => {
      const socket = connect(ports.nginx, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.once('data', () => answered.add(socket));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write('POST /ingest/rest HTTP/1.1\r\nHost: dts\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n');
      held.push(socket);
    };
    try {
      for (let i = 0; i < 64; i++) await hold();
      // nginx counts a request once it has read its headers: until it has read all 64, one more may pass.
      let replaced = 0;
      const refused = await eventually(
        async () => {
          for (const socket of [...answered]) {
            answered.delete(socket);
            socket.destroy();
            held.splice(held.indexOf(socket), 1);
            replaced++;
            await hold();
          }
          const res = await via.nginx().get('/version');
          expect(res.status).toBe(429);
          return res;
        },
        { what: 'nginx to refuse one more request from the address holding 64', intervalMs: 100 },
      );
      if (replaced > 0) process.stdout.write(`nginx per-address bound: ${replaced} held request(s) answered at once and replaced\n`);
      expectError(refused, 429, 'RATE_LIMITED');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Another client address (127.0.0.2 is loopback too) has a budget of its own.
      const other = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port: ports.nginx, path: '/version', localAddress: '127.0.0.2' }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(other.status).toBe(200);
      expect(JSON.parse(other.body).success).toBe(true);
    } finally {
      for (const socket of held) socket.destroy();
    }
    // The budget frees as the held requests end.
    await eventually(async () => expect((await via.nginx().get('/version')).status).toBe(200), {
      what: 'the budget to free',
      timeoutMs: 5_000,
      intervalMs: 100,
    });
  });

  it('loses no accepted uplink when api-1 is killed (SIGKILL) in the middle of a stream through nginx', async () => {
    const account = await newAccount('nginx', 'stream');
    const cookie = await login('nginx', account);
    const eui = await newDevice(cookie, 2);
    const total = 400;
    const killAt = 120;
    const t0 = 1_777_400_000;
    const answered = new Map<number, { accepted: number; duplicates: number }>();
    const failures = { status: new Map<number, number>(), connection: 0 };
    const unexpected: string[] = [];
    let next = 0;
    let acceptedAtKill = -1;
    const started = Date.now();

    const sender = async () => {
      for (let fcnt = next++; fcnt < total; fcnt = next++) {
        const item = { devEUI: eui, port: 1, payload_hex: '036700E5', fcnt, time_stamp_unix: t0 + fcnt };
        for (;;) {
          if (Date.now() - started > 40_000) throw new Error(`uplink ${fcnt} never accepted`);
          try {
            const res = await fetch(`http://127.0.0.1:${ports.nginx}/ingest/rest`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', 'X-Ingest-Secret': secret },
              body: JSON.stringify(item),
            });
            const text = await res.text();
            if (res.status === 202) {
              answered.set(fcnt, JSON.parse(text).data as { accepted: number; duplicates: number });
              if (answered.size === killAt) {
                acceptedAtKill = answered.size;
                api1.child.kill('SIGKILL');
              }
              break;
            }
            // The instance died under the request: safe to send again, a redelivery is stored once.
            if ([502, 503, 504].includes(res.status)) failures.status.set(res.status, (failures.status.get(res.status) ?? 0) + 1);
            else {
              unexpected.push(`${res.status} ${text.slice(0, 200)}`);
              break;
            }
          } catch {
            failures.connection++;
          }
          // A client's retry pace, not a wait for a state: the request failed while api-1 died and
          // nginx moves to api-2; 20 ms between tries keeps four senders from spinning on the cores.
          await pause(20);
        }
      }
    };
    await Promise.all(Array.from({ length: 4 }, sender));
    await api1.exited;

    expect(unexpected).toEqual([]);
    expect(acceptedAtKill).toBe(killAt);
    expect(answered.size).toBe(total);
    // Every answer was for this one uplink: stored now, or already (the request before a retry had been committed).
    for (const [fcnt, r] of answered) expect({ fcnt, stored: r.accepted + r.duplicates }).toEqual({ fcnt, stored: 1 });

    const pg = new Client({ connectionString: db!.url! });
    await pg.connect();
    try {
      const rows = (
        await pg.query<{ fcnt: string; n: number }>(
          'SELECT u.fcnt, count(*)::int AS n FROM uplinks u JOIN devices d ON d.uid = u.device_id WHERE d.eui = $1 GROUP BY u.fcnt ORDER BY u.fcnt',
          [eui],
        )
      ).rows;
      expect(rows.map((r) => [Number(r.fcnt), r.n])).toEqual(Array.from({ length: total }, (_, i) => [i, 1]));
    } finally {
      await pg.end();
    }

    // Both instances took traffic before the kill (least_conn), api-2 alone after it.
    const log = readFileSync(join(scratch, 'access.log'), 'utf8');
    expect(log).toContain(`upstream=127.0.0.1:${ports.api1}`);
    expect(log).toContain(`upstream=127.0.0.1:${ports.api2}`);
    expect((await via.nginx().get('/health/ready')).status).toBe(200);
    expect(expectSuccess<{ id: number }>(await via.nginx().get('/user').set('Cookie', cookie)).id).toBe(account.id);

    // The history read streams past nginx's buffers (the api asks with X-Accel-Buffering, nginx consumes the header).
    const direct = await via.api2().get(`/user/device/table/${eui}`).set('Cookie', cookie);
    expect(direct.headers['x-accel-buffering']).toBe('no');
    const proxied = await via.nginx().get(`/user/device/table/${eui}`).set('Cookie', cookie);
    expect(proxied.headers['x-accel-buffering']).toBeUndefined();
    expect(expectSuccess<{ ts_unix: number }[]>(proxied).map((r) => r.ts_unix)).toEqual(Array.from({ length: total }, (_, i) => t0 + i));

    const duplicates = [...answered.values()].filter((r) => r.duplicates === 1).length;
    const failed = [...failures.status.entries()].map(([s, n]) => `${n}×${s}`).concat(failures.connection ? [`${failures.connection}× connection error`] : []);
    process.stdout.write(
      `api-1 killed after ${killAt} of ${total} uplinks through nginx: ${failed.length ? failed.join(', ') : 'no request'} failed and was retried; ${duplicates} retried uplink(s) had been stored already; every uplink stored once\n`,
    );
  }, 60_000);
});
