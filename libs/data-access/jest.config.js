const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'data-access', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
