/**
 * A store of its own for each test world, on the servers every engineer's tests share: Redis and
 * PostgreSQL keep the app's namespaces under fixed names, and the replicas poll the job queue and
 * walk the digest namespace whole, so sharing a database with other tests would let these
 * replicas take others' jobs (and others take theirs).
 *
 * - Redis: one of databases 1 to 15, taken with a set-if-absent owner key in an empty database
 *   (database 0 is where the other tests live), flushed and given back at the end.
 * - PostgreSQL: a database created for the world and dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@keyv/redis';
import { POSTGRES_URL as POSTGRES, REDIS_URL as REDIS } from '../support/stores.js';

// Only tests that are skipped when a server is missing call these.
const REDIS_URL = REDIS ?? 'redis://redis-is-missing';
const POSTGRES_URL = POSTGRES ?? 'postgres://postgresql-is-missing/test';

export interface ScratchStore {
  url: string;
  drop(): Promise<void>;
}

const OWNER_KEY = 'split-replicas-test:owner';

export async function scratchRedis(): Promise<ScratchStore> {
  const owner = randomBytes(8).toString('hex');
  for (let db = 1; db < 16; db++) {
    const client = createClient({ url: `${REDIS_URL}/${db}` });
    client.on('error', () => undefined);
    await client.connect();
    try {
      // An hour covers the longest run; a crashed run's database is free again after it.
      const taken = await client.set(OWNER_KEY, owner, { NX: true, EX: 3_600 });
      if (taken === 'OK' && (await client.dbSize()) === 1) {
        return {
          url: `${REDIS_URL}/${db}`,
          async drop() {
            const again = createClient({ url: `${REDIS_URL}/${db}` });
            again.on('error', () => undefined);
            await again.connect();
            if ((await again.get(OWNER_KEY)) === owner) await again.flushDb();
            await again.quit();
          },
        };
      }
      if (taken === 'OK') await client.del(OWNER_KEY);
    } finally {
      await client.quit();
    }
  }
  throw new Error('no free Redis database among 1 to 15');
}

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

const PG_MODULE = 'pg';

async function pgAdmin(): Promise<PgClient> {
  const { Client } = ((await import(PG_MODULE)) as { default: unknown }).default as {
    Client: new (options: { connectionString: string }) => PgClient;
  };
  const client = new Client({ connectionString: POSTGRES_URL });
  await client.connect();
  return client;
}

export async function scratchPostgres(): Promise<ScratchStore> {
  const name = `split_replicas_${randomBytes(6).toString('hex')}`;
  const admin = await pgAdmin();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: POSTGRES_URL.replace(/\/test$/, `/${name}`),
    async drop() {
      const again = await pgAdmin();
      try {
        // The world's pools may still be closing their connections: cutting them (FORCE) makes
        // pg report the cut as an uncaught error, so they get a few seconds to go first.
        for (let tries = 0; tries < 50; tries++) {
          try {
            await again.query(`DROP DATABASE IF EXISTS ${name}`);
            return;
          } catch (error) {
            // 55006: the database is being accessed by other users.
            if ((error as { code?: string }).code !== '55006') throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await again.end();
      }
    },
  };
}
