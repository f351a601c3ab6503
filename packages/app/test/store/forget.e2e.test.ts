/**
 * Removing what is kept about a person or a workspace, on each backend: everything of theirs goes,
 * nothing of anyone else's does. Snapshots of balances expire on the runner's walk.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, PERSON_FIELD, SNAPSHOT_TTL_MS, type Store } from '../../src/store/index.js';
import { POSTGRES_URL, REDIS_URL } from '../support/stores.js';

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(join(tmpdir(), 'split-forget-'));
});
afterAll(async () => {
  await rm(tempDir, { recursive: true, force: true });
});

const record = {
  access_token: 'svc-token',
  token_type: 'bearer',
  service_user_id: 1,
  name: 'Ann',
  linked_at: '2026-11-21T09:00:00.000Z',
};

/** Everything a person can have kept; `team` is unique per run so backends can be shared. */
async function fill(store: Store, team_id: string, user_id: string): Promise<void> {
  const user = { team_id, user_id };
  await store.tokens.set(user, record);
  await store.linkStates.create(user);
  await store.preferences.setDefaultGroup(user, { id: 7, name: 'Flat' });
  await store.digest.enable(user, { tz: 'Europe/Paris' });
  await store.digest.update(user, () => ({ snapshot: { friends: {} } }));
  await store.expenses.rememberBooked(user, { expense_id: 9, description: 'lunch' });
  await store.expenses.saveDraft(user, 'V1', { step: 1 });
  await store.expenses.saveDraft(user, 'V2', { step: 2 });
  await store.bindings.set(
    { team_id, channel_id: `C-${user_id}` },
    { group_id: 7, group_name: 'Flat', bound_by: user_id, bound_at: record.linked_at },
  );
  await store.splitDefaults.set(
    { team_id, group_id: user_id === 'U0ANN' ? 5 : 6 },
    {
      group_id: user_id === 'U0ANN' ? 5 : 6,
      group_name: 'Flat',
      kind: 'percent',
      parts: [{ slack_id: user_id, service_user_id: 1, value: 10_000 }],
      set_by: user_id,
      set_at: record.linked_at,
    },
  );
  await store.feeds.set({
    team_id,
    channel_id: `C-${user_id}`,
    group_id: 7,
    group_name: 'Flat',
    user_id,
    started_at: record.linked_at,
    cursor: null,
    seen: [],
  });
  // A command not yet answered, one answered (its id kept for the dedupe), and today's claims.
  await store.jobs.add(
    `command:${team_id}:trig-${user_id}`,
    { kind: 'split', data: { text: '40 lunch' }, [PERSON_FIELD]: `${team_id}:${user_id}` },
    60_000,
  );
  await store.jobs.add(
    `form:${team_id}:V-${user_id}`,
    { kind: 'form', data: {}, [PERSON_FIELD]: `${team_id}:${user_id}` },
    60_000,
  );
  await store.jobs.finish(`form:${team_id}:V-${user_id}`, 60_000);
  await store.claims.claim(`digest:${team_id}:${user_id}:2026-11-21`, 60_000);
  await store.claims.claim(`export:${team_id}:${user_id}`, 60_000);
}

const everything = {
  token: true,
  preferences: true,
  digest: { snapshot: true },
  lastBooked: true,
};
const nothing = { token: false, preferences: false, digest: null, lastBooked: false };

/** Each store: its name, its URL, and whether its server is missing (its tests skipped). */
const backends: Array<[string, () => string, boolean]> = [
  ['SQLite', () => `sqlite://${join(tempDir, `${randomUUID()}.sqlite`)}`, false],
  ['Redis', () => REDIS_URL ?? '', !REDIS_URL],
  ['PostgreSQL', () => POSTGRES_URL ?? '', !POSTGRES_URL],
];

