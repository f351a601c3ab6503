/**
 * What a copy of the data directory gives away: files only their owner can read, and nothing in
 * the store that finishes a link or calls the service.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDirFor } from '../../src/config.js';
import { DEFAULT_STORE_URL, openStore, sqliteFile } from '../../src/store/index.js';

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(join(tmpdir(), 'split-at-rest-'));
});
afterAll(async () => {
  await rm(tempDir, { recursive: true, force: true });
});

async function rows(file: string): Promise<string[]> {
  const db = new sqlite3.Database(file);
  try {
    return await new Promise((resolve, reject) =>
      db.all('SELECT key, value FROM keyv', (error, found: { key: string; value: string }[]) =>
        error ? reject(error) : resolve(found.map((row) => `${row.key} ${row.value}`)),
      ),
    );
  } finally {
    await new Promise((resolve) => db.close(resolve));
  }
}

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('the SQLite store at rest', () => {
  it('creates its directory 0700 and the database, its -wal and -shm and the key 0600', async () => {
    const dir = join(tempDir, 'fresh', 'data');
    const file = join(dir, 'app.sqlite');
    const store = await openStore(`sqlite://${file}`, { dataDir: dataDirFor(`sqlite://${file}`) });
    try {
      await store.preferences.setDefaultGroup(
        { team_id: 'T1', user_id: 'U1' },
        { id: 1, name: 'Flat' },
      );
      expect(await mode(dir)).toBe(0o700);
      for (const name of ['app.sqlite', 'app.sqlite-wal', 'app.sqlite-shm', 'encryption.key']) {
        expect({ name, mode: await mode(join(dir, name)) }).toEqual({ name, mode: 0o600 });
      }
    } finally {
      await store.close();
    }
  });

  it('narrows a database file an earlier release left readable by others', async () => {
    const file = join(tempDir, 'older.sqlite');
    await writeFile(file, '');
    await chmod(file, 0o644);
    sqliteFile(`sqlite://${file}`);
    expect(await mode(file)).toBe(0o600);
  });

  it('keeps the PKCE verifier of a link sealed, and a sealed verifier opens only where it was put', async () => {
    const dir = join(tempDir, 'links');
    const file = join(dir, 'app.sqlite');
    const encryptionKey = randomBytes(32).toString('hex');
    const store = await openStore(`sqlite://${file}`, { dataDir: dir, encryptionKey });
    try {
      const ann = await store.linkStates.create({ team_id: 'T1', user_id: 'U1' });
      const bob = await store.linkStates.create({ team_id: 'T1', user_id: 'U2' });
      const peeked = await store.linkStates.peek(ann);
      if (!peeked.ok) throw new Error(`the new link reads as ${peeked.reason}`);
      const verifier = peeked.link.code_verifier;
      expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const kept = await rows(file);
      expect(kept.filter((row) => row.startsWith('link-states:'))).toHaveLength(2);
      expect(kept.join('\n')).not.toContain(verifier);
      expect(kept.join('\n')).not.toContain('code_verifier');
      expect(kept.join('\n')).not.toContain(ann.slice(22));

      // Ann's sealed verifier pasted into Bob's record does not open there.
      const db = new sqlite3.Database(file);
      await new Promise<void>((resolve, reject) =>
        db.exec(
          `UPDATE keyv SET value = json_set(value, '$.value.current.sealed_verifier',
             json((SELECT json_extract(value, '$.value.current.sealed_verifier') FROM keyv
              WHERE key = 'link-states:${ann.slice(0, 22)}')))
           WHERE key = 'link-states:${bob.slice(0, 22)}'`,
          (error) => (error ? reject(error) : resolve()),
        ),
      );
      await new Promise((resolve) => db.close(resolve));
      const sealedIn = (rows: string[], state: string) =>
        JSON.parse(
          rows.find((row) => row.startsWith(`link-states:${state.slice(0, 22)} `))!.split(' ')[1]!,
        ).value.current.sealed_verifier;
      const pasted = await rows(file);
      expect(sealedIn(pasted, bob)).toEqual(sealedIn(pasted, ann));
      expect(await store.linkStates.consume(bob)).toEqual({ ok: false, reason: 'unknown' });
      expect(await store.linkStates.consume(ann)).toMatchObject({
        ok: true,
        link: { code_verifier: verifier },
      });
    } finally {
      await store.close();
    }
  });
});

describe('where the generated key goes', () => {
  it('is beside the SQLite file, data/encryption.key by default, as the README says', async () => {
    const cwd = join(tempDir, 'checkout');
    const dataDir = dataDirFor(DEFAULT_STORE_URL, cwd);
    const store = await openStore(`sqlite://${sqliteFile(DEFAULT_STORE_URL, cwd)}`, { dataDir });
    await store.close();
    expect(dataDir).toBe(join(cwd, 'data'));
    expect(await mode(join(dataDir, 'encryption.key'))).toBe(0o600);
    const row = readFileSync('README.md', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `ENCRYPTION_KEY`'));
    expect(row).toContain('`encryption.key` beside the SQLite file');
    expect(row).toContain('`data/encryption.key` by default');
  });
});
