// Figure 15: the service's memory (issue 33, goal 5). Always on the embedded database (what `npm
// start` runs with no settings), and, unless --embedded, on PostgreSQL + Redis as the baseline in
// the same run. Per run: the api starts on a fresh database (an empty DATA_DIR); idle RSS is read
// 10 s after its first 200; then a 10-connection closed-loop mix of small reads and single-uplink
// ingestion runs for --duration seconds (peak RSS sampled throughout), and the RSS is read again 10 s
// after the load ended. On the embedded database the api then starts again on the same, now
// existing DATA_DIR (with the load's rows in it) and its idle RSS is read as well.
//
// The load uses built-in decoders only, so no codec thread runs in those readings (the pool starts
// one when a codec is first needed). The last row is the price of one: RSS 10 s after a single
// codec trial (POST /user/codec/try), read after the load's own reading.
//
// RSS is the whole service: the process (its threads share it: the embedded database's thread,
// the codec threads) plus any child processes it has, read from /proc. The PostgreSQL and Redis
// servers of the baseline are not counted: they are other programs, shared by every instance.
import { readdirSync, readFileSync } from 'node:fs';
import { accountWithToken, call, createDevice, lppHex } from '../lib/api-client.mjs';
import { freshDatabase } from '../lib/database.mjs';
import { cannon } from '../lib/load.mjs';
import { sleep } from '../lib/processes.mjs';
import { row } from '../lib/report.mjs';
import { startApi } from '../lib/service.mjs';
import { median } from '../lib/stats.mjs';

const CONNECTIONS = 10;
const DEVICES = 5;
/** Seconds after start-up, and after the load, at which the RSS is read (the issue's definition). */
const SETTLE_S = 10;
/** The reading is the median of the samples in the settle window's last second (one sample is noisy). */
const READING_WINDOW_MS = 1_000;
const SAMPLE_MS = 100;
const IDLE_GOAL_MB = 300;
const AFTER_GOAL = 1.1;
/** A vendor-style codec of a few lines: what starts the first codec thread. */
const CODEC = 'function decodeUplink(input) { return { data: { first: input.bytes[0] } }; }';

export async function run(ctx) {
  const embedded = await repeat(ctx, true);
  const postgres = ctx.embedded ? null : await repeat(ctx, false);
  const pick = (runs, key) => (runs ? median(runs.map((r) => r[key])) : null);
  const baseline = (key) => (postgres ? { baseline: pick(postgres, key), baselineLabel: 'PostgreSQL + Redis' } : {});
  const idle = pick(embedded, 'idleMb');
  const after = pick(embedded, 'afterMb');
  const perRun = (key) => embedded.map((r) => Math.round(r[key])).join(', ');
  return [
    row({
      figure: '15 memory',
      measure: `embedded, empty DATA_DIR: RSS ${SETTLE_S} s after start-up`,
      value: idle,
      unit: 'MB',
      ...baseline('idleMb'),
      goal: `≤ ${IDLE_GOAL_MB} MB`,
      met: idle <= IDLE_GOAL_MB,
      note: `runs: ${perRun('idleMb')} MB${children(embedded)}`,
    }),
    row({
      figure: '15 memory',
      measure: `embedded, existing DATA_DIR: RSS ${SETTLE_S} s after start-up`,
      value: pick(embedded, 'reopenedMb'),
      unit: 'MB',
      ...baseline('idleMb'),
      goal: `≤ ${IDLE_GOAL_MB} MB`,
      met: pick(embedded, 'reopenedMb') <= IDLE_GOAL_MB,
      note: `runs: ${perRun('reopenedMb')} MB`,
    }),
    row({
      figure: '15 memory',
      measure: `embedded: peak RSS under ${CONNECTIONS} connections of small reads and single uplinks, ${ctx.duration} s`,
      value: pick(embedded, 'peakMb'),
      unit: 'MB',
      ...baseline('peakMb'),
      note: `runs: ${perRun('peakMb')} MB; ${Math.round(pick(embedded, 'rate'))} req/s${postgres ? ` (PostgreSQL: ${Math.round(pick(postgres, 'rate'))} req/s)` : ''}${failures(embedded.concat(postgres ?? []))}`,
    }),
    row({
      figure: '15 memory',
      measure: `embedded: RSS ${SETTLE_S} s after the load ended`,
      value: after,
      unit: 'MB',
      ...baseline('afterMb'),
      goal: `≤ ${AFTER_GOAL} × idle`,
      // Each run against its own idle reading: the goal is about giving back what the load took.
      met: embedded.every((r) => r.afterMb <= AFTER_GOAL * r.idleMb),
      note: `runs: ${embedded.map((r) => `${Math.round(r.afterMb)} (${(r.afterMb / r.idleMb).toFixed(2)} × idle)`).join(', ')} MB`,
    }),
    row({
      figure: '15 memory',
      measure: `embedded: RSS ${SETTLE_S} s after the first codec call (one codec thread started), after the load`,
      value: pick(embedded, 'codecMb'),
      unit: 'MB',
      ...baseline('codecMb'),
      note: `runs: ${embedded.map((r) => `${Math.round(r.codecMb)} (+${Math.round(r.codecMb - r.afterMb)} on the reading before)`).join(', ')} MB`,
    }),
  ];
}

