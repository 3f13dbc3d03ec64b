const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'crm-budget', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
