const { project, componentProject } = require('./jest.preset');

/** Unit specs (`*.spec.ts`) live next to the code, integration specs (`*.int-spec.ts`) beside them, end-to-end specs in apps/api/test. */
const unitAndIntegration = ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.int-spec.ts'];

/**
 * End-to-end files that measure latency: `npm test` runs them after the rest, one file at a time
 * (tools/test.mjs), so that no other suite competes with them for the machine's cores. Their own
 * project, `api-serial`. The fault suites (faults-services, faults-processes, integrations-faults)
 * are not among them: they stop and kill servers and processes of their own, never shared ones,
 * and bound recovery, not latency; they run two at a time with the rest (alone, one at a time, they
 * spent 100 s of CI mostly waiting out outages and lock expiries on an idle core).
 */
const SERIAL = ['abuse-limits', 'hostile-cost', 'hostile-cost-embedded', 'integrations-fairness', 'proxy-enumeration', 'slow-clients'];

/**
 * `npm test` runs twice in CI: first on the embedded database (PGlite; queues on BullMQ's PostgreSQL
 * backend, sessions, rate limits and the live bus in the database: what `npm start` runs with no
 * settings), then on PostgreSQL + Redis (production: all of those on Redis). The
 * second pass runs only what differs between the two (tools/test.mjs sets DTS_TEST_PASS=postgres):
 * - every integration spec (`*.int-spec.ts`) of the libraries and the api: repositories, queues,
 *   caches, the live bus, locks, Redis — except service specs (`*.service.int-spec.ts`), which test
 *   business rules and run once;
 * - all of libs/persistence, every spec of it (the storage layer is what differs);
 * - the end-to-end files in tools/jest/second-pass.js, each for the reason given there.
 * Everything else (unit specs, service specs, the other end-to-end files, the console) runs once,
 * in the first pass. tools/test-passes.spec.ts checks that every persistence spec and every file
 * named here runs in the second pass. See docs/architecture.md, "The test suite".
 */
const { SECOND_PASS_E2E } = require('./tools/jest/second-pass');
const secondPass = process.env.DTS_TEST_PASS === 'postgres';
const e2e = (names) => names.map((name) => `<rootDir>/test/${name}.e2e-spec.ts`);
const SERVICE_SPECS = '\\.service\\.int-spec\\.ts$';
/** What a project runs: all of `all` in the first pass, its integration specs (and `twice`) in the second. */
const inPass = (all, twice = []) => (secondPass ? ['<rootDir>/src/**/*.int-spec.ts', ...twice] : all);
const onceOnly = secondPass ? [SERVICE_SPECS] : [];

/** Projects with no integration spec: pure code, run in the first pass only. */
const FIRST_PASS_ONLY_PROJECTS = ['domain', 'client', 'demo', 'tools', 'console', 'console-components'];

module.exports = {
  projects: [
    project('domain', 'libs/domain', unitAndIntegration),
    project('client', 'libs/client', unitAndIntegration),
    project('platform', 'libs/platform', inPass(unitAndIntegration)),
    project('persistence', 'libs/persistence', unitAndIntegration),
    project('jobs', 'libs/jobs', inPass(unitAndIntegration), onceOnly),
    project('demo', 'libs/demo', unitAndIntegration),
    project('worker', 'apps/worker', inPass(unitAndIntegration)),
    project('api', 'apps/api', inPass([...unitAndIntegration, '<rootDir>/test/**/*.e2e-spec.ts'], e2e(Object.keys(SECOND_PASS_E2E))), [
      ...SERIAL.map((name) => `/test/${name}\\.e2e-spec\\.ts$`),
      ...onceOnly,
    ]),
    project('api-serial', 'apps/api', e2e(secondPass ? SERIAL.filter((name) => name in SECOND_PASS_E2E) : SERIAL)),
    // The console's own logic (pure functions; its pages are exercised in a real browser by the browser project).
    project('console', 'apps/console', ['<rootDir>/src/**/*.spec.ts']),
    // Its stateful pages rendered in jsdom: state bugs caught without the service.
    componentProject('console-components', 'apps/console', ['<rootDir>/src/**/*.spec.tsx']),
    // The console in Chromium against the built service: tools/test.mjs runs it once per `npm test`.
    project('browser', 'apps/console', ['<rootDir>/test/**/*.browser-spec.ts']),
    project('tools', 'tools', ['<rootDir>/**/*.spec.ts']),
  ].filter((p) => !(secondPass && FIRST_PASS_ONLY_PROJECTS.includes(p.displayName))),
  // Each end-to-end file starts its own database: two at a time fit a 2-core machine (tools/test.mjs
  // runs the PostgreSQL pass, whose files mostly wait, three at a time).
  maxWorkers: 2,
  // A worker is replaced once a file leaves its heap past this. Modules of a file (NestJS, TypeORM,
  // PGlite's WebAssembly) are not all let go when the next file starts: without this a worker's
  // heap grew to 2 GB over a pass, every garbage collection grew with it, the first pass ran twice
  // as long, and the suites that collect on purpose to measure memory (streaming) stood the event
  // loop still for seconds at a time. A new worker costs about a second.
  workerIdleMemoryLimit: '700MB',
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  // Hooks too: a suite's beforeAll starts a database and hashes passwords (argon2), which on a
  // loaded 2-core machine has taken over 30 s.
  testTimeout: 60_000,
};
