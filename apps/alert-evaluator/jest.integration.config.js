const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'alert-evaluator', tier: 'integration', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] });
