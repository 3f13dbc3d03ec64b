const path = require('node:path');
const { jestProject } = require('../jest.preset');

// kubernetes-models and @kubernetes-models/* ship ES modules only: a resolver takes their
// "import" entries and swc turns them into CommonJS like our own sources.
const base = jestProject({ name: 'deploy', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/checks/**/*.spec.ts'], timeoutMs: 20_000 });
module.exports = {
  ...base,
  resolver: path.join(__dirname, 'esm-resolver.cjs'),
  transform: {
    ...base.transform,
    '^.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(kubernetes-models|@kubernetes-models|is-cidr|cidr-regex)/)'],
};
