#!/usr/bin/env node
/**
 * Rate-limit storage micro-benchmark (issue 30): the per-account budget decision of one request,
 * made by the service (apps/api/src/common/throttling: BatchedThrottlerStorage, which counts
 * locally between exchanges with the store), by a shared counter alone (one store call per
 * decision, as before the batching: the service's own Redis script of commit BEFORE and its
 * PostgreSQL upsert), and by rate-limiter-flexible alone (RateLimiterRedis, RateLimiterPostgres),
 * on the same Redis and PostgreSQL, with the same work per decision: count one hit of a 60 s window
 * for an account's key and learn the window's state (what the X-RateLimit-* headers need).
 *
 *   node tools/bench/rate-limit-storage.mjs [--redis=redis://127.0.0.1:6379]
 *     [--pg=postgres://postgres@127.0.0.1:5432/test] [--seconds=1.5] [--rounds=3] [--concurrency=2]
 *     [--before=548f984]
 *
 * Two workloads: one account calling as fast as it can with a limit it never reaches (figure 4's
 * hot read), and 1,000 accounts in turn with the default limit (1,200 a minute). Each measurement
 * runs `concurrency` callers in a closed loop for `seconds`, after half a second of warm-up, in
 * windows of its own; the variants alternate round by round, so that a busy neighbour on the
 * machine spreads over all of them, and each variant's row is its median round. It reports
 * decisions/s, the latency of one decision (p50, p99), this process's CPU per decision and the
 * store's round trips per decision: requests Redis answered (INFO commandstats: scripts and
 * MULTI…EXEC) with Redis's CPU (INFO cpu), or statements sent to PostgreSQL (counted in pg's
 * client). PostgreSQL runs in a scratch database made and dropped here; Redis keys live under a
 * random prefix, deleted at the end.
 *
 * The service's TypeScript is compiled with @swc/core (as the build does) into node_modules/.cache.
 */
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(join(root, 'package.json'));
const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const REDIS_URL = args.redis ?? 'redis://127.0.0.1:6379';
const PG_URL = args.pg ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = Number(args.seconds ?? 1.5);
const ROUNDS = Number(args.rounds ?? 3);
const CONCURRENCY = Number(args.concurrency ?? 2);
const WINDOW_MS = 60_000;
/** The commit whose Redis counters were the service's own script (before issue 30). */
const BEFORE = args.before ?? '548f984';

