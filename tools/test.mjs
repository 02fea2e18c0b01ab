// `npm test`: every suite on the embedded database, then — when TEST_DATABASE_URL (and
// TEST_REDIS_URL) are set, as `.ci/run` does — what differs on a real PostgreSQL and Redis: the
// storage layer, integration specs and the end-to-end files named in tools/jest/second-pass.js (the
// rule is in jest.config.js, checked by tools/test-passes.spec.ts). Exits non-zero if either fails.
// In each pass the `api-serial` project (suites that measure latency, see jest.config.js) runs after
// the rest, one file at a time. The `browser` project (the console in Chromium against the built
// service) runs with the rest of the last pass only: the
// database under it makes no difference to what a browser sees, and once costs half the time.
// CI's last pass is PostgreSQL + Redis, the production setting; without TEST_DATABASE_URL it is
// the embedded pass, so `npm test` always runs it once. Arguments go to jest; naming projects or
// files yourself runs them in one pass as given.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const extraArgs = process.argv.slice(2);
// DTS_TEST_PASS tells jest.config.js which pass it is: the second runs only what differs.
const modes = [{ name: 'embedded database', env: { TEST_DATABASE_URL: '', TEST_REDIS_URL: '', DTS_TEST_PASS: 'embedded' } }];
if (process.env.TEST_DATABASE_URL) {
  modes.push({ name: `PostgreSQL${process.env.TEST_REDIS_URL ? ' + Redis' : ''}`, env: { DTS_TEST_PASS: 'postgres' } });
}

const SERIAL_PROJECT = 'api-serial';
const BROWSER_PROJECT = 'browser';
// Every project name (as in the first pass); --selectProjects with a name a pass lacks is harmless.
const projects = createRequire(import.meta.url)('../jest.config.js').projects.map((p) => p.displayName);
const chosenByCaller = extraArgs.some((arg) => arg === '--selectProjects' || !arg.startsWith('-'));
// The PostgreSQL pass's files wait more than they compute: outages held for their length, lock
// expiries, browsers, other processes starting. Two at a time kept the two cores 73% busy there
// (the embedded pass: 89%), so that pass runs three at a time. (For an afternoon of 2026-12-07 two
// runs in six failed at three: one on a race in ingestion, since fixed, and one on a fault suite's
// api unreachable after its PostgreSQL restarted. The fault suites then chose their servers' ports
// where the kernel also hands out the local ports of outgoing connections: a restarted server could
// find its port taken. They no longer do (@dts/platform freePort).)
const WAITING_PASS_WORKERS = 3;
const phasesOf = (last, mode) =>
  chosenByCaller
    ? [extraArgs]
    : [
        // The browser files wait for what they need with bounds and measure no latency: they run
        // beside the rest. Alone, one at a time, they left a third of the two cores idle (the
        // browser, the service and the test take turns) and took 4 minutes of the 29 of CI.
        [
          '--selectProjects',
          ...projects.filter((name) => name !== SERIAL_PROJECT && (last || name !== BROWSER_PROJECT)),
          ...(mode.env.DTS_TEST_PASS === 'postgres' ? [`--maxWorkers=${WAITING_PASS_WORKERS}`] : []),
          ...extraArgs,
        ],
        // One file at a time in one worker, not in band: the worker is replaced when a file leaves
        // its heap big (jest.config.js, workerIdleMemoryLimit), as in the parallel phase. In band,
        // jest's own process kept every file's leftovers, and the latency these suites measure
        // took the garbage collections of a growing heap.
        ['--selectProjects', SERIAL_PROJECT, '--maxWorkers=1', ...extraArgs],
      ];

// tools/coverage.mjs: each jest run writes its coverage to a directory of its own, merged there.
let coverageRuns = 0;
const coverageDirectory = () => (process.env.DTS_COVERAGE_DIR ? [`--coverageDirectory=${join(process.env.DTS_COVERAGE_DIR, `run-${coverageRuns++}`)}`] : []);

/** One jest run; its passed and failed counts from the JSON report (a run with no report failed). */
function jest(mode, args) {
  const report = join(mkdtempSync(join(tmpdir(), 'dts-jest-')), 'report.json');
  const run = spawnSync('npx', ['jest', '--json', `--outputFile=${report}`, ...coverageDirectory(), ...args], {
    stdio: 'inherit',
    env: {
      ...process.env,
      ...mode.env,
      // PGlite loads its WebAssembly with a dynamic import, which Jest's VM needs this flag for.
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --expose-gc --no-warnings=ExperimentalWarning`.trim(),
    },
  });
  try {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    return { ok: run.status === 0, passed: result.numPassedTests, failed: result.numFailedTests + (result.numRuntimeErrorTestSuites ?? 0) };
  } catch {
    return { ok: false, passed: 0, failed: 1 };
  }
}

// dist/ once for every jest run below (jest's global setup would build it again at each: about 7 s).
const build = spawnSync(process.execPath, [join(import.meta.dirname, 'build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) process.exit(build.status ?? 1);
process.env.DTS_DIST_BUILT = '1';

let failed = false;
const summary = [];
for (const [index, mode] of modes.entries()) {
  console.log(`\n=== tests on the ${mode.name} ===\n`);
  let passed = 0;
  let failedTests = 0;
  for (const args of phasesOf(index === modes.length - 1, mode)) {
    const result = jest(mode, args);
    passed += result.passed;
    failedTests += result.failed;
    if (!result.ok) failed = true;
  }
  summary.push(`${mode.name}: ${passed} passed, ${failedTests} failed`);
}
console.log('');
for (const line of summary) console.log(line);
process.exit(failed ? 1 : 0);
