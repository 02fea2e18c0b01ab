// Shared by every project's jest config. @swc/jest compiles our TypeScript and the NestJS 12
// packages (ES modules) to CommonJS: Jest 30 on Node 20 cannot load them as shipped.
const { join } = require('node:path');

const root = __dirname;
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  // Beside the code, not inlined: Jest keeps the map for stack traces and coverage either way, and an
  // inlined one is read and compiled again with every module of every file (about 0.2 s of the
  // 2.3 s a suite spends loading the service's modules).
  sourceMaps: true,
};

/** @param {string} name @param {string} dir @param {string[]} testMatch @param {string[]} [testPathIgnorePatterns] */
const project = (name, dir, testMatch, testPathIgnorePatterns = []) => ({
  displayName: name,
  rootDir: join(root, dir),
  testEnvironment: 'node',
  testMatch,
  testPathIgnorePatterns: ['/node_modules/', ...testPathIgnorePatterns],
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', swc] },
  // ES-module-only packages, compiled to CommonJS like our own code: NestJS 12, eventsource-parser,
  // openid-client and its oauth4webapi and jose, oidc-provider (the provider the sign-in tests run).
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|eventsource-parser|openid-client|oauth4webapi|jose|oidc-provider)/)'],
  moduleNameMapper: {
    '^@dts/domain$': join(root, 'libs/domain/src/index.ts'),
    '^@dts/persistence$': join(root, 'libs/persistence/src/index.ts'),
    '^@dts/platform$': join(root, 'libs/platform/src/index.ts'),
    '^@dts/jobs$': join(root, 'libs/jobs/src/index.ts'),
    '^@dts/client$': join(root, 'libs/client/src/index.ts'),
    '^@dts/demo$': join(root, 'libs/demo/src/index.ts'),
  },
  setupFiles: [join(root, 'tools/jest/setup.js')],
});
module.exports.project = project;

/**
 * The console's stateful pages rendered in jsdom (`*.spec.tsx` beside them, @testing-library/react):
 * a page-state bug is caught without building or starting the service. React's automatic JSX
 * runtime, as Vite compiles it for the browser.
 * @param {string} name @param {string} dir @param {string[]} testMatch
 */
module.exports.componentProject = (name, dir, testMatch) => ({
  ...project(name, dir, testMatch),
  // jsdom, plus what browsers have and jsdom lacks (the Fetch API's Response/Headers/Request,
  // TextEncoder, streams): Node's own, see the file.
  testEnvironment: join(root, 'tools/jest/console-environment.js'),
  transform: {
    '^.+\\.(t|j|mj)sx?$': [
      '@swc/jest',
      { ...swc, jsc: { ...swc.jsc, parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } } },
    ],
  },
  // wouter (the console's router) ships ES modules only too.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|wouter|eventsource-parser)/)'],
  moduleNameMapper: { ...project(name, dir, testMatch).moduleNameMapper, '\\.css$': join(root, 'tools/jest/style-stub.js') },
  // The message catalogue, as main.tsx loads it before the first render (jsdom's language: English).
  setupFiles: [join(root, 'apps/console/src/i18n/index.ts')],
});
