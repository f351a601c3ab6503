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
  serviceTimeoutMs: 2_000,
  reconcileDelayMs: 200,
  serviceSettleMs: 3_000,
  jobs: { leaseMs: 1_000, pollMs: 200 },
};

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
