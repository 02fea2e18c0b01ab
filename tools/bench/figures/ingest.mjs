// Figure 1: batched ingestion through POST /ingest/rest (500 uplinks a request, Cayenne LPP), against
// inserting the same rows straight into PostgreSQL with multi-row INSERTs at the same concurrency.
import { accountWithToken, call, createDevice, lppHex } from '../lib/api-client.mjs';
import { freshDatabase, withPool } from '../lib/database.mjs';
import { throughputAndLatency } from '../lib/load.mjs';
import { row } from '../lib/report.mjs';
import { BENCH_SECRETS, startApi } from '../lib/service.mjs';
import { median } from '../lib/stats.mjs';

const BATCH = 500;
const DEVICES = 10;
const CONNECTIONS = 8;

export async function run(ctx) {
  const db = await freshDatabase(ctx);
  let api = await startApi(ctx, db, { label: 'ingest' });
  const account = await accountWithToken(api.url);
  const devices = [];
  for (let i = 0; i < DEVICES; i++) devices.push(await createDevice(api.url, account));

  // One batch: 50 uplinks for each of 10 devices, LPP temperature + humidity + voltage. No
  // time_stamp_unix, so every request stores 500 new rows (nothing is a redelivery).
  const items = Array.from({ length: BATCH }, (_, i) => ({
    devEUI: devices[i % DEVICES].eui,
    port: 1,
    payload_hex: lppHex(15 + (i % 100) / 10, 30 + (i % 40), 3 + (i % 10) / 10),
    fcnt: i,
    RSSI: -90 - (i % 20),
    SNR: 7.5,
    SF: 7,
  }));
  const body = JSON.stringify(items);
  const headers = { 'Content-Type': 'application/json', 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET };
  const check = await call(api.url, 'POST', '/ingest/rest', { body: items, headers: { 'X-Ingest-Secret': BENCH_SECRETS.INGEST_SECRET }, expect: 202 });
  if (check.body.data.accepted !== BATCH)
    throw new Error(`a batch stored ${check.body.data.accepted} of ${BATCH}: ${JSON.stringify(check.body.data.rejected.slice(0, 3))}`);
  await api.stop();

  // Baseline: the rows that batch stored, inserted again with one multi-row INSERT per batch.
  const baseline = await withPool(db, (pool) => insertBaseline(ctx, pool), { size: CONNECTIONS });

  api = await startApi(ctx, db, { label: 'ingest' });
  const m = await throughputAndLatency(ctx, { url: `${api.url}/ingest/rest`, method: 'POST', headers, body, connections: CONNECTIONS });
  await api.stop();
  await db.drop();

  const uplinksPerSecond = m.maxRate * BATCH;
  return [
    row({
      figure: '1 ingest',
      measure: `POST /ingest/rest, ${BATCH} uplinks/request, ${CONNECTIONS} connections (max, closed loop)`,
      value: uplinksPerSecond,
      unit: 'uplinks/s',
      baseline: baseline.rowsPerSecond,
      baselineLabel: 'pg multi-row INSERT',
      goal: '≥ 10,000/s and ≥ 60% of baseline',
      met: uplinksPerSecond >= 10_000 && uplinksPerSecond >= 0.6 * baseline.rowsPerSecond,
      note: m.failures,
    }),
    row({
      figure: '1 ingest',
      measure: `request latency at a fixed ${Math.round(m.fixedRate * BATCH)} uplinks/s (80% of max, open loop): p50`,
      value: m.p50,
      unit: 'ms',
      note: `p99 ${Math.round(m.p99)} ms; achieved ${Math.round(m.achieved * BATCH)} uplinks/s`,
      extra: { p99: m.p99, baselineBatchMs: baseline.batchMs },
    }),
  ];
}

/** `CONNECTIONS` clients, each inserting the batch's rows again and again; rows per second. */
async function insertBaseline(ctx, pool) {
  const rows = (await pool.query(`SELECT * FROM uplinks ORDER BY uid DESC LIMIT ${BATCH}`)).rows;
  const columns = Object.keys(rows[0]).filter((c) => c !== 'uid');
  const params = rows.flatMap((r) => columns.map((c) => toParam(r[c])));
  const values = rows.map((_, i) => `(${columns.map((_, j) => `$${i * columns.length + j + 1}`).join(', ')})`).join(', ');
  const sql = `INSERT INTO uplinks (${columns.join(', ')}) VALUES ${values}`;

  const runFor = async (seconds) => {
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    let batches = 0;
    const times = [];
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < deadline) {
          const t = performance.now();
          await pool.query(sql, params);
          times.push(performance.now() - t);
          batches++;
        }
      }),
    );
    return { rowsPerSecond: (batches * BATCH) / ((performance.now() - started) / 1000), batchMs: median(times) };
  };
  await runFor(ctx.warmup);
  const runs = [];
  for (let i = 0; i < ctx.runs; i++) runs.push(await runFor(ctx.duration));
  return { rowsPerSecond: median(runs.map((r) => r.rowsPerSecond)), batchMs: median(runs.map((r) => r.batchMs)) };
}

const toParam = (v) => (v !== null && typeof v === 'object' && !(v instanceof Date) && !Buffer.isBuffer(v) ? JSON.stringify(v) : v);
