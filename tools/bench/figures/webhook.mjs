// Figure 2: single-uplink ChirpStack webhooks (POST /ingest/chirpstack?event=up). Fixed rates in
// steps; the result is the highest rate with p99 ≤ 50 ms, no failed request and the rate achieved,
// and the api's CPU per uplink at a rate every server held.
// Baselines: the same ladder against the limit of this machine for the same durable work
// (baselines/webhook-limit.mjs: the body parsed, the device found through the service's own cache,
// the payload decoded, the service's ingestion statement committed before the 202, the live
// notice published), once on the project's Express 5 with express.json() (the goal's reference:
// the framework the service is built on) and once on bare node:http; on the same database, after
// the api has stopped. The devices are registered on the ChirpStack network, as a device whose
// uplinks ChirpStack delivers is.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { accountWithToken, call, createDevice, lppHex } from '../lib/api-client.mjs';
import { withCpu } from '../lib/cpu.mjs';
import { freshDatabase, redisPrefix } from '../lib/database.mjs';
import { openLoop } from '../lib/load.mjs';
import { ROOT } from '../lib/paths.mjs';
import { row } from '../lib/report.mjs';
import { BENCH_SECRETS, startApi, startBaseline } from '../lib/service.mjs';
import { median } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
const DEVICES = 10;
const CONNECTIONS = 100;
const P99_LIMIT_MS = 50;
const STEPS = [100, 250, 500, 1000, 1500, 2000, 3000, 4000, 6000, 8000, 12000, 16000];
const QUICK_STEPS = [100, 250, 500, 1000, 1500, 2000, 3000];
/** The goal: the api's CPU per uplink at most this many times the Express limit's (issue 33). */
const CPU_GOAL = 1.5;

export async function run(ctx) {
  const { CHIRPSTACK, CHIRPSTACK_UPLINK_SAMPLE } = require(join(ROOT, 'dist/libs/domain/src/index.js'));
  const db = await freshDatabase(ctx);
  const api = await startApi(ctx, db, { label: 'webhook' });
  const account = await accountWithToken(api.url);
  const devices = [];
  for (let i = 0; i < DEVICES; i++) devices.push(await createDevice(api.url, account, { extra: { network_ref: CHIRPSTACK.uid } }));

  // Every request is a new message (its own deduplicationId), for one of the devices in turn.
  let n = 0;
  const payloads = Array.from({ length: 50 }, (_, i) => Buffer.from(lppHex(15 + i / 10, 40, 3.3), 'hex').toString('base64'));
  const template = { ...CHIRPSTACK_UPLINK_SAMPLE };
  const nextBody = () => {
    n++;
    return JSON.stringify({
      ...template,
      deduplicationId: `bench-${process.pid}-${n}`,
      time: new Date().toISOString(),
      deviceInfo: { ...template.deviceInfo, devEui: devices[n % DEVICES].eui.toLowerCase() },
      fCnt: n,
      data: payloads[n % payloads.length],
    });
  };
  const first = await call(api.url, 'POST', '/ingest/chirpstack?event=up', {
    body: JSON.parse(nextBody()),
    headers: { 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET },
    expect: 202,
  });
  if (first.body.data.accepted !== 1) throw new Error(`the webhook stored nothing: ${JSON.stringify(first.body.data)}`);

  const request = (url) => ({
    url,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET },
    makeBody: nextBody,
  });
  const apiLadder = await ladder(ctx, request(`${api.url}/ingest/chirpstack?event=up`), api.pid);
  await api.stop();

  const limitEnv = {
    ...db.apiEnv,
    INGEST_SECRET: BENCH_SECRETS.INGEST_SECRET,
    ...(db.kind === 'postgres' ? { REDIS_URL: ctx.redis, REDIS_PREFIX: redisPrefix(ctx, 'webhook-limit') } : {}),
  };
  const limitLadder = async (env) => {
    const limit = await startBaseline('webhook-limit', { ...limitEnv, ...env });
    try {
      const answer = await call(limit.url, 'POST', '/ingest/chirpstack?event=up', {
        body: JSON.parse(nextBody()),
        headers: { 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET },
        expect: 202,
      });
      if (answer.body.data.accepted !== 1) throw new Error(`the limit stored nothing: ${JSON.stringify(answer.body.data)}`);
      return await ladder(ctx, request(`${limit.url}/ingest/chirpstack?event=up`), limit.pid);
    } finally {
      await limit.stop();
    }
  };
  const express = await limitLadder({ EXPRESS: '1' });
  const bare = await limitLadder({});
  await db.drop();

  const best = apiLadder.best;
  // CPU per uplink compared at one rate, the highest every server kept up with: it falls as the
  // rate grows (idle work spread over more requests, group commit), so the rates must match.
  const keptUp = (l) => new Set(l.steps.filter((s) => s.keptUp).map((s) => s.rate));
  const common = apiLadder.steps.map((s) => s.rate).filter((r) => keptUp(apiLadder).has(r) && keptUp(express).has(r) && keptUp(bare).has(r));
  const rate = common.at(-1) ?? STEPS[0];
  const at = (l) => l.steps.find((s) => s.rate === rate) ?? null;
  const [apiCpu, expressCpu, bareCpu] = [apiLadder, express, bare].map((l) => at(l)?.cpuPerRequest ?? null);
  const p50s = [apiLadder, express, bare].map((l) => (at(l) ? `${at(l).p50.toFixed(1)} ms` : '–')).join(' / ');
  const times = (a, b) => (a !== null && b ? `${(a / b).toFixed(2)}×` : '–');
  return [
    row({
      figure: '2 webhook',
      measure: `POST /ingest/chirpstack, 1 uplink/request: highest fixed rate with p99 ≤ ${P99_LIMIT_MS} ms, no failures`,
      value: best?.rate ?? 0,
      unit: 'uplinks/s',
      baseline: express.best?.rate ?? null,
      baselineLabel: `Express limit, same durable work${express.capped ? ', ladder top' : ''}`,
      goal: `≥ 1,500/s with p99 ≤ ${P99_LIMIT_MS} ms`,
      met: (best?.rate ?? 0) >= 1500,
      note: `p99 ${best ? Math.round(best.p99) : '–'} ms at that rate${apiLadder.stoppedBy ? `; next step ${apiLadder.stoppedBy}` : ''}; Express limit: ${ladderNote(express)}; bare node:http limit: ${bare.best?.rate ?? 0}/s, ${ladderNote(bare)}`,
      extra: { steps: apiLadder.steps, expressSteps: express.steps, bareSteps: bare.steps },
    }),
    row({
      figure: '2 webhook',
      measure: `the same, CPU per uplink of the server's process at ${rate}/s (${common.length > 0 ? 'the highest rate all three kept up with' : 'the first step: not every server kept up with it'})`,
      value: apiCpu,
      unit: 'ms',
      baseline: expressCpu,
      baselineLabel: 'Express limit',
      goal: `≤ ${CPU_GOAL}× the Express limit's`,
      met: common.length > 0 && apiCpu !== null && expressCpu !== null ? apiCpu <= CPU_GOAL * expressCpu : null,
      note: `bare node:http limit ${bareCpu?.toFixed(2) ?? '–'} ms; api ${times(apiCpu, expressCpu)} the Express limit's, ${times(apiCpu, bareCpu)} the bare limit's; Express limit ${times(expressCpu, bareCpu)} the bare one's; p50 api / Express / bare ${p50s} (the longer the api's uplinks wait, the more of them its group commit writes in one statement)`,
      extra: { rate, apiCpu, expressCpu, bareCpu },
    }),
  ];
}

