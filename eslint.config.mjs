import nx from '@nx/eslint-plugin';
import i18next from 'eslint-plugin-i18next';
import { createRequire } from 'node:module';
import tseslint from 'typescript-eslint';

// @nx/enforce-module-boundaries reads the cached Nx project graph and, when there is none, skips
// itself with a warning: a lint run would then pass whatever our projects import. Fail instead.
// `npm run lint` builds the graph first (nx show projects); tools/lint-graph.spec.ts holds this.
try {
  createRequire(import.meta.url)('@nx/devkit').readCachedProjectGraph();
} catch {
  throw new Error('No Nx project graph is cached, so @nx/enforce-module-boundaries cannot run: run `npx nx show projects` first (npm run lint does).');
}

export default [
  { ignores: ['**/node_modules/**', 'dist/**', 'tmp/**', '.data/**', '.nx/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    plugins: { '@nx': nx },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // DESIGN.md §1: libs/domain imports nothing of ours; apps never import each other; libraries
      // only through their index.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:domain'] },
            // The typed client ships as a package beside @dts/domain: nothing else of ours.
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:domain'] },
            { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:domain', 'type:platform'] },
            // Demo content (DEMO=1): generators and pictures on top of the domain, never in a published package.
            { sourceTag: 'type:demo', onlyDependOnLibsWithTags: ['type:domain'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:domain', 'type:platform', 'type:data'] },
            // type:client for the api's end-to-end tests, which call the service through it.
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:platform', 'type:data', 'type:feature', 'type:client', 'type:demo'] },
            // The web console runs in the browser and talks to the api only through the typed client.
            { sourceTag: 'type:console', onlyDependOnLibsWithTags: ['type:domain', 'type:client'] },
            { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:worker', onlyDependOnLibsWithTags: ['scope:shared', 'scope:worker'] },
            // The api runs the processors in process in embedded mode.
            { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:shared', 'scope:worker', 'scope:api'] },
          ],
        },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unsafe-function-type': 'off',
    },
  },
  {
    // Services take and return plain values (docs/architecture.md, "one home per idea"): the HTTP
    // request and response belong to controllers, guards, filters, middleware and the helpers of
    // apps/api/src/common/http (send-stream.ts) and common/auth (session-cookies.ts).
    files: ['**/*.service.ts', 'apps/api/src/modules/**/*.ts', 'apps/worker/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.controller.ts', 'apps/api/src/modules/console/console-static.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'express',
              message: 'Services take and return plain values: read the request and write the response in the controller (or common/http/send-stream.ts).',
            },
          ],
          patterns: [{ group: ['express-serve-static-core'], message: 'Services take and return plain values: HTTP stays in controllers.' }],
        },
      ],
    },
  },
  {
    // Every text of the console goes through the message catalogue (apps/console/src/i18n): a
    // sentence written into JSX, or into a label a person reads, is an error.
    files: ['apps/console/src/**/*.tsx'],
    ignores: ['**/*.spec.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': { include: ['aria-label', 'title', 'placeholder', 'alt', 'label', 'what', 'content', 'subtitle', 'summary'] },
          // Not words: symbols and codes, example addresses and payloads, units and protocol names.
          words: {
            exclude: [
              '[^A-Za-z]*',
              '[A-Z0-9_-]+',
              '[0-9A-Fa-f ]+',
              '[a-z]+://\\S*',
              'UTC',
              'Hex',
              'Base64',
              'fPort',
              'MiB',
              'KiB',
              'dBm',
              'dB',
              'JSON',
              'CSV',
              'NDJSON',
            ],
          },
          // Arguments naming a field of the service's answer or a query key, not texts.
          callees: { exclude: ['fieldError', 'i18n.t', 't', 'setRange', 'set', 'get', 'has', 'endsWith', 'startsWith', 'includes'] },
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
