import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_SECRETS } from './support/harness';
import { eventually, freePort } from '@dts/platform';
import { createTestDatabase, realRedisUrl, type TestDatabase } from './support/test-database';

/*
 * The log lines of real requests, as the built service writes them to stdout: each request's
 * completion line names its request id, account, route template, status and duration, and no
 * credential, password or payload byte reaches the log.
 */

const root = join(__dirname, '../../..');
const main = join(root, 'dist/apps/api/src/main.js');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- log lines are read member by member
type Line = Record<string, any>;

describe('request logs', () => {
  let child: ChildProcess;
  let output = '';
  let dataDir: string;
  let db: TestDatabase;
  let base: string;

  const lines = (): Line[] =>
    output.split('\n').flatMap((l) => {
      try {
        const parsed = JSON.parse(l) as unknown;
        return parsed && typeof parsed === 'object' ? [parsed as Line] : [];
      } catch {
        return [];
      }
    });
  /** The completion line of the request that answered with this X-Request-Id (pino writes it as the response ends). */
  const completion = async (res: Response): Promise<Line> => {
    const id = res.headers.get('x-request-id');
    return eventually(
      () => {
        const line = lines().find((l) => l.req?.id === id && l.responseTime !== undefined);
        if (!line) throw new Error(`not in:\n${output}`);
        return line;
      },
      { what: `the completion line for request ${id}`, intervalMs: 50 },
    );
  };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dts-logs-'));
    db = await createTestDatabase();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [main], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        LOG_PRETTY: 'false',
        WORKER_IN_PROCESS: 'true',
        REDIS_PREFIX: `dts-logs-${randomBytes(4).toString('hex')}`,
        ...TEST_SECRETS,
        ...(db.url ? { DATABASE_URL: db.url } : {}),
        ...(realRedisUrl ? { REDIS_URL: realRedisUrl } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const started = await eventually(
      async () => {
        if (child.exitCode !== null) return 'exited' as const;
        const res = await fetch(`${base}/version`);
        if (!res.ok) throw new Error(`answered ${res.status}`);
        return 'listening' as const;
      },
      { what: 'the service to answer /version', timeoutMs: 60_000, intervalMs: 100 },
    ).catch((error: Error) => {
      throw new Error(`the service did not start: ${error.message}\n${output}`);
    });
    if (started === 'exited') throw new Error(`the service exited at start:\n${output}`);
  }, 90_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has id, account, route template, status and duration on each completion line, and no secret or payload anywhere', async () => {
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const username = `logger_${randomBytes(3).toString('hex')}`;
    const registered = await post('/auth/register', { username, email: `${username}@example.org`, password });
    expect(registered.status).toBe(201);
    const accountId = ((await registered.json()) as { data: { id: number } }).data.id;

    const loggedIn = await post('/auth/login', { username, password });
    expect(loggedIn.status).toBe(200);
    const cookie = loggedIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('dts_session='))!
      .split(';')[0]!;
    const created = await post('/user/token', { type: 'API' }, { Cookie: cookie });
    expect(created.status).toBe(201);
    const tokenUid = ((await created.json()) as { data: number }).data;
    const listed = (await (await fetch(`${base}/user/token`, { headers: { Cookie: cookie } })).json()) as { data: { uid: number; hash: string }[] };
    const token = listed.data.find((t) => t.uid === tokenUid)!.hash;

    const eui = randomBytes(8).toString('hex').toUpperCase();
    const device = await post(`/user/device/${eui}`, {}, { Authorization: `Bearer ${token}` });
    expect(device.status).toBe(201);
    const meta = await fetch(`${base}/user/device/meta/${eui.toLowerCase()}`, { headers: { token } });
    expect(meta.status).toBe(200);
    const payload = `C0FFEE${randomBytes(6).toString('hex').toUpperCase()}`;
    const ingested = await post(
      '/ingest/rest',
      { devEUI: eui, port: 1, payload_hex: payload, fcnt: 1, time_stamp_unix: 1_777_400_000 },
      { 'X-Ingest-Secret': TEST_SECRETS.INGEST_SECRET },
    );
    expect(ingested.status).toBe(202);
    const leakyQuery = `q${randomBytes(8).toString('hex')}`;
    const version = await fetch(`${base}/version?token=${leakyQuery}&x=1`);
    expect(version.status).toBe(200);
    const bad = await post('/auth/login', { username, password: `${password}-wrong` });
    expect(bad.status).toBe(401);

    const login = await completion(loggedIn);
    expect(login).toMatchObject({
      req: { method: 'POST', url: '/auth/login' },
      res: { statusCode: 200 },
      route: '/auth/login',
      responseTime: expect.any(Number),
    });
    const deviceLine = await completion(device);
    expect(deviceLine).toMatchObject({
      req: { id: device.headers.get('x-request-id') },
      accountId,
      route: '/user/device/:eui',
      res: { statusCode: 201 },
      responseTime: expect.any(Number),
    });
    expect(await completion(meta)).toMatchObject({ accountId, route: '/user/device/meta/:eui', res: { statusCode: 200 } });
    const ingestLine = await completion(ingested);
    expect(ingestLine).toMatchObject({ route: '/ingest/rest', res: { statusCode: 202 }, responseTime: expect.any(Number) });
    expect(ingestLine.accountId).toBeUndefined();
    expect((await completion(version)).req.url).toBe('/version?token=[redacted]&x=1');
    expect(await completion(bad)).toMatchObject({ route: '/auth/login', res: { statusCode: 401 }, level: 40 });
    // One route member per line: not a placeholder bound at the start and the template at the end.
    const raw = output.split('\n').find((l) => l.includes(`"${deviceLine.req.id}"`) && l.includes('"responseTime"'))!;
    expect(raw.match(/"route":/g)).toHaveLength(1);
    for (const line of [login, deviceLine, ingestLine]) {
      expect(Object.keys(line.req).sort()).toEqual(['id', 'method', 'url']);
      expect(line.req.headers).toBeUndefined();
      expect(line.req.body).toBeUndefined();
    }

    // Let every line of those requests reach stdout, then search it all: one process writes its lines
    // in order, so once a later request's completion line is there, theirs are too.
    await completion(await fetch(`${base}/version`));
    const session = cookie.split('=')[1]!;
    for (const secret of [
      password,
      token,
      session,
      decodeURIComponent(session),
      TEST_SECRETS.INGEST_SECRET,
      payload,
      payload.toLowerCase(),
      Buffer.from(payload, 'hex').toString('base64'),
      leakyQuery,
    ]) {
      expect({ secret, logged: output.includes(secret) }).toEqual({ secret, logged: false });
    }
  });
});