/**
 * Runs the rate steps (median of ctx.runs at each). The best is the highest step before the first
 * one that fails (p99, failures, rate); the steps go on while the server keeps up with the rate
 * (no failure, ≥ 95% achieved), so that the CPU per uplink can be compared at a rate every server
 * kept up with even where a shared machine's latencies fail the goal early.
 */
async function ladder(ctx, base, pid) {
  const steps = [];
  let best = null;
  let stoppedBy = null;
  await openLoop({ ...base, maxSockets: CONNECTIONS, seconds: ctx.warmup, rate: STEPS[0] });
  for (const rate of ctx.quick ? QUICK_STEPS : STEPS) {
    const runs = [];
    for (let i = 0; i < ctx.runs; i++) runs.push(await withCpu(pid, () => openLoop({ ...base, maxSockets: CONNECTIONS, seconds: ctx.duration, rate })));
    const step = {
      rate,
      achieved: median(runs.map((r) => r.rate)),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      failed: runs.reduce((s, r) => s + r.failed, 0),
      cpuPerRequest: median(runs.map((r) => r.cpuMs / Math.max(1, r.ok + r.failed))),
    };
    step.keptUp = step.failed === 0 && step.achieved >= 0.95 * rate;
    steps.push(step);
    if (stoppedBy === null && step.keptUp && step.p99 <= P99_LIMIT_MS) best = step;
    else stoppedBy ??= `${rate}/s: p99 ${Math.round(step.p99)} ms, achieved ${Math.round(step.achieved)}/s, ${step.failed} failed`;
    if (!step.keptUp) break;
  }
  return { steps, best, stoppedBy, capped: stoppedBy === null };
}

/** A limit's ladder in a few words: its p99 at its best step, and what stopped it. */
function ladderNote(l) {
  return `p99 ${l.best ? Math.round(l.best.p99) : '–'} ms at ${l.best?.rate ?? '–'}/s${l.stoppedBy ? `, next step ${l.stoppedBy}` : ', ladder top'}`;
}
