/**
 * The Redis and PostgreSQL servers of this run, as the e2e tests' global setup found or started
 * them (test/support/services.ts at the repository's root): a URL, or null when the server is
 * missing, and the tests that need it are skipped (`describe.skipIf(!REDIS_URL)`).
 */
import { inject } from 'vitest';

/** redis://host:port, with no database number: each test chooses its own. */
export const REDIS_URL: string | null = inject('redisUrl');
/** postgres://…/test */
export const POSTGRES_URL: string | null = inject('postgresUrl');
