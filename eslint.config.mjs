import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import eslintConfigPrettier from 'eslint-config-prettier';

// Apps import libs; libs never import apps; each layer only what is below it (STYLE.md habit 1).
// Apps and data-access libs import testing code only in their tests (TEST_FILES).
// Floors, lowest first: util (contracts) < domain < runtime < data-access < feature < app; testing
// libs may stand on every floor but apps. An import never runs up a floor (docs/architecture.md).
const depConstraints = [
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:testing', 'type:feature', 'type:data-access', 'type:runtime', 'type:domain', 'type:util'] },
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:runtime', 'type:domain', 'type:util'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:testing', 'type:feature', 'type:data-access', 'type:runtime', 'type:domain', 'type:util'] },
  // type:testing is the one testing library: helpers, fakes and their contracts, the stack harness, and the specs
  // of the libraries it stands on (libs/testing/src/lib-specs), which could not import it from their own folder.
  { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:runtime', 'type:domain', 'type:util', 'type:testing'] },
  { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:data-access', 'type:runtime', 'type:domain', 'type:util'] },
  // The runtime (configuration, logging, metrics and traces, HTTP in and out) stands on the domain and the contracts.
  { sourceTag: 'type:runtime', onlyDependOnLibsWithTags: ['type:runtime', 'type:domain', 'type:util'] },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:util'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
  // The console runs in the browser: it may import only what a browser bundle can hold (decision 0041).
  { sourceTag: 'platform:browser', onlyDependOnLibsWithTags: ['platform:browser'] },
];
const TESTED_WITH_TESTING_LIBS = new Set(['type:app']);
/** In tests, apps may also import the testing library (a library below it may not: that would be a circle). */
const testDepConstraints = depConstraints.map((constraint) =>
  TESTED_WITH_TESTING_LIBS.has(constraint.sourceTag) ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:testing'] } : constraint,
);
const boundaries = (constraints) => ['error', { enforceBuildableLibDependency: false, allow: [], depConstraints: constraints }];
/** Test code: specs of every tier and the fixtures they share. */
const TEST_FILES = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/*-fixture.ts'];
/** Sources checked with type information: the services, libs, bench, deploy checks and the console (tsx). */
const TYPED_FILES = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];

export default tseslint.config(
  { ignores: ['**/jest*.config.js', '**/dist', '**/node_modules', '**/reports', '**/tmp', 'tools/mongo-server/target'] },
  ...tseslint.configs.recommended,
  {
    // Typed lint: every TypeScript file is checked with its own tsconfig (the nearest one, found by the
    // project service), so a promise nobody awaits or a promise handed where void is expected fails.
    files: TYPED_FILES,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': boundaries(depConstraints),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Configuration is read and validated in one place (STYLE.md habit 5).
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through @ecomm-sync/runtime.' }],
    },
  },
  {
    files: TEST_FILES,
    rules: { '@nx/enforce-module-boundaries': boundaries(testDepConstraints) },
  },
  {
    // The domain is pure: no I/O of any kind (DESIGN.md, Libraries).
    files: ['libs/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['mongoose', 'amqplib', 'amqp-connection-manager', 'axios', 'express', 'node:fs', 'node:http', 'node:https', 'node:net', 'fs', 'http', 'https', 'net'] },
      ],
    },
  },
  {
    files: ['libs/runtime/src/config/**/*.ts', 'libs/testing/src/**/*.ts', '**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // A worker thread's file is plain CommonJS on Node's own modules (tools/scripts/build-app.mjs copies it).
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Formatting is Prettier's (.prettierrc.json): no lint rule may fight it.
  eslintConfigPrettier,
);
