// Figure 14 (route-mix, issue 33 goal 2): ten routes of the API, each against a limit server doing
// the same round trips with the same SQL and the same caching (baselines/route-limit.mjs), on
// Express 5 (the limit the goal is measured against) and on bare node:http (the share of it is
// reported beside). All on one seeded account with its API token, 10 connections:
//   1 GET /user/device (5 devices)          2 GET /user            3 GET /user/device/meta/{eui}
//   4 GET /user/token                       5 GET /user/device/command/{eui}?limit=10 (12 commands)
//   6 GET /user/device/data/{eui} (10 rows, served from the api's data cache)
//   7 GET /user/device/data/{eui}?limit=10 (uncached)
//   8 POST /ingest/rest, one uplink (no time or message id: every request stores a new row)
//   9 POST /user/device/command/{eui} (raw, port 1, on the built-in simulated network)
//  10 GET /user/device with a key made in an organisation the account belongs to (X-Organisation)
// Per route: requests/s closed loop (median of the runs); then at one fixed open-loop rate, 80% of
// the api's own maximum for that route, each server's CPU per request (its process, from /proc)
// and p99. On PostgreSQL + Redis the api and both limit servers run side by side and every run
// alternates between them (api, express, raw, api, …), so that a change in the machine's load
// moves all three; on --embedded the database can be opened by one process only, so the limit
// servers run one after the other once the api has stopped. Each route's first answer from every
// server is checked before it is loaded: the status, and the same bytes for a read (the same data
// count and shape for a write), so that a broken route fails the figure instead of measuring errors.
// Durations: each load run lasts 20% of --duration (2 s by default, 1 s with --quick), after 1 s
// of warm-up; closed-loop runs: two thirds of --runs (2 by default); open-loop runs: --runs − 2
// (at least 1). Ten routes × three servers take about four minutes at the defaults.
import { accountWithToken, call, createDevice, lppHex } from '../lib/api-client.mjs';
import { withCpu } from '../lib/cpu.mjs';
import { freshDatabase, redisPrefix } from '../lib/database.mjs';
import { cannon, openLoop } from '../lib/load.mjs';
import { row } from '../lib/report.mjs';
import { BENCH_SECRETS, startApi, startBaseline } from '../lib/service.mjs';
import { median } from '../lib/stats.mjs';

const CONNECTIONS = 10;
const DEVICES = 5;
const COMMANDS = 12;
const DATA_ROWS = 10;
const FIGURE = '14 route mix';
const SERVERS = ['api', 'express', 'raw'];

export async function run(ctx) {
  const seconds = Math.max(1, Math.round(ctx.duration * 0.2));
  const closedRuns = Math.max(1, Math.round((ctx.runs * 2) / 3));
  const openRuns = Math.max(1, ctx.runs - 2);
  const db = await freshDatabase(ctx);
  const apiPrefix = ctx.embedded ? null : redisPrefix(ctx, 'route-mix');
  const api = await startApi(ctx, db, { label: 'route-mix', env: apiPrefix ? { REDIS_PREFIX: apiPrefix } : {} });
  const routes = await seed(api.url);

  const limitEnv = (flavour) => ({
    ...db.apiEnv,
    FLAVOUR: flavour,
    TOKEN_ENCRYPTION_KEY: BENCH_SECRETS.TOKEN_ENCRYPTION_KEY,
    ...(ctx.embedded ? {} : { REDIS_URL: ctx.redis, REDIS_PREFIX: redisPrefix(ctx, `route-limit-${flavour}`), CACHE_PREFIX: apiPrefix }),
  });
  const measured = new Map(routes.map((r) => [r.name, {}]));
  if (ctx.embedded) {
    const first = new Map();
    for (const r of routes) first.set(r.name, await answerOf(api, r));
    for (const r of routes) Object.assign(measured.get(r.name), await loadRoute({ api }, r, { seconds, closedRuns, openRuns }));
    await api.stop();
    for (const flavour of ['express', 'raw']) {
      const limit = await startBaseline('route-limit', limitEnv(flavour));
      for (const r of routes) check(r, first.get(r.name), await answerOf(limit, r), flavour);
      for (const r of routes) {
        const fixedRate = measured.get(r.name).api.fixedRate;
        Object.assign(measured.get(r.name), await loadRoute({ [flavour]: limit }, r, { seconds, closedRuns, openRuns, fixedRate }));
      }
      await limit.stop();
    }
  } else {
    const express = await startBaseline('route-limit', limitEnv('express'));
    const raw = await startBaseline('route-limit', limitEnv('raw'));
    const servers = { api, express, raw };
    for (const r of routes) {
      const first = await answerOf(api, r);
      check(r, first, await answerOf(express, r), 'express');
      check(r, first, await answerOf(raw, r), 'raw');
    }
    for (const r of routes) Object.assign(measured.get(r.name), await loadRoute(servers, r, { seconds, closedRuns, openRuns }));
    await raw.stop();
    await express.stop();
    await api.stop();
  }
  await db.drop();
  return rows(routes, measured, { seconds, closedRuns, openRuns });
}

