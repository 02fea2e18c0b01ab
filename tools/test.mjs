// `npm test`: every suite on the embedded database, then again on a real PostgreSQL and Redis when
// TEST_DATABASE_URL (and TEST_REDIS_URL) are set, as `.ci/run` does. Exits non-zero if either fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const extraArgs = process.argv.slice(2);
const modes = [{ name: 'embedded database', env: { TEST_DATABASE_URL: '', TEST_REDIS_URL: '' } }];
if (process.env.TEST_DATABASE_URL) {
  modes.push({ name: `PostgreSQL${process.env.TEST_REDIS_URL ? ' + Redis' : ''}`, env: {} });
}

let failed = false;
const summary = [];
for (const mode of modes) {
  console.log(`\n=== tests on the ${mode.name} ===\n`);
  const report = join(mkdtempSync(join(tmpdir(), 'dts-jest-')), 'report.json');
  const run = spawnSync('npx', ['jest', '--json', `--outputFile=${report}`, ...extraArgs], {
    stdio: 'inherit',
    env: {
      ...process.env,
      ...mode.env,
      // PGlite loads its WebAssembly with a dynamic import, which Jest's VM needs this flag for.
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --expose-gc --no-warnings=ExperimentalWarning`.trim(),
    },
  });
  let passed = 0;
  let failedTests = 0;
  try {
    const result = JSON.parse(readFileSync(report, 'utf8'));
    passed = result.numPassedTests;
    failedTests = result.numFailedTests + (result.numRuntimeErrorTestSuites ?? 0);
  } catch {
    failedTests = Math.max(failedTests, 1);
  }
  if (run.status !== 0) failed = true;
  summary.push(`${mode.name}: ${passed} passed, ${failedTests} failed`);
}
console.log('');
for (const line of summary) console.log(line);
process.exit(failed ? 1 : 0);
