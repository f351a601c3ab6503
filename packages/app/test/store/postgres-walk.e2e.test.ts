/**
 * A walk of one namespace on PostgreSQL (the daily DM's every minute, the feeds poller's,
 * removal's): the queries it sends are counted on the adapter itself, and one of them is made to
 * fail, as a connection dropped mid-walk would.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createKeyv } from '../../src/store/index.js';
import { POSTGRES_WALK_PAGE } from '../../src/store/keyv.js';
import { POSTGRES_URL, walkAll } from '../support/stores.js';

const RECORDS = 2_500;

describe.skipIf(!POSTGRES_URL)('a namespace walked on PostgreSQL', () => {
  const run = randomBytes(6).toString('hex');

  /** A Keyv as the app opens one, holding RECORDS records, its adapter's queries countable. */
  async function filled(namespace: string) {
    const keyv = await createKeyv(POSTGRES_URL ?? '', { namespace });
    await keyv.setMany(
      Array.from({ length: RECORDS }, (_, i) => ({ key: `T1:U${i}`, value: { n: i } })),
    );
    const adapter = keyv.store as { query: (sql: string, values?: unknown) => Promise<unknown[]> };
    const query = adapter.query.bind(adapter);
    const sent = { count: 0, failOn: 0 };
    adapter.query = async (sql, values) => {
      sent.count += 1;
      if (sent.count === sent.failOn) throw new Error('connection terminated unexpectedly');
      return query(sql, values);
    };
    return { keyv, sent };
  }

  it('reads every record of its namespace, a thousand rows per query', async () => {
    const { keyv, sent } = await filled(`walk-all-${run}`);
    try {
      sent.count = 0;
      const seen = await walkAll(keyv);
      expect(seen.size).toBe(RECORDS);
      expect(seen.get('T1:U1234')).toEqual({ n: 1234 });
      // The adapter's own walk took one query per 10 rows: 251 here.
      expect(sent.count).toBe(Math.floor(RECORDS / POSTGRES_WALK_PAGE) + 1);
    } finally {
      await keyv.clear();
      await keyv.disconnect();
    }
  });

  it('fails when a page fails, rather than ending as if the namespace ended there', async () => {
    const { keyv, sent } = await filled(`walk-fail-${run}`);
    try {
      sent.count = 0;
      sent.failOn = 2;
      await expect(walkAll(keyv)).rejects.toThrow('connection terminated unexpectedly');
    } finally {
      sent.failOn = 0;
      await keyv.clear();
      await keyv.disconnect();
    }
  });
});
