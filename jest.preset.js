// Shared jest settings: swc for TypeScript, tsconfig path aliases, JSON result files for the CI count.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = path.join(__dirname, target);
}

/**
 * @param {{ name: string, tier: 'test' | 'integration' | 'e2e', rootDir: string, testMatch: string[], timeoutMs?: number }} options
 */
function jestProject({ name, tier, rootDir, testMatch, timeoutMs }) {
  const usesInfrastructure = tier !== 'test';
  return {
    displayName: `${name}:${tier}`,
    rootDir,
    testEnvironment: 'node',
    testMatch,
    transform: {
      '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
    },
    moduleFileExtensions: ['ts', 'js', 'json'],
    moduleNameMapper,
    testTimeout: timeoutMs ?? (usesInfrastructure ? 60_000 : 5_000),
    globalSetup: usesInfrastructure ? path.join(__dirname, 'tools/jest/global-setup.cjs') : undefined,
    globalTeardown: usesInfrastructure ? path.join(__dirname, 'tools/jest/global-teardown.cjs') : undefined,
    reporters: ['default', [path.join(__dirname, 'tools/jest/result-file-reporter.cjs'), { file: `${name}-${tier}.json` }]],
  };
}

module.exports = { jestProject };
