/**
 * `/split` ack latency and service calls per `/split`.
 *
 *   npx tsx bench/split-ack.ts     BENCH_REQUESTS=N requests per round (400), BENCH_ROUNDS=N (9),
 *                                  BENCH_ACK_ONLY=1: the real app drops what follows its acks
 *                                  BENCH_NO_HOLD=1: it starts that work without waiting for acks
 *                                  BENCH_V8_DEFAULT=1: the real app runs with V8's defaults
 *                                  instead of main.ts's tuning for idle (src/heap.ts)
 *                                  BENCH_COMPARE=<tree>: another checkout's app as a third party,
 *                                  "before", tuned as its own benchmark tuned it (built there)
 *                                  BENCH_LOADGEN_GC=0: the load generator does not collect its
 *                                  garbage before each turn (it does by default)
 *                                  BENCH_DURABLE_BARE=1: a fourth party, the bare app keeping
 *                                  each command first through the app's job store
 *                                  BENCH_COMPARE_TUNED=1: that tree tunes its heap itself, as
 *                                  the real app does (a tree since the adaptive young generation)
 *                                  BENCH_FROM=src: the apps from their sources (through tsx)
 *                                  rather than from the dist/ bundle that production runs
 *
 * Four processes, so that no two measured parties share an event loop: the outside world (the
 * expense emulator and the fake Slack Web API, bench/split-ack-world.ts), the real app, a bare
 * Bolt app that only acks the same command (both bench/split-ack-app.ts, on loopback, port 0),
 * and this one, which generates the load. Each round sends the same number of genuinely signed
 * `/split 12 coffee @bob` commands to each app at concurrency 50 (the apps take turns, alternating
 * which goes first) and measures the time to the HTTP answer, which is the ack. The real app goes
 * on to book every expense after acking, as in production; a round waits until every booking is
 * done before the next measurement. Medians over the rounds are reported; the target is
 * p99(app) / p99(bare) <= 1.15. So that holding the bookings back for the acks cannot hide a cost,
 * the time from sending each counted /split to its answer's arrival at the fake Slack is reported
 * too.
 *
 * Steady-state service calls: after the rounds (caches warm), the emulator's request log is
 * cleared, a fixed number of commands is sent, and every API request the emulator saw is counted
 * (target: 1 per /split, create_expense).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { control, requestCounts } from '@split/service-emulator/testing';
import { SIGNING_SECRET } from '../packages/app/test/support/harness.js';
import { send, slashCommand } from '../packages/app/test/support/slack-requests.js';
import { buildPackage } from '../scripts/build.js';
import { median } from './median.js';
import type { Stats } from './split-ack-app.js';
import type { World } from './split-ack-world.js';

const CONCURRENCY = 50;
const REQUESTS_PER_ROUND = Number(process.env.BENCH_REQUESTS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
/** The real app acks and drops the work after it: the floor set by its ack path alone. */
const ACK_ONLY = process.env.BENCH_ACK_ONLY === '1';
const STEADY_COMMANDS = 100;
/** Another checkout whose app runs beside this one's, in the same rounds. */
const COMPARE = process.env.BENCH_COMPARE;
const DURABLE_BARE = process.env.BENCH_DURABLE_BARE === '1';
const TEXT = '12 coffee <@U0BOB>';
/**
 * BENCH_LOADGEN_GC=0: the load generator collects when V8 decides, as before, not between turns,
 * and keeps V8's young generation.
 */
const COLLECT_BETWEEN_TURNS = process.env.BENCH_LOADGEN_GC !== '0';
/** BENCH_TAIL=1: what each party's process was doing while its slowest acks waited. */
const TAIL = process.env.BENCH_TAIL === '1';

/** A party's collections and event-loop stalls, as [start, duration] on the wall clock (ms). */
interface Pauses {
  gcs: Array<[number, number]>;
  stalls: Array<[number, number]>;
}
/** The whole run stops here whatever happens. */
const DEADLINE_MS = 600_000;

type Booker = 'real' | 'before';

interface Party {
  name: string;
  url: string;
  process: ChildProcess;
  /** Whose answers it posts: the parties that book. */
  books?: Booker;
}

