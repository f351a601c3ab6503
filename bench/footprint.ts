/**
 * Footprint of the production start against a bare Bolt app.
 *
 *   npm run build && npx tsx bench/footprint.ts [--rounds N]     (N = 7 unless given)
 *   ... [--compare packages/app/<other>/main.js] [--burst] [--malloc]
 *
 * Each round starts `node packages/app/dist/main.js` and `node bench/footprint-bare.mjs` one after
 * the other, alternating which goes first, with the same configuration: HTTP mode on a free port,
 * the fake Slack Web API of the app's test support, and (for the app) the expense emulator, both
 * served from this process. For each it measures the time from spawn to the first 200 from
 * /healthz (polled every 10 ms). Then it sends 20 signed `/split 12 coffee @bob` commands from Ann,
 * one after the other, each answered by its ack; the app books every one at the emulator (Ann and
 * Bob are linked in the SQLite store it starts with) and the benchmark waits for the 20 bookings
 * and their answers. After 2 s of idle it reads VmRSS from /proc/<pid>/status of that node process
 * itself: the memory a process holds at rest once it has served its common request. Medians over
 * the rounds are printed with the ratios app / bare; the targets are RSS <= 1.2x and start <= 1.5x.
 *
 * Every process gets HOME set to one folder of this run: on Node 22 and later the app keeps its
 * compiled code under it (src/compile-cache.ts), so its first start compiles everything and the
 * later rounds read the code back, as a restarted process would. The first start is printed on
 * its own line.
 *
 * --compare starts another build of the app (another tree's dist/, placed inside packages/app so
 * that its packages resolve) in the same rounds, with the app's configuration and warm-up: the
 * three take turns, so that a change is read against a "before" measured on the same machine at
 * the same time rather than against figures of another hour.
 *
 * --burst: once every process of the round has had its idle measured (they stay up), each gets a
 * burst of 400 signed commands at concurrency 50, in turn (the app books and answers every one
 * before the next process's burst), and VmRSS is read again 60 s after the last burst: what a
 * process holds at rest a minute after its busiest moment.
 *
 * --malloc: every process measured runs with the allocator settings of the Dockerfile's image
 * (MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_), as the app runs in production; the bare app gets them
 * too, so that the ratio stays one of the apps, not of their allocators.
 *
 * Nothing is built here: the point is to measure the compiled start, so dist/ must exist.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { control, createUser, requestCounts } from '@split/service-emulator/testing';
import { openStore } from '../packages/app/src/store/index.js';
import { type FakeSlack, startFakeSlack } from '../packages/app/test/support/fake-slack.js';
import { send, slashCommand } from '../packages/app/test/support/slack-requests.js';
import { startEmulator } from '../packages/service-emulator/src/index.js';
import { median } from './median.js';

const IDLE_MS = 2_000;
const POLL_MS = 10;
const START_LIMIT_MS = 30_000;
const WARM_UP_ACKS = 20;
const WARM_UP_LIMIT_MS = 30_000;
const WARM_UP_TEXT = '12 coffee <@U0BOB>';
const SIGNING_SECRET = 'footprint-signing-secret';
const TEAM = 'T0001';
const TARGET_RSS = 1.2;
const TARGET_START = 1.5;
const BURST = process.argv.includes('--burst');
/** The image's allocator settings (Dockerfile), with --malloc. */
const MALLOC: Record<string, string> = process.argv.includes('--malloc')
  ? { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' }
  : {};
const BURST_COMMANDS = 400;
const BURST_CONCURRENCY = 50;
const AFTER_BURST_MS = 60_000;

interface Sample {
  startMs: number;
  rssKb: number;
  /** With --burst: the same 60 s after the round's last burst. */
  afterBurst?: Pick<Sample, 'rssKb' | 'anonKb' | 'fileKb'>;
  /** Of rssKb: private memory (RssAnon) and pages of files, the node binary's first (RssFile). */
  anonKb: number;
  fileKb: number;
}

/** The warm-up's view of the world: where answers go, and when the work of the acks is done. */
interface WarmUp {
  slack: FakeSlack;
  /** Resolves once the app has finished the work of `count` acks (nothing to wait for: bare). */
  settled: (before: Settled, count: number) => Promise<void>;
  snapshot: () => Promise<Settled>;
}

interface Settled {
  creates: number;
  answers: number;
}

function roundsFromArgs(): number {
  const at = process.argv.indexOf('--rounds');
  if (at === -1) return 7;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error('--rounds takes a whole number >= 1');
  return value;
}

function compareFromArgs(): string | undefined {
  const at = process.argv.indexOf('--compare');
  if (at === -1) return undefined;
  const entry = process.argv[at + 1];
  if (!entry || !existsSync(entry)) throw new Error('--compare takes the path of a built main.js');
  return resolve(entry);
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

function memoryOf(pid: number): Pick<Sample, 'rssKb' | 'anonKb' | 'fileKb'> {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => {
    const kb = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1];
    if (kb === undefined) throw new Error(`no ${name} for process ${pid}`);
    return Number(kb);
  };
  return { rssKb: field('VmRSS'), anonKb: field('RssAnon'), fileKb: field('RssFile') };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Sends the warm-up commands one after the other; each must be acked with a 200. */
async function warmUp(port: number, warm: WarmUp): Promise<void> {
  const before = await warm.snapshot();
  for (let i = 0; i < WARM_UP_ACKS; i++) {
    const request = slashCommand({ text: WARM_UP_TEXT, response_url: warm.slack.responseUrl() });
    const reply = await send(`http://127.0.0.1:${port}/slack/events`, SIGNING_SECRET, request);
    await reply.arrayBuffer();
    if (reply.status !== 200) throw new Error(`warm-up /split answered ${reply.status}`);
  }
  await warm.settled(before, WARM_UP_ACKS);
}

/** 400 commands at concurrency 50, every one acked with a 200, and their work done. */
async function burst(port: number, warm: WarmUp): Promise<void> {
  const before = await warm.snapshot();
  let sent = 0;
  const worker = async () => {
    while (sent < BURST_COMMANDS) {
      sent++;
      const request = slashCommand({ text: WARM_UP_TEXT, response_url: warm.slack.responseUrl() });
      const reply = await send(`http://127.0.0.1:${port}/slack/events`, SIGNING_SECRET, request);
      await reply.arrayBuffer();
      if (reply.status !== 200) throw new Error(`burst /split answered ${reply.status}`);
    }
  };
  await Promise.all(Array.from({ length: BURST_CONCURRENCY }, worker));
  await warm.settled(before, BURST_COMMANDS);
}

interface Running {
  sample: Sample;
  child: ChildProcess;
  port: number;
  warm: WarmUp;
}

/**
 * Spawns `node <entry>`, waits for a healthy /healthz, warms it up and idles; the caller stops it
 * (stop) once done with it.
 */
async function measure(
  entry: string,
  env: Record<string, string>,
  cwd: string,
  warm: WarmUp,
): Promise<Running> {
  const port = await freePort();
  let output = '';
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...MALLOC, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  try {
    let startMs: number | undefined;
    while (startMs === undefined) {
      if (child.exitCode !== null) throw new Error(`${entry} exited ${child.exitCode}:\n${output}`);
      if (performance.now() - started > START_LIMIT_MS) {
        throw new Error(`${entry} not healthy after ${START_LIMIT_MS} ms:\n${output}`);
      }
      const healthy = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (healthy) startMs = performance.now() - started;
      else await new Promise((done) => setTimeout(done, POLL_MS));
    }
    await warmUp(port, warm).catch((error: Error) => {
      throw new Error(`${entry}: ${error.message}\n${output}`);
    });
    await new Promise((done) => setTimeout(done, IDLE_MS));
    return { sample: { startMs, ...memoryOf(child.pid!) }, child, port, warm };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

async function main(): Promise<void> {
  const appEntry = resolve('packages/app/dist/main.js');
  const bareEntry = resolve('bench/footprint-bare.mjs');
  if (!existsSync(appEntry)) {
    console.error(
      'packages/app/dist/main.js is missing: run `npm run build` first (npm ci does it too).',
    );
    process.exit(1);
  }
  if (!existsSync('/proc/self/status')) {
    console.error('This benchmark reads /proc/<pid>/status, which only Linux has.');
    process.exit(1);
  }
  const rounds = roundsFromArgs();
  const otherEntry = compareFromArgs();
  const [slack, emu] = await Promise.all([startFakeSlack(), startEmulator()]);
  const dir = await mkdtemp(join(tmpdir(), 'split-footprint-'));
  try {
    const service = (
      await control(emu.url, 'POST', 'apps', { redirect_uri: 'http://127.0.0.1:1/oauth/callback' })
    ).body as { client_id: string; client_secret: string };
    const encryptionKey = randomBytes(32).toString('hex');
    // Ann and Bob, linked in a store that every start of the app gets a fresh copy of.
    const seeded = join(dir, 'seeded.sqlite');
    const store = await openStore(`sqlite://${seeded}`, { encryptionKey, dataDir: dir });
    try {
      for (const [id, name] of [
        ['U0ANN', 'Ann'],
        ['U0BOB', 'Bob'],
      ] as const) {
        const email = `${name.toLowerCase()}.footprint@example.com`;
        slack.addUser({ id, name: name.toLowerCase(), real_name: name, email });
        const created = await createUser(emu.url, { first_name: name, email });
        const token = (
          await control(emu.url, 'POST', 'tokens', {
            user_id: created.user.id,
            client_id: service.client_id,
          })
        ).body as { access_token: string };
        await store.tokens.set(
          { team_id: TEAM, user_id: id },
          {
            access_token: token.access_token,
            token_type: 'bearer',
            service_user_id: created.user.id,
            name,
            linked_at: new Date().toISOString(),
          },
        );
      }
    } finally {
      await store.close();
    }

    const common = {
      HOME: join(dir, 'home'),
      SLACK_BOT_TOKEN: slack.team.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.url,
    };
    const appEnv = {
      ...common,
      SERVICE_API_URL: `${emu.url}/api/v3.0`,
      SERVICE_AUTHORIZE_URL: `${emu.url}/oauth/authorize`,
      SERVICE_TOKEN_URL: `${emu.url}/oauth/token`,
      SLACK_CLIENT_ID: 'footprint.client',
      SLACK_CLIENT_SECRET: 'footprint-slack-client',
      SERVICE_CLIENT_ID: service.client_id,
      SERVICE_CLIENT_SECRET: service.client_secret,
      PUBLIC_URL: 'http://127.0.0.1:1',
      ENCRYPTION_KEY: encryptionKey,
    };
    const snapshot = async (): Promise<Settled> => ({
      creates: (await requestCounts(emu.url))['POST /api/v3.0/create_expense'] ?? 0,
      answers: slack.responses.length,
    });
    const appWarm: WarmUp = {
      slack,
      snapshot,
      settled: async (before, count) => {
        const until = performance.now() + WARM_UP_LIMIT_MS;
        for (;;) {
          const now = await snapshot();
          const creates = now.creates - before.creates;
          const answers = now.answers - before.answers;
          if (creates >= count && answers >= count) return;
          if (performance.now() > until) {
            throw new Error(
              `the app booked ${creates} and answered ${answers} of ${count} commands in ${WARM_UP_LIMIT_MS} ms`,
            );
          }
          await new Promise((done) => setTimeout(done, 50));
        }
      },
    };
    const bareWarm: WarmUp = { slack, snapshot, settled: async () => undefined };

    const app: Sample[] = [];
    const bare: Sample[] = [];
    const other: Sample[] = [];
    const loadBefore = loadavg()[0]!;
    console.log(
      `${rounds} rounds, Node ${process.version}, load average ${loadBefore.toFixed(2)}${
        MALLOC.MALLOC_ARENA_MAX ? ", the image's allocator settings" : ''
      }`,
    );
    if (otherEntry) console.log(`compared with ${otherEntry}`);
    console.log(
      `round | app start | bare start | app RSS | bare RSS${otherEntry ? ' | compared start | compared RSS' : ''}${BURST ? ` | RSS 60 s after a burst: app | bare${otherEntry ? ' | compared' : ''}` : ''}`,
    );
    for (let round = 1; round <= rounds; round++) {
      // A working directory of its own for each start: no .env of the checkout is read, and the
      // app's SQLite file is a fresh copy of the seeded one.
      const running: Running[] = [];
      const runAppBuild = async (entry: string, samples: Sample[]) => {
        const cwd = await mkdtemp(join(dir, 'app-'));
        await copyFile(seeded, join(cwd, 'app.sqlite'));
        const env = { ...appEnv, STORE_URL: `sqlite://${join(cwd, 'app.sqlite')}` };
        const up = await measure(entry, env, cwd, appWarm);
        running.push(up);
        samples.push(up.sample);
      };
      const runApp = () => runAppBuild(appEntry, app);
      const runBare = async () => {
        const cwd = await mkdtemp(join(dir, 'bare-'));
        const up = await measure(bareEntry, common, cwd, bareWarm);
        running.push(up);
        bare.push(up.sample);
      };
      // Changing the order keeps a machine that warms up (or gets busier) from favouring one.
      const runs = otherEntry
        ? [runApp, runBare, () => runAppBuild(otherEntry, other)]
        : [runApp, runBare];
      try {
        for (let i = 0; i < runs.length; i++) {
          // Without --burst each process stops before the next starts, as it always did.
          await runs[(round - 1 + i) % runs.length]!();
          if (!BURST) await stop(running.at(-1)!.child);
        }
        if (BURST) {
          for (const up of running) await burst(up.port, up.warm);
          await new Promise((done) => setTimeout(done, AFTER_BURST_MS));
          for (const up of running) up.sample.afterBurst = memoryOf(up.child.pid!);
        }
      } finally {
        await Promise.all(running.map((up) => stop(up.child)));
      }
      const a = app.at(-1)!;
      const b = bare.at(-1)!;
      const o = other.at(-1);
      const after = (s: Sample | undefined) =>
        s?.afterBurst ? ` | ${(s.afterBurst.rssKb / 1024).toFixed(1)} MB` : '';
      console.log(
        `${round} | ${a.startMs.toFixed(0)} ms | ${b.startMs.toFixed(0)} ms | ` +
          `${(a.rssKb / 1024).toFixed(1)} MB | ${(b.rssKb / 1024).toFixed(1)} MB` +
          (o ? ` | ${o.startMs.toFixed(0)} ms | ${(o.rssKb / 1024).toFixed(1)} MB` : '') +
          after(a) +
          after(b) +
          after(o),
      );
    }

    const appRss = median(app.map((s) => s.rssKb)) / 1024;
    const bareRss = median(bare.map((s) => s.rssKb)) / 1024;
    const appStart = median(app.map((s) => s.startMs));
    const bareStart = median(bare.map((s) => s.startMs));
    const verdict = (ratio: number, target: number) =>
      ratio <= target ? `within ${target}x` : `over ${target}x`;
    console.log(
      `\nmedians over ${rounds} rounds (load average ${loadavg()[0]!.toFixed(2)} at end)`,
    );
    console.log(
      `idle RSS: app ${appRss.toFixed(1)} MB, bare ${bareRss.toFixed(1)} MB, ratio ${(appRss / bareRss).toFixed(2)} (${verdict(appRss / bareRss, TARGET_RSS)})`,
    );
    const mb = (samples: Sample[], kb: (s: Sample) => number) => median(samples.map(kb)) / 1024;
    const anon = [mb(app, (s) => s.anonKb), mb(bare, (s) => s.anonKb)] as const;
    const file = [mb(app, (s) => s.fileKb), mb(bare, (s) => s.fileKb)] as const;
    // File pages are the node binary's (its ICU data too, which any Intl formatter maps) and the
    // libraries': shared with every other node process on the host, and given back under pressure.
    console.log(
      `  of which private (RssAnon): app ${anon[0].toFixed(1)} MB, bare ${anon[1].toFixed(1)} MB, ratio ${(anon[0] / anon[1]).toFixed(2)}; file pages (RssFile): app ${file[0].toFixed(1)} MB, bare ${file[1].toFixed(1)} MB`,
    );
    console.log(
      `first start of the app, nothing compiled yet: ${app[0]!.startMs.toFixed(0)} ms (bare ${bare[0]!.startMs.toFixed(0)} ms)`,
    );
    console.log(
      `start:    app ${appStart.toFixed(0)} ms, bare ${bareStart.toFixed(0)} ms, ratio ${(appStart / bareStart).toFixed(2)} (${verdict(appStart / bareStart, TARGET_START)})`,
    );
    if (BURST) {
      const afterMb = (
        samples: Sample[],
        kb: (m: Sample['afterBurst']) => number = (m) => m!.rssKb,
      ) => median(samples.map((s) => kb(s.afterBurst))) / 1024;
      const [appAfter, bareAfter] = [afterMb(app), afterMb(bare)];
      console.log(
        `RSS 60 s after a burst of ${BURST_COMMANDS}: app ${appAfter.toFixed(1)} MB, bare ${bareAfter.toFixed(1)} MB, ratio ${(appAfter / bareAfter).toFixed(2)} (${verdict(appAfter / bareAfter, TARGET_RSS)})` +
          (other.length
            ? `; compared ${afterMb(other).toFixed(1)} MB, ratio ${(afterMb(other) / bareAfter).toFixed(2)}`
            : ''),
      );
      const anonAfter = (samples: Sample[]) => afterMb(samples, (m) => m!.anonKb).toFixed(1);
      console.log(
        `  of which private (RssAnon): app ${anonAfter(app)} MB, bare ${anonAfter(bare)} MB${other.length ? `, compared ${anonAfter(other)} MB` : ''}`,
      );
    }
    if (other.length) {
      const otherRss = median(other.map((s) => s.rssKb)) / 1024;
      const otherStart = median(other.map((s) => s.startMs));
      console.log(
        `compared: idle RSS ${otherRss.toFixed(1)} MB, ratio ${(otherRss / bareRss).toFixed(2)} to bare; start ${otherStart.toFixed(0)} ms, ratio ${(otherStart / bareStart).toFixed(2)}`,
      );
    }
  } finally {
    await Promise.allSettled([slack.close(), emu.close()]);
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
