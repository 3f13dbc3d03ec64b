const { jestProject } = require('../../jest.preset');

module.exports = jestProject({ name: 'testing-fakes', tier: 'integration', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.int-spec.ts'] });
