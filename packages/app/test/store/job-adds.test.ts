/**
 * The jobs queued in one turn go to SQL as a few multi-row statements, each add still answered
 * for its own id, and a row the store refuses fails alone.
 */
import { describe, expect, it } from 'vitest';
import { groupedAdds, type JobRow } from '../../src/store/job-adds.js';
import { sqliteConnection } from '../../src/store/sqlite.js';

const TABLE = 'jobs_t';

async function table() {
  const connection = await sqliteConnection('sqlite://:memory:');
  await connection.all(
    `CREATE TABLE ${TABLE} (id TEXT PRIMARY KEY, payload TEXT NOT NULL, owner TEXT NOT NULL,
     lease_until BIGINT NOT NULL, created_at BIGINT NOT NULL)`,
  );
  const statements: string[] = [];
  const q = (sql: string, params: unknown[]) => {
    statements.push(sql);
    return connection.all(sql, params);
  };
  return { connection, statements, add: groupedAdds(q, TABLE) };
}

const row = (id: string, payload: string | null = '{}'): JobRow =>
  [id, payload, 'me', 2, 1] as unknown as JobRow;

describe('grouped job adds', () => {
  it('writes a burst of 50 in three statements, and one alone in one', async () => {
    const { connection, statements, add } = await table();
    const added = await Promise.all(Array.from({ length: 50 }, (_, n) => add(row(`j${n}`))));
    expect(added.every(Boolean)).toBe(true);
    // 50 = 32 + 16 + 2.
    expect(statements).toHaveLength(3);
    expect(await add(row('alone'))).toBe(true);
    expect(statements).toHaveLength(4);
    expect(await connection.all(`SELECT count(*) AS n FROM ${TABLE}`)).toEqual([{ n: 51 }]);
    await connection.close();
  });

  it('sends what comes while a group is written as one group once it is done', async () => {
    const { connection } = await table();
    const sent: number[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = groupedAdds(async (sql, params) => {
      sent.push(params.length / 5);
      if (sent.length === 1) await held;
      return connection.all(sql, params);
    }, TABLE);
    const first = slow(row('first'));
    await new Promise((resolve) => setImmediate(resolve));
    const later: Promise<boolean>[] = [];
    for (let turn = 0; turn < 3; turn++) {
      later.push(slow(row(`t${turn}a`)), slow(row(`t${turn}b`)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(sent).toEqual([1]);
    release();
    expect(await first).toBe(true);
    expect(await Promise.all(later)).toEqual([true, true, true, true, true, true]);
    // The six that waited went as one statement of four rows and one of two (the sizes kept).
    expect(sent).toEqual([1, 4, 2]);
    expect(await connection.all(`SELECT count(*) AS n FROM ${TABLE}`)).toEqual([{ n: 7 }]);
    await connection.close();
  });

  it('answers a repeated id as known, in the same turn and in a later one', async () => {
    const { connection, add } = await table();
    expect(await Promise.all([add(row('a', '1')), add(row('b')), add(row('a', '2'))])).toEqual([
      true,
      true,
      false,
    ]);
    expect(await add(row('b'))).toBe(false);
    expect(await connection.all(`SELECT payload FROM ${TABLE} WHERE id = 'a'`)).toEqual([
      { payload: '1' },
    ]);
    await connection.close();
  });

  it("fails only the row the store refuses, and its repeat, never the others'", async () => {
    const { connection, add } = await table();
    const outcomes = await Promise.allSettled([
      add(row('x')),
      add(row('bad', null)),
      add(row('y')),
      add(row('bad', '{}')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'rejected',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toHaveProperty(
      'message',
      expect.stringMatching(/NOT NULL/),
    );
    expect(await connection.all(`SELECT id FROM ${TABLE} ORDER BY id`)).toEqual([
      { id: 'x' },
      { id: 'y' },
    ]);
    await connection.close();
  });

  it('fails a whole group at once when the store itself fails, trying nothing row by row', async () => {
    const { connection, statements, add } = await table();
    await connection.all(`DROP TABLE ${TABLE}`);
    const outcomes = await Promise.allSettled([add(row('p')), add(row('q')), add(row('r'))]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    // 3 = 2 + 1: the first statement failed, and the row left was not tried.
    expect(statements).toHaveLength(1);
    await connection.close();
  });
});
