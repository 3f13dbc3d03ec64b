const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'alert-evaluator', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
