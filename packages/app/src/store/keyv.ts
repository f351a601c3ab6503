import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type KeyvPostgres from '@keyv/postgres';
import type KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { decodeStored } from './keyv-decode.js';

export const DEFAULT_STORE_URL = 'sqlite://./data/app.sqlite';

/**
 * Every SQLite connection of the app's: write-ahead logging, so that a commit appends to the log
 * instead of syncing the database file twice (and readers stop waiting for writers), synced at
 * checkpoints rather than at every commit. A crash of the app loses nothing; a power cut may lose
 * the last commits. Measured: a second write per /split (the record behind /split undo) had
 * doubled the app's system time and its ack p99 with the default rollback journal.
 */
export const SQLITE_PRAGMAS = ['PRAGMA journal_mode = WAL', 'PRAGMA synchronous = NORMAL'];

/**
 * Runs the pragmas in order. A file system that refuses WAL keeps SQLite's default journal, which
 * still works, so a refusal is not an error.
 */
export async function applyPragmas(run: (sql: string) => Promise<unknown>): Promise<void> {
  for (const pragma of SQLITE_PRAGMAS) await run(pragma).catch(() => undefined);
}

export class StoreUrlError extends Error {
  override name = 'StoreUrlError';
}

export type StoreKind = 'sqlite' | 'redis' | 'postgres';

/** Which backend a STORE_URL names; anything else is refused with the list of what works. */
export function storeKind(storeUrl: string): StoreKind {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(storeUrl)?.[1]?.toLowerCase();
  if (scheme === 'sqlite') return 'sqlite';
  if (scheme === 'redis' || scheme === 'rediss') return 'redis';
  if (scheme === 'postgres' || scheme === 'postgresql') return 'postgres';
  // Only the scheme is echoed: the rest of the URL may carry a password.
  throw new StoreUrlError(
    `STORE_URL scheme ${scheme ? `"${scheme}://"` : '(none)'} is not supported; use sqlite://, redis://, rediss://, postgres:// or postgresql://`,
  );
}

/**
 * The SQLite file a sqlite:// URL names, resolved against cwd, with its directory created so
 * that the first run works on a fresh checkout or an empty volume.
 *
 * The file holds sealed tokens beside people's preferences and records, so it is readable by its
 * owner only: a directory this creates is 0700 and the file is created 0600 before SQLite opens
 * it (SQLite gives its -wal and -shm files the database file's mode). Files a release before this
 * one left group- or world-readable are narrowed to 0600 too.
 */
export function sqliteFile(storeUrl: string, cwd = process.cwd()): string {
  const path = storeUrl.replace(/^sqlite:\/\//i, '');
  if (path === '' || path === ':memory:') return ':memory:';
  const file = resolve(cwd, path);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Created only when missing. Closing any descriptor of the database file drops every POSIX
  // lock this process holds on it, SQLite's included: another process opening the file then
  // believes it is alone, checkpoints and deletes the write-ahead log under the open
  // connections, whose later commits go to a log nobody else sees (and are lost at restart).
  if (!existsSync(file)) {
    try {
      closeSync(openSync(file, 'wx', 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  for (const name of [file, `${file}-wal`, `${file}-shm`]) ownerOnly(name);
  return file;
}

function ownerOnly(file: string): void {
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  } catch (error) {
    // Absent (-wal and -shm come and go), or owned by another account that set its own modes.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}

/** SQLite answers SQLITE_BUSY at once by default; replicas sharing one file wait instead. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/** A Redis that is down must fail calls within seconds rather than hang them while reconnecting. */
export async function redisAdapter(storeUrl: string): Promise<KeyvRedis<unknown>> {
  // Loaded only when STORE_URL names Redis: a SQLite or PostgreSQL deployment never pays for it.
  const { default: KeyvRedis, createClient } = await import('@keyv/redis');
  const client = createClient({
    url: storeUrl,
    // A command waiting on a Redis that is down fails after this instead of hanging until it
    // is back (the offline queue itself stays on, so commands sent while connecting still work).
    commandOptions: { timeout: REDIS_COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000),
    },
  });
  // Failures reach callers through rejected calls; the event only needs a listener so that it
  // does not crash the process.
  client.on('error', () => undefined);
  return new KeyvRedis(client, {
    throwOnConnectError: true,
    throwOnErrors: true,
    connectionTimeout: REDIS_CONNECT_TIMEOUT_MS,
  });
}

const REDIS_CONNECT_TIMEOUT_MS = 3_000;
const REDIS_COMMAND_TIMEOUT_MS = 5_000;

const postgresUsers = new Map<string, number>();

/**
 * @keyv/postgres keeps one pg pool per URI for the whole process, and its disconnect() ends that
 * pool for every Keyv on the URI (the others then fail with "Cannot use a pool after calling end
 * on the pool", and a second disconnect throws). Counting the users here makes disconnect() end
 * the pool only when the last Keyv on it lets go.
 */
async function postgresAdapter(storeUrl: string): Promise<KeyvPostgres> {
  const { default: KeyvPostgres } = await import('@keyv/postgres');
  const store = new KeyvPostgres({ uri: storeUrl });
  postgresUsers.set(storeUrl, (postgresUsers.get(storeUrl) ?? 0) + 1);
  const endPool = store.disconnect.bind(store);
  let released = false;
  store.disconnect = async () => {
    if (released) return;
    released = true;
    const left = (postgresUsers.get(storeUrl) ?? 1) - 1;
    if (left > 0) {
      postgresUsers.set(storeUrl, left);
      return;
    }
    postgresUsers.delete(storeUrl);
    await endPool();
  };
  return store;
}

export interface CreateKeyvOptions {
  /** Prefix that keeps unrelated data (tokens, caches, settings) apart in one store. */
  namespace: string;
}

/**
 * Keyv on the backend STORE_URL names: `sqlite://./data/app.sqlite` (default),
 * `redis://[:password@]host:port[/db]`, `postgres://user@host:port/db`. Only that backend's driver
 * is imported. Call `disconnect()` on shutdown (each Keyv once; several Keyvs on one PostgreSQL
 * URI share a pool that closes with the last of them).
 */
export async function createKeyv<T = unknown>(
  storeUrl: string = DEFAULT_STORE_URL,
  options: CreateKeyvOptions,
): Promise<Keyv<T>> {
  // throwOnErrors: an unreachable store must surface as an error, not read as "no such key"
  // (which would tell a connected person to connect again).
  const common = { namespace: options.namespace, throwOnErrors: true, deserialize: decodeStored };
  switch (storeKind(storeUrl)) {
    case 'sqlite': {
      const { default: KeyvSqlite } = await import('@keyv/sqlite');
      const store = new KeyvSqlite({
        uri: `sqlite://${sqliteFile(storeUrl)}`,
        busyTimeout: SQLITE_BUSY_TIMEOUT_MS,
      });
      void applyPragmas((sql) => store.query(sql));
      return new Keyv<T>({ store, ...common });
    }
    case 'redis':
      return new Keyv<T>({ store: await redisAdapter(storeUrl), ...common });
    case 'postgres':
      return new Keyv<T>({ store: await postgresAdapter(storeUrl), ...common });
  }
}
