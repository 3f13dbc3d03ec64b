const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'logger', tier: 'integration', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] });
