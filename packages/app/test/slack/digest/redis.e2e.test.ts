import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';

describe('daily balance DM on Redis (needs a server on 127.0.0.1:6379)', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('two instances running at once send one DM to each person, once per day', async () => {
    h = await startHarness({ storeUrl: 'redis://127.0.0.1:6379' });
    const people = [];
    for (let i = 0; i < 5; i++) people.push(await h.person('Asia/Tokyo', { always: true }));
    const other = await h.instance();
    const now = new Date('2026-11-20T23:10:00Z');
    await Promise.all([h.app.runner.runDue(now), other.runner.runDue(now)]);
    await Promise.all([h.app.runner.runDue(now), other.runner.runDue(now)]);
    for (const person of people) expect(h.dms(person)).toHaveLength(1);
  });
});
