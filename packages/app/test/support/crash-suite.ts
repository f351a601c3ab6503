/**
 * One crash world per test file: started before the file's tests, and closed after them with
 * every app it started. Apps get short leases and horizons, so that a restart takes the work up
 * within seconds.
 */
import { control } from '@split/service-emulator/testing';
import { afterAll, beforeAll } from 'vitest';
import {
  type AppChild,
  type ChildSpec,
  type CrashWorld,
  eventually,
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
 * app's service timeout (so the kill finds it at the service, with no answer yet), and well inside
 * the settle window (so that a restarted app waits for it instead of booking it again).
 */
export const SLOW_CREATE_MS = 1_200;

/**
 * Slows the next create at the service, and answers a kill that waits until that create has
 * arrived there (its fault is used up when it arrives), then kills the app at once: the create is
 * at the service, not yet applied, and the app has had no answer to act on. A fixed wait before
 * the kill ran late on a busy machine, after the app had booked and answered.
 */
export async function slowNextCreate(world: CrashWorld): Promise<(app: AppChild) => Promise<void>> {
  const fault = (
    await control(world.emu.url, 'POST', 'faults', {
      path: '/api/v3.0/create_expense',
      latency_ms: SLOW_CREATE_MS,
      times: 1,
    })
  ).body as { id: string };
  const pending = async () => {
    const { faults } = (await control(world.emu.url, 'GET', 'faults')).body as {
      faults: { id: string }[];
    };
    return faults.some((f) => f.id === fault.id);
  };
  return async (app) => {
    await eventually(async () => !(await pending()), 10_000, 'the slowed create to arrive');
    await app.kill();
  };
}

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
