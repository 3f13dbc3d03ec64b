const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'webhook-signature', tier: 'integration', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] });
