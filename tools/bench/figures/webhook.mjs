// Figure 2: single-uplink ChirpStack webhooks (POST /ingest/chirpstack?event=up). Fixed rates in
// steps; the result is the highest rate with p99 ≤ 50 ms, no failed request and the rate achieved.
// Baseline: the same ladder against the limit of this machine for the same durable work
// (baselines/webhook-limit.mjs: bare node:http, device look-up and one prepared insert-and-update
// committed before the 202) on the same database, after the api has stopped.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { accountWithToken, call, createDevice, lppHex } from '../lib/api-client.mjs';
import { withCpu } from '../lib/cpu.mjs';
import { freshDatabase } from '../lib/database.mjs';
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

export async function run(ctx) {
  const { CHIRPSTACK_UPLINK_SAMPLE } = require(join(ROOT, 'dist/libs/domain/src/index.js'));
  const db = await freshDatabase(ctx);
  const api = await startApi(ctx, db, { label: 'webhook' });
  const account = await accountWithToken(api.url);
  const devices = [];
  for (let i = 0; i < DEVICES; i++) devices.push(await createDevice(api.url, account));

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

  const limit = await startBaseline('webhook-limit', { ...db.apiEnv, INGEST_SECRET: BENCH_SECRETS.INGEST_SECRET });
  const limitLadder = await ladder(ctx, request(`${limit.url}/ingest/chirpstack?event=up`), limit.pid);
  await limit.stop();
  await db.drop();

  const best = apiLadder.best;
  return [
    row({
      figure: '2 webhook',
      measure: `POST /ingest/chirpstack, 1 uplink/request: highest fixed rate with p99 ≤ ${P99_LIMIT_MS} ms, no failures`,
      value: best?.rate ?? 0,
      unit: 'uplinks/s',
      baseline: limitLadder.best?.rate ?? null,
      baselineLabel: `bare node:http, same durable work${limitLadder.capped ? ', ladder top' : ''}`,
      goal: `≥ 1,500/s with p99 ≤ ${P99_LIMIT_MS} ms`,
      met: (best?.rate ?? 0) >= 1500,
      note: `p99 ${best ? Math.round(best.p99) : '–'} ms at that rate${apiLadder.stoppedBy ? `; next step ${apiLadder.stoppedBy}` : ''}; CPU per request (the server's process) ${cpuNote(apiLadder)}; limit: p99 ${limitLadder.best ? Math.round(limitLadder.best.p99) : '–'} ms, CPU per request ${cpuNote(limitLadder)}${limitLadder.stoppedBy ? `, next step ${limitLadder.stoppedBy}` : ''}`,
      extra: { steps: apiLadder.steps, baselineSteps: limitLadder.steps },
    }),
  ];
}

/** Runs the rate steps (median of ctx.runs at each) until one fails; returns every step and the best. */
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
    steps.push(step);
    const ok = step.p99 <= P99_LIMIT_MS && step.failed === 0 && step.achieved >= 0.95 * rate;
    if (!ok) {
      stoppedBy = `${rate}/s: p99 ${Math.round(step.p99)} ms, achieved ${Math.round(step.achieved)}/s, ${step.failed} failed`;
      break;
    }
    best = step;
  }
  return { steps, best, stoppedBy, capped: stoppedBy === null };
}

/** The server's CPU milliseconds per request at its best step (else its first). */
function cpuNote(l) {
  const step = l.best ?? l.steps[0];
  return step ? `${step.cpuPerRequest.toFixed(2)} ms at ${step.rate}/s` : '–';
}
