// Writes jest's real counts to reports/jest/<project>-<tier>.json so that the test command
// can print one "N passed, N failed" line for the whole run (tools/scripts/test-all.mjs), and
// which tests failed, with the first lines of why: CI keeps only the end of a long log.
const fs = require('node:fs');
const path = require('node:path');

class ResultFileReporter {
  constructor(_globalConfig, options) {
    this.file = path.join(__dirname, '..', '..', 'reports', 'jest', options.file);
  }

  onRunComplete(_contexts, results) {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const summary = {
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests + results.numTodoTests,
      // A suite that fails to load has no failed test but is a failure all the same.
      suitesFailedToRun: results.numRuntimeErrorTestSuites,
      success: results.success,
      failures: failures(results),
    };
    fs.writeFileSync(this.file, JSON.stringify(summary, null, 2));
  }
}

const FIRST_LINES = 6;

function failures(results) {
  const root = path.join(__dirname, '..', '..') + path.sep;
  const where = (suite) => suite.testFilePath.replace(root, '');
  const why = (text) => (text ?? '').replace(/\u001b\[[0-9;]*m/g, '').split('\n').filter((line) => line.trim() && !/^\s*at .*(node_modules|<anonymous>)/.test(line)).slice(0, FIRST_LINES);
  return results.testResults.flatMap((suite) => {
    // A suite that failed to load, or whose hooks failed (afterAll): jest's own account of it.
    if (suite.testExecError) return [{ test: `${where(suite)} (suite error)`, why: why(suite.failureMessage ?? suite.testExecError.stack ?? suite.testExecError.message) }];
    return suite.testResults
      .filter((test) => test.status === 'failed')
      .map((test) => ({ test: `${where(suite)} › ${test.fullName}`, why: why(test.failureMessages.join('\n')) }));
  });
}

module.exports = ResultFileReporter;
