const { project } = require('./jest.preset');

/** Unit specs (`*.spec.ts`) live next to the code, integration specs (`*.int-spec.ts`) beside them, end-to-end specs in apps/api/test. */
const unitAndIntegration = ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.int-spec.ts'];

/**
 * End-to-end files that measure latency or stop the servers they run on: `npm test` runs them
 * after the rest, one file at a time (tools/test.mjs), so that no other suite competes with them
 * for the machine's cores. Their own project, `api-serial`.
 */
const SERIAL = ['abuse-limits', 'faults-services', 'faults-processes'];

module.exports = {
  projects: [
    project('domain', 'libs/domain', unitAndIntegration),
    project('client', 'libs/client', unitAndIntegration),
    project('platform', 'libs/platform', unitAndIntegration),
    project('persistence', 'libs/persistence', unitAndIntegration),
    project('jobs', 'libs/jobs', unitAndIntegration),
    project('worker', 'apps/worker', unitAndIntegration),
    project('api', 'apps/api', [...unitAndIntegration, '<rootDir>/test/**/*.e2e-spec.ts'], SERIAL.map((name) => `/test/${name}\\.e2e-spec\\.ts$`)),
    project('api-serial', 'apps/api', SERIAL.map((name) => `<rootDir>/test/${name}.e2e-spec.ts`)),
    project('tools', 'tools', ['<rootDir>/**/*.spec.ts']),
  ],
  // Each end-to-end file starts its own database: two at a time fit a 2-core machine.
  maxWorkers: 2,
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  // Hooks too: a suite's beforeAll starts a database and hashes passwords (argon2), which on a
  // loaded 2-core machine has taken over 30 s.
  testTimeout: 60_000,
};
