// Figure 9: outbound integrations (issue 19). With the same api, database and devices:
// (a) batched ingestion (500 uplinks a request, 8 connections, closed loop) without any integration,
//     then with a webhook integration taking every uplink, delivered to a local receiver
//     (baselines/webhook-sink.mjs) while the ingestion runs: the ingest rate's drop, and events/s
//     delivered (during the run, and until the backlog is gone);
// (b) end-to-end latency, one uplink at a time at a fixed rate: POST /ingest/rest sent → the webhook
//     received; baseline: the POST's own round trip;
// (c) fence evaluation per uplink with 1,000 fences: the point-in-polygon test of libs/domain over
//     1,000 prepared fences (bench process, pure CPU), against the time one uplink's ingestion takes
//     at the rate of (a); and end to end, uplinks with positions routed and delivered with 1,000 fence
//     rules on the account, against the same without rules;
// (d) outbound deliveries (issue 33, goal 4): a backlog of webhook events drained by the service, on
//     an api and database of its own — events/s and the api's CPU per event while it drains —
//     against a bare `fetch` loop (baselines/webhook-delivery-limit.mjs) sending the same event
//     bytes, signed the same way, to the same receiver with as many requests at once as the
//     dispatcher gives one account; the same loop on node:http is printed beside it.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { accountWithToken, call, createDevice, lppHex } from '../lib/api-client.mjs';
import { cpuMs } from '../lib/cpu.mjs';
import { freshDatabase, withPool } from '../lib/database.mjs';
import { cannon } from '../lib/load.mjs';
import { BENCH_DIR, ROOT } from '../lib/paths.mjs';
import { row } from '../lib/report.mjs';
import { BENCH_SECRETS, startApi, startBaseline } from '../lib/service.mjs';
import { median, medianRun, percentile } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
const BATCH = 500;
const DEVICES = 10;
const CONNECTIONS = 8;
const FENCES = 1_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const INGEST = { 'Content-Type': 'application/json', 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET };

