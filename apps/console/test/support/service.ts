import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

export const ROOT = join(__dirname, '../../../..');
export const SECRETS = {
  INGEST_SECRET: 'browser-ingest-secret-0123456789',
  TOKEN_ENCRYPTION_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
  SESSION_SECRET: 'browser-session-secret-0123456789abcdef0123456789',
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Service {
  url: string;
  /** The service's PostgreSQL database (null: embedded, reachable only through the service). */
  databaseUrl: string | null;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * The built service as `npm start` runs it (dist/, built by jest's global setup, the console
 * included) on a fresh database: a new PostgreSQL database when TEST_DATABASE_URL is set (and
 * Redis with TEST_REDIS_URL), else the embedded one in an empty directory.
 */
export async function startService(env: Record<string, string> | ((url: string) => Record<string, string>) = {}): Promise<Service> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'dts-browser-'));
  const admin = process.env.TEST_DATABASE_URL || null;
  let database: string | null = null;
  const dbEnv: Record<string, string> = {};
  if (admin) {
    database = `dts_browser_${randomBytes(4).toString('hex')}`;
    const client = new Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${database}`;
    dbEnv.DATABASE_URL = url.toString();
    if (process.env.TEST_REDIS_URL)
      Object.assign(dbEnv, { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `dts-browser-${randomBytes(3).toString('hex')}` });
  }
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'dist/apps/api/src/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOG_PRETTY: 'false',
      DATA_DIR: dataDir,
      WORKER_IN_PROCESS: 'true',
      ...SECRETS,
      ...dbEnv,
      // A function of the service's own URL: for settings naming it (PUBLIC_BASE_URL, the links mails give).
      ...(typeof env === 'function' ? env(url) : env),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => (output = (output + d.toString('utf8')).slice(-32_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
    if (admin && database) {
      const client = new Client({ connectionString: admin });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await client.end();
    }
  };
  const until = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/health/ready`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > until) {
      await stop();
      throw new Error(`the service did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, databaseUrl: dbEnv.DATABASE_URL ?? null, output: () => output, stop };
}

/** A call to the service outside the browser (seeding, ingestion, another account's moves). */
export async function call<T = unknown>(
  url: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; expect?: number } = {},
): Promise<{ status: number; data: T; headers: Headers }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  const parsed = text ? (JSON.parse(text) as { data: T }) : { data: null as T };
  if (options.expect !== undefined && res.status !== options.expect) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return { status: res.status, data: parsed.data, headers: res.headers };
}

export interface Account {
  username: string;
  password: string;
  token: string;
  master: string;
}

/** Registers an account and gives it an app token and a master token (made with a session). */
export async function account(url: string, username: string): Promise<Account> {
  const password = `pw-${randomBytes(8).toString('hex')}`;
  await call(url, 'POST', '/auth/register', { body: { username, email: `${username}@example.org`, password }, expect: 201 });
  const login = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('dts_session='))!;
  const tokens: string[] = [];
  for (const type of ['API', 'master']) {
    const uid = (await call<number>(url, 'POST', '/user/token', { body: { type }, headers: { Cookie: cookie }, expect: 201 })).data;
    const list = (await call<{ uid: number; hash: string }[]>(url, 'GET', '/user/token', { headers: { Cookie: cookie } })).data;
    tokens.push(list.find((t) => t.uid === uid)!.hash);
  }
  await call(url, 'POST', '/auth/logout', { headers: { Cookie: cookie } });
  return { username, password, token: tokens[0], master: tokens[1] };
}

/**
 * Registers `count` devices on the account: one INSERT on PostgreSQL, or through the API (eight at
 * a time, as a script would) on the embedded database, which only the service can open.
 */
export async function seedDevices(
  svc: Service,
  who: Account,
  count: number,
  device: (i: number) => { eui: string; label: string; folder: string; typeRef: number },
): Promise<void> {
  if (svc.databaseUrl) {
    const rows = Array.from({ length: count }, (_, i) => device(i));
    const client = new Client({ connectionString: svc.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO devices (eui, owner_id, label, folder, type_ref, decoder_ref, network_ref)
         SELECT r.eui, a.id, r.label, r.folder, r.type_ref, 1, 1
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) AS r(eui, label, folder, type_ref), accounts a WHERE a.username = $5`,
        [rows.map((r) => r.eui), rows.map((r) => r.label), rows.map((r) => r.folder), rows.map((r) => r.typeRef), who.username],
      );
    } finally {
      await client.end();
    }
    return;
  }
  for (let i = 0; i < count; i += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, count - i) }, (_, j) => {
        const d = device(i + j);
        return call(svc.url, 'POST', `/user/device/${d.eui}`, {
          body: { label: d.label, folder: d.folder, type_ref: d.typeRef },
          headers: { Authorization: `Bearer ${who.token}` },
          expect: 201,
        });
      }),
    );
  }
}
