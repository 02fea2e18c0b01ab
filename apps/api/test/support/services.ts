import { eventually, freePort } from '@dts/platform';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { API_MAIN, composeEnvironment, composeIngestSecret, MIGRATE_MAIN, type Proc, startProcess, stopProcesses, waitReady, WORKER_MAIN } from './processes';

/**
 * PostgreSQL and Redis servers of a suite's own, which it may stop and start: the fault suites
 * take the database and the store away from the service, which they cannot do to the servers the
 * other suites share.
 */

/** The directory of initdb/pg_ctl/postgres: PG_BIN, else the newest /usr/lib/postgresql/<n>/bin. */
export function findPostgresBin(): string | null {
  const candidates = [process.env.PG_BIN, ...listVersions('/usr/lib/postgresql').map((v) => `/usr/lib/postgresql/${v}/bin`), '/usr/local/pgsql/bin'].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (found) return found;
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return onPath.status === 0 && onPath.stdout.trim() ? join(onPath.stdout.trim(), '..') : null;
}

function listVersions(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

export function findRedisServer(): string | null {
  const known = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));
  if (known) return known;
  const onPath = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  return onPath.status === 0 && onPath.stdout.trim() ? onPath.stdout.trim() : null;
}

/** A command line: the program, then its arguments. */
type Argv = [string, ...string[]];

/** Runs `argv` as the `postgres` OS user when we are root (initdb and postgres refuse to run as root). */
function asPostgres(argv: Argv): Argv {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...argv] : argv;
}

function run(argv: Argv, what: string, timeoutMs = 60_000): string {
  const [command, ...args] = argv;
  const done = spawnSync(command, args, { encoding: 'utf8', timeout: timeoutMs, env: { PATH: process.env.PATH ?? '', LC_ALL: 'C' } });
  if (done.status !== 0) throw new Error(`${what} failed (${done.status ?? done.signal ?? done.error?.message}):\n${done.stdout}\n${done.stderr}`);
  return done.stdout;
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:PORT/dts */
  url: string;
  port: number;
  /** Milliseconds initdb and the first start took. */
  startupMs: number;
  /** `fast` lets sessions end cleanly; `immediate` is a crash (recovery runs at the next start). */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): Promise<void>;
  /** Stops the server and removes its directory; safe to call more than once, and after failures. */
  destroy(): void;
  /**
   * A streaming replica of this server (`pg_basebackup -R` into a directory of its own, another
   * port), started and caught up; its `url` names the same database. Hot standby: read-only.
   */
  startReplica(): Promise<PrivatePostgres>;
}

/**
 * A fresh cluster in a temporary directory (owned by `postgres` when we are root), trust auth on
 * 127.0.0.1 only, with a database `dts`. Small settings: it serves one suite.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found: install postgresql or set PG_BIN');
  const started = Date.now();
  const { dir, sockets } = privateDirectory('dts-pg-');
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    run(asPostgres([join(bin, 'initdb'), '-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']), 'initdb');
    const server = privateServer(bin, dir, data, sockets, port, started);
    await server.start();
    const admin = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query('CREATE DATABASE dts');
    await admin.end();
    return server;
  } catch (error) {
    const [command, ...args] = asPostgres([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop']);
    spawnSync(command, args, { timeout: 30_000 });
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A temporary directory with a socket directory in it, owned by `postgres` when we are root. */
function privateDirectory(prefix: string): { dir: string; sockets: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const sockets = join(dir, 'sockets');
  mkdirSync(sockets);
  if (process.getuid?.() === 0) {
    const pgUser = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const pgGroup = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (pgUser.status !== 0) throw new Error('running as root but there is no `postgres` OS user to run the private PostgreSQL as');
    for (const p of [dir, sockets]) chownSync(p, Number(pgUser.stdout), Number(pgGroup.stdout));
  }
  chmodSync(dir, 0o700);
  return { dir, sockets };
}