/** The account, its devices, commands, data and organisation; the routes' requests. */
async function seed(url) {
  const account = await accountWithToken(url);
  // Route 9 needs a network that takes downlinks: a new device is on the built-in simulated one.
  const [read, meta, commanded, ingested, commanding] = await Promise.all(Array.from({ length: DEVICES }, () => createDevice(url, account)));
  for (let i = 0; i < COMMANDS; i++)
    await call(url, 'POST', `/user/device/command/${commanded.eui}`, { body: { port: 1, payload_hex: '0A' }, headers: account.auth, expect: 201 });
  const uplinks = Array.from({ length: DATA_ROWS }, (_, i) => ({ devEUI: read.eui, port: 1, payload_hex: lppHex(20 + i / 10, 40 + i, 3.3), fcnt: i }));
  const stored = await call(url, 'POST', '/ingest/rest', { body: uplinks, headers: account.auth, expect: 202 });
  if (stored.body.data.accepted !== DATA_ROWS) throw new Error(`the data device stored ${stored.body.data.accepted} of ${DATA_ROWS} uplinks`);
  // The first whole read finds the data cache stale and has the worker build it; the mix reads it built.
  await call(url, 'GET', `/user/device/data/${read.eui}`, { headers: account.auth, expect: 200 });
  await waitForCache(url, account, read.eui);

  // An organisation the account owns (so is a member of), a key made while acting in it, its devices.
  const org = (await call(url, 'POST', '/org', { body: { name: `mix-${account.username.slice(-8)}` }, headers: { Cookie: account.cookie }, expect: 201 })).body
    .data;
  const inOrg = { Cookie: account.cookie, 'X-Organisation': org.name };
  const made = await call(url, 'POST', '/user/token', { body: { type: 'API' }, headers: inOrg, expect: 201 });
  const key = (await call(url, 'GET', '/user/token', { headers: inOrg, expect: 200 })).body.data.find((t) => t.uid === made.body.data)?.hash;
  if (!key) throw new Error('the organisation key is not listed');
  const orgAuth = { Authorization: `Bearer ${key}`, 'X-Organisation': org.name };
  for (let i = 0; i < DEVICES; i++) await createDevice(url, { auth: orgAuth });

  const json = { ...account.auth, 'Content-Type': 'application/json' };
  const get = (n, name, path, headers = account.auth) => ({ n, name, method: 'GET', path, headers, status: 200 });
  // Listed in the issue's order; loaded in this order too, the writes last so that what they leave
  // behind (the api's dispatch jobs) does not run under another route's measurement.
  return [
    get(1, 'GET /user/device', '/user/device'),
    get(2, 'GET /user', '/user'),
    get(3, 'GET /user/device/meta/{eui}', `/user/device/meta/${meta.eui}`),
    get(4, 'GET /user/token', '/user/token'),
    get(5, 'GET /user/device/command/{eui}?limit=10', `/user/device/command/${commanded.eui}?limit=10`),
    { ...get(6, `GET /user/device/data/{eui}, cached, ${DATA_ROWS} rows`, `/user/device/data/${read.eui}`), cached: true },
    get(7, `GET /user/device/data/{eui}?limit=10, uncached`, `/user/device/data/${read.eui}?limit=10`),
    get(10, 'GET /user/device in an organisation (its key, X-Organisation)', '/user/device', orgAuth),
    {
      n: 8,
      name: 'POST /ingest/rest, one uplink, token',
      method: 'POST',
      path: '/ingest/rest',
      headers: json,
      body: JSON.stringify([{ devEUI: ingested.eui, port: 1, payload_hex: lppHex(21.5, 45, 3.1) }]),
      status: 202,
    },
    {
      n: 9,
      name: 'POST /user/device/command/{eui}, raw, port 1',
      method: 'POST',
      path: `/user/device/command/${commanding.eui}`,
      headers: json,
      body: JSON.stringify({ port: 1, payload_hex: '0102' }),
      status: 201,
    },
  ];
}

