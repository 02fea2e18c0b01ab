const { project, componentProject } = require('./jest.preset');

/** Unit specs (`*.spec.ts`) live next to the code, integration specs (`*.int-spec.ts`) beside them, end-to-end specs in apps/api/test. */
const unitAndIntegration = ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.int-spec.ts'];

/**
 * End-to-end files that measure latency or stop the servers they run on: `npm test` runs them
 * after the rest, one file at a time (tools/test.mjs), so that no other suite competes with them
 * for the machine's cores. Their own project, `api-serial`.
 */
const SERIAL = [
  'abuse-limits',
  'faults-services',
  'faults-processes',
  'hostile-cost',
  'hostile-cost-embedded',
  'integrations-fairness',
  'integrations-faults',
  'proxy-enumeration',
];

/**
 * Suites the database makes no difference to: pure code, or processes that always run on an
 * embedded database of their own. `npm test` runs them in its first pass only (tools/test.mjs sets
 * DTS_TEST_PASS=postgres for the second), so CI does not pay for them twice.
 */
const DATABASE_INDEPENDENT_PROJECTS = ['domain', 'client', 'tools', 'console', 'console-components'];
const DATABASE_INDEPENDENT_FILES = ['/test/process\\.e2e-spec\\.ts$'];
const postgresPass = process.env.DTS_TEST_PASS === 'postgres';
const onlyOnce = (patterns) => (postgresPass ? patterns : []);

module.exports = {
  projects: [
    project('domain', 'libs/domain', unitAndIntegration),
    project('client', 'libs/client', unitAndIntegration),
    project('platform', 'libs/platform', unitAndIntegration),
    project('persistence', 'libs/persistence', unitAndIntegration),
    project('jobs', 'libs/jobs', unitAndIntegration),
    project('demo', 'libs/demo', unitAndIntegration),
    project('worker', 'apps/worker', unitAndIntegration),
    project(
      'api',
      'apps/api',
      [...unitAndIntegration, '<rootDir>/test/**/*.e2e-spec.ts'],
      [...SERIAL.map((name) => `/test/${name}\\.e2e-spec\\.ts$`), ...onlyOnce(DATABASE_INDEPENDENT_FILES)],
    ),
    project(
      'api-serial',
      'apps/api',
      SERIAL.map((name) => `<rootDir>/test/${name}.e2e-spec.ts`),
    ),
    // The console's own logic (pure functions; its pages are exercised in a real browser by the browser project).
    project('console', 'apps/console', ['<rootDir>/src/**/*.spec.ts']),
    // Its stateful pages rendered in jsdom: state bugs caught without the service.
    componentProject('console-components', 'apps/console', ['<rootDir>/src/**/*.spec.tsx']),
    // The console in Chromium against the built service: tools/test.mjs runs it once per `npm test`.
    project('browser', 'apps/console', ['<rootDir>/test/**/*.browser-spec.ts']),
    project('tools', 'tools', ['<rootDir>/**/*.spec.ts']),
  ].filter((p) => !(postgresPass && DATABASE_INDEPENDENT_PROJECTS.includes(p.displayName))),
  // Each end-to-end file starts its own database: two at a time fit a 2-core machine.
  maxWorkers: 2,
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  // Hooks too: a suite's beforeAll starts a database and hashes passwords (argon2), which on a
  // loaded 2-core machine has taken over 30 s.
  testTimeout: 60_000,
};
