const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'crm-connections', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
