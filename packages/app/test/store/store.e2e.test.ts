import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@keyv/redis';
import Keyv from 'keyv';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineText } from '../../src/observe/logger.js';
import {
  createClaims,
  createKeyv,
  createTokenStore,
  loadEncryptionKey,
  type ServiceTokenRecord,
  StoreUrlError,
  storeKind,
} from '../../src/store/index.js';
import { POSTGRES_URL, REDIS_URL } from '../support/stores.js';

const execFileAsync = promisify(execFile);

const record: ServiceTokenRecord = {
  access_token: 'svc-token-DO-NOT-LEAK-0123456789',
  token_type: 'bearer',
  service_user_id: 42,
  name: 'Ann Example',
  linked_at: '2026-11-21T09:00:00.000Z',
};

let tempDir: string;
beforeAll(async () => {
  tempDir = await mkdtemp(join(tmpdir(), 'split-store-'));
});
afterAll(async () => {
  await rm(tempDir, { recursive: true, force: true });
});

describe('storeKind', () => {
  it('maps each supported scheme and refuses others without echoing the URL', () => {
    expect(storeKind('sqlite://./data/app.sqlite')).toBe('sqlite');
    expect(storeKind('rediss://h:6380')).toBe('redis');
    expect(storeKind('postgresql://u@h/db')).toBe('postgres');
    expect(() => storeKind('mysql://user:hunter2@db/app')).toThrow(StoreUrlError);
    expect(() => storeKind('mysql://user:hunter2@db/app')).toThrow(/"mysql:\/\/" is not supported/);
    expect(() => storeKind('mysql://user:hunter2@db/app')).not.toThrow(/hunter2/);
    expect(() => storeKind('./app.sqlite')).toThrow(/\(none\)/);
  });
});

