const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'test-harness', tier: 'integration', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] });
