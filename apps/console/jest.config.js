const { jestProject } = require('../../jest.preset');

// The console's pure modules (plain messages, input limits); its pages are tested in a browser (apps/e2e).
module.exports = jestProject({ name: 'console', tier: 'test', rootDir: __dirname, testMatch: ['<rootDir>/src/**/*.spec.ts'] });
