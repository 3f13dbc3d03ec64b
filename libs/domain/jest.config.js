const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'domain', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