describe('claims on SQLite', () => {
  it('still grants a won claim when sweeping expired ones fails', async () => {
    const file = join(tempDir, 'sweep-fails', 'app.sqlite');
    await mkdir(dirname(file), { recursive: true });
    const db = new sqlite3.Database(file);
    await new Promise<void>((resolve, reject) =>
      db.exec(
        `CREATE TABLE split_claims (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at BIGINT NOT NULL);
         INSERT INTO split_claims VALUES ('long-expired', 'someone', 0);
         CREATE TRIGGER refuse_deletes BEFORE DELETE ON split_claims BEGIN SELECT RAISE(ABORT, 'no deletes'); END;`,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    db.close();
    const claims = createClaims(`sqlite://${file}`);
    try {
      expect(await claims.claim('first', 60_000)).toBe(true);
      expect(await claims.claim('first', 60_000)).toBe(false);
    } finally {
      await claims.close();
    }
  });
});

describe('createKeyv on SQLite', () => {
  it('creates the directory of the database file on first run', async () => {
    const file = join(tempDir, 'fresh', 'nested', 'app.sqlite');
    const keyv = await createKeyv(`sqlite://${file}`, { namespace: 'test' });
    await keyv.set('k', { a: 1 });
    expect(await keyv.get('k')).toEqual({ a: 1 });
    await keyv.disconnect();
    expect((await stat(file)).isFile()).toBe(true);
  });

  it('keeps the database in write-ahead-log mode, from Keyv and from claims alike', async () => {
    const journalMode = (file: string) =>
      new Promise<unknown>((resolve, reject) => {
        const db = new sqlite3.Database(file);
        db.get('PRAGMA journal_mode', (error, row) => {
          db.close();
          if (error) reject(error);
          else resolve(row);
        });
      });
    const viaKeyv = join(tempDir, 'wal', 'keyv.sqlite');
    const keyv = await createKeyv(`sqlite://${viaKeyv}`, { namespace: 'test' });
    await keyv.set('k', 1);
    await keyv.disconnect();
    expect(await journalMode(viaKeyv)).toEqual({ journal_mode: 'wal' });

    const viaClaims = join(tempDir, 'wal', 'claims.sqlite');
    const claims = createClaims(`sqlite://${viaClaims}`);
    expect(await claims.claim('k', 1_000)).toBe(true);
    await claims.close();
    expect(await journalMode(viaClaims)).toEqual({ journal_mode: 'wal' });
  });
});

describe('an unreachable store', () => {
  it.each([
    ['Redis', 'redis://127.0.0.1:1'],
    ['PostgreSQL', 'postgres://postgres@127.0.0.1:1/test'],
  ])('%s fails calls promptly instead of reading as empty', async (_name, url) => {
    const keyv = await createKeyv(url, { namespace: 'down' });
    const started = Date.now();
    await expect(keyv.get('k')).rejects.toThrow();
    await expect(keyv.set('k', 1)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
    await keyv.disconnect().catch(() => undefined);
  });

  it('fails claims on a Redis that is down', async () => {
    const claims = createClaims('redis://127.0.0.1:1');
    await expect(claims.claim('k', 1_000)).rejects.toThrow();
    await claims.close().catch(() => undefined);
  });
});

describe('loadEncryptionKey', () => {
  it('decodes ENCRYPTION_KEY given as hex or base64', async () => {
    const key = randomBytes(32);
    const dataDir = join(tempDir, 'unused');
    expect(await loadEncryptionKey({ encryptionKey: key.toString('hex'), dataDir })).toEqual(key);
    expect(await loadEncryptionKey({ encryptionKey: key.toString('base64'), dataDir })).toEqual(
      key,
    );
  });

  it('refuses a key that is not 32 bytes, without echoing it', async () => {
    const attempt = loadEncryptionKey({ encryptionKey: 'c2VjcmV0LXNob3J0', dataDir: tempDir });
    await expect(attempt).rejects.toThrow(/ENCRYPTION_KEY must be 32 bytes/);
    await expect(attempt).rejects.not.toThrow(/c2VjcmV0/);
  });

  it('generates a key once into <dataDir>/encryption.key with mode 0600 and reuses it', async () => {
    const dataDir = join(tempDir, 'keydir');
    const first = await loadEncryptionKey({ dataDir });
    const second = await loadEncryptionKey({ dataDir });
    expect(first).toHaveLength(32);
    expect(second).toEqual(first);
    const info = await stat(join(dataDir, 'encryption.key'));
    expect(info.mode & 0o777).toBe(0o600);
  });

  it('agrees on one key when several starts race', async () => {
    const dataDir = join(tempDir, 'race');
    const keys = await Promise.all(Array.from({ length: 8 }, () => loadEncryptionKey({ dataDir })));
    for (const key of keys) expect(key).toEqual(keys[0]);
  });

  it('refuses a damaged key file', async () => {
    const dataDir = join(tempDir, 'damaged');
    await loadEncryptionKey({ dataDir });
    await writeFile(join(dataDir, 'encryption.key'), 'not a key');
    await expect(loadEncryptionKey({ dataDir })).rejects.toThrow(/does not hold a 32-byte key/);
  });
});

describe('createTokenStore (AES-256-GCM)', () => {
  const user = { team_id: 'T1', user_id: 'U1' };
  function setup() {
    const raw = new Map<string, unknown>();
    const keyv = new Keyv({ store: raw, namespace: 'tokens' });
    const warnings: string[] = [];
    const logger = { warn: (...m: unknown[]) => warnings.push(lineText(m)) };
    return { raw, keyv, warnings, logger };
  }

  it('round-trips a record and keys it by team and user', async () => {
    const { keyv, logger } = setup();
    const store = createTokenStore(keyv, randomBytes(32), { logger });
    await store.set(user, record);
    expect(await store.get(user)).toEqual(record);
    expect(await store.get({ team_id: 'T1', user_id: 'U2' })).toBeUndefined();
    expect(await store.get({ team_id: 'T2', user_id: 'U1' })).toBeUndefined();
    expect(await store.delete(user)).toBe(true);
    expect(await store.get(user)).toBeUndefined();
    expect(await store.delete(user)).toBe(false);
  });

  it('keeps no token or name in clear at rest and uses a fresh IV per write', async () => {
    const { raw, keyv } = setup();
    const store = createTokenStore(keyv, randomBytes(32));
    await store.set(user, record);
    const first = JSON.stringify([...raw.values()]);
    await store.set(user, record);
    const second = JSON.stringify([...raw.values()]);
    for (const text of [first, second]) {
      expect(text).not.toContain(record.access_token);
      expect(text).not.toContain(record.name);
    }
    expect(second).not.toEqual(first);
  });

  it('reads a record under a wrong key as absent and warns without the token', async () => {
    const { keyv, warnings, logger } = setup();
    await createTokenStore(keyv, randomBytes(32)).set(user, record);
    const other = createTokenStore(keyv, randomBytes(32), { logger });
    expect(await other.get(user)).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('T1:U1');
    expect(warnings[0]).not.toContain(record.access_token);
  });

  it('reads a tampered record as absent', async () => {
    const { keyv, warnings, logger } = setup();
    const store = createTokenStore(keyv, randomBytes(32), { logger });
    await store.set(user, record);
    const sealed = (await keyv.get('T1:U1')) as { data: string };
    const bytes = Buffer.from(sealed.data, 'base64');
    bytes[0] = bytes[0]! ^ 1;
    await keyv.set('T1:U1', { ...sealed, data: bytes.toString('base64') });
    expect(await store.get(user)).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it('does not decrypt a record moved onto another user', async () => {
    const { keyv, logger } = setup();
    const store = createTokenStore(keyv, randomBytes(32), { logger });
    await store.set(user, record);
    await keyv.set('T1:U9', await keyv.get('T1:U1'));
    expect(await store.get({ team_id: 'T1', user_id: 'U9' })).toBeUndefined();
  });
});

function readSqliteRaw(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file);
    db.all('SELECT key, value FROM keyv', (error, rows) => {
      db.close();
      if (error) reject(error);
      else resolve(JSON.stringify(rows));
    });
  });
}

/** Deletes the claims a run left behind (the race tests hold theirs until they expire). */
async function removeClaimsOf(url: string, run: string): Promise<void> {
  if (url.startsWith('redis:')) {
    const client = createClient({ url });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `claim:*${run}*`, COUNT: 1000 })) {
      if (keys.length > 0) await client.del(keys);
    }
    await client.close();
  } else if (url.startsWith('postgres:')) {
    const { Pool } = createRequire(import.meta.url)('pg') as {
      Pool: new (o: {
        connectionString: string;
      }) => {
        query(sql: string, values: unknown[]): Promise<unknown>;
        end(): Promise<void>;
      };
    };
    const pool = new Pool({ connectionString: url });
    await pool.query('DELETE FROM split_claims WHERE key LIKE $1', [`%${run}%`]);
    await pool.end();
  }
}

