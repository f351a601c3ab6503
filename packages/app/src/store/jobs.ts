import { randomUUID } from 'node:crypto';
import { createdMeanwhile } from './created-meanwhile.js';
import { groupedAdds } from './job-adds.js';
import { redisAdapter, type StoreKind, storeKind } from './keyv.js';
import { globEscape, likeEscape } from './match-escape.js';
import { sqliteConnection } from './sqlite.js';

/**
 * The durable queue of acknowledged work (a `/split`, a submitted expense form): written before
 * Slack gets its ack, so that a crash between the ack and the answer loses nothing, and shared by
 * every replica on the store.
 *
 * A job is held through a lease: the replica that queued it holds it from the start and renews it
 * while it works; a job whose lease has lapsed (its replica died) is taken by whichever replica
 * asks next. The id is the delivery's own key (`command:<team>:<trigger id>`), so a redelivery of
 * the same command adds nothing: the one write before the ack is also the dedupe. A finished job
 * keeps its id (without its payload) for `keepMs`, for that dedupe, and is then swept.
 *
 * Each backend uses an atomic primitive of its own, as claims.ts does: a Lua script over a hash
 * and a sorted set of due times on Redis; a `split_jobs` table on PostgreSQL (`FOR UPDATE SKIP
 * LOCKED`, so replicas never take the same job) and SQLite (which serialises writers).
 */
