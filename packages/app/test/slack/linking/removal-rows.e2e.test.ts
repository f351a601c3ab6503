/**
 * Removal as a reviewer checks it, on the app's own SQLite file after real traffic: once a person
 * has booked, reminded and left a command unanswered, `/split disconnect` leaves no row that
 * names them, and `app_uninstalled` no row that names the workspace, the durable jobs and the
 * claims included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobs, NAMESPACES, PERSON_FIELD, sqliteFile } from '../../../src/store/index.js';
import { eventually } from '../../support/balance-support.js';
import { type Harness, startHarness, TEAM } from '../../support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.link({ slackId: 'U0ANN', first_name: 'Ann' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
});
afterAll(() => h?.close());

/** Every row of every table in the app's SQLite file that mentions `text`. */
async function rowsNaming(text: string): Promise<string[]> {
  const { default: sqlite3 } = await import('sqlite3');
  const db = new sqlite3.Database(sqliteFile(h.config.storeUrl));
  const all = (sql: string) =>
    new Promise<Record<string, unknown>[]>((resolve, reject) =>
      db.all(sql, (error, rows) => (error ? reject(error) : resolve(rows as never))),
    );
  try {
    const found: string[] = [];
    for (const { name } of await all("SELECT name FROM sqlite_master WHERE type = 'table'")) {
      for (const row of await all(`SELECT * FROM "${String(name)}"`)) {
        const line = `${String(name)}: ${JSON.stringify(row)}`;
        if (line.includes(text)) found.push(line);
      }
    }
    return found;
  } finally {
    db.close();
  }
}

describe('removal, read from the SQLite file', () => {
  it('leaves no row naming the person after /split disconnect, nor the workspace after uninstall', async () => {
    await h.split('12 coffee <@U0BOB>', { user_id: 'U0ANN' });
    await h.split('remind <@U0BOB>', { user_id: 'U0ANN' });
    await h.split('8 tea <@U0ANN>', { user_id: 'U0BOB' });
    // A command of Ann's acknowledged by another replica and not yet carried out.
    const replica = createJobs(h.config.storeUrl, { namespace: NAMESPACES.jobs });
    await replica.add(
      `command:${TEAM}:T0PENDING`,
      { kind: 'split', data: { text: '5 cake' }, [PERSON_FIELD]: `${TEAM}:U0ANN` },
      60_000,
    );
    await replica.close();
    await h.app.deps.work.idle();
    expect((await rowsNaming('U0ANN')).length).toBeGreaterThan(3);

    await h.split('disconnect', { user_id: 'U0ANN' });
    await h.app.deps.work.idle();
    expect(await rowsNaming('U0ANN')).toEqual([]);
    expect((await rowsNaming('U0BOB')).length).toBeGreaterThan(0);

    expect((await h.sender.event({ type: 'app_uninstalled' })).status).toBe(200);
    await eventually(async () => expect(await rowsNaming(TEAM)).toEqual([]));
    expect(await rowsNaming('U0BOB')).toEqual([]);
  });
});
