import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without type declarations, run by node in CI.
import { closingLines, countReport } from '../scripts/count-tests.mjs';

const file = (status: string, tests: string[]) => ({
  status,
  assertionResults: tests.map((s) => ({ status: s })),
});

describe('the "N passed, N failed" count', () => {
  it('counts passed and failed tests of a run where every file ran', () => {
    const report = {
      testResults: [file('passed', ['passed', 'passed']), file('failed', ['passed', 'failed'])],
    };
    expect(countReport(report)).toEqual({ passed: 3, failed: 1, skipped: 0 });
  });

  it('counts the tests a failed file never ran as failed, not as 0 failures', () => {
    const report = { testResults: [file('failed', ['skipped', 'skipped', 'pending'])] };
    expect(countReport(report)).toEqual({ passed: 0, failed: 3, skipped: 0 });
  });

  it('counts a file that failed before declaring any test as one failure', () => {
    expect(countReport({ testResults: [file('failed', [])] })).toEqual({
      passed: 0,
      failed: 1,
      skipped: 0,
    });
  });

  it('counts a run vitest calls unsuccessful with no failed test (a global setup threw) as one failure', () => {
    expect(countReport({ success: false, testResults: [] })).toEqual({
      passed: 0,
      failed: 1,
      skipped: 0,
    });
    const report = { success: false, testResults: [file('failed', ['failed', 'failed'])] };
    expect(countReport(report)).toEqual({ passed: 0, failed: 2, skipped: 0 });
  });

  it('counts tests skipped on purpose in a passing file as skipped, in neither other count', () => {
    const report = { testResults: [file('passed', ['passed', 'skipped', 'skipped', 'todo'])] };
    expect(countReport(report)).toEqual({ passed: 1, failed: 0, skipped: 3 });
  });

  it('ends with "N passed, N failed" alone, the skipped count on the line before it', () => {
    expect(closingLines({ passed: 1700, failed: 0, skipped: 57 })).toEqual([
      '57 skipped',
      '1700 passed, 0 failed',
    ]);
  });
});
