const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'test-harness', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
