#!/usr/bin/env node
// The one test command (README, .ci/run): build every workspace, run the whole vitest suite, and
// end with a plain `N passed, N failed[, N skipped]` line built from vitest's JSON report.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const environment = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', FORCE_COLOR: process.env.FORCE_COLOR ?? '0' };

const build = spawnSync(bin('turbo'), ['run', 'build', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit', env: environment });
if (build.status !== 0) {
  console.error('build failed: tests were not run');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const resultsDirectory = join(root, '.test-results');
mkdirSync(resultsDirectory, { recursive: true });
const reportPath = join(resultsDirectory, 'vitest.json');
const extraArguments = process.argv.slice(2);
const vitest = spawnSync(
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${reportPath}`, ...extraArguments],
  { cwd: root, stdio: 'inherit', env: environment },
);

if (!existsSync(reportPath)) {
  console.error('vitest wrote no report');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const passed = report.numPassedTests ?? 0;
// Suites that failed to load count as failures too.
const failedSuites = (report.testResults ?? []).filter((suite) => suite.status === 'failed' && (suite.assertionResults ?? []).length === 0).length;
let failed = (report.numFailedTests ?? 0) + failedSuites;
// Unhandled errors (a crashed worker, an error thrown after a test ended) fail the run without
// failing a test: count them so the summary line never says 0 failed for a red run.
if (vitest.status !== 0 && failed === 0) {
  console.error('vitest exited non-zero without a failed test (unhandled errors): counted as 1 failure');
  failed = 1;
}
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
if (skipped > 0) {
  for (const suite of report.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') console.error(`SKIPPED: ${test.fullName}`);
    }
  }
}
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(vitest.status === 0 && failed === 0 ? 0 : 1);
