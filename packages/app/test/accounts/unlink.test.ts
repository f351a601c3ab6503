/**
 * Ending a link: the token leaves the store (SQLite in a temporary folder, as the default store
 * keeps it) and nothing cached for the link answers afterwards; another person's link stays.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectory } from '../../src/accounts/directory.js';
import { createUnlinking } from '../../src/accounts/unlink.js';
import { openStore, type Store } from '../../src/store/index.js';

const ann = { team_id: 'T1', user_id: 'U0ANN' };
const bob = { team_id: 'T1', user_id: 'U0BOB' };
const record = (service_user_id: number) => ({
  access_token: `svc-token-${service_user_id}`,
  token_type: 'bearer',
  service_user_id,
  name: 'Someone',
  linked_at: '2026-11-21T09:00:00.000Z',
});

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-unlink-'));
  store = await openStore(`sqlite://${join(dir, 'store.sqlite')}`, {
    encryptionKey: randomBytes(32).toString('hex'),
    dataDir: dir,
  });
});
afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

function parts() {
  const directory = createDirectory({
    slack: async () => {
      throw new Error('no Slack lookups here');
    },
  });
  return { directory, unlinking: createUnlinking({ ...store, directory }) };
}

/** What the directory answers for the person's linked id, and whether it had to read it. */
async function linkedId(directory: ReturnType<typeof createDirectory>, user: typeof ann) {
  let read = false;
  const id = await directory.linkedId(user, async () => {
    read = true;
    return (await store.tokens.get(user))?.service_user_id ?? null;
  });
  return { id, read };
}

describe('unlinking', () => {
  it('removes the token and what the directory cached for that link, and nobody else’s', async () => {
    const { directory, unlinking } = parts();
    await store.tokens.set(ann, record(1));
    await store.tokens.set(bob, record(2));
    expect(await linkedId(directory, ann)).toEqual({ id: 1, read: true });
    expect(await linkedId(directory, bob)).toEqual({ id: 2, read: true });

    await unlinking.unlink(ann);

    expect(await store.tokens.get(ann)).toBeUndefined();
    // Read again rather than answered from the cache of the link that ended.
    expect(await linkedId(directory, ann)).toEqual({ id: null, read: true });
    expect(await store.tokens.get(bob)).toMatchObject({ service_user_id: 2 });
    expect(await linkedId(directory, bob)).toEqual({ id: 2, read: false });
  });

  it('forgets the person: the link, the rest of what is kept, and the cached link', async () => {
    const { directory, unlinking } = parts();
    await store.tokens.set(ann, record(1));
    await store.preferences.setDefaultGroup(ann, { id: 7, name: 'Flat' });
    expect(await linkedId(directory, ann)).toEqual({ id: 1, read: true });

    const kept = await unlinking.forgetPerson(ann);

    expect(kept).toMatchObject({ token: true, preferences: true });
    expect(await store.tokens.get(ann)).toBeUndefined();
    expect((await store.preferences.get(ann)).default_group).toBeNull();
    expect(await linkedId(directory, ann)).toEqual({ id: null, read: true });
  });
});
