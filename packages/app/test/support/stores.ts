/**
 * The Redis and PostgreSQL servers of this run, as the e2e tests' global setup found or started
 * them (test/support/services.ts at the repository's root): a URL, or null when the server is
 * missing, and the tests that need it are skipped (`describe.skipIf(!REDIS_URL)`).
 */
import type Keyv from 'keyv';
import { inject } from 'vitest';

/** redis://host:port, with no database number: each test chooses its own. */
export const REDIS_URL: string | null = inject('redisUrl');
/** postgres://…/test */
export const POSTGRES_URL: string | null = inject('postgresUrl');

/** Every record a Keyv's walk yields, by key: what the digest runner, the feeds and removal see. */
export async function walkAll(keyv: Keyv): Promise<Map<string, unknown>> {
  const seen = new Map<string, unknown>();
  if (!keyv.iterator) throw new Error('this Keyv cannot be walked');
  for await (const [key, value] of keyv.iterator(undefined)) seen.set(String(key), value);
  return seen;
}
