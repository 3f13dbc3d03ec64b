const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'e2e', tier: 'e2e', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.e2e-spec.ts'], timeoutMs: 300_000 });