async function repeat(ctx, embedded) {
  const runs = [];
  for (let i = 0; i < ctx.runs; i++) runs.push(await once({ ...ctx, embedded }));
  return runs;
}

async function once(ctx) {
  const db = await freshDatabase(ctx);
  // On the embedded database as `npm start` runs on a fresh clone: no secrets given (the service
  // generates and keeps them in DATA_DIR), no Redis.
  const env = ctx.embedded ? { INGEST_SECRET: '', TOKEN_ENCRYPTION_KEY: '', SESSION_SECRET: '' } : {};
  const start = () => startApi(ctx, db, { label: 'memory', redis: !ctx.embedded, env });
  let api = await start();
  const idle = await settled(api.pid);

  const account = await accountWithToken(api.url);
  const devices = [];
  for (let i = 0; i < DEVICES; i++) devices.push(await createDevice(api.url, account));
  // A few uplinks and a command, so that the reads below have rows to return.
  for (const [i, device] of devices.entries()) {
    await call(api.url, 'POST', '/ingest/rest', { body: uplink(device.eui, i), headers: account.auth, expect: 202 });
    await call(api.url, 'POST', `/user/device/command/${device.eui}`, { body: { port: 1, payload_hex: '01' }, headers: account.auth, expect: 201 });
  }
  const peak = sampleTree(api.pid);
  const load = await cannon({ url: api.url, requests: mix(account, devices), connections: CONNECTIONS, duration: ctx.duration });
  const peakMb = peak.stop();
  const after = await settled(api.pid);
  await call(api.url, 'POST', '/user/codec/try', { body: { script: CODEC, fPort: 1, payload_hex: '07' }, headers: account.auth, expect: 200 });
  const withCodec = await settled(api.pid);
  await api.stop();

  let reopened = null;
  if (ctx.embedded) {
    api = await start();
    reopened = await settled(api.pid);
    await api.stop();
  }
  await db.drop();
  return {
    idleMb: idle.mb,
    children: idle.children,
    peakMb,
    afterMb: after.mb,
    codecMb: withCodec.mb,
    reopenedMb: reopened?.mb ?? null,
    rate: load.rate,
    failed: load.failed,
  };
}

/** One uplink of a device, as a network server would send it (no timestamp: each is stored anew). */
const uplink = (eui, i) => ({ devEUI: eui, port: 1, payload_hex: lppHex(15 + (i % 100) / 10, 40 + (i % 30), 3.3), RSSI: -90, SNR: 7.5, SF: 7 });

/** Every connection goes round these requests: the console's small reads and one uplink, per device. */
function mix(account, devices) {
  const headers = { ...account.auth };
  const json = { ...headers, 'Content-Type': 'application/json' };
  return devices.flatMap((d, i) => [
    { method: 'GET', path: '/user/device', headers },
    { method: 'GET', path: '/user', headers },
    { method: 'GET', path: '/user/token', headers },
    { method: 'GET', path: `/user/device/meta/${d.eui}`, headers },
    { method: 'GET', path: `/user/device/data/${d.eui}?limit=10`, headers },
    { method: 'GET', path: `/user/device/command/${d.eui}?limit=10`, headers },
    { method: 'POST', path: '/ingest/rest', headers: json, body: JSON.stringify(uplink(d.eui, i)) },
  ]);
}

/** Waits SETTLE_S seconds, sampling; the reading is the median of the last READING_WINDOW_MS. */
async function settled(pid) {
  const samples = [];
  const until = performance.now() + SETTLE_S * 1000;
  while (performance.now() < until) {
    samples.push({ at: performance.now(), mb: treeRssMb(pid) });
    await sleep(SAMPLE_MS);
  }
  const last = samples.filter((s) => s.at >= until - READING_WINDOW_MS).map((s) => s.mb);
  return { mb: median(last), children: descendants(pid).length };
}

/** Samples the whole service's RSS until stopped; returns the peak. */
function sampleTree(pid) {
  let peak = treeRssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, treeRssMb(pid))), SAMPLE_MS / 4);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, treeRssMb(pid));
    },
  };
}

/** The process's RSS plus its descendants' (MB). */
function treeRssMb(pid) {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + rssMb(p), 0);
}

function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0; // ended meanwhile
  }
}

/** Child processes of every thread, recursively. */
function descendants(pid) {
  const found = [];
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const tid of tasks) {
    let kids = '';
    try {
      kids = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of kids.split(/\s+/).filter(Boolean).map(Number)) found.push(child, ...descendants(child));
  }
  return found;
}

function children(runs) {
  const n = Math.max(...runs.map((r) => r.children));
  return n ? `; ${n} child process(es) counted` : '; no child processes (threads are in the RSS)';
}

function failures(runs) {
  const failed = runs.reduce((n, r) => n + r.failed, 0);
  return failed ? `; ${failed} failed requests` : '';
}
