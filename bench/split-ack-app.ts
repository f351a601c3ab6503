/**
 * One of the two apps measured by bench/split-ack.ts, in its own process so that neither the load
 * generator nor the other app shares its event loop:
 *
 *   split-ack-app.ts real <world JSON>    the app itself, with Ann and Bob linked
 *   split-ack-app.ts bare <world JSON>    a Bolt app that only acks /split
 *   split-ack-app.ts durable <world JSON> the same, keeping each command first as the app does
 *   ... real <world JSON> before            with BENCH_APP_SRC: another tree's app, so labelled
 *
 * Prints the events URL on stdout, then serves until stdin closes, and reports its CPU time. A
 * line "stats" on stdin is answered with one JSON line: its CPU time and collections so far.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { Session } from 'node:inspector';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { App, type Logger, LogLevel } from '@slack/bolt';
import type * as AppModule from '../packages/app/src/compose.js';
import type * as ConfigModule from '../packages/app/src/config.js';
import type * as HeapModule from '../packages/app/src/heap.js';
import type * as JobsModule from '../packages/app/src/store/jobs.js';
import type { World } from './split-ack-world.js';

const [kind, json, label = kind] = process.argv.slice(2);
/**
 * The app's sources: this tree's, or another tree's (BENCH_APP_SRC, its packages/app/src) for a
 * "before" measured in the same run. Imported only once the heap is tuned as main.ts tunes it.
 */
const src = pathToFileURL(
  `${process.env.BENCH_APP_SRC ?? `${import.meta.dirname}/../packages/app/src`}/`,
);
const world = JSON.parse(json ?? '{}') as World;
/** The test harness's secret, passed on by bench/split-ack.ts: the harness loads the app. */
const SIGNING_SECRET = process.env.BENCH_SIGNING_SECRET ?? '';

function quietLogger(): Logger {
  const none = () => undefined;
  return {
    debug: none,
    info: none,
    warn: none,
    error: none,
    setLevel: none,
    getLevel: () => LogLevel.ERROR,
    setName: none,
  };
}
/** How long the ack-only floor holds the work after its acks: longer than any run. */
const HOUR_MS = 60 * 60_000;
let stop: () => Promise<void>;
let url: string;

