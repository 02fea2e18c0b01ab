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
  sourceMaps: 'inline',
};

/** @param {string} name @param {string} dir @param {string[]} testMatch @param {string[]} [testPathIgnorePatterns] */
module.exports.project = (name, dir, testMatch, testPathIgnorePatterns = []) => ({
  displayName: name,
  rootDir: join(root, dir),
  testEnvironment: 'node',
  testMatch,
  testPathIgnorePatterns: ['/node_modules/', ...testPathIgnorePatterns],
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', swc] },
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs)/)'],
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