export interface Jobs {
  /** Queues a job held by this instance for `leaseMs`; false when the id is already known. */
  add(id: string, payload: unknown, leaseMs: number): Promise<boolean>;
  /** Takes up to `limit` jobs whose lease has lapsed, holding each for `leaseMs`. */
  take(limit: number, leaseMs: number): Promise<Job[]>;
  /**
   * Extends this instance's lease on each of `ids` at once; gives the ids still its own. One
   * statement on SQL however many jobs are held (a burst of commands queues hundreds).
   */
  renewAll(ids: readonly string[], leaseMs: number): Promise<Set<string>>;
  /** Records progress (kept across a crash); false when the job is no longer this instance's. */
  save(id: string, progress: unknown): Promise<boolean>;
  /** Marks the job done: it is never taken again, and its id is kept for `keepMs`. */
  finish(id: string, keepMs: number): Promise<void>;
  /** Lets the job go at once (shutting down), for another replica or the next start to take. */
  release(id: string): Promise<void>;
  /**
   * Deletes the jobs of a workspace (every job whose id names the team, finished ones included),
   * or of one person in it (the jobs whose payload names them as `by`, see PERSON_FIELD); returns
   * how many went. A job deleted while it runs finishes its run but saves and finishes nothing.
   */
  forget(team_id: string, user_id?: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * A payload that is an object with this field, `<team>:<user>`, is that person's work: it is
 * removed with their data (`/split disconnect`), not only with the workspace's.
 */
export const PERSON_FIELD = 'by';

/**
 * No job is kept longer than this after it was queued, finished or not: a finished one keeps its
 * id an hour (for the dedupe), and one that never finishes (its handler keeps failing, no replica
 * takes it) holds what was typed no longer than this.
 */
export const JOB_RETENTION_MS = 7 * 24 * 60 * 60_000;

/** Whether a job id (`<kind>:<team>:...`) names the team, and the person when one is given. */
export function jobNames(
  id: string,
  payload: string | undefined,
  team_id: string,
  user_id?: string,
): boolean {
  if (!id.split(':').slice(1).includes(team_id)) return false;
  if (user_id === undefined) return true;
  try {
    const parsed = JSON.parse(payload ?? 'null') as Record<string, unknown> | null;
    return parsed !== null && parsed[PERSON_FIELD] === `${team_id}:${user_id}`;
  } catch {
    return false;
  }
}

export interface Job {
  id: string;
  payload: unknown;
  /** What `save` last recorded; undefined before any. */
  progress: unknown;
  /** When it was queued (ms since the epoch). */
  createdAt: number;
  /** How many times it has been taken after its first holder let it lapse. */
  retakes: number;
}

export interface CreateJobsOptions {
  /** Key prefix, to keep tests or several apps on one store apart. */
  namespace?: string;
  now?: () => number;
}

const TABLE = 'split_jobs';
/**
 * Ids per renewing statement: a few statement texts (the last chunk's length varies), far under
 * PostgreSQL's and SQLite's limits on parameters.
 */
const RENEW_CHUNK = 256;
const SWEEP_EVERY_MS = 60 * 60_000;

export function createJobs(storeUrl: string, options: CreateJobsOptions = {}): Jobs {
  const prefix = options.namespace ? `${options.namespace}:` : '';
  const now = options.now ?? Date.now;
  // One owner id per instance: a restarted process is a new owner and takes its old jobs back
  // only once their leases lapse, like any other replica would.
  const owner = randomUUID();
  const kind = storeKind(storeUrl);
  let opened: Promise<Backend> | undefined;
  const open = () => {
    opened ??= openBackend(kind, storeUrl, prefix);
    return opened;
  };
  let sweptAt = Number.NEGATIVE_INFINITY;
  const strip = (job: Job): Job => ({ ...job, id: job.id.slice(prefix.length) });
  return {
    async add(id, payload, leaseMs) {
      return (await open()).add(prefix + id, JSON.stringify(payload), owner, now(), leaseMs);
    },
    async take(limit, leaseMs) {
      const backend = await open();
      const at = now();
      if (at - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = at;
        await backend.sweep(prefix, at).catch(() => {
          sweptAt = Number.NEGATIVE_INFINITY;
        });
      }
      const rows = await backend.take(prefix, owner, at, leaseMs, limit);
      return rows.map(strip);
    },
    async renewAll(ids, leaseMs) {
      if (ids.length === 0) return new Set();
      const renewed = await (await open()).renewAll(
        ids.map((id) => prefix + id),
        owner,
        now() + leaseMs,
      );
      return new Set([...renewed].map((id) => id.slice(prefix.length)));
    },
    async save(id, progress) {
      return (await open()).save(prefix + id, owner, JSON.stringify(progress));
    },
    async finish(id, keepMs) {
      await (await open()).finish(prefix + id, owner, now() + keepMs, keepMs);
    },
    async release(id) {
      await (await open()).release(prefix + id, owner);
    },
    async forget(team_id, user_id) {
      return (await open()).forget(prefix, team_id, user_id);
    },
    async close() {
      if (opened) await (await opened).close();
    },
  };
}

interface Backend {
  add(id: string, payload: string, owner: string, nowMs: number, leaseMs: number): Promise<boolean>;
  take(
    prefix: string,
    owner: string,
    nowMs: number,
    leaseMs: number,
    limit: number,
  ): Promise<Job[]>;
  renewAll(ids: readonly string[], owner: string, until: number): Promise<Set<string>>;
  save(id: string, owner: string, progress: string): Promise<boolean>;
  finish(id: string, owner: string, doneUntil: number, keepMs: number): Promise<void>;
  release(id: string, owner: string): Promise<void>;
  forget(prefix: string, team_id: string, user_id: string | undefined): Promise<number>;
  /**
   * Deletes the finished jobs under `prefix` kept long enough (Redis expires its keys itself):
   * each instance keeps its own namespace, which every replica of an app shares, and leaves
   * another's (another app or test on the same table, whose clock may differ) to it.
   */
  sweep(prefix: string, nowMs: number): Promise<void>;
  close(): Promise<void>;
}

async function openBackend(kind: StoreKind, storeUrl: string, prefix: string): Promise<Backend> {
  switch (kind) {
    case 'redis':
      return redisBackend(storeUrl, prefix);
    case 'postgres':
      return sqlBackend(await postgresRunner(storeUrl), 'postgres');
    case 'sqlite':
      return sqlBackend(await sqliteRunner(storeUrl), 'sqlite');
  }
}

interface Row {
  id: string;
  payload: string;
  progress: string | null;
  created_at: string | number;
  retakes: string | number;
}

function toJob(row: Row): Job {
  return {
    id: row.id,
    payload: JSON.parse(row.payload),
    progress: row.progress === null || row.progress === '' ? undefined : JSON.parse(row.progress),
    createdAt: Number(row.created_at),
    retakes: Number(row.retakes),
  };
}

/** Runs one statement written with `?` placeholders; returns its rows (RETURNING included). */
type Run = ((sql: string, params: unknown[]) => Promise<unknown[]>) & { close(): Promise<void> };

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${TABLE} (
  id TEXT PRIMARY KEY, payload TEXT NOT NULL, progress TEXT, owner TEXT NOT NULL,
  lease_until BIGINT NOT NULL, created_at BIGINT NOT NULL, retakes INTEGER NOT NULL DEFAULT 0,
  done_until BIGINT)`;
const CREATE_INDEX = `CREATE INDEX IF NOT EXISTS ${TABLE}_due ON ${TABLE} (lease_until) WHERE done_until IS NULL`;

function sqlBackend(run: Run, kind: 'postgres' | 'sqlite'): Backend {
  let ready: Promise<unknown> | undefined;
  const table = () => {
    const create = (sql: string) =>
      run(sql, []).catch((error: unknown) => {
        if (!createdMeanwhile(error)) throw error;
      });
    ready ??= create(CREATE_TABLE)
      .then(() => create(CREATE_INDEX))
      .catch((error: unknown) => {
        ready = undefined;
        throw error;
      });
    return ready;
  };
  const q = async (sql: string, params: unknown[]) => {
    await table();
    return run(sql, params);
  };
  const add = groupedAdds(q, TABLE);
  // PostgreSQL skips rows another replica is taking instead of waiting for them; SQLite has one
  // writer at a time, so the inner select and the update cannot interleave with another take.
  const skipLocked = kind === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  return {
    add: (id, payload, owner, nowMs, leaseMs) => add([id, payload, owner, nowMs + leaseMs, nowMs]),
    async take(prefix, owner, nowMs, leaseMs, limit) {
      const rows = await q(
        `UPDATE ${TABLE} SET owner = ?, lease_until = ?, retakes = retakes + 1
         WHERE id IN (SELECT id FROM ${TABLE}
           WHERE done_until IS NULL AND lease_until <= ? AND id LIKE ?
           ORDER BY created_at LIMIT ? ${skipLocked})
         RETURNING id, payload, progress, created_at, retakes`,
        [owner, nowMs + leaseMs, nowMs, `${likeEscape(prefix)}%`, limit],
      );
      return (rows as Row[]).map(toJob);
    },
    async renewAll(ids, owner, until) {
      const renewed = new Set<string>();
      for (let at = 0; at < ids.length; at += RENEW_CHUNK) {
        const chunk = ids.slice(at, at + RENEW_CHUNK);
        const rows = (await q(
          `UPDATE ${TABLE} SET lease_until = ? WHERE owner = ? AND done_until IS NULL
           AND id IN (${chunk.map(() => '?').join(', ')}) RETURNING id`,
          [until, owner, ...chunk],
        )) as { id: string }[];
        for (const row of rows) renewed.add(row.id);
      }
      return renewed;
    },
    async save(id, owner, progress) {
      const rows = await q(
        `UPDATE ${TABLE} SET progress = ? WHERE id = ? AND owner = ? AND done_until IS NULL RETURNING id`,
        [progress, id, owner],
      );
      return rows.length === 1;
    },
    async finish(id, owner, doneUntil) {
      await q(
        `UPDATE ${TABLE} SET done_until = ?, payload = '{}', progress = NULL WHERE id = ? AND owner = ?`,
        [doneUntil, id, owner],
      );
    },
    async release(id, owner) {
      await q(
        `UPDATE ${TABLE} SET lease_until = 0, retakes = retakes - 1 WHERE id = ? AND owner = ? AND done_until IS NULL`,
        [id, owner],
      );
    },
    async forget(prefix, team_id, user_id) {
      // The team's jobs are found by their ids; the person's among them by their payloads.
      const rows = (await q(`SELECT id, payload FROM ${TABLE} WHERE id LIKE ?`, [
        `${likeEscape(prefix)}%${likeEscape(team_id)}%`,
      ])) as { id: string; payload: string }[];
      const ids = rows
        .filter((row) => jobNames(row.id.slice(prefix.length), row.payload, team_id, user_id))
        .map((row) => row.id);
      for (const id of ids) await q(`DELETE FROM ${TABLE} WHERE id = ?`, [id]);
      return ids.length;
    },
    async sweep(prefix, nowMs) {
      await q(
        `DELETE FROM ${TABLE} WHERE id LIKE ? AND ((done_until IS NOT NULL AND done_until <= ?) OR created_at <= ?)`,
        [`${likeEscape(prefix)}%`, nowMs, nowMs - JOB_RETENTION_MS],
      );
    },
    close: () => run.close(),
  };
}

interface PgPool {
  query(sql: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
}

const PG_MODULE = 'pg';

async function postgresRunner(storeUrl: string): Promise<Run> {
  // Its own small pool, as claims.ts has, for the same reasons.
  const { Pool } = ((await import(PG_MODULE)) as { default: unknown }).default as {
    Pool: new (options: { connectionString: string; max: number }) => PgPool;
  };
  const pool = new Pool({ connectionString: storeUrl, max: 4 });
  const run = async (sql: string, params: unknown[]) => {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`).replace(/LIKE (\$\d+)/, "LIKE $1 ESCAPE '\\'");
    return (await pool.query(text, params)).rows;
  };
  return Object.assign(run, { close: () => pool.end() });
}

