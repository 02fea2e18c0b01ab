// Figure 4: a small authenticated read, GET /user/device with an API token (5 devices), against the
// limit of this machine for the same work (baselines/auth-read-limit.mjs: bare node:http with the
// token query, the rate-limit call, the device query and the envelope) on the same database, and a
// bare NestJS/Express hello-world for reference. Throughput closed loop; p99 of the api and the
// limit server at the same fixed rate (80% of the api's maximum). On PostgreSQL the api and the
// limit server run side by side and the runs alternate between them (api, limit, api, limit …),
// so that a change in the machine's load moves both; the embedded database can be opened by one
// process only, so there the limit server runs after the api has stopped. The limit server with the
// service's per-request duties (DUTIES=1: request id, headers, log scope and line, metric) runs
// beside them: what separates it from the plain one is what those duties cost, and what separates
// the api from it is what the framework costs.
import { accountWithToken, call, createDevice } from '../lib/api-client.mjs';
import { withCpu } from '../lib/cpu.mjs';
import { freshDatabase, redisPrefix } from '../lib/database.mjs';
import { cannon, openLoop, throughputAndLatency } from '../lib/load.mjs';
import { row } from '../lib/report.mjs';
import { startApi, startBaseline } from '../lib/service.mjs';
import { median } from '../lib/stats.mjs';

const CONNECTIONS = 10;
const DEVICES = 5;

export async function run(ctx) {
  const db = await freshDatabase(ctx);
  const api = await startApi(ctx, db, { label: 'auth-read' });
  const account = await accountWithToken(api.url);
  for (let i = 0; i < DEVICES; i++) await createDevice(api.url, account);
  const list = await call(api.url, 'GET', '/user/device', { headers: account.auth, expect: 200 });
  if (list.body.data.length !== DEVICES) throw new Error(`GET /user/device listed ${list.body.data.length} devices`);
  const target = (server) => ({ url: `${server.url}/user/device`, headers: account.auth, connections: CONNECTIONS, pid: server.pid });
  const limitEnv = () => ({ ...db.apiEnv, ...(ctx.embedded ? {} : { REDIS_URL: ctx.redis, REDIS_PREFIX: redisPrefix(ctx, 'auth-limit') }) });

  let m;
  let l;
  let d;
  if (ctx.embedded) {
    m = await alternating(ctx, [target(api)]).then(([r]) => r);
    await api.stop();
    const limit = await startBaseline('auth-read-limit', limitEnv());
    l = await alternating(ctx, [target(limit)], m.fixedRate).then(([r]) => r);
    await limit.stop();
    const dutiful = await startBaseline('auth-read-limit', { ...limitEnv(), DUTIES: '1' });
    d = await alternating(ctx, [target(dutiful)], m.fixedRate).then(([r]) => r);
    await dutiful.stop();
  } else {
    const limit = await startBaseline('auth-read-limit', limitEnv());
    const dutiful = await startBaseline('auth-read-limit', { ...limitEnv(), DUTIES: '1' });
    [m, l, d] = await alternating(ctx, [target(api), target(limit), target(dutiful)]);
    await dutiful.stop();
    await limit.stop();
    await api.stop();
  }
  await db.drop();
  const limitList = l.failed ? `; limit server: ${l.failures}` : '';

  const hello = await startBaseline('nest-hello', {}, '/hello');
  const h = await throughputAndLatency(ctx, { url: `${hello.url}/hello`, connections: CONNECTIONS }, { fixedRate: m.fixedRate });
  await hello.stop();

  const LIMIT_LABEL = 'bare node:http, same work';
  return [
    row({
      figure: '4 auth read',
      measure: `GET /user/device (token, ${DEVICES} devices), ${CONNECTIONS} connections (max, closed loop)`,
      value: m.maxRate,
      unit: 'req/s',
      baseline: l.maxRate,
      baselineLabel: LIMIT_LABEL,
      goal: '≥ 70% of the limit',
      met: m.maxRate >= 0.7 * l.maxRate,
      note: [m.failures, limitList].filter(Boolean).join('') || null,
      extra: { closed: m.runs.closed.map((r) => r.rate), limitClosed: l.runs.closed.map((r) => r.rate) },
    }),
    row({
      figure: '4 auth read',
      measure: `p99 at a fixed ${Math.round(m.fixedRate)} req/s (80% of the api's max), api and limit server`,
      value: m.p99,
      unit: 'ms',
      baseline: l.p99,
      baselineLabel: LIMIT_LABEL,
      goal: '≤ 2× the limit’s',
      met: m.p99 <= 2 * l.p99,
      note: `p50 ${m.p50.toFixed(1)} ms (limit ${l.p50.toFixed(1)} ms); achieved ${Math.round(m.achieved)} and ${Math.round(l.achieved)} req/s; CPU per request (the server's process at that rate) ${m.cpuPerRequest.toFixed(2)} ms, limit ${l.cpuPerRequest.toFixed(2)} ms`,
      extra: { cpuPerRequest: m.cpuPerRequest, limitCpuPerRequest: l.cpuPerRequest },
    }),
    row({
      figure: '4 auth read',
      measure: `the limit server with the service's per-request duties (request id, headers, log line, metric), ${CONNECTIONS} connections`,
      value: d.maxRate,
      unit: 'req/s',
      baseline: l.maxRate,
      baselineLabel: LIMIT_LABEL,
      note: `api ${Math.round((100 * m.maxRate) / d.maxRate)}% of it; CPU per request at ${Math.round(m.fixedRate)} req/s ${d.cpuPerRequest.toFixed(2)} ms, p99 ${d.p99.toFixed(1)} ms${d.failed ? `; ${d.failures}` : ''}`,
      extra: { closed: d.runs.closed.map((r) => r.rate), cpuPerRequest: d.cpuPerRequest },
    }),
    row({
      figure: '4 auth read',
      measure: `the limit server against a bare NestJS/Express hello-world (GET /hello), ${CONNECTIONS} connections`,
      value: l.maxRate,
      unit: 'req/s',
      baseline: h.maxRate,
      baselineLabel: 'NestJS hello-world',
      note: `api ${Math.round((100 * m.maxRate) / h.maxRate)}% of the hello-world; hello-world p99 at ${Math.round(m.fixedRate)} req/s: ${h.p99.toFixed(1)} ms`,
    }),
  ];
}

