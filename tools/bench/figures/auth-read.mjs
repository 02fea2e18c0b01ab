// Figure 4: a small authenticated read, GET /user/device with an API token (5 devices), against a
// bare NestJS/Express hello-world (baselines/nest-hello.mjs) started by the bench. Throughput closed
// loop; p99 of both at the same fixed rate (80% of the api's maximum).
import { accountWithToken, call, createDevice } from '../lib/api-client.mjs';
import { freshDatabase } from '../lib/database.mjs';
import { throughputAndLatency } from '../lib/load.mjs';
import { row } from '../lib/report.mjs';
import { startApi, startBaseline } from '../lib/service.mjs';

const CONNECTIONS = 10;
const DEVICES = 5;

export async function run(ctx) {
  const db = await freshDatabase(ctx);
  const api = await startApi(ctx, db, { label: 'auth-read' });
  const account = await accountWithToken(api.url);
  for (let i = 0; i < DEVICES; i++) await createDevice(api.url, account);
  const list = await call(api.url, 'GET', '/user/device', { headers: account.auth, expect: 200 });
  if (list.body.data.length !== DEVICES) throw new Error(`GET /user/device listed ${list.body.data.length} devices`);
  const m = await throughputAndLatency(ctx, { url: `${api.url}/user/device`, headers: account.auth, connections: CONNECTIONS });
  await api.stop();
  await db.drop();

  const hello = await startBaseline('nest-hello', {}, '/hello');
  const b = await throughputAndLatency(ctx, { url: `${hello.url}/hello`, connections: CONNECTIONS }, { fixedRate: m.fixedRate });
  await hello.stop();

  return [
    row({
      figure: '4 auth read',
      measure: `GET /user/device (token, ${DEVICES} devices), ${CONNECTIONS} connections (max, closed loop)`,
      value: m.maxRate,
      unit: 'req/s',
      baseline: b.maxRate,
      baselineLabel: 'NestJS hello-world',
      goal: '≥ 60% of baseline',
      met: m.maxRate >= 0.6 * b.maxRate,
      note: m.failures,
    }),
    row({
      figure: '4 auth read',
      measure: `p99 at a fixed ${Math.round(m.fixedRate)} req/s (80% of the api's max), both servers`,
      value: m.p99,
      unit: 'ms',
      baseline: b.p99,
      baselineLabel: 'NestJS hello-world',
      goal: '≤ 2× baseline',
      met: m.p99 <= 2 * b.p99,
      note: `p50 ${m.p50.toFixed(1)} ms (baseline ${b.p50.toFixed(1)} ms); achieved ${Math.round(m.achieved)} and ${Math.round(b.achieved)} req/s`,
    }),
  ];
}
