// Figure 6: start-up on the embedded database — `node dist/apps/api/src/main.js` with an empty
// DATA_DIR (PGlite initdb, migrations, generated secrets) and again with the same, existing one —
// timed from spawn to the first 200 on /version. Baseline: the NestJS hello-world's start-up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup } from '../lib/processes.mjs';
import { row } from '../lib/report.mjs';
import { startApi, startBaseline } from '../lib/service.mjs';
import { median } from '../lib/stats.mjs';

export async function run(ctx) {
  const cold = [];
  const warm = [];
  const hello = [];
  for (let i = 0; i < ctx.runs; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
    const remove = onCleanup(`remove ${dataDir}`, async () => rmSync(dataDir, { recursive: true, force: true }));
    // No DATABASE_URL, no REDIS_URL, no secrets given: what `npm start` does on a fresh clone.
    const db = { kind: 'embedded', apiEnv: { DATA_DIR: dataDir } };
    const embeddedCtx = { ...ctx, embedded: true };
    const noSecrets = { INGEST_SECRET: '', TOKEN_ENCRYPTION_KEY: '', SESSION_SECRET: '' };
    let api = await startApi(embeddedCtx, db, { label: 'startup-empty', redis: false, env: noSecrets });
    cold.push(api.startMs);
    await api.stop();
    api = await startApi(embeddedCtx, db, { label: 'startup-existing', redis: false, env: noSecrets });
    warm.push(api.startMs);
    await api.stop();
    await remove();
    const h = await startBaseline('nest-hello', {}, '/hello');
    hello.push(h.startMs);
    await h.stop();
  }
  const baseline = median(hello);
  return [
    row({
      figure: '6 start-up',
      measure: 'embedded, empty DATA_DIR: spawn → first 200 on /version',
      value: median(cold),
      unit: 'ms',
      baseline,
      baselineLabel: 'NestJS hello-world',
      note: `runs: ${cold.map(Math.round).join(', ')} ms`,
    }),
    row({
      figure: '6 start-up',
      measure: 'embedded, existing DATA_DIR: spawn → first 200 on /version',
      value: median(warm),
      unit: 'ms',
      baseline,
      baselineLabel: 'NestJS hello-world',
      note: `runs: ${warm.map(Math.round).join(', ')} ms`,
    }),
  ];
}