/**
 * throughputAndLatency for several servers at once, their runs alternating: warm-up of each, then
 * `runs` rounds of one closed-loop run per server, then `runs` rounds of one open-loop run per
 * server at `givenRate` or 80% of the first server's median maximum, with each server's CPU time
 * per request in those runs (the /proc reading of its process).
 */
async function alternating(ctx, targets, givenRate = null) {
  for (const t of targets) await cannon({ ...t, duration: ctx.warmup });
  const closed = targets.map(() => []);
  for (let i = 0; i < ctx.runs; i++) for (const [k, t] of targets.entries()) closed[k].push(await cannon({ ...t, duration: ctx.duration }));
  const fixedRate = givenRate ?? Math.max(1, median(closed[0].map((r) => r.rate)) * 0.8);
  const fixed = targets.map(() => []);
  for (let i = 0; i < ctx.runs; i++)
    for (const [k, t] of targets.entries())
      fixed[k].push(await withCpu(t.pid, () => openLoop({ ...t, rate: fixedRate, seconds: ctx.duration, maxSockets: t.connections })));
  return targets.map((_, k) => {
    const failed = closed[k].concat(fixed[k]).reduce((n, r) => n + r.failed, 0);
    return {
      maxRate: median(closed[k].map((r) => r.rate)),
      fixedRate,
      achieved: median(fixed[k].map((r) => r.rate)),
      p50: median(fixed[k].map((r) => r.p50)),
      p99: median(fixed[k].map((r) => r.p99)),
      cpuPerRequest: median(fixed[k].map((r) => r.cpuMs / Math.max(1, r.ok + r.failed))),
      failed,
      failures: failed ? `failed requests: ${failed}` : null,
      runs: { closed: closed[k], fixed: fixed[k] },
    };
  });
}
