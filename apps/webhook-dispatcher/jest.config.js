const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'webhook-dispatcher', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
