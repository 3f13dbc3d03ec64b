const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'import-coordinator', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
