const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'observability', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
