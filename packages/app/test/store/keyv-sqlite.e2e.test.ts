/**
 * The SQLite store on one shared connection: every namespace, the claims and the jobs of a store
 * use one connection to the file, a file written in the older adapter's layout reads the same,
 * and a namespace's walk and clear keep to it.
 */
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyv } from '../../src/store/keyv.js';
import { openStore } from '../../src/store/open.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-keyv-sqlite-'));
  file = join(dir, 'app.sqlite');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** How many descriptors this process holds on the database file itself: one per connection. */
function openOn(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false;
    }
  }).length;
}

async function run(sql: string, params: unknown[] = []): Promise<unknown[]> {
  const db = new sqlite3.Database(file);
  try {
    return await new Promise((resolve, reject) =>
      db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows))),
    );
  } finally {
    await new Promise((resolve) => db.close(resolve));
  }
}

describe('the SQLite store', () => {
  it('opens one connection for every namespace, the claims and the jobs, and closes it', async () => {
    const store = await openStore(`sqlite://${file}`, { dataDir: dir });
    await store.claims.claim('once', 60_000);
    await store.preferences.get({ team_id: 'T1', user_id: 'U1' });
    expect(openOn(file)).toBe(1);
    // A second store on the same file (another app in this process) shares it too.
    const second = await openStore(`sqlite://${file}`, { dataDir: dir });
    await second.ping();
    expect(openOn(file)).toBe(1);
    await second.close();
    await store.ping();
    await store.close();
    expect(openOn(file)).toBe(0);
  });

  it('reads a file written in the layout of the adapter it replaced', async () => {
    await run('CREATE TABLE keyv(key VARCHAR(255) PRIMARY KEY, value TEXT )');
    await run('INSERT INTO keyv (key, value) VALUES (?, ?)', [
      'old-namespace:ann',
      JSON.stringify({ value: { name: 'Ann' }, expires: null }),
    ]);
    const keyv = await createKeyv(`sqlite://${file}`, { namespace: 'old-namespace' });
    try {
      expect(await keyv.get('ann')).toEqual({ name: 'Ann' });
      await keyv.set('bob', { name: 'Bob' });
      expect(await run('SELECT key FROM keyv ORDER BY key')).toEqual([
        { key: 'old-namespace:ann' },
        { key: 'old-namespace:bob' },
      ]);
    } finally {
      await keyv.disconnect();
    }
  });

  it('walks and clears one namespace only, and a walk that deletes skips nothing', async () => {
    const ours = await createKeyv<number>(`sqlite://${file}`, { namespace: 'a_b' });
    const theirs = await createKeyv<number>(`sqlite://${file}`, { namespace: 'axb' });
    try {
      for (let n = 0; n < 250; n++) await ours.set(`k${String(n).padStart(3, '0')}`, n);
      await theirs.set('k000', -1);
      const seen: number[] = [];
      for await (const [key, value] of ours.iterator!(undefined)) {
        seen.push(value as number);
        await ours.delete(key as string);
      }
      expect(seen).toHaveLength(250);
      expect(await ours.get('k001')).toBeUndefined();
      await ours.set('again', 1);
      await ours.clear();
      expect(await ours.get('again')).toBeUndefined();
      expect(await theirs.get('k000')).toBe(-1);
      expect(await ours.getMany(['x', 'y'])).toEqual([undefined, undefined]);
      expect(await theirs.has('k000')).toBe(true);
      expect(await theirs.delete('k000')).toBe(true);
      expect(await theirs.delete('k000')).toBe(false);
    } finally {
      await Promise.all([ours.disconnect(), theirs.disconnect()]);
    }
  });
});
