/**
 * A walk of one namespace on Redis (the daily DM's every minute, the feeds poller's, removal's)
 * reads a database that holds every other namespace and whatever else shares the server. Each
 * SCAN step looks at a fixed number of keys whether they match or not, so the steps a walk takes
 * grow with the database, not with the namespace: they are counted here on the client itself.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@keyv/redis';
import Keyv from 'keyv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_WALK_STEP, redisAdapter } from '../../src/store/keyv.js';
import { REDIS_URL, walkAll } from '../support/stores.js';

/** Keys of no namespace of the walk's, in the database the other tests share. */
const FOREIGN_KEYS = 3_000;

describe.skipIf(!REDIS_URL)('a namespace walked on Redis', () => {
  const run = randomBytes(6).toString('hex');
  const url = REDIS_URL ?? '';
  const raw = createClient({ url });
  raw.on('error', () => undefined);

  beforeAll(async () => {
    await raw.connect();
    const writes = raw.multi();
    // They expire on their own should the run stop before the cleanup below.
    for (let i = 0; i < FOREIGN_KEYS; i++) writes.set(`walk-other-${run}:${i}`, 'x', { EX: 600 });
    await writes.exec();
  });
  afterAll(async () => {
    const keys: string[] = [];
    for await (const page of raw.scanIterator({ MATCH: `walk-*-${run}*`, COUNT: 1000 }))
      keys.push(...page);
    if (keys.length) await raw.del(keys);
    await raw.quit();
  });

  /** A Keyv as the app opens one, its client counting the SCAN steps it sends. */
  async function counted(namespace: string) {
    const adapter = await redisAdapter(url);
    const client = (await adapter.getClient()) as unknown as {
      scan: (...args: unknown[]) => Promise<unknown>;
      mGet: (keys: string[]) => Promise<unknown>;
    };
    const scan = client.scan.bind(client);
    const steps = { count: 0 };
    client.scan = (...args) => {
      steps.count += 1;
      return scan(...args);
    };
    return { keyv: new Keyv({ store: adapter, namespace, throwOnErrors: true }), steps, client };
  }

  it('reads every record of its namespace and nothing else, in steps of the database', async () => {
    const { keyv, steps } = await counted(`walk-ns-${run}`);
    try {
      for (let i = 0; i < 25; i++) await keyv.set(`T1:U${i}`, { n: i, tz: 'Europe/Paris' });
      await keyv.set('gone', { n: -1 }, 1);
      await new Promise((resolve) => setTimeout(resolve, 20));

      const keysInDatabase = await raw.dbSize();
      const seen = await walkAll(keyv);

      expect(seen.size).toBe(25);
      for (let i = 0; i < 25; i++)
        expect(seen.get(`T1:U${i}`)).toEqual({ n: i, tz: 'Europe/Paris' });
      // SCAN's step is a hint Redis may exceed or fall short of a little; the adapter's own walk
      // took one step per 10 keys of the database.
      expect(keysInDatabase).toBeGreaterThan(FOREIGN_KEYS);
      expect(steps.count).toBeLessThanOrEqual(
        Math.ceil((2 * keysInDatabase) / REDIS_WALK_STEP) + 2,
      );
    } finally {
      await keyv.disconnect();
    }
  });

  it('passes over a record deleted between a step and the read of its values', async () => {
    const namespace = `walk-gone-${run}`;
    const { keyv, client } = await counted(namespace);
    try {
      for (let i = 0; i < 5; i++) await keyv.set(`T1:U${i}`, { n: i });
      // The read of each step's values first loses one record, as a removal running meanwhile would.
      const mGet = client.mGet.bind(client);
      client.mGet = async (keys) => {
        // As the adapter and Keyv lay a record out: both prefix it with the namespace.
        await raw.del(`${namespace}::${namespace}:T1:U2`);
        return mGet(keys);
      };
      const seen = await walkAll(keyv);
      expect([...seen.keys()].sort()).toEqual(['T1:U0', 'T1:U1', 'T1:U3', 'T1:U4']);
    } finally {
      await keyv.disconnect();
    }
  });

  it("keeps to its namespace when the name holds a pattern's characters", async () => {
    const wild = await counted(`walk-[x]*-${run}`);
    const literal = await counted(`walk-x-${run}`);
    try {
      await wild.keyv.set('mine', 1);
      await literal.keyv.set('theirs', 2);
      expect([...(await walkAll(wild.keyv))]).toEqual([['mine', 1]]);
      expect([...(await walkAll(literal.keyv))]).toEqual([['theirs', 2]]);
    } finally {
      await wild.keyv.disconnect();
      await literal.keyv.disconnect();
    }
  });
});
