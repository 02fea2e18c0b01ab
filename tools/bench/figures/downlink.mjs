// Figure 5: downlink latency, from sending POST /user/device/command/{eui} to the command being
// `Scheduled` by the worker on the built-in simulated network. Commands one at a time; the status
// is polled every 2 ms with SQL on the commands table (real PostgreSQL), or every 5 ms through
// GET /user/device/command/{eui} (embedded: the database belongs to the api process).
// Run with Redis (BullMQ on Redis) and without (BullMQ's PostgreSQL queue backend).
import pg from 'pg';
import { accountWithToken, call, createDevice } from '../lib/api-client.mjs';
import { freshDatabase } from '../lib/database.mjs';
import { row } from '../lib/report.mjs';
import { sleep } from '../lib/processes.mjs';
import { startApi } from '../lib/service.mjs';
import { median, percentile } from '../lib/stats.mjs';

export async function run(ctx) {
  const variants = ctx.embedded
    ? [{ label: 'embedded database, PostgreSQL queue backend', redis: false, goalMs: 600 }]
    : [
        { label: 'Redis queue (BullMQ)', redis: true, goalMs: 100 },
        { label: 'PostgreSQL queue backend', redis: false, goalMs: 600 },
      ];
  const rows = [];
  for (const v of variants) {
    const r = await measureVariant(ctx, v);
    rows.push(
      row({
        figure: '5 downlink',
        measure: `POST command → Scheduled, ${v.label}: p50 (${r.count} commands × ${ctx.runs} run(s))`,
        value: r.p50,
        unit: 'ms',
        baseline: r.postP50,
        baselineLabel: 'the POST alone',
        goal: `p50 ≤ ${v.goalMs} ms`,
        met: r.p50 <= v.goalMs,
        note: `p99 ${Math.round(r.p99)} ms; polled ${r.poll}`,
        extra: { p99: r.p99, postP99: r.postP99 },
      }),
    );
  }
  return rows;
}

async function measureVariant(ctx, variant) {
  const count = ctx.quick ? 20 : 100;
  const db = await freshDatabase(ctx);
  const api = await startApi(ctx, db, { label: 'downlink', redis: variant.redis });
  const account = await accountWithToken(api.url);
  const device = await createDevice(api.url, account, { decoderRef: 1 });
  const pool = db.kind === 'postgres' ? new pg.Pool({ connectionString: db.url, max: 1 }) : null;

  const statusOf = pool
    ? async (uid) => (await pool.query('SELECT status FROM commands WHERE uid = $1', [uid])).rows[0]?.status
    : async (uid) =>
        (await call(api.url, 'GET', `/user/device/command/${device.eui}`, { headers: account.auth, expect: 200 })).body.data.find((c) => c.uid === uid)?.status;
  const pollMs = pool ? 2 : 5;

  const one = async () => {
    const t0 = performance.now();
    const created = await call(api.url, 'POST', `/user/device/command/${device.eui}`, {
      body: { port: 1, payload_hex: '01' },
      headers: account.auth,
      expect: 201,
    });
    const postMs = performance.now() - t0;
    const uid = created.body.data.uid;
    for (;;) {
      const status = await statusOf(uid);
      if (status === 'Scheduled' || status === 'Sent' || status === 'Acknowledged') return { ms: performance.now() - t0, postMs };
      if (status === 'Failed' || status === 'Cancelled') throw new Error(`command ${uid} became ${status}`);
      if (performance.now() - t0 > 30_000) throw new Error(`command ${uid} still ${status} after 30 s`);
      await sleep(pollMs);
    }
  };

  try {
    for (let i = 0; i < (ctx.quick ? 3 : 10); i++) await one(); // warm-up
    const runs = [];
    for (let r = 0; r < ctx.runs; r++) {
      const samples = [];
      for (let i = 0; i < count; i++) samples.push(await one());
      const ms = samples.map((s) => s.ms);
      const post = samples.map((s) => s.postMs);
      runs.push({ p50: percentile(ms, 50), p99: percentile(ms, 99), postP50: percentile(post, 50), postP99: percentile(post, 99) });
    }
    return {
      count,
      poll: pool ? 'with SQL every 2 ms' : 'through the API every 5 ms',
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      postP50: median(runs.map((r) => r.postP50)),
      postP99: median(runs.map((r) => r.postP99)),
    };
  } finally {
    await pool?.end();
    await api.stop();
    await db.drop();
  }
}
