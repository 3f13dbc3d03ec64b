const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'webhook-signature', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