/** Compiles the service's files this bench runs into node_modules/.cache and loads them. */
function loadOwn() {
  const swc = require('@swc/core');
  const out = join(root, 'node_modules/.cache/rate-limit-bench');
  mkdirSync(out, { recursive: true });
  const files = {
    storage: 'apps/api/src/common/throttling/batched-throttler.storage.ts',
    counters: 'apps/api/src/common/throttling/shared-counters.ts',
    repository: 'libs/persistence/src/rate-limits/rate-limits.repository.ts',
    // The Redis counters before rate-limiter-flexible: the service's own Lua script.
    countersBefore: `git:${BEFORE}:apps/api/src/common/throttling/shared-counters.ts`,
  };
  const loaded = {};
  for (const [name, file] of Object.entries(files)) {
    const source = file.startsWith('git:')
      ? execFileSync('git', ['show', file.slice(4)], { cwd: root, encoding: 'utf8' })
      : readFileSync(join(root, file), 'utf8');
    const { code } = swc.transformSync(source, {
      filename: file.replace(/^git:[^:]+:/, ''),
      jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    const target = join(out, `${name}.cjs`);
    writeFileSync(target, code);
    loaded[name] = require(target);
  }
  return loaded;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

/** `concurrency` callers in a closed loop, each awaiting `decide(i)` with its own running number. */
async function drive(decide, seconds) {
  const latencies = [];
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const i = n++;
        const s = performance.now();
        await decide(i);
        latencies.push(performance.now() - s);
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  return {
    decisions: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuUsPerDecision: (cpu.user + cpu.system) / latencies.length,
  };
}

/** Requests Redis answered (a script, a MULTI … EXEC or a command outside both is one each), and its CPU seconds. */
async function redisStats(redis) {
  const info = await redis.info('all');
  const field = (name) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  const calls = (cmd) => Number(new RegExp(`^cmdstat_${cmd}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return { requests: calls('evalsha') + calls('eval') + calls('exec'), cpu: field('used_cpu_user') + field('used_cpu_sys') };
}

let pgQueries = 0;

async function main() {
  const { default: Redis } = await import('ioredis');
  const pg = require('pg');
  // Statements sent to PostgreSQL (TypeORM's and the library's both end in pg's Client#query).
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (...a) {
    pgQueries++;
    return query.apply(this, a);
  };
  const { DataSource } = require('typeorm');
  const { RateLimiterRedis, RateLimiterPostgres } = require('rate-limiter-flexible');
  const own = loadOwn();
  const prefix = `rlbench-${randomBytes(4).toString('hex')}`;

  const redis = new Redis(REDIS_URL, { enableOfflineQueue: true, maxRetriesPerRequest: 3 });
  const admin = new Redis(REDIS_URL);

  // A scratch database with the service's rate_limits table (foundation migration) and the library's.
  const dbName = prefix.replace('-', '_');
  const adminPg = new pg.Pool({ connectionString: PG_URL, max: 1 });
  await adminPg.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${dbName}`;
  const ds = await new DataSource({ type: 'postgres', url: dbUrl.toString(), poolSize: 10 }).initialize();
  await ds.query(`CREATE UNLOGGED TABLE rate_limits (key text PRIMARY KEY, hits integer NOT NULL, expires_at timestamptz NOT NULL, blocked_until timestamptz)`);

  const libPg = await new Promise((ok, fail) => {
    const limiter = new RateLimiterPostgres(
      {
        storeClient: ds,
        storeType: 'typeorm',
        tableName: 'rlflx',
        keyPrefix: prefix,
        points: 1_000_000_000,
        duration: WINDOW_MS / 1000,
        blockDuration: 60,
        clearExpiredByTimeout: false,
      },
      (e) => (e ? fail(e) : ok(limiter)),
    );
  });
  const libPgDefault = new RateLimiterPostgres({
    storeClient: ds,
    storeType: 'typeorm',
    tableName: 'rlflx',
    tableCreated: true,
    keyPrefix: `${prefix}d`,
    points: 1200,
    duration: 60,
    blockDuration: 60,
    clearExpiredByTimeout: false,
  });
  const libRedis = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}:lib`,
    points: 1_000_000_000,
    duration: WINDOW_MS / 1000,
    blockDuration: 60,
  });
  const libRedisDefault = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:libd`, points: 1200, duration: 60, blockDuration: 60 });

  const redisCounters = new own.counters.RedisSharedCounters(redis);
  const redisCountersBefore = new own.countersBefore.RedisSharedCounters(redis);
  const repo = new own.repository.RateLimitsRepository(ds);
  const pgCounters = new own.counters.PgSharedCounters(repo);
  const batchedRedis = new own.storage.BatchedThrottlerStorage(redisCounters, new Set(['account']));
  const batchedPg = new own.storage.BatchedThrottlerStorage(pgCounters, new Set(['account']));

  // A decision: the guard's one call with the account's key, or the library's consume (a refusal
  // rejects with the window's state: the same answer, a 429).
  // Every round counts in windows of its own (`round` in the key), so that rounds compare.
  let round = 0;
  const ownDecide = (storage, tag, limit, accounts) => (i) =>
    storage.increment(`${prefix}:${tag}:${round}:account:${i % accounts}`, WINDOW_MS, limit, WINDOW_MS, 'account');
  const countersDecide = (counters, tag, limit, accounts) => (i) =>
    counters.add(`${prefix}:${tag}:${round}:account:${i % accounts}`, 1, WINDOW_MS, limit, WINDOW_MS, 'account');
  const libDecide = (limiter, tag, accounts) => (i) =>
    limiter.consume(`${tag}:${round}:${i % accounts}`).catch((res) => {
      if (res instanceof Error) throw res;
      return res;
    });

  const workloads = [
    { name: 'one account, limit never reached', limit: 1_000_000_000, accounts: 1 },
    { name: '1,000 accounts in turn, limit 1,200/min', limit: 1200, accounts: 1000 },
  ];
  const variants = [];
  for (const w of workloads) {
    const big = w.accounts === 1;
    variants.push(
      {
        store: 'Redis',
        workload: w.name,
        name: 'own: BatchedThrottlerStorage (service)',
        decide: ownDecide(batchedRedis, `b${w.accounts}`, w.limit, w.accounts),
      },
      {
        store: 'Redis',
        workload: w.name,
        name: `own Lua script (${BEFORE}), one EVALSHA each`,
        decide: countersDecide(redisCountersBefore, `c${w.accounts}`, w.limit, w.accounts),
      },
      {
        store: 'Redis',
        workload: w.name,
        name: 'rate-limiter-flexible: RateLimiterRedis',
        decide: libDecide(big ? libRedis : libRedisDefault, `l${w.accounts}`, w.accounts),
      },
      {
        store: 'PostgreSQL',
        workload: w.name,
        name: 'own: BatchedThrottlerStorage (service)',
        decide: ownDecide(batchedPg, `b${w.accounts}`, w.limit, w.accounts),
      },
      {
        store: 'PostgreSQL',
        workload: w.name,
        name: 'own: PgSharedCounters, one upsert each',
        decide: countersDecide(pgCounters, `c${w.accounts}`, w.limit, w.accounts),
      },
      {
        store: 'PostgreSQL',
        workload: w.name,
        name: 'rate-limiter-flexible: RateLimiterPostgres',
        decide: libDecide(big ? libPg : libPgDefault, `l${w.accounts}`, w.accounts),
      },
    );
  }

  const results = new Map(variants.map((v) => [v, []]));
  for (round = 0; round < ROUNDS; round++) {
    for (const v of variants) {
      await drive(v.decide, 0.5); // warm-up: scripts loaded, statements prepared, keys' first hits
      if (v.store === 'Redis') {
        const before = await redisStats(admin);
        const r = await drive(v.decide, SECONDS);
        const after = await redisStats(admin);
        // One INFO of the two is this bench's own command.
        r.storeOps = (after.requests - before.requests) / r.decisions;
        r.storeCpuUs = ((after.cpu - before.cpu) * 1e6) / r.decisions;
        results.get(v).push(r);
      } else {
        const before = pgQueries;
        const r = await drive(v.decide, SECONDS);
        r.storeOps = (pgQueries - before) / r.decisions;
        results.get(v).push(r);
      }
    }
  }

  // Each variant's row is its median round by decisions/s, whole (not a median per column).
  const medianRound = (rs) => [...rs].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(rs.length / 2)];
  const fmt = (x, d = 0) => x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  console.log(
    `\nnode ${process.version}, ${CONCURRENCY} callers, ${ROUNDS} rounds of ${SECONDS} s per variant (the median round of each), load average at the end: ${(
      await import('node:os')
    )
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  );
  console.log('| Store | Workload | Variant | Decisions/s | p50 µs | p99 µs | Bench CPU µs/decision | Store ops/decision | Redis CPU µs/decision |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const v of variants) {
    const r = medianRound(results.get(v));
    const m = (k) => r[k];
    console.log(
      `| ${v.store} | ${v.workload} | ${v.name} | ${fmt(m('perSecond'))} | ${fmt(m('p50') * 1000)} | ${fmt(m('p99') * 1000)} | ${fmt(m('cpuUsPerDecision'), 1)} | ${fmt(m('storeOps'), 3)} | ${v.store === 'Redis' ? fmt(m('storeCpuUs'), 1) : '–'} |`,
    );
  }

  await batchedRedis.onApplicationShutdown();
  await batchedPg.onApplicationShutdown();
  for await (const keys of admin.scanStream({ match: `*${prefix}*`, count: 1000 })) if (keys.length) await admin.del(...keys);
  redis.disconnect();
  admin.disconnect();
  await ds.destroy();
  await adminPg.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
  await adminPg.end();
}

await main();
