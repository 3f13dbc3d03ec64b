// Writes jest's real counts to reports/jest/<project>-<tier>.json so that the test command
// can print one "N passed, N failed" line for the whole run (tools/scripts/test-all.mjs).
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
    };
    fs.writeFileSync(this.file, JSON.stringify(summary, null, 2));
  }
}

module.exports = ResultFileReporter;