interface Measured {
  p50: number;
  p99: number;
  /** Every ack's latency in the turn, sorted. */
  latencies: number[];
  /**
   * BENCH_TAIL=1: each ack as [sent, answered] on this process's clock (so that answered - sent is
   * its latency to the last bit), and the party's pauses on the wall clock.
   */
  acks: Array<[number, number]>;
  pauses?: Pauses;
  /** The party's own process during its turn: CPU and garbage collection. */
  cpuMs: number;
  /** Of that, what it spent during its turn: its acks, with the work after them held back. */
  turnCpuMs: number;
  gcCount: number;
  gcMs: number;
  youngMb: number;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

async function load(
  url: string,
  responseUrl: () => string,
): Promise<{ p50: number; p99: number; latencies: number[]; acks: Array<[number, number]> }> {
  const latencies: number[] = [];
  const acks: Array<[number, number]> = [];
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS_PER_ROUND) {
      next += 1;
      const request = slashCommand({ text: TEXT, response_url: responseUrl() });
      const started = performance.now();
      const reply = await send(url, SIGNING_SECRET, request);
      await reply.arrayBuffer();
      const ended = performance.now();
      latencies.push(ended - started);
      if (TAIL) acks.push([started, ended]);
      if (reply.status !== 200) throw new Error(`ack answered ${reply.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), latencies, acks };
}

async function main() {
  const deadline = setTimeout(() => {
    console.error(`benchmark exceeded ${DEADLINE_MS / 1000} s; stopping`);
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();

  const children: ChildProcess[] = [];
  const lines = new Map<ChildProcess, AsyncIterator<string>>();
  /** The next line a bench process prints. */
  const nextLine = async (child: ChildProcess): Promise<string> => {
    const line = await lines.get(child)!.next();
    if (line.done) throw new Error('a bench process closed its output');
    return line.value;
  };
  /** Starts a bench process and reads the one line it prints when ready. */
  const launch = async (args: string[], env: Record<string, string> = {}): Promise<string> => {
    const profile =
      process.env.BENCH_PROFILE && (args[1] === 'real' || process.env.BENCH_PROFILE === 'all')
        ? [
            '--cpu-prof',
            `--cpu-prof-dir=/tmp/split-prof/${args[3] ?? args[1]}`,
            `--cpu-prof-interval=${process.env.BENCH_PROFILE_US ?? 1000}`,
          ]
        : [];
    // The real app tunes itself as main.ts does (src/heap.ts, src/heap-adapt.ts) before it loads
    // the app. The tree before that (BENCH_COMPARE) is started as its benchmark started it: the
    // starting size given as the young generation's maximum (1 MB semi-spaces), since V8 raises
    // a growth factor given on the command line to 2. With BENCH_V8_DEFAULT=1 the flags given
    // are V8's defaults, which tuneForIdle leaves alone as the operator's choice.
    const young =
      args[1] !== 'real'
        ? []
        : process.env.BENCH_V8_DEFAULT === '1'
          ? ['--semi-space-growth-factor=2', '--liftoff']
          : args[3] === 'before' && process.env.BENCH_COMPARE_TUNED !== '1'
            ? ['--max-semi-space-size=1', '--liftoff-only']
            : [];
    const child = spawn(process.execPath, [...young, ...profile, '--import', 'tsx', ...args], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...process.env,
        ...env,
        BENCH_ACK_ONLY: ACK_ONLY ? '1' : '',
        BENCH_SIGNING_SECRET: SIGNING_SECRET,
      },
    });
    children.push(child);
    lines.set(child, createInterface({ input: child.stdout! })[Symbol.asyncIterator]());
    return Promise.race([
      nextLine(child),
      new Promise<string>((_, reject) =>
        child.once('exit', (code) => reject(new Error(`${args[0]} exited (${code})`))),
      ),
    ]);
  };
  // The apps run as production runs them, from dist/: this tree's is built now, so that what is
  // measured is what the sources say; a tree to compare must have been built (`npm run build`).
  if (process.env.BENCH_FROM !== 'src') {
    await buildPackage('app');
    if (COMPARE && !existsSync(`${COMPARE}/packages/app/dist/index.js`)) {
      throw new Error(
        `${COMPARE} has no built app: run npm run build there, or set BENCH_FROM=src`,
      );
    }
  }
  const worldJson = await launch(['bench/split-ack-world.ts']);
  const world = JSON.parse(worldJson) as World;
  // The world stands for machines elsewhere: on this small shared box it yields the processor to
  // the apps and the load generator rather than competing with them.
  try {
    setPriority(children[0]!.pid!, 19);
  } catch {
    console.log('(could not lower the world process priority; figures include its CPU use)');
  }
  const [appUrl, bareUrl, beforeUrl, durableUrl] = await Promise.all([
    launch(['bench/split-ack-app.ts', 'real', worldJson]),
    launch(['bench/split-ack-app.ts', 'bare', worldJson]),
    COMPARE
      ? launch(['bench/split-ack-app.ts', 'real', worldJson, 'before'], {
          BENCH_APP_SRC: `${COMPARE}/packages/app/src`,
        })
      : undefined,
    DURABLE_BARE ? launch(['bench/split-ack-app.ts', 'durable', worldJson]) : undefined,
  ]);
  const [appProcess, bareProcess, ...others] = children.slice(1);
  const beforeProcess = COMPARE ? others.shift() : undefined;
  const durableProcess = DURABLE_BARE ? others.shift() : undefined;
  /** What an app process spent so far (CPU, collections). */
  const statsOf = async (child: ChildProcess): Promise<Stats> => {
    child.stdin!.write('stats\n');
    return JSON.parse(await nextLine(child)) as Stats;
  };

  let sent = 0;
  /** When each counted /split to a booking app was sent (Date.now(), the world's clock too). */
  const sentAt = new Map<string, { app: Booker; round: number; at: number }>();
  let countingRound = 0;
  const responseUrl = (app: Booker | 'bare') => () => {
    const id = `bench-${sent++}`;
    if (app !== 'bare' && countingRound > 0)
      sentAt.set(id, { app, round: countingRound, at: Date.now() });
    return `${world.slackOrigin}/response/${id}`;
  };
  const creates = async () =>
    (await requestCounts(world.emuUrl))['POST /api/v3.0/create_expense'] ?? 0;
  let booked = 0;
  /** Waits until the app has booked every /split sent to it so far. */
  const waitForBookings = async (expected: number) => {
    if (ACK_ONLY) return;
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      if ((await creates()) - booked >= expected) {
        booked += expected;
        // The answers to the last bookings are posted right after; let them go out.
        await new Promise((resolve) =>
          setTimeout(resolve, Number(process.env.BENCH_SETTLE_MS ?? 200)),
        );
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the app did not book every /split within 60 s');
  };
  booked = await creates();
  const bookedAtStart = booked;

  // Warm-up: JIT, caches (friends, profiles, Slack users), keep-alive sockets.
  await load(appUrl, responseUrl('real'));
  await waitForBookings(REQUESTS_PER_ROUND);
  await load(bareUrl, responseUrl('bare'));
  if (durableUrl) await load(durableUrl, responseUrl('bare'));
  if (beforeUrl) {
    await load(beforeUrl, responseUrl('before'));
    await waitForBookings(REQUESTS_PER_ROUND);
  }

  const parties: Party[] = [
    { name: 'app', url: appUrl, process: appProcess!, books: 'real' },
    { name: 'bare', url: bareUrl, process: bareProcess! },
    ...(beforeUrl
      ? [{ name: 'before', url: beforeUrl, process: beforeProcess!, books: 'before' as const }]
      : []),
    ...(durableUrl ? [{ name: 'durable', url: durableUrl, process: durableProcess! }] : []),
  ];
  // The load generator stands for Slack, another machine: its own collections are no party's
  // latency. Its heap grows through a run (every counted command's send time, every latency),
  // and left to V8 its full collections paused it for up to 63 ms in the middle of turns, more
  // often the booking apps' (whose commands it records). So it collects before each turn, out of
  // the measured window, and reports what it still paused during each party's turns.
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  const loadGcs: Array<{ at: number; ms: number }> = [];
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      loadGcs.push({ at: entry.startTime, ms: entry.duration });
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const turns: Array<{ name: string; from: number; to: number }> = [];
  /**
   * Waits until the party just measured has gone quiet (under 5 ms of CPU in 100 ms, for at most
   * 3 s), and gives its figures then. The turns keep one order in every round, so each party
   * always follows the same other: without this, what a booking app still did after its last
   * booking was counted (answers, the jobs' last writes, its collections) fell in the next
   * party's turn, always the same party's.
   */
  const quiet = async (child: ChildProcess): Promise<Stats> => {
    let last = await statsOf(child);
    for (const until = Date.now() + 3_000; Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = await statsOf(child);
      if (now.cpuMs - last.cpuMs < 5) return now;
      last = now;
    }
    return last;
  };
  const rows: Record<string, Measured>[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const row: Record<string, Measured> = {};
    // Each takes its turn first in its round, so that a machine getting busier favours none; and
    // every other round goes the other way round, so that each follows each other party as often
    // (with three, the app always came after before, whose collections and writes trail longest).
    const order = round % 2 === 1 ? parties : [...parties].reverse();
    for (let i = 0; i < order.length; i++) {
      const party = order[(round - 1 + i) % order.length]!;
      const before = await statsOf(party.process);
      countingRound = party.books ? round : 0;
      if (COLLECT_BETWEEN_TURNS) collect();
      const from = performance.now();
      const latency = await load(party.url, responseUrl(party.books ?? 'bare'));
      turns.push({ name: party.name, from, to: performance.now() });
      // The turn's own CPU: its acks, with the work after them held back.
      const acked = await statsOf(party.process);
      countingRound = 0;
      if (party.books) await waitForBookings(REQUESTS_PER_ROUND);
      const after = await quiet(party.process);
      let pauses: Pauses | undefined;
      if (TAIL) {
        party.process.stdin!.write('pauses\n');
        pauses = JSON.parse(await nextLine(party.process)) as Pauses;
      }
      row[party.name] = {
        ...latency,
        pauses,
        cpuMs: after.cpuMs - before.cpuMs,
        turnCpuMs: acked.cpuMs - before.cpuMs,
        gcCount: after.gcCount - before.gcCount,
        gcMs: after.gcMs - before.gcMs,
        youngMb: after.youngMb,
      };
    }
    rows.push(row);
  }

  const fmt = (ms: number) => ms.toFixed(1);
  const names = parties.map((p) => p.name);
  console.log(
    `/split ack latency, ${REQUESTS_PER_ROUND} requests x ${ROUNDS} rounds, concurrency ${CONCURRENCY} (ms)${ACK_ONLY ? ', the real app dropping all work after its acks' : ''}`,
  );
  console.log(`round | ${names.map((n) => `${n} p50 | ${n} p99`).join(' | ')}`);
  rows.forEach((row, i) => {
    console.log(
      `${i + 1} | ${names.map((n) => `${fmt(row[n]!.p50)} | ${fmt(row[n]!.p99)}`).join(' | ')}`,
    );
  });
  const med = (name: string, pick: (m: Measured) => number) =>
    median(rows.map((r) => pick(r[name]!)));
  console.log(
    `median | ${names.map((n) => `${fmt(med(n, (m) => m.p50))} | ${fmt(med(n, (m) => m.p99))}`).join(' | ')}`,
  );
  // The p99 of every counted ack together, beside the medians of each round's p99: a round's
  // p99 is its fourth slowest ack of 400, so one stall in a round moves it; pooled, the p99 is
  // read from the slowest 1 % of all the rounds' acks.
  const pooled = new Map(
    names.map((name) => [
      name,
      percentile(
        rows.flatMap((r) => r[name]!.latencies).sort((a, b) => a - b),
        99,
      ),
    ]),
  );
  const pooledP99 = (name: string) => pooled.get(name)!;
  const ratios = (name: string, base: string) => {
    const perRound = rows.map((r) => r[name]!.p99 / r[base]!.p99);
    console.log(
      `p99 ratio ${name}/${base}: ${(med(name, (m) => m.p99) / med(base, (m) => m.p99)).toFixed(2)} (target <= 1.15); per round ${perRound.map((x) => x.toFixed(2)).join(', ')}, median ${median(perRound).toFixed(2)}; all rounds' acks pooled ${(pooledP99(name) / pooledP99(base)).toFixed(2)} (${fmt(pooledP99(name))} against ${fmt(pooledP99(base))} ms)`,
    );
  };
  for (const name of names.filter((n) => n !== 'bare')) ratios(name, 'bare');
  // What the app's ack costs beyond keeping the command.
  if (durableUrl) ratios('app', 'durable');
  // Entries are delivered after the turn that had them: read once the rounds are over.
  await new Promise((resolve) => setImmediate(resolve));
  gcObserver.disconnect();
  for (const name of names) {
    const during = loadGcs.filter(({ at }) =>
      turns.some((t) => t.name === name && at >= t.from && at < t.to),
    );
    const ms = during.reduce((sum, gc) => sum + gc.ms, 0);
    const longest = Math.max(0, ...during.map((gc) => gc.ms));
    console.log(
      `load generator's own collections during ${name}'s turns: ${during.length} pauses, ${fmt(ms)} ms, longest ${fmt(longest)} ms${COLLECT_BETWEEN_TURNS ? ' (collecting before each turn)' : ''}`,
    );
  }
  // Which turns the slowest 1 % of each party's acks came from: a stall of the machine during one
  // turn holds up dozens of acks at once, and then decides the p99 of every round pooled.
  for (const name of names) {
    const cut = pooledP99(name);
    const perTurn = rows.map((r) => r[name]!.latencies.filter((ms) => ms >= cut).length);
    console.log(`${name}: acks at or over its pooled p99, turn by turn: ${perTurn.join(', ')}`);
  }
  if (TAIL) for (const name of names) tail(name, rows, pooledP99(name));
  // Each party's own process, during its turns only: CPU (user + system) per command, and its
  // garbage collection (pauses, and time as a share of that CPU).
  console.log(
    'per round, medians | CPU per /split | of it during the turn | gc pauses | gc time | gc share of CPU | young generation',
  );
  for (const name of names) {
    console.log(
      `${name} | ${(med(name, (m) => m.cpuMs) / REQUESTS_PER_ROUND).toFixed(2)} ms | ${(med(name, (m) => m.turnCpuMs) / REQUESTS_PER_ROUND).toFixed(2)} ms | ${med(name, (m) => m.gcCount)} | ${fmt(med(name, (m) => m.gcMs))} ms | ${(100 * med(name, (m) => m.gcMs / m.cpuMs)).toFixed(1)} % | ${med(name, (m) => m.youngMb)} MB`,
    );
  }

