import { afterEach, describe, expect, it } from 'vitest';
import { REDIS_URL } from '../../support/stores.js';
import { type Harness, startHarness } from './harness.js';

describe.skipIf(!REDIS_URL)('daily balance DM on Redis', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('two instances running at once send one DM to each person, once per day', async () => {
    h = await startHarness({ storeUrl: REDIS_URL! });
    const people = [];
    for (let i = 0; i < 5; i++) people.push(await h.person('Asia/Tokyo', { always: true }));
    const other = await h.instance();
    const now = new Date('2026-11-20T23:10:00Z');
    await Promise.all([h.app.runner.runDue(now), other.runner.runDue(now)]);
    await Promise.all([h.app.runner.runDue(now), other.runner.runDue(now)]);
    for (const person of people) expect(h.dms(person)).toHaveLength(1);
  });
});
