// Figure 3: reading history. GET /user/device/data/{eui} over 100,000 rows against a bare node:http
// server streaming the same query's rows as JSON (baselines/stream-server.mjs), and GET
// /user/device/table/{eui} over 1,000,000 rows with the api's RSS sampled from /proc.
import { accountWithToken, call, createDevice } from '../lib/api-client.mjs';
import { freshDatabase, withPool } from '../lib/database.mjs';
import { closedLoopDrain, drain, openLoop } from '../lib/load.mjs';
import { row } from '../lib/report.mjs';
import { sampleRss } from '../lib/rss.mjs';
import { seedUplinks } from '../lib/seed.mjs';
import { startApi, startBaseline } from '../lib/service.mjs';
import { median } from '../lib/stats.mjs';
import { sleep } from '../lib/processes.mjs';

const CONNECTIONS = 4;
const ADMIN = { ADMIN_USERNAME: 'benchadmin', ADMIN_PASSWORD: 'bench-admin-password-0123' };

export async function run(ctx) {
  adminCookie = null;
  const dataRows = ctx.quick ? 10_000 : 100_000;
  const tableRows = ctx.quick ? 50_000 : 1_000_000;
  const db = await freshDatabase(ctx);
  let api = await startApi(ctx, db, { label: 'history', env: ADMIN });
  const account = await accountWithToken(api.url);
  const dataDevice = await createDevice(api.url, account);
  const tableDevice = await createDevice(api.url, account);
  await api.stop();

  const seedStarted = performance.now();
  await withPool(db, async (pool) => {
    await seedUplinks(pool, dataDevice.uid, dataRows);
    await seedUplinks(pool, tableDevice.uid, tableRows);
  });
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  // Baseline first, alone on the database.
  const bare = await startBaseline('stream-server', db.apiEnv);
  const bareUrl = `${bare.url}/data/${dataDevice.uid}`;
  await expectRows(bareUrl, {}, dataRows, (body) => body);
  const baseline = await measure(ctx, bareUrl, {});
  await bare.stop();
  // The same bare server with the rows rendered by PostgreSQL, as the api's uncached read renders
  // them: what the api's framework costs beside that choice (no goal; the goal is against the above).
  const bareSql = await startBaseline('stream-server', { ...db.apiEnv, RENDER: 'sql' });
  const bareSqlUrl = `${bareSql.url}/data/${dataDevice.uid}`;
  await expectRows(bareSqlUrl, {}, dataRows, (body) => body);
  const sqlRendered = await maxRate(ctx, bareSqlUrl, {});
  await bareSql.stop();

  api = await startApi(ctx, db, { label: 'history', env: ADMIN });
  const dataUrl = `${api.url}/user/device/data/${dataDevice.eui}`;
  await expectRows(dataUrl, account.auth, dataRows, (body) => body.data);
  // Rows seeded with SQL did not move the device's cache version: have the worker build the entry,
  // as it does after ingestion, so that the whole-history read is served as in steady state.
  const cacheBuild = await buildCache(api.url, dataDevice.eui, dataRows);
  const cached = await measure(ctx, dataUrl, account.auth);
  const cacheState = `${cacheBuild}; after the runs ${await cacheStatus(api.url, dataDevice.eui)}`;
  // With `limit` the read bypasses the per-device cache and goes to the database in keyset batches.
  const direct = await measure(ctx, `${dataUrl}?limit=${dataRows}`, account.auth);

  // table: one request at a time over the long history, the api's RSS sampled every 25 ms.
  const tableUrl = `${api.url}/user/device/table/${tableDevice.eui}`;
  const table = [];
  await drain(tableUrl, account.auth); // warm-up
  for (let i = 0; i < ctx.runs; i++) {
    await sleep(1000);
    const sampler = sampleRss(api.pid);
    const r = await drain(tableUrl, account.auth);
    const rss = sampler.stop();
    if (r.status !== 200) throw new Error(`table answered ${r.status}`);
    table.push({ ...rss, ms: r.ms, mb: r.bytes / 2 ** 20 });
  }
  await api.stop();
  await db.drop();

  const growth = median(table.map((t) => t.growthMb));
  const k = (n) => `${n / 1000}k`;
  return [
    row({
      figure: '3 history',
      measure: `GET data/{eui} (whole history, data cache), ${k(dataRows)} rows, ${CONNECTIONS} connections (max, closed loop)`,
      value: cached.maxRate,
      unit: 'req/s',
      baseline: baseline.maxRate,
      baselineLabel: 'bare node:http + pg',
      goal: '≥ 50% of baseline',
      met: cached.maxRate >= 0.5 * baseline.maxRate,
      note: `${Math.round(cached.maxRate * dataRows)} rows/s; ${cacheState}`,
    }),
    row({
      figure: '3 history',
      measure: `GET data/{eui} (data cache), ${k(dataRows)} rows, one request at a time: p50`,
      value: cached.unloadedP50,
      unit: 'ms',
      baseline: baseline.unloadedP50,
      baselineLabel: 'bare node:http + pg',
      goal: 'p50 ≤ 300 ms',
      met: cached.unloadedP50 <= 300,
      note: `at a fixed ${cached.fixedRate.toFixed(2)} req/s (80% of max): p50 ${Math.round(cached.fixedP50)} ms, p99 ${Math.round(cached.fixedP99)} ms`,
      extra: {
        fixed: { rate: cached.fixedRate, p50: cached.fixedP50, p99: cached.fixedP99 },
        baselineFixed: { rate: baseline.fixedRate, p50: baseline.fixedP50, p99: baseline.fixedP99 },
      },
    }),
    row({
      figure: '3 history',
      measure: `GET data/{eui}?limit=${dataRows} (database, no cache), ${CONNECTIONS} connections (max)`,
      value: direct.maxRate,
      unit: 'req/s',
      baseline: baseline.maxRate,
      baselineLabel: 'bare node:http + pg',
      goal: '≥ 70% of baseline',
      met: direct.maxRate >= 0.7 * baseline.maxRate,
      note: `one at a time: p50 ${Math.round(direct.unloadedP50)} ms; the api's rows are rendered by PostgreSQL, the baseline's in JavaScript`,
    }),
    row({
      figure: '3 history',
      measure: `the same uncached read beside a bare server that also has PostgreSQL render the rows (the api's SQL), ${CONNECTIONS} connections`,
      value: direct.maxRate,
      unit: 'req/s',
      baseline: sqlRendered,
      baselineLabel: 'bare node:http + pg, rows rendered by PostgreSQL',
      note: 'what the framework costs beside the same rendering; no goal',
    }),
    row({
      figure: '3 history',
      measure: `GET table/{eui}, ${k(tableRows)} rows: api RSS growth (peak − before)`,
      value: growth,
      unit: 'MB',
      goal: '< 100 MB',
      met: growth < 100,
      note: `RSS before ${Math.round(median(table.map((t) => t.startMb)))} MB; ${Math.round(median(table.map((t) => t.mb)))} MB streamed in ${(median(table.map((t) => t.ms)) / 1000).toFixed(1)} s; seeding took ${seedSeconds.toFixed(0)} s`,
    }),
  ];
}

