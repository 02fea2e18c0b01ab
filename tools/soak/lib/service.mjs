// The service under soak, started from dist/ with the bench's helpers: by default the api
// (WORKER_IN_PROCESS=false) and a standalone worker on a fresh PostgreSQL database and a private
// Redis prefix, as deployed; with --embedded one api process on an embedded database. Everything
// started or created here is undone by the bench's cleanupAll().
import { join } from 'node:path';
import { freshDatabase, redisPrefix } from '../../bench/lib/database.mjs';
import { ROOT } from '../../bench/lib/paths.mjs';
import { freePort, spawnNode, waitForHttp } from '../../bench/lib/processes.mjs';
import { BENCH_SECRETS, startApi } from '../../bench/lib/service.mjs';

/** Set so that the soak scrapes /metrics the way Prometheus must in production. */
export const METRICS_TOKEN = 'soak-metrics-token-0123456789';
export const INGEST_SECRET = BENCH_SECRETS.INGEST_SECRET;

/**
 * @returns {Promise<{ database: string, processes: { name: string, url: string, pid: number, exited: Promise<{code: number|null, signal: string|null}>, stderr(): string }[] }>}
 *   the api first; each process's /metrics is at `${url}/metrics`.
 */
export async function startService(ctx) {
  const db = await freshDatabase(ctx);
  if (ctx.embedded) {
    const api = await startApi(ctx, db, { label: 'api', env: { METRICS_TOKEN } });
    return { database: `embedded, DATA_DIR ${db.dataDir}`, processes: [{ name: 'api', ...api }] };
  }
  // startApi would pick its own Redis prefix; the worker must share the api's, so both get it here.
  const shared = { REDIS_URL: ctx.redis, REDIS_PREFIX: redisPrefix(ctx, 'soak'), METRICS_TOKEN };
  const api = await startApi(ctx, db, { label: 'api', redis: false, env: { ...shared, WORKER_IN_PROCESS: 'false' } });
  const worker = await startWorker(ctx, db, shared);
  return {
    database: `PostgreSQL database ${db.name}, Redis prefix ${shared.REDIS_PREFIX}`,
    processes: [
      { name: 'api', ...api },
      { name: 'worker', ...worker },
    ],
  };
}

/** `node dist/apps/worker/src/main.js` with the api's environment; ready when its health port says so. */
async function startWorker(ctx, db, shared) {
  const port = await freePort();
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    LOG_LEVEL: ctx.logLevel,
    LOG_PRETTY: 'false',
    ...BENCH_SECRETS,
    ...db.apiEnv,
    ...shared,
    WORKER_HEALTH_PORT: String(port),
  };
  const proc = spawnNode('worker', [join(ROOT, 'dist/apps/worker/src/main.js')], { cwd: ROOT, env });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health/ready`, proc);
  return { url, pid: proc.pid, exited: proc.exited, stderr: proc.stderr };
}
