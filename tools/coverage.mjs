// `npm run coverage`: `npm test`'s runs with V8 coverage, one report per jest run (each pass has two:
// the parallel projects, then the serial ones), merged into one statement/branch/function/line
// summary of the TypeScript under apps/ and libs/. Code run in processes the tests start (dist/,
// the browser's bundle) is not counted: the same before and after a change, which is what the
// figure is for (is coverage kept where it was?). Writes coverage/summary.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const libCoverage = require('istanbul-lib-coverage');
const root = join(import.meta.dirname, '..');
const out = join(root, 'coverage');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// tools/test.mjs runs each jest with these arguments appended; the directory is chosen per run
// through DTS_COVERAGE_RUN, counted by jest.config.js's coverageDirectory.
const run = spawnSync(process.execPath, [join(root, 'tools/test.mjs'), '--coverage', '--coverageProvider=v8', '--coverageReporters=json'], {
  stdio: 'inherit',
  env: { ...process.env, DTS_COVERAGE_DIR: out },
});

const map = libCoverage.createCoverageMap({});
let reports = 0;
for (let index = 0; existsSync(join(out, `run-${index}`)); index++) {
  const file = join(out, `run-${index}`, 'coverage-final.json');
  if (!existsSync(file)) continue;
  map.merge(JSON.parse(readFileSync(file, 'utf8')));
  reports++;
}
map.filter((file) => /\/(apps|libs)\/[^/]+\/src\//.test(file) && !/\.(spec|int-spec|e2e-spec|browser-spec)\.tsx?$/.test(file));
const summary = map.getCoverageSummary().toJSON();
writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(`\ncoverage of ${map.files().length} files from ${reports} jest runs (tests exited ${run.status}):`);
for (const kind of ['statements', 'branches', 'functions', 'lines']) {
  const { covered, total, pct } = summary[kind];
  console.log(`  ${kind.padEnd(10)} ${String(pct).padStart(6)}%  (${covered}/${total})`);
}
process.exit(run.status ?? 1);
