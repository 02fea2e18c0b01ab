const { project } = require('./jest.preset');

/** Unit specs (`*.spec.ts`) live next to the code, integration specs (`*.int-spec.ts`) beside them, end-to-end specs in apps/api/test. */
const unitAndIntegration = ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.int-spec.ts'];

module.exports = {
  projects: [
    project('domain', 'libs/domain', unitAndIntegration),
    project('client', 'libs/client', unitAndIntegration),
    project('platform', 'libs/platform', unitAndIntegration),
    project('persistence', 'libs/persistence', unitAndIntegration),
    project('jobs', 'libs/jobs', unitAndIntegration),
    project('worker', 'apps/worker', unitAndIntegration),
    project('api', 'apps/api', [...unitAndIntegration, '<rootDir>/test/**/*.e2e-spec.ts']),
    project('tools', 'tools', ['<rootDir>/**/*.spec.ts']),
  ],
  // Each end-to-end file starts its own database: two at a time fit a 2-core machine.
  maxWorkers: 2,
  globalSetup: '<rootDir>/tools/jest/global-setup.js',
  testTimeout: 30_000,
};
