const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'crm-client', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
