/**
 * Global setup of the e2e tests (`*.e2e.test.ts`): finds Redis and PostgreSQL once for the run,
 * starts PostgreSQL from npm when none answers, and hands the tests each server's URL through
 * `inject('redisUrl')` / `inject('postgresUrl')`, or null for one that is missing: its tests are
 * skipped, and the run says which and how to get it. Under CI=true nothing may be skipped: a
 * missing server fails the run here.
 */
import type { TestProject } from 'vitest/node';
import {
  DEFAULT_POSTGRES_URL,
  DEFAULT_REDIS_URL,
  findPostgres,
  findRedis,
  HOW_TO_GET,
  type StartedPostgres,
  startPostgres,
} from '../../scripts/services.js';
import { reportSkipped } from './skipped.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  /** What is missing, as "<tests> skipped: <why>; <how to get it>". */
  const missing: string[] = [];

  const redis = await findRedis(process.env.REDIS_URL || DEFAULT_REDIS_URL);
  if ('found' in redis) project.provide('redisUrl', redis.found);
  else {
    project.provide('redisUrl', null);
    missing.push(`Redis tests skipped: ${redis.missing}; ${HOW_TO_GET.redis}`);
  }

  let started: StartedPostgres | undefined;
  const postgres = await findPostgres(process.env.POSTGRES_URL || DEFAULT_POSTGRES_URL);
  if ('found' in postgres) project.provide('postgresUrl', postgres.found);
  else if (process.env.POSTGRES_URL) {
    // A server named on purpose is not replaced by another one.
    project.provide('postgresUrl', null);
    missing.push(`PostgreSQL tests skipped: ${postgres.missing} (POSTGRES_URL)`);
  } else {
    try {
      started = await startPostgres();
      project.provide('postgresUrl', started.url);
    } catch (error) {
      project.provide('postgresUrl', null);
      missing.push(
        `PostgreSQL tests skipped: ${postgres.missing}, and ${(error as Error).message}; ${HOW_TO_GET.postgres}`,
      );
    }
  }

  // The test workers are still up when this runs: a session a pool left idle ends in 10 s.
  const stop = async () => {
    await started?.stop({ graceMs: 12_000 });
  };
  if (missing.length > 0 && process.env.CI === 'true') {
    await started?.stop();
    throw new Error(`CI=true runs every test, none may be skipped: ${missing.join(' | ')}`);
  }
  reportSkipped(missing);
  return stop;
}
