// Starts the service from dist/ as a child process, as `npm start` would, on a free port.
import { join } from 'node:path';
import { freePort, spawnNode, waitForHttp } from './processes.mjs';
import { redisPrefix } from './database.mjs';
import { BENCH_DIR, distFile, ROOT } from './paths.mjs';

export const BENCH_SECRETS = {
  INGEST_SECRET: 'bench-ingest-secret-0123456789',
  TOKEN_ENCRYPTION_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
  SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
};

/**
 * The api with its in-process worker on the figure's database. `redis: true` adds REDIS_URL
 * (sessions, rate limits, queues and the data cache on Redis) — the default on real PostgreSQL.
 * The per-account rate limit is lifted (the throttler still counts every request). `dist`: another
 * build to start (tools/bench/cpu-probe.mjs compares builds side by side).
 */
export async function startApi(ctx, db, { label = 'api', redis = !ctx.embedded, env = {}, dist = ctx.dist ?? 'dist' } = {}) {
  const port = await freePort();
  const fullEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: db.kind === 'postgres' ? 'production' : 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: ctx.logLevel,
    LOG_PRETTY: 'false',
    // As `npm start` and the Docker image start it (package.json, Dockerfile).
    MALLOC_TRIM_THRESHOLD_: '131072',
    WORKER_IN_PROCESS: 'true',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    ...BENCH_SECRETS,
    ...db.apiEnv,
    ...(redis ? { REDIS_URL: ctx.redis, REDIS_PREFIX: redisPrefix(ctx, label) } : {}),
    ...env,
  };
  // A profile is written when the api exits (each figure stops it with SIGTERM); open it in Chrome DevTools.
  const profile = ctx.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${join(BENCH_DIR, 'results', 'profiles')}`] : [];
  const proc = spawnNode(label, [...profile, distFile({ dist }, 'apps/api/src/main.js')], { cwd: ROOT, env: fullEnv });
  const url = `http://127.0.0.1:${port}`;
  const startMs = await waitForHttp(`${url}/version`, proc);
  return { url, port, pid: proc.pid, startMs, stop: proc.stop, exited: proc.exited, stderr: proc.stderr };
}

/** A baseline server (tools/bench/baselines/<name>.mjs) as a child process, on a free port. */
export async function startBaseline(name, env = {}, readyPath = '/') {
  const port = await freePort();
  const proc = spawnNode(`baseline ${name}`, [join(BENCH_DIR, 'baselines', `${name}.mjs`)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: String(port), ...env },
  });
  const url = `http://127.0.0.1:${port}`;
  const startMs = await waitForHttp(`${url}${readyPath}`, proc);
  return { url, port, pid: proc.pid, startMs, stop: proc.stop };
}
