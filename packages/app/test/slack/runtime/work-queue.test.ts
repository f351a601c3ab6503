import { describe, expect, it } from 'vitest';
import { currentRequest, withRequest } from '../../../src/observe/context.js';
import {
  createLoopMonitor,
  createWorkQueue,
  DEFAULT_SLOTS,
  DEFAULT_SLOTS_DURING_ACKS,
} from '../../../src/slack/runtime/work-queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job that takes `ms`, and the most of its runs seen at once (`peak`, which a test may reset). */
function tracked(ms: number) {
  const seen = { running: 0, peak: 0 };
  const job = async () => {
    seen.running += 1;
    seen.peak = Math.max(seen.peak, seen.running);
    await sleep(ms);
    seen.running -= 1;
  };
  return { seen, job };
}

describe('work queue after acks', () => {
  it('runs quick jobs at most `slots` at a time, in order, and reports idle', async () => {
    const queue = createWorkQueue({ slots: 2, slotMs: 1_000 });
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    for (let i = 0; i < 6; i++) {
      queue.push(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await sleep(5);
        order.push(i);
        running -= 1;
      });
    }
    expect(queue.size).toBe(6);
    await queue.idle();
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(queue.size).toBe(0);
  });

  it('runs four quick jobs at once unless told otherwise', async () => {
    expect(DEFAULT_SLOTS).toBe(4);
    const queue = createWorkQueue({ loopBusy: () => false });
    const { seen, job } = tracked(5);
    for (let i = 0; i < 10; i++) queue.push(job);
    await queue.idle();
    expect(seen.peak).toBe(DEFAULT_SLOTS);
  });

  it('lets a job waiting on the network give its slot away after slotMs, up to maxRunning', async () => {
    const queue = createWorkQueue({ slots: 1, slotMs: 10, maxRunning: 3 });
    const { seen, job } = tracked(60);
    for (let i = 0; i < 5; i++) queue.push(job);
    await queue.idle();
    expect(seen.peak).toBe(3);
  });

  it('runs each job as part of the request that queued it, whichever job freed its slot', async () => {
    const queue = createWorkQueue({ slots: 1, slotMs: 1_000 });
    const seen: (string | undefined)[] = [];
    for (const id of ['req-a', 'req-b', 'req-c']) {
      withRequest(() => {
        queue.push(async () => {
          await sleep(2);
          seen.push(currentRequest()?.requestId);
        });
      }, id);
    }
    queue.push(async () => {
      seen.push(currentRequest()?.requestId);
    });
    await queue.idle();
    expect(seen).toEqual(['req-a', 'req-b', 'req-c', undefined]);
  });

  it('keeps going after a job fails', async () => {
    const queue = createWorkQueue();
    let done = false;
    queue.push(() => Promise.reject(new Error('boom')));
    queue.push(async () => {
      done = true;
    });
    await queue.idle();
    expect(done).toBe(true);
  });
});

describe('work queue holding back for acks', () => {
  it('starts nothing while the gate holds, then everything once it opens', async () => {
    let hold = 20;
    const queue = createWorkQueue({ holdFor: () => hold, maxDeferMs: 10_000 });
    const started: number[] = [];
    for (let i = 0; i < 3; i++) {
      queue.push(async () => {
        started.push(i);
      });
    }
    await sleep(60);
    expect(started).toEqual([]);
    hold = 0;
    await queue.idle();
    expect(started).toEqual([0, 1, 2]);
  });

  it('runs two at once while the gate holds (jobs that waited maxDeferMs), four once it opens', async () => {
    expect(DEFAULT_SLOTS_DURING_ACKS).toBe(2);
    let hold = 5;
    const queue = createWorkQueue({
      holdFor: () => hold,
      maxDeferMs: 20,
      slotMs: 1_000,
      loopBusy: () => false,
    });
    const { seen, job } = tracked(30);
    for (let i = 0; i < 6; i++) queue.push(job);
    await sleep(90);
    expect(seen.peak).toBe(DEFAULT_SLOTS_DURING_ACKS);
    hold = 0;
    seen.peak = 0;
    for (let i = 0; i < 6; i++) queue.push(job);
    await queue.idle();
    expect(seen.peak).toBe(DEFAULT_SLOTS);
  });

  it('starts a job that has waited maxDeferMs even while the gate still holds', async () => {
    const queue = createWorkQueue({ holdFor: () => 5, maxDeferMs: 80 });
    const pushed = performance.now();
    let startedAfter = -1;
    queue.push(async () => {
      startedAfter = performance.now() - pushed;
    });
    await sleep(40);
    expect(startedAfter).toBe(-1);
    await queue.idle();
    expect(startedAfter).toBeGreaterThanOrEqual(75);
  });
  it('while acks arrive, lets jobs waiting on the network make room only if the loop has time to spare', async () => {
    const peakOf = async (loopBusy: boolean) => {
      const queue = createWorkQueue({
        slots: 1,
        slotMs: 5,
        maxRunning: 3,
        holdFor: () => 5,
        maxDeferMs: 0,
        loopBusy: () => loopBusy,
      });
      let running = 0;
      let peak = 0;
      for (let i = 0; i < 3; i++) {
        queue.push(async () => {
          running += 1;
          peak = Math.max(peak, running);
          // Long beside the 5 ms slot, so that a timer late on a busy machine changes nothing.
          await sleep(150);
          running -= 1;
        });
      }
      await queue.idle();
      return peak;
    };
    // Time to spare (a slow service): the waiting jobs give their slot away.
    expect(await peakOf(false)).toBe(3);
    // No time to spare: one job at a time.
    expect(await peakOf(true)).toBe(1);
  });
});

describe('loop monitor', () => {
  it('reads the event loop as busy after a spin and idle after a wait', async () => {
    const busy = createLoopMonitor(50);
    const until = performance.now() + 120;
    while (performance.now() < until) {
      // Spins: the loop does nothing else meanwhile.
    }
    expect(busy()).toBe(true);
    await sleep(120);
    expect(busy()).toBe(false);
  });
});