/** Reads the data route until the api serves it from its cache (the rebuild is the worker's, a moment later). */
async function waitForCache(url, account, eui) {
  const started = performance.now();
  let last = null;
  for (;;) {
    const res = await fetch(`${url}/user/device/data/${eui}`, { headers: account.auth });
    const text = await res.text();
    // A cached answer and a database one carry the same bytes: two alike a moment apart, after a
    // wait long enough for the rebuild job, stand for a built cache (checked again on the limit).
    if (last !== null && text === last && performance.now() - started > 1_500) return;
    last = text;
    if (performance.now() - started > 30_000) throw new Error('the data cache was not built within 30 s');
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function answerOf(server, route) {
  const res = await fetch(`${server.url}${route.path}`, { method: route.method, headers: route.headers, body: route.body });
  return { status: res.status, text: await res.text(), cache: res.headers.get('x-limit-cache') };
}

/** The limit's first answer must be the service's: its status, and the same bytes (a write: the same shape). */
function check(route, service, limit, flavour) {
  const where = `${route.name}: ${flavour} limit`;
  if (service.status !== route.status) throw new Error(`${route.name}: the api answered ${service.status}: ${service.text.slice(0, 300)}`);
  if (limit.status !== route.status) throw new Error(`${where} answered ${limit.status}: ${limit.text.slice(0, 300)}`);
  if (route.cached && limit.cache !== 'hit') throw new Error(`${where} did not find the data cache built`);
  if (route.method === 'GET') {
    if (service.text !== limit.text)
      throw new Error(`${where} answered other bytes:\n  api   ${service.text.slice(0, 400)}\n  limit ${limit.text.slice(0, 400)}`);
    return;
  }
  const shape = (text) => {
    const { data } = JSON.parse(text);
    return JSON.stringify(Object.keys(data).sort()) + (data.accepted === undefined ? '' : ` accepted ${data.accepted}`);
  };
  if (shape(service.text) !== shape(limit.text)) throw new Error(`${where} answered another shape:\n  api   ${service.text}\n  limit ${limit.text}`);
}

/**
 * One route on the given servers, their runs alternating: 1 s of warm-up each, then
 * `closedRuns` rounds of one closed-loop run per server, then `openRuns` rounds of one open-loop
 * run per server at `fixedRate` (default: 80% of the api's median maximum) with the server's CPU
 * time over the run.
 */
async function loadRoute(servers, route, { seconds, closedRuns, openRuns, fixedRate: given = null }) {
  const targets = Object.entries(servers).map(([name, server]) => ({
    name,
    pid: server.pid,
    load: { url: `${server.url}${route.path}`, method: route.method, headers: route.headers, body: route.body, connections: CONNECTIONS },
  }));
  for (const t of targets) await cannon({ ...t.load, duration: 1 });
  const closed = new Map(targets.map((t) => [t.name, []]));
  for (let i = 0; i < closedRuns; i++) for (const t of targets) closed.get(t.name).push(await cannon({ ...t.load, duration: seconds }));
  const fixedRate = given ?? Math.max(1, 0.8 * median(closed.get('api').map((r) => r.rate)));
  const open = new Map(targets.map((t) => [t.name, []]));
  for (let i = 0; i < openRuns; i++)
    for (const t of targets) open.get(t.name).push(await withCpu(t.pid, () => openLoop({ ...t.load, rate: fixedRate, seconds, maxSockets: CONNECTIONS })));
  return Object.fromEntries(
    targets.map((t) => {
      const c = closed.get(t.name);
      const o = open.get(t.name);
      const failed = c.reduce((n, r) => n + r.failed, 0) + o.reduce((n, r) => n + r.failed, 0);
      return [
        t.name,
        {
          maxRate: median(c.map((r) => r.rate)),
          fixedRate,
          achieved: median(o.map((r) => r.rate)),
          p99: median(o.map((r) => r.p99)),
          cpuPerRequest: median(o.map((r) => r.cpuMs / Math.max(1, r.ok + r.failed))),
          failed,
          closed: c.map((r) => Math.round(r.rate)),
        },
      ];
    }),
  );
}

function rows(routes, measured, { seconds, closedRuns, openRuns }) {
  const byNumber = [...routes].sort((a, b) => a.n - b.n);
  const out = [];
  const shares = [];
  const p99s = [];
  for (const r of byNumber) {
    const { api, express, raw } = measured.get(r.name);
    const share = api.maxRate / express.maxRate;
    const p99Ratio = api.p99 / express.p99;
    shares.push({ route: r, share });
    p99s.push({ route: r, ratio: p99Ratio, api, express });
    const failures = SERVERS.map((s) => [s, measured.get(r.name)[s].failed]).filter(([, n]) => n > 0);
    out.push(
      row({
        figure: FIGURE,
        measure: `${r.n}. ${r.name}, ${CONNECTIONS} connections (max, closed loop)`,
        value: api.maxRate,
        unit: 'req/s',
        baseline: express.maxRate,
        baselineLabel: 'Express limit, same round trips',
        goal: '≥ 70% of the Express limit',
        met: share >= 0.7,
        note:
          `raw node:http limit ${Math.round(raw.maxRate)} req/s (api ${Math.round((100 * api.maxRate) / raw.maxRate)}% of it); ` +
          `CPU per request at ${Math.round(api.fixedRate)} req/s: api ${api.cpuPerRequest.toFixed(2)}, Express limit ${express.cpuPerRequest.toFixed(2)}, raw ${raw.cpuPerRequest.toFixed(2)} ms; ` +
          `p99 api ${api.p99.toFixed(1)} ms, Express limit ${express.p99.toFixed(1)} ms` +
          (failures.length ? `; failed requests: ${failures.map(([s, n]) => `${s} ${n}`).join(', ')}` : ''),
        extra: {
          route: r.n,
          closed: { api: api.closed, express: express.closed, raw: raw.closed },
          fixedRate: api.fixedRate,
          achieved: { api: api.achieved, express: express.achieved, raw: raw.achieved },
          cpuPerRequest: { api: api.cpuPerRequest, express: express.cpuPerRequest, raw: raw.cpuPerRequest },
          p99: { api: api.p99, express: express.p99, raw: raw.p99 },
          rawMaxRate: raw.maxRate,
        },
      }),
    );
  }
  const worst = shares.reduce((a, b) => (b.share < a.share ? b : a));
  const slowest = p99s.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  out.push(
    row({
      figure: FIGURE,
      measure: `minimum over the mix of api ÷ Express limit (req/s, closed loop; ${closedRuns} run(s) of ${seconds} s per server and route)`,
      value: 100 * worst.share,
      unit: '%',
      goal: '≥ 70%',
      met: worst.share >= 0.7,
      note: `route ${worst.route.n}, ${worst.route.name}; mean over the mix ${Math.round((100 * shares.reduce((n, s) => n + s.share, 0)) / shares.length)}% (not the figure)`,
    }),
    row({
      figure: FIGURE,
      measure: `worst p99 at 80% of the api's own max, api ÷ Express limit (${openRuns} open-loop run(s) of ${seconds} s)`,
      value: slowest.ratio,
      unit: '×',
      goal: '≤ 2× the limit’s',
      met: slowest.ratio <= 2,
      note: `route ${slowest.route.n}, ${slowest.route.name}: ${slowest.api.p99.toFixed(1)} ms against ${slowest.express.p99.toFixed(1)} ms at ${Math.round(slowest.api.fixedRate)} req/s`,
    }),
  );
  return out;
}