if (kind === 'bare' || kind === 'durable') {
  // `durable`: the bare app keeping each command before its ack, as the app does (the app's own
  // job store, its group commit included, on a SQLite file of its own), and nothing after it.
  // The price of keeping acknowledged work, measured without the rest of the app.
  const dir = kind === 'durable' ? await mkdtemp(join(tmpdir(), 'split-bench-')) : undefined;
  const store = dir
    ? ((await import(new URL('store/jobs.js', src).href)) as typeof JobsModule)
    : undefined;
  const jobs = dir ? store?.createJobs(`sqlite://${join(dir, 'bare.sqlite')}`) : undefined;
  const bare = new App({
    token: world.team.botToken,
    botId: world.team.botId,
    botUserId: world.team.botUserId,
    signingSecret: SIGNING_SECRET,
    logger: quietLogger(),
    clientOptions: { slackApiUrl: world.slackApiUrl, retryConfig: { retries: 0 } },
  });
  bare.command('/split', async ({ ack, command }) => {
    if (store && jobs) {
      const { team_id, user_id, channel_id, text, response_url } = command;
      await jobs.add(
        `command:${team_id}:${command.trigger_id}`,
        {
          kind: 'split',
          data: { team_id, user_id, channel_id, text, response_url },
          [store.PERSON_FIELD]: `${team_id}:${user_id}`,
        },
        15_000,
      );
    }
    await ack();
  });
  const server = (await bare.start(0)) as Server;
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  stop = async () => {
    await bare.stop();
    await jobs?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  };
} else {
  // As main.ts does before it loads the app: flags given on the command line (a "before" tree
  // measured as it was then) are the operator's and win.
  const heap = (await import(new URL('heap.js', src).href)) as typeof HeapModule & {
    PINNED_YOUNG?: string;
  };
  const tuned = heap.tuneForIdle(process.execArgv, process.env.NODE_OPTIONS);
  if (heap.PINNED_YOUNG && tuned.includes(heap.PINNED_YOUNG)) {
    const { adaptYoungGeneration } = await import(new URL('heap-adapt.js', src).href);
    adaptYoungGeneration({
      nodeFlags: [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '),
      // Another growth factor for a burst, to compare against the app's own.
      ...(process.env.BENCH_GROWTH ? { growthFactor: Number(process.env.BENCH_GROWTH) } : {}),
    });
  }
  // The app as production runs it, built into dist/ (one bundle, no per-function names that tsx
  // keeps), unless BENCH_FROM=src asks for the sources. The composition root was app.ts in trees
  // before it was named for what it does.
  const root = existsSync(new URL('compose.ts', src)) ? 'compose.js' : 'app.js';
  const { startApp, loadConfig } = (
    process.env.BENCH_FROM === 'src'
      ? {
          ...((await import(new URL(root, src).href)) as typeof AppModule),
          ...((await import(new URL('config.js', src).href)) as typeof ConfigModule),
        }
      : await import(new URL('../dist/index.js', src).href)
  ) as typeof AppModule & typeof ConfigModule;
  const dir = await mkdtemp(join(tmpdir(), 'split-bench-'));
  const config = loadConfig({
    SLACK_BOT_TOKEN: world.team.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: world.slackApiUrl,
    // Nobody links an account here: the sign-in client is never asked.
    SLACK_CLIENT_ID: 'bench.client',
    SLACK_CLIENT_SECRET: 'bench-client',
    SERVICE_API_URL: `${world.emuUrl}/api/v3.0`,
    SERVICE_AUTHORIZE_URL: `${world.emuUrl}/oauth/authorize`,
    SERVICE_TOKEN_URL: `${world.emuUrl}/oauth/token`,
    SERVICE_CLIENT_ID: world.clientId,
    SERVICE_CLIENT_SECRET: world.clientSecret,
    PUBLIC_URL: 'http://split.test',
    PORT: '0',
    STORE_URL: `sqlite://${join(dir, 'app.sqlite')}`,
    LOG_LEVEL: 'error',
  });
  // The daily DM's timer is left off: this measures acks, and its walk would be noise.
  const app = await startApp({
    config,
    logger: quietLogger(),
    slackRetries: 0,
    digest: { scheduler: false },
    // For comparison: start the work after each ack at once, as before the ack gate. The floor
    // holds every job for an hour: the commands are acked and written to the durable queue as
    // usual, and nothing after the ack runs while the benchmark lasts.
    ...(process.env.BENCH_NO_HOLD === '1' ? { work: { holdFor: () => 0 } } : {}),
    // Another number of jobs at once after the acks, to compare against the app's own.
    ...(process.env.BENCH_SLOTS ? { work: { slots: Number(process.env.BENCH_SLOTS) } } : {}),
    ...(process.env.BENCH_ACK_ONLY === '1'
      ? { work: { holdFor: () => HOUR_MS, maxDeferMs: HOUR_MS } }
      : {}),
    // The floor holds every job after its ack, so the durable queue holds them all: with the
    // usual lease its heartbeat would renew thousands of them every 5 s, a cost no real run has.
    ...(process.env.BENCH_ACK_ONLY === '1' ? { jobs: { leaseMs: HOUR_MS } } : {}),
  });
  for (const link of world.links) {
    await app.deps.tokens.set(
      { team_id: 'T0001', user_id: link.slackId },
      {
        access_token: link.accessToken,
        token_type: 'bearer',
        service_user_id: link.serviceId,
        name: link.name,
        linked_at: new Date().toISOString(),
      },
    );
  }
  url = `${app.url}/slack/events`;
  stop = async () => {
    // The floor's held jobs would keep a graceful stop waiting for the hour; the process exits.
    if (process.env.BENCH_ACK_ONLY !== '1') await app.stop();
    await rm(dir, { recursive: true, force: true });
  };
}

// Where an ack can wait on its own process: event-loop stalls and garbage-collection pauses.
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
const gc = { count: 0, totalMs: 0, maxMs: 0, major: 0 };
/**
 * BENCH_TAIL=1: when this process paused, for the benchmark to set beside its slowest acks. Each
 * collection, and each time a timer due every 5 ms fired 5 ms or more late (the loop was held),
 * as [start, duration] in ms on the wall clock the load generator reads too.
 */
const TAIL = process.env.BENCH_TAIL === '1';
const pauses: { gcs: Array<[number, number]>; stalls: Array<[number, number]> } = {
  gcs: [],
  stalls: [],
};
if (TAIL) {
  const TICK_MS = 5;
  let due = performance.now() + TICK_MS;
  const tick = () => {
    const now = performance.now();
    if (now - due >= TICK_MS) pauses.stalls.push([performance.timeOrigin + due, now - due]);
    due = now + TICK_MS;
    setTimeout(tick, TICK_MS).unref();
  };
  setTimeout(tick, TICK_MS).unref();
}
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (TAIL) pauses.gcs.push([performance.timeOrigin + entry.startTime, entry.duration]);
    gc.count += 1;
    gc.totalMs += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
    if (
      (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR
    )
      gc.major += 1;
  }
}).observe({ entryTypes: ['gc'] });

