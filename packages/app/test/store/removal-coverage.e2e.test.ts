/**
 * Removal read from the backend itself, as a reviewer would check it: every namespace of the
 * store gets records naming a person and their workspace, then `/split disconnect` and the
 * uninstall run, and every table, key and value left in the backend is searched for the person's
 * and the workspace's ids. A namespace added to the store without a record here fails the first
 * test, so removal is always checked for it too.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMESPACES, openStore, PERSON_FIELD, type Store } from '../../src/store/index.js';
import { POSTGRES_URL, REDIS_URL } from '../support/stores.js';

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(join(tmpdir(), 'split-removal-'));
});
afterAll(() => rm(tempDir, { recursive: true, force: true }));

const at = '2026-11-21T09:00:00.000Z';
/** Channel, view and trigger ids of their own: only the person's own ids may name them. */
const id = (letter: string) => `${letter}${randomBytes(5).toString('hex').toUpperCase()}`;

/** Records naming `user_id` in `team_id`, one kind per namespace of the store. */
const SEEDS: Record<
  keyof typeof NAMESPACES,
  (s: Store, team_id: string, user_id: string) => Promise<unknown>
> = {
  tokens: (s, team_id, user_id) =>
    s.tokens.set(
      { team_id, user_id },
      { access_token: 'svc', token_type: 'bearer', service_user_id: 1, name: 'A', linked_at: at },
    ),
  linkStates: (s, team_id, user_id) => s.linkStates.create({ team_id, user_id }),
  bindings: (s, team_id, user_id) =>
    s.bindings.set(
      { team_id, channel_id: id('C') },
      { group_id: 7, group_name: 'Flat', bound_by: user_id, bound_at: at },
    ),
  preferences: (s, team_id, user_id) =>
    s.preferences.setDefaultGroup({ team_id, user_id }, { id: 7, name: 'Flat' }),
  expenses: async (s, team_id, user_id) => {
    await s.expenses.rememberBooked({ team_id, user_id }, { expense_id: 9, description: 'x' });
    await s.expenses.saveDraft({ team_id, user_id }, 'V1', { step: 1 });
  },
  digest: async (s, team_id, user_id) => {
    await s.digest.enable({ team_id, user_id }, { tz: 'UTC' });
    await s.digest.update({ team_id, user_id }, () => ({ snapshot: { friends: {} } }));
  },
  splitDefaults: async (s, team_id, user_id) => {
    await s.splitDefaults.set(
      { team_id, group_id: 5 },
      {
        group_id: 5,
        group_name: 'Flat',
        kind: 'shares',
        parts: [{ slack_id: user_id, service_user_id: 1, value: 1 }],
        set_by: user_id,
        set_at: at,
      },
    );
    await s.splitDefaults.setCurrency(
      { team_id, group_id: 6 },
      { group_id: 6, group_name: 'Trip', currency: 'EUR', set_by: user_id, set_at: at },
    );
  },
  feeds: (s, team_id, user_id) =>
    s.feeds.set({
      team_id,
      channel_id: id('C'),
      group_id: 7,
      group_name: 'Flat',
      user_id,
      started_at: at,
      cursor: null,
      seen: [],
    }),
  claims: async (s, team_id, user_id) => {
    for (const key of [
      `digest:${team_id}:${user_id}:2026-11-21`,
      `remind:${team_id}:U0SENDER:${user_id}:2026-11-21`,
      `settle:${team_id}:${user_id}:${id('V')}:x`,
      `undo:${team_id}:12:${user_id}`,
      // A mention or a DM carried out, and its author told that its edits are not read.
      `message:${team_id}:${user_id}:${id('C')}:1700000000.000100`,
      `message-edited:${team_id}:${user_id}:${id('D')}:1700000000.000200`,
    ])
      expect(await s.claims.claim(key, 60_000)).toBe(true);
    // The Messages tab's greeting, kept for good: only removal makes the person new again.
    expect(await s.claims.claim(`greeted:${team_id}:${user_id}`, 10 * 365 * 86_400_000)).toBe(true);
  },
  jobs: async (s, team_id, user_id) => {
    const payload = (text: string) => ({
      kind: 'split',
      data: { team_id, user_id, text },
      [PERSON_FIELD]: `${team_id}:${user_id}`,
    });
    const form = `form:${team_id}:${id('V')}`;
    await s.jobs.add(`command:${team_id}:${id('1')}`, payload('40 lunch'), 60_000);
    await s.jobs.add(form, payload('taxi'), 60_000);
    // A mention or a DM, kept under its event's id, answered in its thread.
    await s.jobs.add(
      `event:${team_id}:Ev${id('0')}`,
      {
        ...payload('12 taxi'),
        data: { team_id, user_id, text: '12 taxi', typed: { kind: 'mention', thread_ts: '1.2' } },
      },
      60_000,
    );
    await s.jobs.finish(form, 60_000);
  },
  installations: async (s, team_id) => {
    await s.installations.set({ teamId: team_id, isEnterpriseInstall: false }, { bot: 'x' });
    await s.installations.rememberOrg(team_id, `E${team_id}`);
  },
};

/** Every row (SQL) or key with its value (Redis) in the backend that mentions `text`. */
type Dump = (text: string) => Promise<string[]>;