async function sqliteRunner(storeUrl: string): Promise<Run> {
  const connection = await sqliteConnection(storeUrl);
  const run = async (sql: string, params: unknown[]) =>
    connection.all(sql.replace(/LIKE \?/, "LIKE ? ESCAPE '\\'"), params);
  return Object.assign(run, { close: () => connection.close() });
}

interface RedisLike {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  hGet(key: string, field: string): Promise<string | null>;
}

// One hash per job (`jobs:job:<id>`) and, per namespace, one sorted set of its undone jobs by
// lease expiry (`jobs:due:<namespace>`); each script runs atomically, so two replicas never take
// the same job.
const REDIS_ADD = `
if redis.call('exists', KEYS[1]) == 1 then return 0 end
redis.call('hset', KEYS[1], 'payload', ARGV[2], 'owner', ARGV[3], 'created_at', ARGV[4], 'retakes', 0)
redis.call('pexpire', KEYS[1], ARGV[6])
redis.call('zadd', KEYS[2], ARGV[5], ARGV[1])
return 1`;
const REDIS_FORGET = `
redis.call('zrem', KEYS[2], ARGV[1])
return redis.call('del', KEYS[1])`;
const REDIS_TAKE = `
local ids = redis.call('zrangebyscore', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[4]))
local out = {}
for _, id in ipairs(ids) do
  local key = ARGV[5] .. id
  if redis.call('exists', key) == 1 then
    redis.call('zadd', KEYS[1], ARGV[2], id)
    redis.call('hset', key, 'owner', ARGV[3])
    local retakes = redis.call('hincrby', key, 'retakes', 1)
    local f = redis.call('hmget', key, 'payload', 'progress', 'created_at')
    table.insert(out, {id, f[1], f[2] or '', f[3], tostring(retakes)})
  else
    redis.call('zrem', KEYS[1], id)
  end
end
return out`;
const REDIS_MINE = `
if redis.call('hget', KEYS[1], 'owner') ~= ARGV[1] or redis.call('zscore', KEYS[2], ARGV[2]) == false then return 0 end`;
const REDIS_RENEW = `${REDIS_MINE}
redis.call('zadd', KEYS[2], ARGV[3], ARGV[2])
return 1`;
const REDIS_SAVE = `${REDIS_MINE}
redis.call('hset', KEYS[1], 'progress', ARGV[3])
return 1`;
const REDIS_FINISH = `${REDIS_MINE}
redis.call('zrem', KEYS[2], ARGV[2])
redis.call('hdel', KEYS[1], 'payload', 'progress')
redis.call('pexpire', KEYS[1], ARGV[3])
return 1`;
const REDIS_RELEASE = `${REDIS_MINE}
redis.call('zadd', KEYS[2], 0, ARGV[2])
redis.call('hincrby', KEYS[1], 'retakes', -1)
return 1`;

