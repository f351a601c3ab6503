/**
 * One crash world per test file: started before the file's tests, and closed after them with
 * every app it started. Apps get short leases and horizons, so that a restart takes the work up
 * within seconds.
 */
import { afterAll, beforeAll } from 'vitest';
import {
  type AppChild,
  type ChildSpec,
  type CrashWorld,
  startCrashWorld,
} from './crash-support.js';

export const CRASH_OPTIONS = {
  serviceTimeoutMs: 1_000,
  reconcileDelayMs: 100,
  serviceSettleMs: 2_000,
  jobs: { leaseMs: 500, pollMs: 100 },
};

/**
 * How long after it was sent the service applies a create the tests slow down: longer than the
 * half second a test waits before the kill (so the kill finds it at the service), and well inside
 * the settle window (so that a restarted app waits for it instead of booking it again).
 */
export const SLOW_CREATE_MS = 1_200;

export function crashSuite(): {
  world: () => CrashWorld;
  start: (options?: ChildSpec['options']) => Promise<AppChild>;
} {
  let world: CrashWorld | undefined;
  const running: AppChild[] = [];
  beforeAll(async () => {
    world = await startCrashWorld();
  });
  afterAll(async () => {
    await Promise.allSettled(running.map((app) => app.stop()));
    await world?.close();
  });
  const started = () => {
    if (!world) throw new Error('the crash world is not started yet');
    return world;
  };
  return {
    world: started,
    async start(options = {}) {
      const app = await started().start({ ...CRASH_OPTIONS, ...options });
      running.push(app);
      return app;
    },
  };
}
