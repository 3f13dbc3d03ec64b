const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'crm-budget', tier: 'integration', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] });
