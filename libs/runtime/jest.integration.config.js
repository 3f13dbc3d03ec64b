const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'runtime', tier: 'integration', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] });