async function sqliteDump(file: string): Promise<Dump> {
  const { default: sqlite3 } = await import('sqlite3');
  return async (text) => {
    const db = new sqlite3.Database(file);
    const all = (sql: string) =>
      new Promise<Record<string, unknown>[]>((resolve, reject) =>
        db.all(sql, (error, rows) => (error ? reject(error) : resolve(rows as never))),
      );
    try {
      const tables = (await all("SELECT name FROM sqlite_master WHERE type = 'table'")).map((row) =>
        String(row.name),
      );
      // A table the store does not know of would hold data no removal looks at.
      expect(tables.sort()).toEqual(['keyv', 'split_claims', 'split_jobs']);
      const namespaces = new Set(
        (await all('SELECT key FROM keyv')).map((row) => String(row.key).split(':')[0]),
      );
      for (const ns of namespaces) expect(Object.values(NAMESPACES)).toContain(ns);
      const found: string[] = [];
      for (const table of tables) {
        for (const row of await all(`SELECT * FROM "${table}"`)) {
          const line = `${table}: ${JSON.stringify(row)}`;
          if (line.includes(text)) found.push(line);
        }
      }
      return found;
    } finally {
      db.close();
    }
  };
}

async function redisDump(url: string): Promise<Dump> {
  const { createClient } = await import('@keyv/redis');
  return async (text) => {
    const client = createClient({ url });
    await client.connect();
    try {
      const found: string[] = [];
      // The shared database holds every other test's keys too, so each page's types and values
      // are asked for together (the client pipelines what is sent in one tick): one round trip
      // per key made this walk take most of the test's time limit on a busy machine.
      for await (const keys of client.scanIterator({ MATCH: '*', COUNT: 1000 })) {
        const types = await Promise.all(keys.map((key) => client.type(key)));
        const rows = await Promise.all(
          keys.map(async (key, i): Promise<string[]> => {
            const type = types[i];
            // One sorted set holds every namespace's due jobs: each member is a row of its own.
            if (type === 'zset')
              return (await client.zRange(key, 0, -1)).map((member) => `${key} ${member}`);
            const value =
              type === 'string'
                ? await client.get(key)
                : type === 'hash'
                  ? JSON.stringify(await client.hGetAll(key))
                  : type === 'set'
                    ? JSON.stringify(await client.sMembers(key))
                    : `(${type})`;
            return [`${key} = ${value}`];
          }),
        );
        for (const line of rows.flat()) if (line.includes(text)) found.push(line);
      }
      return found;
    } finally {
      await client.quit();
    }
  };
}

async function postgresDump(url: string): Promise<Dump> {
  const { default: pg } = (await import('pg' as string)) as {
    default: {
      Client: new (o: {
        connectionString: string;
      }) => {
        connect(): Promise<void>;
        query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
        end(): Promise<void>;
      };
    };
  };
  return async (text) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const tables = (
        await client.query(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
        )
      ).rows.map((row) => String(row.table_name));
      const found: string[] = [];
      for (const table of tables) {
        for (const row of (await client.query(`SELECT * FROM "${table}"`)).rows) {
          const line = `${table}: ${JSON.stringify(row)}`;
          if (line.includes(text)) found.push(line);
        }
      }
      return found;
    } finally {
      await client.end();
    }
  };
}

/** Each store: its name, how to open it and read it raw, and whether its server is missing. */
const backends: Array<[string, () => { url: string; dump: () => Promise<Dump> }, boolean]> = [
  [
    'SQLite',
    () => {
      const file = join(tempDir, `${randomUUID()}.sqlite`);
      return { url: `sqlite://${file}`, dump: () => sqliteDump(file) };
    },
    false,
  ],
  ['Redis', () => ({ url: REDIS_URL ?? '', dump: () => redisDump(REDIS_URL ?? '') }), !REDIS_URL],
  [
    'PostgreSQL',
    () => ({ url: POSTGRES_URL ?? '', dump: () => postgresDump(POSTGRES_URL ?? '') }),
    !POSTGRES_URL,
  ],
];

it('has records for every namespace of the store, so that removal is checked for each', () => {
  expect(Object.keys(SEEDS).sort()).toEqual(Object.keys(NAMESPACES).sort());
});

for (const [name, backend, missing] of backends)
  describe.skipIf(missing)(`removal read from ${name} itself`, () => {
    let store: Store;
    let dump: Dump;
    beforeAll(async () => {
      const { url, dump: open } = backend();
      store = await openStore(url, {
        dataDir: tempDir,
        encryptionKey: randomBytes(32).toString('hex'),
      });
      dump = await open();
    });
    afterAll(() => store?.close());

    it('leaves no row naming the person after /split disconnect, nor the workspace after uninstall', async () => {
      // Ids unique to this run: the shared Redis and PostgreSQL hold other tests' rows.
      const team = `T${randomBytes(6).toString('hex').toUpperCase()}`;
      const other = `T${randomBytes(6).toString('hex').toUpperCase()}`;
      const person = `U${randomBytes(6).toString('hex').toUpperCase()}`;
      const teammate = `U${randomBytes(6).toString('hex').toUpperCase()}`;
      for (const seed of Object.values(SEEDS)) {
        await seed(store, team, person);
        await seed(store, team, teammate);
        await seed(store, other, person);
      }
      expect((await dump(person)).length).toBeGreaterThan(10);

      await store.forget.forgetPerson({ team_id: team, user_id: person });
      expect(await dump(`${team}:${person}`)).toEqual([]);
      expect((await dump(person)).filter((row) => row.includes(team))).toEqual([]);
      // Their teammate's records and their own in another workspace stay.
      expect((await dump(teammate)).length).toBeGreaterThan(10);
      expect((await dump(other)).length).toBeGreaterThan(10);

      await store.forget.forgetWorkspace(team);
      expect(await dump(team)).toEqual([]);
      expect(await dump(teammate)).toEqual([]);
      expect((await dump(other)).length).toBeGreaterThan(10);
      await store.forget.forgetWorkspace(other);
      expect(await dump(other)).toEqual([]);
      expect(await dump(person)).toEqual([]);
    });
  });
