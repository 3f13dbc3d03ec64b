const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'webhook-delivery', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
