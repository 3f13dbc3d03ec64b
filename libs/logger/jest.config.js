const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'logger', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
