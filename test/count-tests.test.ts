import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without type declarations, run by node in CI.
import { countReport } from '../scripts/count-tests.mjs';

const file = (status: string, tests: string[]) => ({
  status,
  assertionResults: tests.map((s) => ({ status: s })),
});

describe('the "N passed, N failed" count', () => {
  it('counts passed and failed tests of a run where every file ran', () => {
    const report = {
      testResults: [file('passed', ['passed', 'passed']), file('failed', ['passed', 'failed'])],
    };
    expect(countReport(report)).toEqual({ passed: 3, failed: 1 });
  });

  it('counts the tests a failed file never ran as failed, not as 0 failures', () => {
    const report = { testResults: [file('failed', ['skipped', 'skipped', 'pending'])] };
    expect(countReport(report)).toEqual({ passed: 0, failed: 3 });
  });

  it('counts a file that failed before declaring any test as one failure', () => {
    expect(countReport({ testResults: [file('failed', [])] })).toEqual({ passed: 0, failed: 1 });
  });

  it('leaves tests skipped on purpose in a passing file out of both counts', () => {
    expect(countReport({ testResults: [file('passed', ['passed', 'skipped'])] })).toEqual({
      passed: 1,
      failed: 0,
    });
  });
});
