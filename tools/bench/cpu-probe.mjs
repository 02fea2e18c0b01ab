// `node tools/bench/cpu-probe.mjs [auth-read|webhook] [--rate=N] [--seconds=S] [--runs=R] [--dist=dist,tmp/dist-before] [--env=K=V;…] [--env-b=K=V;…]`:
// CPU milliseconds per request of the api process (from /proc) at a fixed open-loop rate, and of
// the figure's limit server (baselines/auth-read-limit.mjs, webhook-limit.mjs) at the same rate —
// a measure that other jobs on a shared host move far less than a rate. Every build named in
// --dist (default: dist/) runs as its own api on its own database, side by side with the limit
// server, and the runs alternate between them (a, b, limit, a, b, limit …), so that a change
// of the machine's load moves all alike. PostgreSQL and Redis as `npm run bench` uses them.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { accountWithToken, createDevice, lppHex } from './lib/api-client.mjs';
import { parseArgs } from './lib/cli.mjs';
import { withCpu } from './lib/cpu.mjs';
import { freshDatabase, redisPrefix } from './lib/database.mjs';
import { openLoop } from './lib/load.mjs';
import { ROOT } from './lib/paths.mjs';
import { cleanupAll } from './lib/processes.mjs';
import { BENCH_SECRETS, startApi, startBaseline } from './lib/service.mjs';
import { median } from './lib/stats.mjs';

const args = process.argv.slice(2);
const figure = args.find((a) => !a.startsWith('--')) ?? 'auth-read';
const opt = (name, dflt) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const rate = Number(opt('rate', 300));
const seconds = Number(opt('seconds', 8));
const runs = Number(opt('runs', 3));
const dists = opt('dist', 'dist').split(',');
const envOption = (name) =>
  Object.fromEntries(
    (args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? '')
      .split(';')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
// --env=K=V;K2=V2: extra environment of the apis (an experiment's switch); --env-b: of the second
// api only, on top (`--dist=dist,dist --env-b=NODE_OPTIONS=…` compares one build with a switch).
const extraEnv = envOption('env');
const envB = envOption('env-b');
const ctx = { ...parseArgs([]), cpuProf: args.includes('--cpu-prof') };
const require = createRequire(import.meta.url);

/** The figure's request against a server, for a database on which `setup` made an account and devices. */
async function setup(api) {
  const account = await accountWithToken(api.url);
  const devices = [];
  for (let i = 0; i < 5; i++) devices.push(await createDevice(api.url, account));
  if (figure === 'auth-read') return (url) => ({ url: `${url}/user/device`, headers: account.auth });
  const { CHIRPSTACK_UPLINK_SAMPLE: t } = require(join(ROOT, 'dist/libs/domain/src/index.js'));
  let n = 0;
  const makeBody = () => {
    n++;
    return JSON.stringify({
      ...t,
      deduplicationId: `probe-${process.pid}-${n}`,
      time: new Date().toISOString(),
      deviceInfo: { ...t.deviceInfo, devEui: devices[n % devices.length].eui.toLowerCase() },
      fCnt: n,
      data: Buffer.from(lppHex(15 + (n % 50) / 10, 40, 3.3), 'hex').toString('base64'),
    });
  };
  const headers = { 'Content-Type': 'application/json', 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET };
  return (url) => ({ url: `${url}/ingest/chirpstack?event=up`, method: 'POST', headers, makeBody });
}

async function main() {
  const servers = [];
  for (const dist of dists) {
    const db = await freshDatabase(ctx);
    const env = servers.length === 1 ? { ...extraEnv, ...envB } : extraEnv;
    const api = await startApi(ctx, db, { label: `probe-${servers.length}`, dist, env });
    const label =
      servers.length === 1 && Object.keys(envB).length > 0
        ? `${dist} (${Object.entries(envB)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')})`
        : dist;
    servers.push({ label, pid: api.pid, url: api.url, target: await setup(api), db });
  }
  const first = servers[0];
  const limitEnv =
    figure === 'auth-read'
      ? { ...first.db.apiEnv, REDIS_URL: ctx.redis, REDIS_PREFIX: redisPrefix(ctx, 'probe-limit') }
      : { ...first.db.apiEnv, INGEST_SECRET: BENCH_SECRETS.INGEST_SECRET };
  const limit = await startBaseline(figure === 'auth-read' ? 'auth-read-limit' : 'webhook-limit', limitEnv);
  servers.push({ label: 'limit', pid: limit.pid, url: limit.url, target: first.target });

  const load = (s, secs) => openLoop({ ...s.target(s.url), rate, seconds: secs, maxSockets: 100 });
  for (const s of servers) await load(s, 2);
  const results = servers.map(() => []);
  for (let i = 0; i < runs; i++) for (const [k, s] of servers.entries()) results[k].push(await withCpu(s.pid, () => load(s, seconds)));
  const limitCpu = median(results.at(-1).map((r) => r.cpuMs / Math.max(1, r.ok + r.failed)));
  console.log(`${figure} at ${rate}/s, ${runs} × ${seconds} s alternating, medians:`);
  for (const [k, s] of servers.entries()) {
    const rs = results[k];
    const cpu = median(rs.map((r) => r.cpuMs / Math.max(1, r.ok + r.failed)));
    const failed = rs.reduce((n, r) => n + r.failed, 0);
    console.log(
      `  ${s.label.padEnd(22)} CPU ${cpu.toFixed(3)} ms/request (${(cpu / limitCpu).toFixed(2)}× the limit's; runs ${rs.map((r) => (r.cpuMs / Math.max(1, r.ok + r.failed)).toFixed(2)).join(' ')}), p50 ${median(rs.map((r) => r.p50)).toFixed(1)} ms, p99 ${median(rs.map((r) => r.p99)).toFixed(1)} ms${failed ? `, ${failed} failed` : ''}`,
    );
  }
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