process.stdout.write(`${url}\n`);
/** The young generation's size now: what the process holds for it, used or not. */
function youngMb(): string {
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return ((young?.space_size ?? 0) / 2 ** 20).toFixed(1);
}

/** What this process spent so far: the benchmark asks before and after each round. */
function stats() {
  const cpu = process.cpuUsage();
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    gcCount: gc.count,
    gcMs: gc.totalMs,
    gcMajor: gc.major,
    youngMb: Number(youngMb()),
  };
}
export type Stats = ReturnType<typeof stats>;

/**
 * BENCH_ALLOC_PROFILE=1: V8's sampling heap profiler, keeping what minor and major collections
 * took too, so that the profile shows where garbage is made, not only what stays.
 */
const allocations = process.env.BENCH_ALLOC_PROFILE === '1' ? new Session() : undefined;
if (allocations) {
  allocations.connect();
  allocations.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}
async function writeAllocations(): Promise<void> {
  if (!allocations) return;
  const { profile } = await new Promise<{ profile: unknown }>((resolve, reject) =>
    allocations.post('HeapProfiler.stopSampling', (error, result) =>
      error ? reject(error) : resolve(result as { profile: unknown }),
    ),
  );
  await mkdir('/tmp/split-prof', { recursive: true });
  await writeFile(`/tmp/split-prof/${label}.heapprofile`, JSON.stringify(profile));
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'stats') process.stdout.write(`${JSON.stringify(stats())}\n`);
  if (line.trim() === 'pauses') {
    process.stdout.write(`${JSON.stringify(pauses)}\n`);
    pauses.gcs = [];
    pauses.stalls = [];
  }
});
process.stdin.on('end', async () => {
  const cpu = process.cpuUsage();
  process.stderr.write(
    `cpu time of the ${label} process: user ${(cpu.user / 1000).toFixed(0)} ms system ${(cpu.system / 1000).toFixed(0)} ms\n`,
  );
  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  process.stderr.write(
    `  ${label}: event-loop delay p99 ${ms(loopDelay.percentile(99))} ms, max ${ms(loopDelay.max)} ms; gc ${gc.count} pauses (${gc.major} major), ${gc.totalMs.toFixed(0)} ms in all, longest ${gc.maxMs.toFixed(1)} ms; young generation ${youngMb()} MB\n`,
  );
  await writeAllocations();
  await stop();
  process.exit(0);
});
