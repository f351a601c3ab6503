/**
 * The durable work runner on a real store (SQLite in a temporary file): a job is kept until its
 * handler returns, a redelivery adds nothing, and a job whose holder stopped renewing its lease is
 * taken over by another runner with the progress the first one saved.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDurableWork, type JobHandler } from '../../../src/slack/runtime/durable.js';
import { createWorkQueue } from '../../../src/slack/runtime/work-queue.js';
import { createJobs, type Jobs } from '../../../src/store/index.js';
import { quietLogger } from '../../support/harness.js';

let dir: string;
/** Whose work the jobs here are. */
const ANN = { team_id: 'T1', user_id: 'U0ANN' };

const opened: Jobs[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-durable-'));
});
afterAll(async () => {
  await Promise.all(opened.map((j) => j.close()));
  await rm(dir, { recursive: true, force: true });
});

/**
 * A runner on its own connection. `frozen()` true makes it a dead process: it renews nothing and
 * takes nothing, so only another runner can pick up its jobs.
 */
function runner(file: string, frozen = () => false) {
  const real = createJobs(`sqlite://${join(dir, file)}`);
  opened.push(real);
  const jobs: Jobs = {
    ...real,
    renewAll: async (ids, ms) => (frozen() ? new Set(ids) : real.renewAll(ids, ms)),
    take: async (limit, ms) => (frozen() ? [] : real.take(limit, ms)),
  };
  const work = createWorkQueue({ loopBusy: () => false });
  return createDurableWork(jobs, work, quietLogger(), { leaseMs: 300, pollMs: 50 });
}

const until = async (check: () => boolean, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('durable work', () => {
  it('runs a job once, and adds nothing for a redelivery, even after it is done', async () => {
    const durable = runner('once.sqlite');
    const seen: unknown[] = [];
    durable.start({ echo: async (payload) => void seen.push(payload) });
    expect(await durable.submit('command:T1:a', 'echo', { text: 'hi' }, ANN)).toBe(true);
    expect(await durable.submit('command:T1:a', 'echo', { text: 'hi' }, ANN)).toBe(false);
    await until(() => seen.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await durable.submit('command:T1:a', 'echo', { text: 'hi' }, ANN)).toBe(false);
    expect(seen).toEqual([{ text: 'hi' }]);
    await durable.stop();
  });

  it('hands a job whose holder stopped renewing to another runner, with its progress', async () => {
    let dead = false;
    const first = runner('takeover.sqlite', () => dead);
    const second = runner('takeover.sqlite');
    const stuck: JobHandler = async (_payload, run) => {
      await run.save({ sentAt: 42 });
      // The holder dies here: it never finishes, and renews nothing any more.
      dead = true;
      await new Promise(() => undefined);
    };
    first.start({ book: stuck });
    const resumed: unknown[] = [];
    expect(await first.submit('command:T1:b', 'book', { text: '40 lunch' }, ANN)).toBe(true);
    second.start({ book: async (payload, run) => void resumed.push([payload, run.progress]) });
    await until(() => resumed.length === 1);
    expect(resumed).toEqual([[{ text: '40 lunch' }, { sentAt: 42 }]]);
    await second.stop();
  });

  it('runs a job once when its own lapsed lease is taken back while it still runs here', async () => {
    const real = createJobs(`sqlite://${join(dir, 'lapsed.sqlite')}`);
    opened.push(real);
    const takenBack: string[] = [];
    const jobs: Jobs = {
      ...real,
      // Every renewal fails to reach the store, so the lease lapses while the job runs.
      renewAll: async (ids) => new Set(ids),
      take: async (limit, ms) => {
        const taken = await real.take(limit, ms);
        takenBack.push(...taken.map((job) => job.id));
        return taken;
      },
    };
    const work = createWorkQueue({ loopBusy: () => false });
    const durable = createDurableWork(jobs, work, quietLogger(), { leaseMs: 300, pollMs: 50 });
    let runs = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    durable.start({
      book: async () => {
        runs += 1;
        await gate;
      },
    });
    expect(await durable.submit('command:T1:c', 'book', { text: '40 lunch' }, ANN)).toBe(true);
    await until(() => takenBack.length >= 2);
    expect(takenBack[0]).toBe('command:T1:c');
    expect(runs).toBe(1);
    release();
    await until(() => durable.size === 0);
    expect(runs).toBe(1);
    await durable.stop();
  });
});