/** Keys of the claim rows whose key contains `part` (SQL backends). */
async function claimKeys(url: string, part: string): Promise<string[]> {
  if (url.startsWith('postgres:')) {
    const { Pool } = createRequire(import.meta.url)('pg') as {
      Pool: new (o: {
        connectionString: string;
      }) => {
        query(sql: string, values: unknown[]): Promise<{ rows: { key: string }[] }>;
        end(): Promise<void>;
      };
    };
    const pool = new Pool({ connectionString: url });
    try {
      const { rows } = await pool.query('SELECT key FROM split_claims WHERE key LIKE $1', [
        `%${part}%`,
      ]);
      return rows.map((row) => row.key);
    } finally {
      await pool.end();
    }
  }
  const db = new sqlite3.Database(url.replace(/^sqlite:\/\//, ''));
  return new Promise((resolve, reject) => {
    db.all('SELECT key FROM split_claims WHERE key LIKE ?', [`%${part}%`], (error, rows) => {
      db.close();
      if (error) reject(error);
      else resolve((rows as { key: string }[]).map((row) => row.key));
    });
  });
}

interface Backend {
  name: string;
  url: () => string;
  /** The server is missing: its tests are skipped. */
  missing?: boolean;
  readRaw?: () => Promise<string>;
}

const sqliteBackendFile = () => join(tempDir, 'backend', 'app.sqlite');
const backends: Backend[] = [
  {
    name: 'SQLite (temporary directory)',
    url: () => `sqlite://${sqliteBackendFile()}`,
    readRaw: () => readSqliteRaw(sqliteBackendFile()),
  },
  { name: 'Redis', url: () => REDIS_URL ?? '', missing: !REDIS_URL },
  { name: 'PostgreSQL', url: () => POSTGRES_URL ?? '', missing: !POSTGRES_URL },
];

for (const backend of backends)
  describe.skipIf(backend.missing)(`store on ${backend.name}`, () => {
    const run = randomUUID();
    afterAll(() => removeClaimsOf(backend.url(), run));

    it('keeps encrypted token records that another instance with the key reads back', async () => {
      const key = randomBytes(32);
      const namespace = `test-tokens-${run}`;
      const keyv = await createKeyv(backend.url(), { namespace });
      try {
        const user = { team_id: `T${run}`, user_id: 'U1' };
        await createTokenStore(keyv, key).set(user, record);
        expect(await createTokenStore(keyv, key).get(user)).toEqual(record);
        if (backend.readRaw) {
          const raw = await backend.readRaw();
          expect(raw).toContain(`T${run}:U1`);
          expect(raw).not.toContain(record.access_token);
        }
        expect(await createTokenStore(keyv, key).delete(user)).toBe(true);
        expect(await keyv.get(`T${run}:U1`)).toBeUndefined();
      } finally {
        await keyv.disconnect();
      }
    });

    it('keeps several namespaces apart and closes each independently', async () => {
      const a = await createKeyv(backend.url(), { namespace: `test-a-${run}` });
      const b = await createKeyv(backend.url(), { namespace: `test-b-${run}` });
      await a.set('same', 'from a');
      await b.set('same', 'from b');
      expect(await a.get('same')).toBe('from a');
      await a.delete('same');
      await a.disconnect();
      expect(await b.get('same')).toBe('from b');
      await b.delete('same');
      await b.disconnect();
      const c = await createKeyv(backend.url(), { namespace: `test-b-${run}` });
      expect(await c.get('same')).toBeUndefined();
      await c.disconnect();
    });

    it('does not keep expired claims in the store, and keeps live ones', async () => {
      const namespace = `test-sweep-${run}`;
      if (backend.url().startsWith('redis:')) {
        // Redis expires the keys itself (PX); the SQL tables are swept.
        const claims = createClaims(backend.url(), { namespace });
        expect(await claims.claim('expired', 50)).toBe(true);
        expect(await claims.claim('alive', 60_000)).toBe(true);
        await claims.close();
        await new Promise((resolve) => setTimeout(resolve, 120));
        const client = createClient({ url: backend.url() });
        await client.connect();
        try {
          expect(await client.exists(`claim:${namespace}:expired`)).toBe(0);
          expect(await client.exists(`claim:${namespace}:alive`)).toBe(1);
        } finally {
          await client.close();
        }
        return;
      }
      const early = createClaims(backend.url(), { namespace, now: () => 1_000 });
      expect(await early.claim('expired', 100)).toBe(true);
      expect(await early.claim('alive', 1_000_000)).toBe(true);
      await early.close();
      const later = createClaims(backend.url(), { namespace, now: () => 5_000 });
      expect(await later.claim('fresh', 60_000)).toBe(true);
      await later.close();
      expect((await claimKeys(backend.url(), namespace)).sort()).toEqual([
        `${namespace}:alive`,
        `${namespace}:fresh`,
      ]);
    });

    it("sweeps only its own namespace's claims, whatever another's clock says", async () => {
      const mine = `test-mine-${run}`;
      const theirs = `test-theirs-${run}`;
      const ahead = createClaims(backend.url(), {
        namespace: theirs,
        now: () => Date.now() + 3_600_000 * 48,
      });
      const here = createClaims(backend.url(), { namespace: mine });
      try {
        expect(await here.claim('held', 60_000)).toBe(true);
        // A first claim sweeps; two days ahead, every claim of the present has expired for it.
        expect(await ahead.claim('first', 60_000)).toBe(true);
        expect(await here.claim('held', 60_000)).toBe(false);
      } finally {
        await Promise.all([ahead.close(), here.close()]);
      }
    });

    it('grants a claim to exactly one of 20 concurrent callers on two instances', async () => {
      const a = createClaims(backend.url(), { namespace: `test-${run}` });
      const b = createClaims(backend.url(), { namespace: `test-${run}` });
      try {
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            (i % 2 ? a : b).claim('digest:T1:U1:2026-11-21', 60_000),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await a.claim('digest:T1:U2:2026-11-21', 60_000)).toBe(true);
      } finally {
        await a.release('digest:T1:U1:2026-11-21');
        await b.release('digest:T1:U1:2026-11-21');
        await a.release('digest:T1:U2:2026-11-21');
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('grants each claim to exactly one of 4 processes racing for the same keys', async () => {
      const namespace = `test-procs-${run}`;
      const startAt = Date.now() + 1_500;
      const outputs = await Promise.all(
        Array.from({ length: 4 }, () =>
          execFileAsync(
            process.execPath,
            [
              '--import',
              'tsx',
              join(import.meta.dirname, 'claim-worker.ts'),
              backend.url(),
              namespace,
              String(startAt),
              '10',
            ],
            { encoding: 'utf8' },
          ),
        ),
      );
      const won = outputs.flatMap((o) => JSON.parse(o.stdout) as string[]);
      expect(won.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `key-${i}`).sort());
    });

    it('lets a claim be taken again once it expires', async () => {
      const a = createClaims(backend.url(), { namespace: `test-${run}` });
      const b = createClaims(backend.url(), { namespace: `test-${run}` });
      try {
        // Both connected first, and a second to spare: on a loaded machine the first claim of a
        // new connection has taken longer than a shorter claim lasts.
        expect(await a.claim('warm-a', 60_000)).toBe(true);
        expect(await b.claim('warm-b', 60_000)).toBe(true);
        expect(await a.claim('short', 1_000)).toBe(true);
        expect(await b.claim('short', 1_000)).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        expect(await b.claim('short', 60_000)).toBe(true);
        expect(await a.claim('short', 60_000)).toBe(false);
      } finally {
        await Promise.all([b.release('short'), a.release('warm-a'), b.release('warm-b')]);
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('forgets the claims naming a workspace, or a person in it, whoever holds them', async () => {
      const ns = `test-${run}-${randomUUID()}`;
      const a = createClaims(backend.url(), { namespace: ns });
      const b = createClaims(backend.url(), { namespace: ns });
      try {
        for (const key of [
          'digest:T1:U1:2026-11-21',
          'remind:T1:U2:U1:2026-11-21',
          'remind:T1:U2:U3:2026-11-21',
          'undo:T1:12:U10',
          'feed:T1:C1:99',
          'digest:T10:U1:2026-11-21',
          'link-state:T1U1hash',
        ])
          expect(await a.claim(key, 60_000), key).toBe(true);
        // Exact ids only: U10 is not U1, T10 not T1, and a hash containing both names no one.
        expect(await b.forget('T1', 'U1')).toBe(2);
        expect(await a.claim('digest:T1:U1:2026-11-21', 60_000)).toBe(true);
        expect(await a.claim('undo:T1:12:U10', 60_000)).toBe(false);
        expect(await b.forget('T1')).toBe(4);
        expect(await a.claim('feed:T1:C1:99', 60_000)).toBe(true);
        expect(await a.claim('digest:T10:U1:2026-11-21', 60_000)).toBe(false);
        expect(await a.claim('link-state:T1U1hash', 60_000)).toBe(false);
      } finally {
        await b.forget('T1');
        await b.forget('T10');
        await a.release('link-state:T1U1hash');
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('releases only a claim the instance holds', async () => {
      const a = createClaims(backend.url(), { namespace: `test-${run}` });
      const b = createClaims(backend.url(), { namespace: `test-${run}` });
      try {
        expect(await a.claim('held', 60_000)).toBe(true);
        await b.release('held');
        expect(await b.claim('held', 60_000)).toBe(false);
        await a.release('held');
        expect(await b.claim('held', 60_000)).toBe(true);
      } finally {
        await b.release('held');
        await Promise.all([a.close(), b.close()]);
      }
    });
  });