  if (!ACK_ONLY) {
    // What the people who typed the commands waited for: from sending to the answer's arrival.
    children[0]!.stdin!.write('answers\n');
    const answeredAt = JSON.parse(await nextLine(children[0]!)) as Record<string, number>;
    for (const party of parties.filter((p) => p.books)) {
      if (TAIL) {
        // Bookings carried out while the party's own acks were still coming: work the ack gate
        // let start (a pause in the requests longer than its quiet time, or a job held too long).
        const during = rows.map(({ [party.name]: m }) => {
          const [from, to] = turnWindow(m!.acks);
          return Object.values(answeredAt)
            .map(onOurClock)
            .filter((at) => at >= from && at <= to).length;
        });
        console.log(
          `${party.name}: answers posted during its own turns, turn by turn: ${during.join(', ')}`,
        );
      }
      const byRound = new Map<number, number[]>();
      for (const [id, { app, round, at }] of sentAt) {
        if (app !== party.books) continue;
        const answered = answeredAt[id];
        if (answered === undefined) throw new Error(`no answer was posted for ${id}`);
        byRound.set(round, [...(byRound.get(round) ?? []), answered - at]);
      }
      const answers = [...byRound.values()].map((waits) => {
        const sorted = waits.sort((a, b) => a - b);
        return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1)! };
      });
      console.log(
        `${party.name}: answer in the channel, from sending /split (ms, medians of rounds): p50 ${fmt(median(answers.map((a) => a.p50)))}, p99 ${fmt(median(answers.map((a) => a.p99)))}, max ${fmt(median(answers.map((a) => a.max)))}`,
      );
    }

    // Every command booked once: as many bookings at the service as commands to the booking apps.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const made = (await creates()) - bookedAtStart;
    console.log(
      `bookings: ${made} for ${booked - bookedAtStart} commands${made === booked - bookedAtStart ? ', each exactly once' : ' (NOT exactly once)'}`,
    );
    await control(world.emuUrl, 'DELETE', 'requests');
    booked = 0;
    const steadyUrl = responseUrl('real');
    for (let i = 0; i < STEADY_COMMANDS; i++) {
      const reply = await send(
        appUrl,
        SIGNING_SECRET,
        slashCommand({ text: TEXT, response_url: steadyUrl() }),
      );
      await reply.arrayBuffer();
    }
    await waitForBookings(STEADY_COMMANDS);
    const counts = await requestCounts(world.emuUrl);
    const apiCalls = Object.entries(counts).filter(([route]) => route.includes('/api/v3.0/'));
    const perSplit = apiCalls.reduce((n, [, c]) => n + c, 0) / STEADY_COMMANDS;
    console.log(`service calls per /split in steady state: ${perSplit.toFixed(2)} (target 1)`);
    console.log(`  ${apiCalls.map(([route, c]) => `${route}: ${c}`).join(', ')}`);
  }

  for (const child of children.reverse()) {
    child.stdin!.end();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

/** A time on the wall clock (another process's) on this process's clock. */
function onOurClock(wallMs: number): number {
  return wallMs - performance.timeOrigin;
}

/** A turn, from its first ack sent to its last answered (BENCH_TAIL=1). */
function turnWindow(acks: Array<[number, number]>): [number, number] {
  const from = acks.reduce((min, [sent]) => Math.min(min, sent), Number.POSITIVE_INFINITY);
  const to = acks.reduce((max, [, answered]) => Math.max(max, answered), 0);
  return [from, to];
}

/**
 * BENCH_TAIL=1: what the party's process did while its acks at or over its pooled p99 waited:
 * how many overlapped one of its collections or an event-loop stall of 5 ms or more, how much of
 * each, and when in the turn they were sent.
 */
function tail(name: string, rows: Record<string, Measured>[], cut: number): void {
  let slow = 0;
  let withGc = 0;
  let withStall = 0;
  let gcMs = 0;
  let stallMs = 0;
  const sentAt: number[] = [];
  const turnStalls: number[] = [];
  for (const row of rows) {
    const { acks, pauses: onTheWall } = row[name]!;
    if (!onTheWall) continue;
    const ours = (list: Array<[number, number]>) =>
      list.map(([at, ms]): [number, number] => [onOurClock(at), ms]);
    const pauses = { gcs: ours(onTheWall.gcs), stalls: ours(onTheWall.stalls) };
    const [from, to] = turnWindow(acks);
    const inTurn = (list: Array<[number, number]>) =>
      list.filter(([start, ms]) => start < to && start + ms > from);
    turnStalls.push(inTurn(pauses.stalls).reduce((sum, [, ms]) => sum + ms, 0));
    for (const [sent, answered] of acks) {
      if (answered - sent < cut) continue;
      slow += 1;
      sentAt.push(sent - from);
      const overlap = (list: Array<[number, number]>) =>
        list
          .filter(([start, ms]) => start < answered && start + ms > sent)
          .reduce(
            (sum, [start, ms]) => sum + Math.min(answered, start + ms) - Math.max(sent, start),
            0,
          );
      const g = overlap(pauses.gcs);
      const st = overlap(pauses.stalls);
      if (g > 0) withGc += 1;
      if (st > 0) withStall += 1;
      gcMs += g;
      stallMs += st;
    }
  }
  const fmt = (ms: number) => ms.toFixed(1);
  console.log(
    `${name}: of its ${slow} acks at or over ${fmt(cut)} ms, ${withGc} waited through one of its collections (${fmt(gcMs / Math.max(1, slow))} ms each on average), ${withStall} through an event-loop stall (${fmt(stallMs / Math.max(1, slow))} ms); sent ${fmt(median(sentAt))} ms into the turn (median); its stalls per turn: ${turnStalls.map((ms) => ms.toFixed(0)).join(', ')} ms`,
  );
}

/**
 * The load generator's young generation, large enough for a whole turn's garbage: with V8's
 * default it still made a minor collection or two in most turns, up to 17 ms each on this
 * machine, after collecting before the turn. Slack, which it stands for, does not stop sending
 * while it collects, and a gap that long reads to the app's ack gate as the burst being over.
 */
const LOADGEN_YOUNG = ['--min-semi-space-size=64', '--max-semi-space-size=64'];

if (COLLECT_BETWEEN_TURNS && !process.execArgv.includes(LOADGEN_YOUNG[1]!)) {
  // The young generation is sized when the process starts: this one starts itself again so.
  const child = spawn(
    process.execPath,
    [...LOADGEN_YOUNG, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit' },
  );
  child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