async function redisBackend(storeUrl: string, prefix: string): Promise<Backend> {
  const adapter = await redisAdapter(storeUrl);
  const client = async () => (await adapter.getClient()) as unknown as RedisLike;
  const jobKey = (id: string) => `jobs:job:${id}`;
  const DUE = `jobs:due:${prefix}`;
  const mine = async (script: string, id: string, owner: string, extra: string) =>
    (await (
      await client()
    ).eval(script, {
      keys: [jobKey(id), DUE],
      arguments: [owner, id, extra],
    })) === 1;
  return {
    async add(id, payload, owner, nowMs, leaseMs) {
      const reply = await (await client()).eval(REDIS_ADD, {
        keys: [jobKey(id), DUE],
        arguments: [
          id,
          payload,
          owner,
          String(nowMs),
          String(nowMs + leaseMs),
          String(JOB_RETENTION_MS),
        ],
      });
      return reply === 1;
    },
    async take(_prefix, owner, nowMs, leaseMs, limit) {
      const rows = (await (
        await client()
      ).eval(REDIS_TAKE, {
        keys: [DUE],
        arguments: [String(nowMs), String(nowMs + leaseMs), owner, String(limit), 'jobs:job:'],
      })) as string[][];
      return rows.map(([id, payload, progress, created_at, retakes]) =>
        toJob({
          id: id as string,
          payload: payload as string,
          progress: progress || null,
          created_at: created_at as string,
          retakes: retakes as string,
        }),
      );
    },
    async renewAll(ids, owner, until) {
      // Redis answers each script in well under a millisecond, from its own process.
      const still = await Promise.all(ids.map((id) => mine(REDIS_RENEW, id, owner, String(until))));
      return new Set(ids.filter((_, i) => still[i]));
    },
    save: (id, owner, progress) => mine(REDIS_SAVE, id, owner, progress),
    async finish(id, owner, _doneUntil, keepMs) {
      await mine(REDIS_FINISH, id, owner, String(Math.max(1, Math.ceil(keepMs))));
    },
    async release(id, owner) {
      await mine(REDIS_RELEASE, id, owner, '');
    },
    async forget(prefix, team_id, user_id) {
      const redis = await client();
      const ids: string[] = [];
      const match = `${globEscape(jobKey(prefix))}*${globEscape(team_id)}*`;
      for await (const keys of redis.scanIterator({ MATCH: match, COUNT: 500 })) {
        for (const key of keys) {
          const id = key.slice(jobKey('').length);
          const payload = user_id === undefined ? undefined : await redis.hGet(key, 'payload');
          if (jobNames(id.slice(prefix.length), payload ?? undefined, team_id, user_id))
            ids.push(id);
        }
      }
      for (const id of ids) {
        await redis.eval(REDIS_FORGET, { keys: [jobKey(id), DUE], arguments: [id] });
      }
      return ids.length;
    },
    sweep: async () => undefined,
    close: () => adapter.disconnect(),
  };
}
