// Counts passed and failed tests in vitest JSON reports, for the plain "N passed, N failed" line.
// A test file that fails before its tests run (a launch or import error in beforeAll) reports its
// tests as skipped and none as failed: those are counted as failed here, and a failed file with no
// tests at all counts as one failure, so that the line never says "0 failed" for a red run.
import { readFileSync } from 'node:fs';

export function countReport(json) {
  let passed = 0;
  let failed = 0;
  for (const file of json.testResults ?? []) {
    const results = file.assertionResults ?? [];
    for (const test of results) {
      if (test.status === 'passed') passed += 1;
      else if (test.status === 'failed') failed += 1;
      else if (file.status === 'failed') failed += 1;
    }
    if (file.status === 'failed' && results.length === 0) failed += 1;
  }
  return { passed, failed };
}

export function countReports(paths) {
  let passed = 0;
  let failed = 0;
  for (const path of paths) {
    try {
      const counts = countReport(JSON.parse(readFileSync(path, 'utf8')));
      passed += counts.passed;
      failed += counts.failed;
    } catch (error) {
      console.error(`no test report at ${path}: ${error.message}`);
      failed += 1;
    }
  }
  return { passed, failed };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { passed, failed } = countReports(process.argv.slice(2));
  console.log(`${passed} passed, ${failed} failed`);
}