for (const [name, url, missing] of backends)
  describe.skipIf(missing)(`forgetting on ${name}`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await openStore(url(), {
        dataDir: tempDir,
        encryptionKey: randomBytes(32).toString('hex'),
      });
    });
    afterAll(() => store?.close());

    it('removes every record of one person and says what there was, leaving others alone', async () => {
      const team = `T${randomUUID()}`;
      const ann = { team_id: team, user_id: 'U0ANN' };
      const bob = { team_id: team, user_id: 'U0BOB' };
      await fill(store, team, 'U0ANN');
      await fill(store, team, 'U0BOB');
      expect(await store.forget.about(ann)).toEqual(everything);

      expect(await store.forget.forgetPerson(ann)).toEqual({
        ...everything,
        linkStates: 1,
        drafts: 2,
        // The command not yet answered (the answered one keeps only its id, naming no one).
        jobs: 1,
        claims: 2,
        feeds: 1,
        splitDefaults: 1,
      });
      expect(await store.forget.about(ann)).toEqual(nothing);
      expect(await store.tokens.get(ann)).toBeUndefined();
      expect(await store.preferences.get(ann)).toEqual({
        default_group: null,
        reminders_off: false,
      });
      expect(await store.expenses.draft(ann, 'V1')).toBeUndefined();
      expect(await store.forget.forgetPerson(ann)).toEqual({
        ...nothing,
        linkStates: 0,
        drafts: 0,
        jobs: 0,
        claims: 0,
        feeds: 0,
        splitDefaults: 0,
      });

      expect(await store.forget.about(bob)).toEqual(everything);
      expect(await store.expenses.draft(bob, 'V2')).toEqual({ step: 2 });
      await store.forget.forgetWorkspace(team);
    });

    it("removes a whole workspace's records, and no other workspace's", async () => {
      const team = `T${randomUUID()}`;
      const other = `T${randomUUID()}`;
      await fill(store, team, 'U0ANN');
      await fill(store, team, 'U0BOB');
      await fill(store, other, 'U0ANN');

      // Per person: token, link state, preferences, digest, last booked, two drafts; a binding, a
      // default split and a feed; two jobs and two claims.
      expect(await store.forget.forgetWorkspace(team)).toBe(2 * 14);
      for (const user_id of ['U0ANN', 'U0BOB']) {
        expect(await store.forget.about({ team_id: team, user_id })).toEqual(nothing);
        expect(
          await store.bindings.get({ team_id: team, channel_id: `C-${user_id}` }),
        ).toBeUndefined();
        expect(
          await store.feeds.get({ team_id: team, channel_id: `C-${user_id}` }),
        ).toBeUndefined();
      }
      expect(await store.splitDefaults.get({ team_id: team, group_id: 5 })).toBeUndefined();
      expect(await store.splitDefaults.get({ team_id: other, group_id: 5 })).toBeDefined();
      expect(await store.forget.about({ team_id: other, user_id: 'U0ANN' })).toEqual(everything);
      expect(await store.forget.forgetPerson({ team_id: other, user_id: 'U0ANN' })).toMatchObject({
        linkStates: 1,
        drafts: 2,
        jobs: 1,
      });
      await store.forget.forgetWorkspace(other);
    });
  });

describe('balance snapshots', () => {
  it('are dated when taken and dropped by the walk once older than their lifetime', async () => {
    let now = new Date('2026-11-01T09:00:00Z');
    const store = await openStore(`sqlite://${join(tempDir, 'snapshots.sqlite')}`, {
      dataDir: tempDir,
      encryptionKey: randomBytes(32).toString('hex'),
      now: () => now,
    });
    try {
      const user = { team_id: 'T1', user_id: 'U1' };
      await store.digest.enable(user, { tz: 'UTC' });
      const snapshot = { friends: { '2': { name: 'Bob', amounts: { EUR: 500 } } } };
      await store.digest.update(user, () => ({ snapshot }));
      expect(await store.digest.get(user)).toMatchObject({
        snapshot,
        snapshot_at: '2026-11-01T09:00:00.000Z',
      });
      const walk = async () => {
        const seen = [];
        for await (const sub of store.digest.iterate()) seen.push(sub);
        return seen;
      };

      now = new Date(Date.parse('2026-11-01T09:00:00Z') + SNAPSHOT_TTL_MS);
      expect((await walk())[0]?.snapshot).toEqual(snapshot);
      now = new Date(now.getTime() + 1);
      expect((await walk())[0]).toMatchObject({ snapshot: null, snapshot_at: null });
      expect(await store.digest.get(user)).toMatchObject({ snapshot: null, enabled: true });
    } finally {
      await store.close();
    }
  });
});