/** A server on `data` (made by initdb, or a base backup), not yet started. */
function privateServer(bin: string, dir: string, data: string, sockets: string, port: number, started: number): PrivatePostgres {
  const log = join(dir, 'server.log');
  let destroyed = false;
  const pgCtl = (args: string[], timeoutMs = 60_000) => run(asPostgres([join(bin, 'pg_ctl'), '-D', data, ...args]), `pg_ctl ${args[0]}`, timeoutMs);
  const options = `-p ${port} -k ${sockets} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60 -c shared_buffers=32MB`;
  const url = `postgres://postgres@127.0.0.1:${port}/dts`;
  const server: PrivatePostgres = {
    url,
    port,
    startupMs: 0,
    stop(mode = 'fast') {
      pgCtl(['-m', mode, '-w', '-t', '60', 'stop']);
    },
    async start() {
      pgCtl(['-o', options, '-l', log, '-w', '-t', '60', 'start']);
      server.startupMs = Date.now() - started;
      // `-w` waits for the server to accept connections; a query proves it serves the database
      // (before CREATE DATABASE, the maintenance database).
      const c = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
      await c.connect();
      await c.end();
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      if (existsSync(join(data, 'postmaster.pid'))) {
        const [command, ...args] = asPostgres([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']);
        spawnSync(command, args, { timeout: 30_000 });
      }
      rmSync(dir, { recursive: true, force: true });
    },
    async startReplica() {
      const at = Date.now();
      const { dir: replicaDir, sockets: replicaSockets } = privateDirectory('dts-pg-replica-');
      const replicaData = join(replicaDir, 'data');
      const replicaPort = await freePort();
      try {
        // -R writes standby.signal and the primary's connection: it starts as a streaming hot standby.
        // -c fast: a spread checkpoint (the default) would keep it waiting for minutes.
        run(
          asPostgres([
            join(bin, 'pg_basebackup'),
            '-h',
            '127.0.0.1',
            '-p',
            String(port),
            '-U',
            'postgres',
            '-D',
            replicaData,
            '-R',
            '-X',
            'stream',
            '-c',
            'fast',
          ]),
          'pg_basebackup',
        );
        const replica = privateServer(bin, replicaDir, replicaData, replicaSockets, replicaPort, at);
        await replica.start();
        return replica;
      } catch (error) {
        rmSync(replicaDir, { recursive: true, force: true });
        throw error;
      }
    },
  };
  return server;
}

export interface PrivateRedis {
  url: string;
  port: number;
  startupMs: number;
  /** SIGTERM: Redis flushes its append-only file and exits (as `docker stop` does). */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * A redis-server on a free loopback port with the compose file's persistence (`--appendonly yes`,
 * so that a stop and start keeps what it had) and the given eviction policy (`noeviction`, which
 * the service requires, unless a test wants to see it refused).
 */
export async function startPrivateRedis(options: { maxmemoryPolicy?: string } = {}): Promise<PrivateRedis> {
  const server = findRedisServer();
  if (!server) throw new Error('redis-server not found: install redis-server');
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'dts-redis-'));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'always',
    '--save',
    '',
    '--maxmemory',
    '256mb',
    '--maxmemory-policy',
    options.maxmemoryPolicy ?? 'noeviction',
    '--daemonize',
    'no',
    '--logfile',
    join(dir, 'redis.log'),
  ];
  let child: ReturnType<typeof spawn> | null = null;
  let exited: Promise<void> = Promise.resolve();
  const url = `redis://127.0.0.1:${port}`;
  const launch = async () => {
    const c = spawn(server, args, { stdio: 'ignore' });
    child = c;
    exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
    const outcome = await eventually(
      async () => {
        if (c.exitCode !== null) return 'exited' as const;
        const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        try {
          await probe.connect();
          // LOADING while it replays the append-only file: wait for PONG.
          const answer = await probe.ping();
          if (answer !== 'PONG') throw new Error(`answered ${answer}`);
          return 'started' as const;
        } finally {
          probe.disconnect();
        }
      },
      { what: `redis-server on ${port} to answer PING (see ${join(dir, 'redis.log')})`, timeoutMs: 15_000, intervalMs: 50 },
    );
    if (outcome === 'exited') throw new Error(`redis-server on ${port} exited at start (see ${join(dir, 'redis.log')})`);
  };
  const halt = async (signal: NodeJS.Signals) => {
    const c = child as ReturnType<typeof spawn> | null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    c.kill(signal);
    const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await launch();
  } catch (error) {
    await halt('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    port,
    startupMs: Date.now() - started,
    stop: () => halt('SIGTERM'),
    start: launch,
    async destroy() {
      await halt('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One downlink the stand-in network was handed. */
export interface NetworkCall {
  /** When the request arrived (ms since the epoch). */
  at: number;
  path: string;
  fPort: number;
  /** The payload, base64 as ChirpStack takes it. */
  data: string;
}

/** A ChirpStack stand-in on loopback: records each queue call, answers a queue item id, optionally slowly. */
export interface StandInNetwork {
  url: string;
  calls: NetworkCall[];
  /** How long each call waits before its answer (0: at once). */
  delayMs: number;
  close(): Promise<void>;
}

export async function startStandInNetwork(): Promise<StandInNetwork> {
  const calls: NetworkCall[] = [];
  const server = createServer((req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { queueItem?: { fPort: number; data: string } };
      calls.push({ at, path: req.url ?? '', fPort: body.queueItem?.fPort ?? -1, data: body.queueItem?.data ?? '' });
      const id = `queue-item-${calls.length}`;
      const answer = () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id }));
      if (network.delayMs > 0) setTimeout(answer, network.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  const network: StandInNetwork = {
    url: `http://127.0.0.1:${port}`,
    calls,
    delayMs: 0,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return network;
}

export interface Instance {
  proc: Proc;
  port: number;
  url: string;
}

/**
 * The compose topology on private servers: a PostgreSQL and a Redis of the suite's own (which it
 * may stop), migrations applied by the migrate step, a stand-in ChirpStack, and api instances and
 * workers from dist/ started on demand with the environment docker-compose.yml gives them (the
 * api without in-process processors, as in compose).
 */
export interface FaultTopology {
  pg: PrivatePostgres;
  redis: PrivateRedis;
  network: StandInNetwork;
  ingestSecret: string;
  startApi(name: string, extra?: Record<string, string>): Promise<Instance>;
  startWorker(name: string, extra?: Record<string, string>): Promise<Instance>;
  /** A query on the private database, on a short-lived connection. */
  query<T extends object>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Stops every process, the servers and the stand-in; removes the temporary directories. Never throws. */
  close(): Promise<void>;
}

export async function startFaultTopology(): Promise<FaultTopology> {
  const procs: Proc[] = [];
  let pg: PrivatePostgres | null = null;
  let redis: PrivateRedis | null = null;
  let network: StandInNetwork | null = null;
  const close = async () => {
    await stopProcesses(procs).catch(() => undefined);
    await network?.close().catch(() => undefined);
    try {
      pg?.destroy();
    } catch {
      // the directory goes with the next tmp clean-up
    }
    await redis?.destroy().catch(() => undefined);
  };
  try {
    [pg, redis, network] = await Promise.all([startPrivatePostgres(), startPrivateRedis(), startStandInNetwork()]);
    const local = {
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      LOG_PRETTY: 'false',
      DB_POOL_SIZE: '4',
      // The stand-in ChirpStack is on loopback, which the SSRF guard refuses by default.
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_PER_MINUTE: '100000',
    };
    const env = (service: string, extra: Record<string, string>) => ({ ...composeEnvironment(service), ...local, ...extra });
    const migrate = startProcess('migrate', process.execPath, [MIGRATE_MAIN], env('migrate', {}));
    procs.push(migrate);
    const migrated = await migrate.exited;
    if (migrated !== 0) throw new Error(`migrate exited with ${migrated}:\n${migrate.output()}`);
    const started = { pg, redis, network };
    return {
      ...started,
      ingestSecret: composeIngestSecret(),
      async startApi(name, extra = {}) {
        const port = await freePort();
        const proc = startProcess(
          name,
          process.execPath,
          [API_MAIN],
          env('api-1', { PORT: String(port), PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...extra }),
        );
        procs.push(proc);
        await waitReady(`http://127.0.0.1:${port}/health/ready`, proc);
        return { proc, port, url: `http://127.0.0.1:${port}` };
      },
      async startWorker(name, extra = {}) {
        const port = await freePort();
        const proc = startProcess(name, process.execPath, [WORKER_MAIN], env('worker', { WORKER_HEALTH_PORT: String(port), ...extra }));
        procs.push(proc);
        await waitReady(`http://127.0.0.1:${port}/health/ready`, proc);
        return { proc, port, url: `http://127.0.0.1:${port}` };
      },
      async query<T extends object>(sql: string, params: unknown[] = []) {
        const client = new Client({ connectionString: started.pg.url });
        await client.connect();
        try {
          return (await client.query(sql, params)).rows as T[];
        } finally {
          await client.end();
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
