const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'crm-connections', tier: 'integration', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] });
