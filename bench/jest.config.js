const { jestProject } = require('../jest.preset');

module.exports = jestProject({ name: 'bench', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
