import { describe, expect, it } from 'vitest';
import { emptyRunReport, startDigestScheduler } from '../../../src/slack/digest/index.js';

describe('digest scheduler', () => {
  it('never overlaps runs, and stop() waits for the run in progress', async () => {
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    let finished = 0;
    const runner = {
      async runDue() {
        runs += 1;
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((resolve) => setTimeout(resolve, 60));
        running -= 1;
        finished += 1;
        return emptyRunReport();
      },
    };
    const scheduler = startDigestScheduler(runner, { intervalMs: 10, clock: () => new Date() });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await scheduler.stop();
    expect(maxRunning).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(finished).toBe(runs);
    const after = runs;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toBe(after);
  });

  it('keeps ticking after a failed run and passes the clock’s time to the runner', async () => {
    const seen: Date[] = [];
    const fixed = new Date('2026-11-21T08:00:00Z');
    let calls = 0;
    const errors: unknown[] = [];
    const scheduler = startDigestScheduler(
      {
        async runDue(now?: Date) {
          calls += 1;
          if (now) seen.push(now);
          if (calls === 1) throw new Error('store down');
          return emptyRunReport();
        },
      },
      {
        intervalMs: 10,
        clock: () => fixed,
        logger: { error: (...m) => errors.push(m), debug: () => undefined },
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 80));
    await scheduler.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(errors).toHaveLength(1);
    expect(seen.every((d) => d === fixed)).toBe(true);
  });
});
