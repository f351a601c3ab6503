import { describe, expect, it } from 'vitest';
import { createWorkQueue } from '../../src/slack/work-queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

  it('lets a job waiting on the network give its slot away after slotMs, up to maxRunning', async () => {
    const queue = createWorkQueue({ slots: 1, slotMs: 10, maxRunning: 3 });
    let running = 0;
    let peak = 0;
    for (let i = 0; i < 5; i++) {
      queue.push(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await sleep(60);
        running -= 1;
      });
    }
    await queue.idle();
    expect(peak).toBe(3);
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
