// A fresh database per figure: `CREATE DATABASE bench_<random>` on the real server (dropped at the
// end), or an empty DATA_DIR for the embedded database (removed at the end).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { onCleanup } from './processes.mjs';
import { ROOT } from './paths.mjs';

const require = createRequire(import.meta.url);

/**
 * @returns {{ kind: 'postgres'|'embedded', name: string, url?: string, dataDir?: string, apiEnv: Record<string,string>, drop(): Promise<void> }}
 */
export async function freshDatabase(ctx) {
  const name = `bench_${randomBytes(5).toString('hex')}`;
  if (ctx.embedded) {
    const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
    const drop = onCleanup(`remove ${dataDir}`, async () => rmSync(dataDir, { recursive: true, force: true }));
    return { kind: 'embedded', name, dataDir, apiEnv: { DATA_DIR: dataDir }, drop };
  }
  await adminQuery(ctx.pg, `CREATE DATABASE ${name}`);
  const drop = onCleanup(`drop database ${name}`, () => adminQuery(ctx.pg, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = new URL(ctx.pg);
  url.pathname = `/${name}`;
  return { kind: 'postgres', name, url: url.toString(), apiEnv: { DATABASE_URL: url.toString() }, drop };
}

export async function adminQuery(adminUrl, sql, params = []) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Runs `fn(pool)` with a pg pool on the figure's database. The embedded database can only be
 * opened by one process at a time, so the api must be stopped while this runs in embedded mode:
 * the bench then opens the DATA_DIR itself (with the service's own embedded server from dist/).
 */
export async function withPool(db, fn, { size = 10 } = {}) {
  let embedded = null;
  let url = db.url;
  if (db.kind === 'embedded') {
    const { startEmbeddedPostgres } = require(join(ROOT, 'dist/libs/persistence/src/embedded/embedded-postgres.js'));
    embedded = await startEmbeddedPostgres({ dataDir: db.dataDir, maxConnections: size + 2 });
    url = embedded.url;
  }
  const pool = new pg.Pool({ connectionString: url, max: size });
  try {
    return await fn(pool);
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}

/** The Redis key prefix of one api instance; its keys are deleted at the end. */
export function redisPrefix(ctx, label) {
  const prefix = `dts-bench-${label}-${randomBytes(3).toString('hex')}`;
  onCleanup(`delete Redis keys ${prefix}:*`, () => deleteRedisKeys(ctx.redis, prefix));
  return prefix;
}

async function deleteRedisKeys(redisUrl, prefix) {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
