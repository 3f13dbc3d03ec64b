const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'import-coordinator', tier: 'integration', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] });
