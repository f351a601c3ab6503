/** The daily DM's scheduler driving the real runner, against the fake Slack and the emulator. */
import { afterEach, describe, expect, it } from 'vitest';
import { startDigestScheduler } from '../../../src/slack/digest/index.js';
import { type Harness, startHarness } from './harness.js';

describe('digest scheduler with the real runner', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('sends each person one DM over many ticks', async () => {
    h = await startHarness();
    const people = [];
    for (let i = 0; i < 3; i++) people.push(await h.person('UTC', { always: true }));
    const scheduler = startDigestScheduler(h.app.runner, {
      intervalMs: 20,
      clock: () => new Date('2026-11-21T08:30:00Z'),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await scheduler.stop();
    for (const person of people) expect(h.dms(person)).toHaveLength(1);
  });
});
