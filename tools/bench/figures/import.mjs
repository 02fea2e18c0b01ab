// Figure 10: bulk import — POST /user/device/import of 10,000 devices (JSON rows with a label, a
// folder, tags and a decoder by name) in one request, timed from the request to its 201, on a
// fresh account with room for them; against a same-run baseline, a bare multi-row INSERT of the
// same 10,000 rows (one `INSERT … SELECT FROM unnest(…)` through pg, no HTTP, no checks), on the
// same database. Medians of ctx.runs runs; the ratio says what the route adds (parsing 1.5 MB of
// JSON, reading every row, resolving the references, checking EUIs and the limit, the transaction).
import { randomBytes } from 'node:crypto';
import { accountWithToken, call } from '../lib/api-client.mjs';
import { freshDatabase, withPool } from '../lib/database.mjs';
import { row } from '../lib/report.mjs';
import { startApi } from '../lib/service.mjs';
import { median } from '../lib/stats.mjs';

const ROWS = 10_000;
const rowsOf = (run) =>
  Array.from({ length: ROWS }, (_, i) => ({
    eui: randomBytes(8).toString('hex').toUpperCase(),
    label: `Imported sensor ${run}-${i}`,
    folder: `site-${i % 20}`,
    tags: ['bench', `batch-${run}`],
    decoder: 'Cayenne LPP',
  }));

export async function run(ctx) {
  const db = await freshDatabase(ctx);
  const routeMs = [];
  const bareMs = [];
  const runs = Math.max(1, ctx.runs);
  let api = await startApi(ctx, db, { label: 'import', env: { ACCOUNT_MAX_DEVICES: String(ROWS * (runs + 1)), RATE_LIMIT_PER_MINUTE: '1000000' } });
  const account = await accountWithToken(api.url);
  // A warm-up import of 500 rows: the first request's JIT and connection set-up are not the figure.
  await call(api.url, 'POST', '/user/device/import', { body: rowsOf('warm').slice(0, 500), headers: account.auth, expect: 201 });
  const batches = Array.from({ length: runs }, (_, r) => rowsOf(r));
  for (const batch of batches) {
    const body = JSON.stringify(batch);
    const started = performance.now();
    const res = await fetch(`${api.url}/user/device/import`, { method: 'POST', headers: { ...account.auth, 'Content-Type': 'application/json' }, body });
    const text = await res.text();
    routeMs.push(performance.now() - started);
    if (res.status !== 201) throw new Error(`import answered ${res.status}: ${text.slice(0, 300)}`);
    if (JSON.parse(text).data.created !== ROWS) throw new Error('the import did not register every row');
  }
  // The embedded database opens for one process at a time: the api stops before the baseline.
  await api.stop();
  api = null;
  await withPool(db, async (pool) => {
    const [{ id }] = (await pool.query('SELECT id FROM accounts ORDER BY id LIMIT 1')).rows;
    for (let r = 0; r < runs; r++) {
      const batch = rowsOf(`bare-${r}`);
      const started = performance.now();
      await pool.query(
        `INSERT INTO devices (eui, owner_id, label, folder, tags, decoder_ref, network_ref)
         SELECT r.eui, $1, r.label, r.folder, r.tags::jsonb, 2, 1 FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS r(eui, label, folder, tags)`,
        [id, batch.map((b) => b.eui), batch.map((b) => b.label), batch.map((b) => b.folder), batch.map((b) => JSON.stringify(b.tags))],
      );
      bareMs.push(performance.now() - started);
    }
  });
  await db.drop();
  const value = median(routeMs);
  const baseline = median(bareMs);
  return [
    row({
      figure: '10 bulk import',
      measure: `POST /user/device/import, ${ROWS.toLocaleString('en')} devices in one request (JSON, decoder by name) → 201`,
      value,
      unit: 'ms',
      baseline,
      baselineLabel: 'bare multi-row INSERT of the same rows',
      goal: '< 5 s',
      met: value < 5_000,
      note: `ratio ${(value / baseline).toFixed(1)}×; runs ${routeMs.map(Math.round).join(', ')} ms (baseline ${bareMs.map(Math.round).join(', ')} ms)`,
    }),
  ];
}
