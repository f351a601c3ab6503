/**
 * How long the write before an ack waits on SQLite, and whether checkpoints on a second connection
 * would shorten it. The app's connection (`packages/app/src/store/sqlite.ts`) leaves checkpoints
 * to SQLite, which runs one inside the commit that takes the write-ahead log past 1,000 pages
 * (copying the log into the database file and syncing both). The alternative measured beside it:
 * the same connection with that threshold raised to 10,000 pages, and a PASSIVE checkpoint run
 * on a second connection 250 ms after writes.
 *
 *   npx tsx bench/sqlite-commits.ts      BENCH_ROUNDS=N (5), BENCH_GROUPS=N groups a round (1000)
 *
 * The writes of a burst of bookings through the app's own stores, on a file in the OS temp
 * directory: five jobs added in one turn (what five acks wait on; the job store writes them as
 * one group), then each job's progress, its end and its undo record, then 1 ms to the next group.
 * The two take turns, each on a file of its own, in rounds (alternating which goes first); the
 * tables give medians of the rounds: latency of the groups' writes, how many took over 5 ms, and
 * the process's CPU.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { createJobs, createKeyv, type Jobs } from '../packages/app/src/store/index.js';
import { sqliteConnection } from '../packages/app/src/store/sqlite.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const GROUPS = Number(process.env.BENCH_GROUPS ?? 1000);
const ROWS = 5;

interface Target {
  jobs: Jobs;
  undo: Awaited<ReturnType<typeof createKeyv>>;
  /** Told after each write (the second connection's checkpoints follow writes). */
  wrote(): void;
  close(): Promise<void>;
}

/** The app's stores on `file`, as the app opens them. */
async function appStores(file: string): Promise<Omit<Target, 'wrote'>> {
  const url = `sqlite://${file}`;
  const jobs = createJobs(url);
  const undo = await createKeyv(url, { namespace: 'undo' });
  return {
    jobs,
    undo,
    async close() {
      await jobs.close();
      await undo.disconnect();
    },
  };
}

/** The app's stores. */
async function appCheckpoints(file: string): Promise<Target> {
  return { ...(await appStores(file)), wrote: () => undefined };
}

function allOn(db: sqlite3.Database, sql: string): Promise<unknown[]> {
  return new Promise((resolve, reject) =>
    db.all(sql, [], (error, rows) => (error ? reject(error) : resolve(rows))),
  );
}

/** The app's stores, their checkpoints run on a second connection a moment after writes. */
async function sideCheckpoints(file: string): Promise<Target> {
  // The stores share this process's one connection to the file: the setting reaches theirs.
  const connection = await sqliteConnection(`sqlite://${file}`);
  await connection.all('PRAGMA wal_autocheckpoint = 10000');
  const stores = await appStores(file);
  const side = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, (error) => (error ? reject(error) : resolve(opened)));
  });
  await allOn(side, 'PRAGMA synchronous = NORMAL');
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  return {
    ...stores,
    wrote() {
      timer ??= setTimeout(() => {
        timer = undefined;
        running ??= allOn(side, 'PRAGMA wal_checkpoint(PASSIVE)').finally(() => {
          running = undefined;
        });
      }, 250);
    },
    async close() {
      clearTimeout(timer);
      await running;
      await new Promise((resolve) => side.close(resolve));
      await stores.close();
      await connection.close();
    },
  };
}

interface Measured {
  p50: number;
  p99: number;
  p999: number;
  max: number;
  over5: number;
  cpuMs: number;
}

const PAYLOAD = { kind: 'split', data: { text: 'x'.repeat(900) } };
const UNDO_RECORD = { expense: 1, shares: 'y'.repeat(400) };

async function round(target: Target, offset: number): Promise<Measured> {
  const waits: number[] = [];
  const cpu = process.cpuUsage();
  for (let g = 0; g < GROUPS; g++) {
    const ids = Array.from({ length: ROWS }, (_, i) => `job-${offset + g * ROWS + i}`);
    const started = performance.now();
    await Promise.all(ids.map((id) => target.jobs.add(id, PAYLOAD, 15_000)));
    waits.push(performance.now() - started);
    target.wrote();
    for (const id of ids) {
      await target.jobs.save(id, { step: 'booked' });
      await target.jobs.finish(id, 3_600_000);
      await target.undo.set(id, UNDO_RECORD);
      target.wrote();
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  const used = process.cpuUsage(cpu);
  waits.sort((a, b) => a - b);
  const at = (q: number) => waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]!;
  return {
    p50: at(0.5),
    p99: at(0.99),
    p999: at(0.999),
    max: waits.at(-1)!,
    over5: waits.filter((ms) => ms > 5).length,
    cpuMs: (used.user + used.system) / 1000,
  };
}

const dir = await mkdtemp(join(tmpdir(), 'split-bench-commits-'));
try {
  const parties = [
    { name: "SQLite's own checkpoints, inside commits (the app)", open: appCheckpoints },
    { name: 'checkpoints on a second connection', open: sideCheckpoints },
  ];
  const targets: Target[] = [];
  for (const [i, party] of parties.entries()) {
    targets.push(await party.open(join(dir, `${i}.sqlite`)));
  }
  const results = parties.map(() => [] as Measured[]);
  // One round each to warm up, not counted.
  for (let r = 0; r <= ROUNDS; r++) {
    for (let k = 0; k < parties.length; k++) {
      const i = (r + k) % parties.length;
      const measured = await round(targets[i]!, r * GROUPS * ROWS);
      if (r > 0) results[i]!.push(measured);
    }
  }
  for (const target of targets) await target.close();
  console.log(
    `SQLite write before the ack: ${GROUPS} groups of ${ROWS} rows a round, each followed by three writes a job; medians of ${ROUNDS} rounds (ms)`,
  );
  console.log('connection | p50 | p99 | p99.9 | max | groups over 5 ms | CPU per round');
  for (const [i, party] of parties.entries()) {
    const m = (pick: (x: Measured) => number) => median(results[i]!.map(pick));
    console.log(
      `${party.name} | ${m((x) => x.p50).toFixed(2)} | ${m((x) => x.p99).toFixed(2)} | ${m((x) => x.p999).toFixed(2)} | ${m((x) => x.max).toFixed(1)} | ${m((x) => x.over5)} | ${m((x) => x.cpuMs).toFixed(0)} ms`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
