// `npm run bench -- [options]`: the figures of issue 8, each measured against a baseline in the
// same run, medians of several runs, printed as a table and written to tools/bench/results/.
// See docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from './lib/cli.mjs';
import { adminQuery } from './lib/database.mjs';
import { machineInfo } from './lib/machine.mjs';
import { BENCH_DIR, ROOT } from './lib/paths.mjs';
import { cleanupAll } from './lib/processes.mjs';
import { fmt, printTable, row, writeResults } from './lib/report.mjs';

const opts = parseArgs(process.argv.slice(2));
const ctx = { ...opts };

async function main() {
  if (opts.build) {
    const build = spawnSync(process.execPath, [join(ROOT, 'tools/build.mjs')], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  if (!opts.embedded) await adminQuery(opts.pg, 'SELECT 1'); // fail early without a server
  const machine = await machineInfo(ctx);
  console.log(
    `bench on ${opts.embedded ? 'the embedded database' : 'PostgreSQL + Redis'}: ${opts.only.join(', ')}; ${opts.runs} run(s) of ${opts.duration} s after ${opts.warmup} s of warm-up${opts.quick ? ' (quick)' : ''}`,
  );
  console.log(
    `${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GB, load ${machine.loadAverage.join(' ')}; node ${machine.node}, PostgreSQL ${machine.postgres ?? machine.database}, Redis ${machine.redis ?? '–'}; commit ${machine.gitCommit}${machine.gitDirty ? ' (dirty)' : ''}\n`,
  );

  const rows = [];
  const failures = [];
  for (const figure of opts.only) {
    const started = performance.now();
    console.log(`— ${figure} …`);
    try {
      const { run } = await import(join(BENCH_DIR, 'figures', `${figure}.mjs`));
      const result = await run(ctx);
      rows.push(...result);
      for (const r of result)
        console.log(`  ${r.measure}: ${fmt(r.value, r.unit)}${r.baseline ? ` (baseline ${fmt(r.baseline, r.unit)})` : ''}${r.note ? `; ${r.note}` : ''}`);
    } catch (error) {
      failures.push({ figure, error: error.stack ?? String(error) });
      rows.push(row({ figure, measure: 'FAILED', value: null, unit: '', note: error.message }));
      console.error(`  ${figure} failed: ${error.stack ?? error}`);
    }
    await cleanupAll(); // nothing of one figure outlives it
    console.log(`  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }

  machine.loadAverageAfter = (await import('node:os')).loadavg().map((l) => +l.toFixed(2));
  console.log('');
  printTable(rows);
  const file = writeResults({ options: { ...opts, pg: undefined }, machine, rows, failures });
  console.log(`\nresults: ${file}`);
  if (failures.length) process.exitCode = 1;
}

main()
  .catch((error) => {
    console.error(error.stack ?? error);
    process.exitCode = 1;
  })
  .finally(() => cleanupAll());