export async function run(ctx) {
  const sink = await startBaseline('webhook-sink', {}, '/stats');
  const sinkCount = async () => (await call(sink.url, 'GET', '/stats')).body.count;
  let drainRows;
  try {
    drainRows = await deliveryDrain(ctx, sink);
  } catch (error) {
    await sink.stop();
    throw error;
  }
  const db = await freshDatabase(ctx);
  const api = await startApi(ctx, db, { label: 'integrations', env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  try {
    const account = await accountWithToken(api.url);
    const devices = [];
    for (let i = 0; i < DEVICES; i++) devices.push(await createDevice(api.url, account));
    const body = JSON.stringify(
      Array.from({ length: BATCH }, (_, i) => ({ devEUI: devices[i % DEVICES].eui, port: 1, payload_hex: lppHex(15 + (i % 100) / 10, 40, 3.3), fcnt: i })),
    );
    const ingestRun = (seconds) =>
      cannon({ url: `${api.url}/ingest/rest`, method: 'POST', headers: INGEST, body, connections: CONNECTIONS, duration: seconds });
    const rates = async () => {
      await ingestRun(ctx.warmup);
      const runs = [];
      for (let i = 0; i < ctx.runs; i++) {
        const before = await sinkCount();
        const r = await ingestRun(ctx.duration);
        runs.push({ uplinks: r.rate * BATCH, delivered: ((await sinkCount()) - before) / r.seconds, failed: r.failed });
      }
      return { uplinks: median(runs.map((r) => r.uplinks)), delivered: median(runs.map((r) => r.delivered)), failed: runs.reduce((s, r) => s + r.failed, 0) };
    };

    // (a) without, then with an integration taking every uplink.
    const without = await rates();
    const hook = await call(api.url, 'POST', '/user/integration', {
      body: { name: 'bench', kind: 'webhook', url: `${sink.url}/hook`, events: ['uplink'] },
      headers: account.auth,
      expect: 201,
    });
    const integration = hook.body.data.uid;
    const withHook = await rates();
    const backlogFrom = Date.now();
    const sentBefore = await sinkCount();
    let pending = Infinity;
    while (pending > 0 && Date.now() - backlogFrom < 600_000) {
      await sleep(500);
      pending = (await call(api.url, 'GET', `/user/integration/${integration}`, { headers: account.auth })).body.data.pending;
    }
    const drainSeconds = (Date.now() - backlogFrom) / 1000;
    const drained = ((await sinkCount()) - sentBefore) / drainSeconds;

    // (b) latency, one uplink at a time at a fixed rate; the temperature carries the sequence number.
    const count = ctx.quick ? 30 : 200;
    const rate = 20;
    await call(sink.url, 'POST', '/reset');
    const sent = new Map();
    const posts = [];
    const started = performance.timeOrigin + performance.now();
    for (let seq = 1; seq <= count; seq++) {
      const due = started + (seq - 1) * (1000 / rate);
      await sleep(Math.max(0, due - (performance.timeOrigin + performance.now())));
      const t0 = performance.timeOrigin + performance.now();
      sent.set(seq / 10, t0);
      const item = { devEUI: devices[seq % DEVICES].eui, port: 1, payload_hex: lppHex(seq / 10, 40, 3.3) };
      posts.push(
        call(api.url, 'POST', '/ingest/rest', { body: item, headers: { 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET }, expect: 202 }).then(
          () => performance.timeOrigin + performance.now() - t0,
        ),
      );
    }
    const roundTrips = await Promise.all(posts);
    for (let i = 0; i < 100 && (await sinkCount()) < count; i++) await sleep(100);
    const arrivals = (await call(sink.url, 'GET', '/arrivals?since=0')).body;
    const latencies = arrivals.filter(([, seq]) => sent.has(seq)).map(([at, seq]) => at - sent.get(seq));

    // (c) fences: the pure evaluation, then end to end with 1,000 fence rules.
    const fencesCpu = fenceEvaluation(ctx);
    const e2e = async () => {
      await call(sink.url, 'POST', '/reset');
      const positions = Array.from({ length: BATCH }, (_, i) => ({
        devEUI: devices[i % DEVICES].eui,
        port: 1,
        // Each device stays where it is (a metre of jitter): the figure is the judging of 1,000 rules
        // per uplink, not the alerts that trackers crossing fence edges would raise.
        payload_hex: lppGps(52.31 + (i % DEVICES) * 0.009 + (i % 3) * 1e-5, 4.82 + (i % DEVICES) * 0.017),
      }));
      const batches = ctx.quick ? 4 : 10;
      const t0 = Date.now();
      for (let b = 0; b < batches; b++)
        await call(api.url, 'POST', '/ingest/rest', { body: positions, headers: { 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET }, expect: 202 });
      while ((await sinkCount()) < batches * BATCH && Date.now() - t0 < 300_000) await sleep(100);
      return (batches * BATCH) / ((Date.now() - t0) / 1000);
    };
    const plain = await e2e();
    const fences = randomFences(FENCES);
    for (const [i, geometry] of fences.entries()) {
      const fence = await call(api.url, 'POST', '/user/fence', { body: { name: `f${i}`, geometry }, headers: account.auth, expect: 201 });
      await call(api.url, 'POST', '/user/rule', {
        body: { name: `r${i}`, kind: 'fence', fence: fence.body.data.uid, on: 'leave' },
        headers: account.auth,
        expect: 201,
      });
    }
    const fenced = await e2e();

    const perUplinkUs = 1e6 / without.uplinks;
    const drop = 1 - withHook.uplinks / without.uplinks;
    return [
      row({
        figure: '9 integrations',
        measure: `POST /ingest/rest, ${BATCH} uplinks/request, ${CONNECTIONS} connections, every uplink to a webhook (max, closed loop)`,
        value: withHook.uplinks,
        unit: 'uplinks/s',
        baseline: without.uplinks,
        baselineLabel: 'the same ingestion without an integration',
        goal: 'drop ≤ 10%',
        met: drop <= 0.1,
        note: `drop ${(drop * 100).toFixed(1)}%; ${withHook.failed} failed requests`,
      }),
      row({
        figure: '9 integrations',
        measure: 'webhook events delivered to a local receiver: during that ingestion / while the backlog drains',
        value: withHook.delivered,
        unit: 'events/s',
        note: `${Math.round(drained)} events/s draining the backlog (${drainSeconds.toFixed(0)} s)`,
        extra: { drained, drainSeconds },
      }),
      row({
        figure: '9 integrations',
        measure: `uplink → webhook received, one uplink at a time at ${rate}/s (${latencies.length} of ${count}): p50`,
        value: median(latencies),
        unit: 'ms',
        baseline: median(roundTrips),
        baselineLabel: 'the ingest POST’s own round trip',
        goal: 'p50 ≤ 100 ms',
        met: median(latencies) <= 100,
        note: `p99 ${Math.round(percentile(latencies, 99))} ms`,
      }),
      row({
        figure: '9 integrations',
        measure: `fence evaluation per uplink with ${FENCES} fences (point in polygon, libs/domain)`,
        value: fencesCpu.usPerUplink,
        unit: 'µs',
        baseline: perUplinkUs,
        baselineLabel: 'one uplink’s share of batched ingestion',
        note: `${fencesCpu.inside} of ${fencesCpu.points} points inside a fence`,
      }),
      row({
        figure: '9 integrations',
        measure: `uplinks with positions ingested → delivered, with ${FENCES} fence rules on the account`,
        value: fenced,
        unit: 'uplinks/s',
        baseline: plain,
        baselineLabel: 'the same without rules',
      }),
      ...drainRows,
    ];
  } finally {
    await api.stop();
    await db.drop();
    await sink.stop();
  }
}

/**
 * (d) A backlog of 20,000 uplink events (10,000 with --quick), one webhook integration taking them
 * all: the uplinks are ingested in batches as fast as the api takes them (the dispatcher already
 * sending), and from the last ingest answer on the figure counts what the receiver gets until it
 * has every event — the rate of the drain and the api's CPU per event meanwhile (from /proc). Then
 * the limit loop, in the same run, against the same receiver with the first routed event's bytes
 * (the median of --runs loops; the drain is measured once).
 */
export async function deliveryDrain(ctx, sink) {
  const events = ctx.quick ? 10_000 : 20_000;
  const { integrationsConfig } = require(join(ROOT, ctx.dist ?? 'dist', 'libs/platform/src/config/environment-integrations.js'));
  // One account's integration: its lanes (integration × device) go out this many at once.
  const lanes = integrationsConfig({}).accountConcurrency;
  const db = await freshDatabase(ctx);
  let drain;
  try {
    const api = await startApi(ctx, db, { label: 'integrations-drain', env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
    try {
      drain = await drainBacklog(api, sink, events);
    } finally {
      await api.stop();
    }
    const [first] = await withPool(db, async (pool) => (await pool.query('SELECT body FROM events WHERE body IS NOT NULL ORDER BY id LIMIT 1')).rows, {
      size: 1,
    });
    if (!first) throw new Error('no routed event body');
    drain.body = first.body;
  } finally {
    await db.drop();
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-webhook-'));
  const limits = { fetch: [], http: [] };
  try {
    const bodyFile = join(dir, 'event.json');
    writeFileSync(bodyFile, drain.body);
    for (let i = 0; i < ctx.runs; i++)
      for (const client of ['fetch', 'http']) {
        await call(sink.url, 'POST', '/reset');
        const s0 = cpuMs(sink.pid);
        const { stdout } = await promisify(execFile)(process.execPath, [
          join(BENCH_DIR, 'baselines', 'webhook-delivery-limit.mjs'),
          `--url=${sink.url}/hook`,
          `--body-file=${bodyFile}`,
          `--concurrency=${lanes}`,
          `--seconds=${Math.min(ctx.duration, 5)}`,
          `--client=${client}`,
        ]);
        const r = JSON.parse(stdout.trim().split('\n').pop());
        limits[client].push({ ...r, sinkUs: ((cpuMs(sink.pid) - s0) * 1000) / r.events });
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await call(sink.url, 'POST', '/reset');
  }
  const fetchLimit = medianRun(limits.fetch, 'per_second');
  const httpLimit = medianRun(limits.http, 'per_second');
  return [
    row({
      figure: '9 integrations',
      measure: `webhook deliveries draining a backlog of ${events} events (one integration, ${DEVICES} devices, ${Buffer.byteLength(drain.body)}-byte events)`,
      value: drain.rate,
      unit: 'events/s',
      baseline: fetchLimit.per_second,
      baselineLabel: `a bare fetch loop, ${lanes} at once, same receiver, bytes and signing`,
      goal: '≥ 80% of the limit',
      met: drain.rate >= 0.8 * fetchLimit.per_second,
      note:
        `api ${Math.round(drain.apiUs)} µs CPU/event (fetch loop ${fetchLimit.us_per_event} µs); receiver ${Math.round(drain.sinkUs)} µs/event ` +
        `(${Math.round(fetchLimit.sinkUs)} µs under the loop); ` +
        `${drain.counted} events in ${drain.seconds.toFixed(1)} s; ` +
        `the same loop on node:http: ${httpLimit.per_second} events/s at ${httpLimit.us_per_event} µs/event (the service is ${Math.round((drain.rate / httpLimit.per_second) * 100)}% of it)`,
      extra: { drain: { ...drain, body: undefined }, limits },
    }),
  ];
}

/** Ingests `events` uplinks for one webhook integration and measures the drain of what is left. */
async function drainBacklog(api, sink, events) {
  const account = await accountWithToken(api.url);
  const devices = [];
  for (let i = 0; i < DEVICES; i++) devices.push(await createDevice(api.url, account));
  await call(api.url, 'POST', '/user/integration', {
    body: { name: 'drain', kind: 'webhook', url: `${sink.url}/hook`, events: ['uplink'] },
    headers: account.auth,
    expect: 201,
  });
  await call(sink.url, 'POST', '/reset');
  const batches = Math.ceil(events / BATCH);
  const batchBody = (b) =>
    Array.from({ length: Math.min(BATCH, events - b * BATCH) }, (_, i) => ({
      devEUI: devices[i % DEVICES].eui,
      port: 1,
      payload_hex: lppHex(15 + (i % 100) / 10, 40, 3.3),
      fcnt: b * BATCH + i,
    }));
  // Every uplink must get in: a batch the api sheds (503, on a loaded machine) is sent again.
  const ingest = async (b) => {
    for (let tries = 0; ; tries++) {
      const r = await call(api.url, 'POST', '/ingest/rest', { body: batchBody(b), headers: { 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET } });
      if (r.status === 202) return;
      if (r.status !== 503 || tries === 20) throw new Error(`POST /ingest/rest: ${r.status}`);
      await sleep(250);
    }
  };
  for (let b = 0; b < batches; b += CONNECTIONS) await Promise.all(Array.from({ length: Math.min(CONNECTIONS, batches - b) }, (_, k) => ingest(b + k)));
  const start = performance.timeOrigin + performance.now();
  const api0 = cpuMs(api.pid);
  const sink0 = cpuMs(sink.pid);
  let count = 0;
  for (const until = Date.now() + 600_000; Date.now() < until; await sleep(100))
    if ((count = (await call(sink.url, 'GET', '/stats')).body.count) >= events) break;
  const apiMs = cpuMs(api.pid) - api0;
  const sinkMs = cpuMs(sink.pid) - sink0;
  if (count < events) throw new Error(`only ${count} of ${events} events delivered`);
  const arrivals = (await call(sink.url, 'GET', '/arrivals?since=0')).body;
  const inWindow = arrivals.filter(([at]) => at >= start);
  const seconds = (inWindow.reduce((last, [at]) => Math.max(last, at), start) - start) / 1000;
  return {
    rate: inWindow.length / seconds,
    counted: inWindow.length,
    seconds,
    duringIngest: arrivals.length - inWindow.length,
    apiUs: (apiMs * 1000) / inWindow.length,
    sinkUs: (sinkMs * 1000) / inWindow.length,
  };
}

/** Cayenne LPP GPS on channel 3. */
function lppGps(lat, lon) {
  const b = Buffer.alloc(11);
  b.writeUInt8(3, 0);
  b.writeUInt8(0x88, 1);
  b.writeIntBE(Math.round(lat * 1e4), 2, 3);
  b.writeIntBE(Math.round(lon * 1e4), 5, 3);
  b.writeIntBE(200, 8, 3);
  return b.toString('hex').toUpperCase();
}

/** Fences around Amsterdam: irregular polygons of 8–24 vertices, 100 m to 2 km across. */
function randomFences(n) {
  let seed = 19;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: n }, () => {
    const [cx, cy] = [4.8 + rnd() * 0.2, 52.3 + rnd() * 0.1];
    const r = 0.001 + rnd() * 0.015;
    const k = 8 + Math.floor(rnd() * 17);
    const ring = Array.from({ length: k }, (_, i) => {
      const a = (2 * Math.PI * i) / k;
      const d = r * (0.6 + rnd() * 0.4);
      return [+(cx + d * Math.cos(a)).toFixed(6), +(cy + d * Math.sin(a)).toFixed(6)];
    });
    return { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
  });
}

/** Every point tested against every fence, as the router does for an uplink with 1,000 fence rules. */
function fenceEvaluation(ctx) {
  const { prepareFence, pointInFence } = require(join(ROOT, 'dist/libs/domain/src/index.js'));
  const fences = randomFences(FENCES).map(prepareFence);
  const points = Array.from({ length: ctx.quick ? 2_000 : 20_000 }, (_, i) => [4.8 + ((i * 7919) % 2000) / 10_000, 52.3 + ((i * 104729) % 1000) / 10_000]);
  let inside = 0;
  for (const [lon, lat] of points.slice(0, 500)) for (const f of fences) pointInFence(f, lon, lat); // warm-up
  const t0 = performance.now();
  for (const [lon, lat] of points) for (const f of fences) if (pointInFence(f, lon, lat)) inside++;
  return { usPerUplink: ((performance.now() - t0) * 1000) / points.length, inside, points: points.length };
}
