import { randomUUID } from 'node:crypto';
import { createdMeanwhile } from './created-meanwhile.js';
import { redisAdapter, type StoreKind, storeKind } from './keyv.js';
import { globEscape, likeEscape } from './match-escape.js';
import { sqliteConnection } from './sqlite.js';

/**
 * Atomic "first one wins" claims in the shared store, e.g. "the daily DM for T1/U1 on 2026-11-21"
 * or "event Ev123 is being handled". Keyv has no set-if-absent, so each backend uses its own
 * atomic primitive:
 *
 * - Redis: `SET key owner NX PX ttl`.
 * - PostgreSQL and SQLite: a `split_claims` table with
 *   `INSERT ... ON CONFLICT (key) DO UPDATE ... WHERE expires_at <= now RETURNING key`: a row comes
 *   back only to the one caller that inserted the key or took over an expired claim. PostgreSQL
 *   guarantees an atomic insert-or-update outcome under concurrency; SQLite serialises writers.
 *
 * An expired row is taken over by the next claim of its key; most keys are never claimed again
 * (one per person per day for the daily DM), so each instance also deletes the expired rows when it
 * first claims and then at most once an hour, keeping the table to the claims that still live.
 */
export interface Claims {
  /** True for exactly one caller among all processes sharing the store while the claim lives. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Gives up a claim this instance holds (e.g. the work failed and may be retried). */
  release(key: string): Promise<void>;
  /**
   * Deletes the claims whose keys name the team, or the team and the person (see claimNames),
   * whoever holds them; returns how many went. For removing a workspace's or a person's data.
   */
  forget(team_id: string, user_id?: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Whether a claim key (`<kind>:<team>:...`, e.g. `digest:T1:U1:2026-11-21`) names the team, and
 * the person too when one is given: ids are whole segments between colons.
 */
export function claimNames(key: string, team_id: string, user_id?: string): boolean {
  const segments = key.split(':').slice(1);
  return segments.includes(team_id) && (user_id === undefined || segments.includes(user_id));
}

export interface CreateClaimsOptions {
  /** Key prefix, to keep tests or several apps on one store apart. */
  namespace?: string;
  /** Clock for expiry decisions in SQL backends (Redis keeps its own). */
  now?: () => number;
}

const TABLE = 'split_claims';

export function createClaims(storeUrl: string, options: CreateClaimsOptions = {}): Claims {
  const prefix = options.namespace ? `${options.namespace}:` : '';
  const now = options.now ?? Date.now;
  // One owner id per instance, so release() only removes what this instance claimed.
  const owner = randomUUID();
  // The driver is imported on first use, so that creating claims stays synchronous and only the
  // backend STORE_URL names is ever loaded. A URL that names no backend still fails here, at once.
  const kind = storeKind(storeUrl);
  let opened: Promise<Backend> | undefined;
  const open = () => {
    opened ??= openBackend(kind, storeUrl);
    return opened;
  };
  let sweptAt = Number.NEGATIVE_INFINITY;
  return {
    async claim(key, ttlMs) {
      if (!(ttlMs > 0)) throw new RangeError('claim ttlMs must be positive');
      const nowMs = now();
      const backend = await open();
      const claimed = await backend.claim(prefix + key, owner, Math.ceil(ttlMs), nowMs);
      if (nowMs - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = nowMs;
        // Housekeeping only: the claim above stands whatever the sweep does, so a failed sweep
        // must not turn a won claim into an error the caller would take as a lost one.
        await backend.sweep(prefix, nowMs).catch(() => {
          sweptAt = Number.NEGATIVE_INFINITY;
        });
      }
      return claimed;
    },
    async release(key) {
      await (await open()).release(prefix + key, owner);
    },
    async forget(team_id, user_id) {
      const backend = await open();
      const keys = (await backend.keysWith(prefix, team_id)).filter((key) =>
        claimNames(key.slice(prefix.length), team_id, user_id),
      );
      for (const key of keys) await backend.remove(key);
      return keys.length;
    },
    async close() {
      if (opened) await (await opened).close();
    },
  };
}

const SWEEP_EVERY_MS = 60 * 60_000;

interface Backend {
  claim(key: string, owner: string, ttlMs: number, nowMs: number): Promise<boolean>;
  release(key: string, owner: string): Promise<void>;
  /** Keys (with the prefix) under `prefix` that contain `text`, to be filtered exactly. */
  keysWith(prefix: string, text: string): Promise<string[]>;
  /** Deletes a claim whoever holds it. */
  remove(key: string): Promise<void>;
  /**
   * Deletes the expired claims under `prefix` (Redis expires its keys itself). Each instance
   * keeps its own namespace: every replica of an app shares one, and another app (or test) on
   * the same table, whose clock may differ, is left to its own.
   */
  sweep(prefix: string, nowMs: number): Promise<void>;
  close(): Promise<void>;
}

async function openBackend(kind: StoreKind, storeUrl: string): Promise<Backend> {
  switch (kind) {
    case 'redis':
      return redisBackend(storeUrl);
    case 'postgres':
      return postgresBackend(storeUrl);
    case 'sqlite':
      return sqliteBackend(storeUrl);
  }
}

interface RedisLike {
  set(key: string, value: string, options: { NX: true; PX: number }): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  del(key: string): Promise<number>;
}

const RELEASE_IF_OWNER =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

async function redisBackend(storeUrl: string): Promise<Backend> {
  const adapter = await redisAdapter(storeUrl);
  const client = async () => (await adapter.getClient()) as unknown as RedisLike;
  return {
    async claim(key, owner, ttlMs) {
      const reply = await (await client()).set(`claim:${key}`, owner, { NX: true, PX: ttlMs });
      return reply === 'OK';
    },
    async release(key, owner) {
      await (await client()).eval(RELEASE_IF_OWNER, {
        keys: [`claim:${key}`],
        arguments: [owner],
      });
    },
    async keysWith(prefix, text) {
      const redis = await client();
      const found: string[] = [];
      const match = `claim:${globEscape(prefix)}*${globEscape(text)}*`;
      for await (const keys of redis.scanIterator({ MATCH: match, COUNT: 500 })) {
        for (const key of keys) found.push(key.slice('claim:'.length));
      }
      return found;
    },
    async remove(key) {
      await (await client()).del(`claim:${key}`);
    },
    sweep: async () => undefined,
    close: () => adapter.disconnect(),
  };
}

/** The part of pg's Pool used here; pg is the driver @keyv/postgres brings (no bundled types). */
interface PgPool {
  query(sql: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
}

const PG_MODULE = 'pg';

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${TABLE} (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at BIGINT NOT NULL)`;

async function postgresBackend(storeUrl: string): Promise<Backend> {
  // Its own small pool: @keyv/postgres keeps a process-wide one that its disconnect() ends.
  // Through a variable: pg ships no type declarations, and this file declares the part it uses.
  const { Pool } = ((await import(PG_MODULE)) as { default: unknown }).default as {
    Pool: new (options: { connectionString: string; max: number }) => PgPool;
  };
  const pool = new Pool({ connectionString: storeUrl, max: 4 });
  let ready: Promise<unknown> | undefined;
  const table = () => {
    ready ??= pool.query(CREATE_TABLE).catch((error: unknown) => {
      if (!createdMeanwhile(error)) {
        ready = undefined;
        throw error;
      }
    });
    return ready;
  };
  return {
    async claim(key, owner, ttlMs, nowMs) {
      await table();
      const { rows } = await pool.query(
        `INSERT INTO ${TABLE} (key, owner, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE ${TABLE}.expires_at <= $4
         RETURNING key`,
        [key, owner, nowMs + ttlMs, nowMs],
      );
      return rows.length === 1;
    },
    async release(key, owner) {
      await table();
      await pool.query(`DELETE FROM ${TABLE} WHERE key = $1 AND owner = $2`, [key, owner]);
    },
    async keysWith(prefix, text) {
      await table();
      const { rows } = await pool.query(`SELECT key FROM ${TABLE} WHERE key LIKE $1 ESCAPE '\\'`, [
        `${likeEscape(prefix)}%${likeEscape(text)}%`,
      ]);
      return (rows as { key: string }[]).map((row) => row.key);
    },
    async remove(key) {
      await table();
      await pool.query(`DELETE FROM ${TABLE} WHERE key = $1`, [key]);
    },
    async sweep(prefix, nowMs) {
      await pool.query(`DELETE FROM ${TABLE} WHERE key LIKE $1 ESCAPE '\\' AND expires_at <= $2`, [
        `${likeEscape(prefix)}%`,
        nowMs,
      ]);
    },
    close: () => pool.end(),
  };
}

async function sqliteBackend(storeUrl: string): Promise<Backend> {
  const connection = await sqliteConnection(storeUrl);
  const all = (sql: string, params: unknown[]) => connection.all(sql, params);
  let ready: Promise<unknown> | undefined;
  const table = () => {
    ready ??= all(CREATE_TABLE, []).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  return {
    async claim(key, owner, ttlMs, nowMs) {
      await table();
      const rows = await all(
        `INSERT INTO ${TABLE} (key, owner, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE ${TABLE}.expires_at <= ?
         RETURNING key`,
        [key, owner, nowMs + ttlMs, nowMs],
      );
      return rows.length === 1;
    },
    async release(key, owner) {
      await table();
      await all(`DELETE FROM ${TABLE} WHERE key = ? AND owner = ?`, [key, owner]);
    },
    async keysWith(prefix, text) {
      await table();
      const rows = await all(`SELECT key FROM ${TABLE} WHERE key LIKE ? ESCAPE '\\'`, [
        `${likeEscape(prefix)}%${likeEscape(text)}%`,
      ]);
      return (rows as { key: string }[]).map((row) => row.key);
    },
    async remove(key) {
      await table();
      await all(`DELETE FROM ${TABLE} WHERE key = ?`, [key]);
    },
    async sweep(prefix, nowMs) {
      await all(`DELETE FROM ${TABLE} WHERE key LIKE ? ESCAPE '\\' AND expires_at <= ?`, [
        `${likeEscape(prefix)}%`,
        nowMs,
      ]);
    },
    close: () => connection.close(),
  };
}
