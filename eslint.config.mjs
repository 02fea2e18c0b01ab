import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/node_modules/**', 'dist/**', 'tmp/**', '.data/**', '.nx/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
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
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:domain', 'type:platform', 'type:data'] },
            // type:client for the api's end-to-end tests, which call the service through it.
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:domain', 'type:platform', 'type:data', 'type:feature', 'type:client'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:worker', onlyDependOnLibsWithTags: ['scope:shared', 'scope:worker'] },
            // The api runs the processors in process in embedded mode.
            { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['scope:shared', 'scope:worker'] },
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
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
