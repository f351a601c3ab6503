import type KeyvPostgres from '@keyv/postgres';
import type KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { decodeStored } from './keyv-decode.js';

export const DEFAULT_STORE_URL = 'sqlite://./data/app.sqlite';

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
      const { SqliteKeyvStore } = await import('./keyv-sqlite.js');
      return new Keyv<T>({ store: new SqliteKeyvStore(storeUrl), ...common });
    }
    case 'redis':
      return new Keyv<T>({ store: await redisAdapter(storeUrl), ...common });
    case 'postgres':
      return new Keyv<T>({ store: await postgresAdapter(storeUrl), ...common });
  }
}
