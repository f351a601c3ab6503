import type KeyvPostgres from '@keyv/postgres';
import type KeyvRedis from '@keyv/redis';
import Keyv from 'keyv';
import { decodeStored } from './keyv-decode.js';
import { globEscape, likeEscape } from './match-escape.js';

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
  return new (pagedWalks(KeyvRedis))(client, {
    throwOnConnectError: true,
    throwOnErrors: true,
    connectionTimeout: REDIS_CONNECT_TIMEOUT_MS,
  });
}

const REDIS_CONNECT_TIMEOUT_MS = 3_000;
const REDIS_COMMAND_TIMEOUT_MS = 5_000;
/**
 * Keys a walk asks Redis to look at per SCAN step. SCAN visits the whole database whatever it
 * matches, and the adapter's own walk leaves the step at Redis's default of 10: walking one
 * namespace of a database holding 100,000 keys (every namespace of the app, and whatever else
 * shares it) took 10,000 round trips, for the daily DM every minute, for the feeds and for
 * removal. A larger step costs Redis no more in all, and blocks it only briefly each time.
 */
export const REDIS_WALK_STEP = 1_000;

/** The part of a Redis client a walk uses. */
interface WalkClient {
  scan(
    cursor: string,
    options: { MATCH: string; COUNT: number; TYPE: string },
  ): Promise<{ cursor: string | number; keys: string[] }>;
  mGet(keys: string[]): Promise<(string | null)[]>;
}

/**
 * The Redis adapter with a walk that steps through the database {@link REDIS_WALK_STEP} keys at a
 * time and reads each step's values in one MGET. Only a namespaced walk is ours (every Keyv here
 * has a namespace); anything else stays the adapter's. The app's client is a single server's.
 */
function pagedWalks(Base: typeof KeyvRedis) {
  return class PagedKeyvRedis<T> extends Base<T> {
    override async *iterator<U = T>(
      namespace?: string,
    ): AsyncGenerator<[string, U | undefined], void, unknown> {
      if (!namespace || this.isCluster()) {
        yield* super.iterator<U>(namespace);
        return;
      }
      const client = (await this.getClient()) as unknown as WalkClient;
      const match = `${globEscape(namespace)}${globEscape(this.keyPrefixSeparator)}*`;
      let cursor = '0';
      do {
        const step = await client.scan(cursor, {
          MATCH: match,
          COUNT: REDIS_WALK_STEP,
          TYPE: 'string',
        });
        cursor = String(step.cursor);
        if (step.keys.length === 0) continue;
        const values = await client.mGet(step.keys);
        for (const [i, key] of step.keys.entries()) {
          // Deleted between the step and the read (removal, an expiry): gone, so not seen. Keyv
          // fails the whole walk on a record with no value.
          const value = values[i];
          if (value === null || value === undefined) continue;
          yield [this.getKeyWithoutPrefix(key, namespace), value as U];
        }
      } while (cursor !== '0');
    }
  };
}

/** Rows a walk reads per query on PostgreSQL; the adapter's own walk read 10. */
export const POSTGRES_WALK_PAGE = 1_000;

/**
 * The PostgreSQL adapter with a walk of {@link POSTGRES_WALK_PAGE} rows per query, in key order
 * from the last key read (as the adapter's own), that fails when a page fails. The adapter's own
 * walk ended quietly at a failed page, so a removal walking a namespace reported done with the
 * records after it still there.
 */
function pagedPostgresWalks(Base: typeof KeyvPostgres) {
  return class PagedKeyvPostgres extends Base {
    override async *iterator(namespace?: string): AsyncGenerator<string[], void, unknown> {
      const select = `SELECT key, value FROM ${this.opts.schema}.${this.opts.table}
        WHERE key LIKE $1 ESCAPE '\\' AND key > $2 ORDER BY key LIMIT $3`;
      const pattern = `${namespace ? `${likeEscape(namespace)}:` : ''}%`;
      // Every key sorts after the empty string: the first page starts there.
      let after = '';
      for (;;) {
        const rows = (await this.query(select, [pattern, after, POSTGRES_WALK_PAGE])) as {
          key: string;
          value: string;
        }[];
        for (const row of rows) yield [row.key, row.value];
        if (rows.length < POSTGRES_WALK_PAGE) return;
        after = rows[rows.length - 1]!.key;
      }
    }
  };
}

const postgresUsers = new Map<string, number>();

/**
 * @keyv/postgres keeps one pg pool per URI for the whole process, and its disconnect() ends that
 * pool for every Keyv on the URI (the others then fail with "Cannot use a pool after calling end
 * on the pool", and a second disconnect throws). Counting the users here makes disconnect() end
 * the pool only when the last Keyv on it lets go.
 */
async function postgresAdapter(storeUrl: string): Promise<KeyvPostgres> {
  const { default: KeyvPostgres } = await import('@keyv/postgres');
  const store = new (pagedPostgresWalks(KeyvPostgres))({ uri: storeUrl });
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
