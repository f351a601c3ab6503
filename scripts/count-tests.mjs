// Counts passed, failed and skipped tests in vitest JSON reports, for the plain "N passed, N
// failed" line (the last line of a run) and the "N skipped" line above it. A test file that fails
// before its tests run (a launch or import error in beforeAll) reports its tests as skipped and
// none as failed: those are counted as failed here, and a failed file with no tests at all counts
// as one failure, so that the line never says "0 failed" for a red run. Tests skipped in a file
// that passed are skipped on purpose (a server or Chromium missing, see test/support/). A run
// that vitest itself calls unsuccessful (a global setup that threw, an error outside any test)
// has failed even when no test did: it counts one failure.
import { readFileSync } from 'node:fs';

export function countReport(json) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of json.testResults ?? []) {
    const results = file.assertionResults ?? [];
    for (const test of results) {
      if (test.status === 'passed') passed += 1;
      else if (test.status === 'failed') failed += 1;
      else if (file.status === 'failed') failed += 1;
      else skipped += 1;
    }
    if (file.status === 'failed' && results.length === 0) failed += 1;
  }
  if (json.success === false && failed === 0) failed = 1;
  return { passed, failed, skipped };
}

export function countReports(paths) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const path of paths) {
    try {
      const counts = countReport(JSON.parse(readFileSync(path, 'utf8')));
      passed += counts.passed;
      failed += counts.failed;
      skipped += counts.skipped;
    } catch (error) {
      console.error(`no test report at ${path}: ${error.message}`);
      failed += 1;
    }
  }
  return { passed, failed, skipped };
}

/** The closing lines: what was skipped, then the count CI reads, always last. */
export function closingLines({ passed, failed, skipped }) {
  return [`${skipped} skipped`, `${passed} passed, ${failed} failed`];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of closingLines(countReports(process.argv.slice(2)))) console.log(line);
}
