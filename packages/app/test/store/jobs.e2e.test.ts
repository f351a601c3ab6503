/**
 * The durable job queue on each backend: a job is queued once, held by one instance at a time,
 * taken over only when its holder's lease lapses, and kept after it is done for the dedupe.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobs, JOB_RETENTION_MS, type Jobs, PERSON_FIELD } from '../../src/store/index.js';
import { POSTGRES_URL, REDIS_URL } from '../support/stores.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-jobs-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const backends = [
  { name: 'SQLite', url: () => `sqlite://${join(dir, 'jobs.sqlite')}` },
  { name: 'Redis', url: () => REDIS_URL ?? '', missing: !REDIS_URL },
  { name: 'PostgreSQL', url: () => POSTGRES_URL ?? '', missing: !POSTGRES_URL },
];

for (const backend of backends)
  describe.skipIf(backend.missing)(`jobs on ${backend.name}`, () => {
    const open: Jobs[] = [];
    const jobs = (namespace: string, now?: () => number) => {
      const made = createJobs(backend.url(), { namespace, ...(now ? { now } : {}) });
      open.push(made);
      return made;
    };
    afterAll(async () => {
      await Promise.all(open.map((j) => j.close()));
    });

    it('queues an id once, and keeps it for the dedupe after it is done', async () => {
      const ns = `t-${randomUUID()}`;
      const a = jobs(ns);
      expect(await a.add('command:T1:trig', { text: '40 lunch' }, 60_000)).toBe(true);
      expect(await a.add('command:T1:trig', { text: '40 lunch' }, 60_000)).toBe(false);
      await a.finish('command:T1:trig', 60_000);
      expect(await a.add('command:T1:trig', { text: '40 lunch' }, 60_000)).toBe(false);
      expect(await jobs(ns).take(10, 60_000)).toEqual([]);
    });

    it('answers each of a burst of adds for its own id, a repeated one and a known one included', async () => {
      const ns = `t-${randomUUID()}`;
      const a = jobs(ns);
      expect(await a.add('command:T1:known', { n: -1 }, 60_000)).toBe(true);
      // All in one turn of the event loop: 77 rows, more than the largest statement takes.
      const ids = Array.from({ length: 75 }, (_, n) => `command:T1:b${n}`);
      const added = await Promise.all([
        ...ids.map((id, n) => a.add(id, { n }, 60_000)),
        a.add('command:T1:b3', { n: 'again' }, 60_000),
        a.add('command:T1:known', { n: 'again' }, 60_000),
      ]);
      expect(added).toEqual([...ids.map(() => true), false, false]);
      const taken = await jobs(ns).take(100, 60_000);
      expect(taken).toEqual([]);
      // Each row as its own add wrote it, the first of a repeated id's.
      await Promise.all([...ids, 'command:T1:known'].map((id) => a.release(id)));
      const all = await jobs(ns).take(100, 60_000);
      expect(all).toHaveLength(76);
      const payloads = new Map(all.map((job) => [job.id, job.payload]));
      expect(payloads.get('command:T1:b3')).toEqual({ n: 3 });
      expect(payloads.get('command:T1:b74')).toEqual({ n: 74 });
      expect(payloads.get('command:T1:known')).toEqual({ n: -1 });
    });

    it('renews all of its jobs at once, and gives back only those still its own', async () => {
      const ns = `t-${randomUUID()}`;
      let clock = 1_000_000;
      const first = jobs(ns, () => clock);
      const second = jobs(ns, () => clock);
      const ids = Array.from({ length: 300 }, (_, n) => `j${n}`);
      await Promise.all(ids.map((id) => first.add(id, { id }, 5_000)));
      await first.finish('j7', 60_000);
      // j3 lapses and goes to the second instance; the rest are renewed in time.
      clock += 4_000;
      const renewed = await first.renewAll(
        ids.filter((id) => id !== 'j3'),
        5_000,
      );
      expect(renewed.size).toBe(298);
      expect(renewed.has('j7')).toBe(false);
      clock += 1_500;
      expect((await second.take(10, 5_000)).map((job) => job.id)).toEqual(['j3']);
      const again = await first.renewAll(ids, 5_000);
      expect(again.has('j3')).toBe(false);
      expect(again.has('j7')).toBe(false);
      expect(again.size).toBe(298);
      expect(await first.renewAll([], 5_000)).toEqual(new Set());
    });

    it('lets another instance take a job only once its lease has lapsed, with its progress', async () => {
      const ns = `t-${randomUUID()}`;
      let clock = 1_000_000;
      const first = jobs(ns, () => clock);
      const second = jobs(ns, () => clock);
      const third = jobs(ns, () => clock);
      expect(await first.add('j1', { n: 1 }, 5_000)).toBe(true);
      expect(await first.save('j1', { sentAt: 42 })).toBe(true);
      expect(await second.take(10, 5_000)).toEqual([]);
      clock += 5_001;
      const [taken, ...more] = await second.take(10, 5_000);
      expect(more).toEqual([]);
      expect(taken).toEqual({
        id: 'j1',
        payload: { n: 1 },
        progress: { sentAt: 42 },
        createdAt: 1_000_000,
        retakes: 1,
      });
      // Only one of two instances asking at once gets it, and the old holder has lost it.
      clock += 5_001;
      const race = await Promise.all([first.take(10, 5_000), third.take(10, 5_000)]);
      expect(race.flat()).toHaveLength(1);
      const holder = race[0].length === 1 ? first : third;
      expect((await second.renewAll(['j1'], 5_000)).has('j1')).toBe(false);
      expect(await second.save('j1', { sentAt: 43 })).toBe(false);
      expect((await holder.renewAll(['j1'], 5_000)).has('j1')).toBe(true);
      await holder.finish('j1', 60_000);
      clock += 10_000;
      expect(await second.take(10, 5_000)).toEqual([]);
    });

    it("forgets a workspace's jobs, finished ones too, or one person's, and no one else's", async () => {
      const ns = `t-${randomUUID()}`;
      const a = jobs(ns);
      const by = (who: string) => ({ kind: 'split', data: { text: 'x' }, [PERSON_FIELD]: who });
      expect(await a.add('command:T1:a', by('T1:U1'), 60_000)).toBe(true);
      expect(await a.add('form:T1:b', by('T1:U2'), 60_000)).toBe(true);
      expect(await a.add('command:T1:c', by('T1:U1'), 60_000)).toBe(true);
      await a.finish('command:T1:c', 60_000);
      expect(await a.add('command:T2:d', by('T2:U1'), 60_000)).toBe(true);
      expect(await a.add('command:T10:e', by('T10:U1'), 60_000)).toBe(true);
      // U1's job not yet answered goes; the finished one holds only its id, which names no one.
      expect(await a.forget('T1', 'U1')).toBe(1);
      expect(await a.add('command:T1:a', by('T1:U1'), 60_000)).toBe(true);
      await a.release('command:T1:a');
      expect(await a.forget('T1')).toBe(3);
      for (const id of ['command:T1:a', 'form:T1:b', 'command:T1:c'])
        expect(await a.add(id, by('T1:U1'), 60_000), id).toBe(true);
      expect(await a.add('command:T2:d', by('T2:U1'), 60_000)).toBe(false);
      expect(await a.add('command:T10:e', by('T10:U1'), 60_000)).toBe(false);
    });

    it('keeps no job, finished or not, longer than its retention after it was queued', async () => {
      const ns = `t-${randomUUID()}`;
      let clock = 1_000_000;
      const a = jobs(ns, () => clock);
      expect(await a.add('stuck', { n: 1 }, 1_000)).toBe(true);
      if (backend.name === 'Redis') {
        // Redis expires the key itself.
        const { createClient } = await import('@keyv/redis');
        const client = createClient({ url: backend.url() });
        await client.connect();
        const ttl = await client.pTTL(`jobs:job:${ns}:stuck`);
        await client.quit();
        expect(ttl).toBeGreaterThan(JOB_RETENTION_MS - 60_000);
        expect(ttl).toBeLessThanOrEqual(JOB_RETENTION_MS);
        return;
      }
      clock += JOB_RETENTION_MS - 1;
      await jobs(ns, () => clock).take(0, 1_000);
      expect(await a.add('stuck', { n: 1 }, 1_000)).toBe(false);
      clock += 1;
      await jobs(ns, () => clock).take(0, 1_000);
      expect(await a.add('stuck', { n: 1 }, 1_000)).toBe(true);
    });

    it('hands a released job on at once, and keeps namespaces apart', async () => {
      const ns = `t-${randomUUID()}`;
      const a = jobs(ns);
      const other = jobs(`t-${randomUUID()}`);
      expect(await a.add('j2', { n: 2 }, 60_000)).toBe(true);
      await a.release('j2');
      expect(await other.take(10, 60_000)).toEqual([]);
      const taken = await jobs(ns).take(10, 60_000);
      expect(taken.map((j) => [j.id, j.retakes])).toEqual([['j2', 0]]);
    });
  });
