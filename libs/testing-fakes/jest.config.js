const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'testing-fakes', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
