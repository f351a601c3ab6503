/**
 * The order test files start in: e2e files first, then browser files, then unit files, and within
 * each the longest first by the last run's times (vitest's own order within a project). The e2e
 * files wait on timers and child processes more than they use the processor, so starting them
 * first keeps the run from ending on one long crash suite while the quick files are long done;
 * vitest's own order would start projects by name (browser, e2e, unit).
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const FIRST = ['e2e', 'browser', 'unit'];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = FIRST.indexOf(spec.project.name);
      return at === -1 ? FIRST.length : at;
    };
    // Array.prototype.sort is stable: vitest's order holds within each project.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