/** Max throughput only (closed loop), the median of the runs after a warm-up. */
async function maxRate(ctx, url, headers) {
  await closedLoopDrain(url, headers, { connections: CONNECTIONS, seconds: ctx.warmup });
  const rates = [];
  for (let i = 0; i < ctx.runs; i++) {
    const closed = await closedLoopDrain(url, headers, { connections: CONNECTIONS, seconds: ctx.duration });
    assertOk(closed, url);
    rates.push(closed.rate);
  }
  return median(rates);
}

/** Unloaded latency (one connection), max throughput (closed loop), then latency at 80% of it. */
async function measure(ctx, url, headers) {
  await closedLoopDrain(url, headers, { connections: CONNECTIONS, seconds: ctx.warmup });
  const runs = [];
  for (let i = 0; i < ctx.runs; i++) {
    const unloaded = await closedLoopDrain(url, headers, { connections: 1, seconds: ctx.duration });
    const closed = await closedLoopDrain(url, headers, { connections: CONNECTIONS, seconds: ctx.duration });
    runs.push({ unloaded, closed });
    assertOk(unloaded, url);
    assertOk(closed, url);
  }
  const maxRate = median(runs.map((r) => r.closed.rate));
  const fixedRate = maxRate * 0.8;
  const fixed = [];
  for (let i = 0; i < ctx.runs; i++)
    fixed.push(await openLoop({ url, headers, rate: fixedRate, seconds: Math.max(ctx.duration, 3 / fixedRate), maxSockets: 64 }));
  return {
    maxRate,
    unloadedP50: median(runs.map((r) => r.unloaded.p50)),
    fixedRate,
    fixedP50: median(fixed.map((f) => f.p50)),
    fixedP99: median(fixed.map((f) => f.p99)),
  };
}

function assertOk(result, url) {
  if (result.failed) throw new Error(`${result.failed} failed reads of ${url}`);
}

async function expectRows(url, headers, count, rowsOf) {
  const res = await fetch(url, { headers });
  const body = await res.json();
  const rows = rowsOf(body);
  if (res.status !== 200 || !Array.isArray(rows) || rows.length !== count)
    throw new Error(`${url} answered ${res.status} with ${rows?.length} rows, expected ${count}`);
}

let adminCookie = null;
async function asAdmin(baseUrl, method, path, expect) {
  if (!adminCookie) {
    const login = await call(baseUrl, 'POST', '/auth/login', { body: { username: ADMIN.ADMIN_USERNAME, password: ADMIN.ADMIN_PASSWORD }, expect: 200 });
    adminCookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('dts_session='));
  }
  return (await call(baseUrl, method, path, { headers: { Cookie: adminCookie }, expect })).body.data;
}

/** The per-device data cache entry, as an administrator sees it. */
async function cacheStatus(baseUrl, eui) {
  try {
    const s = await asAdmin(baseUrl, 'GET', `/cache/status/${eui}`, 200);
    return `${s.rows} rows, ${s.stale ? 'stale' : 'fresh'}`;
  } catch (error) {
    return `unknown (${error.message.slice(0, 80)})`;
  }
}

/** Invalidates the device's cache entry and waits (up to 2 minutes) for the worker to rebuild it. */
async function buildCache(baseUrl, eui, rows) {
  const started = performance.now();
  try {
    await asAdmin(baseUrl, 'POST', `/cache/invalidate/${eui}`, 202);
    while (performance.now() - started < 120_000) {
      const s = await asAdmin(baseUrl, 'GET', `/cache/status/${eui}`, 200);
      if (!s.stale && s.rows === rows) return `cache entry built in ${((performance.now() - started) / 1000).toFixed(1)} s`;
      await sleep(250);
    }
    return 'cache entry not built within 2 min';
  } catch (error) {
    return `cache entry: ${error.message.slice(0, 80)}`;
  }
}
