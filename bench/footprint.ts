/**
 * Footprint of the production start against a bare Bolt app.
 *
 *   npm run build && npx tsx bench/footprint.ts [--rounds N]     (N = 7 unless given)
 *
 * Each round starts `node packages/app/dist/main.js` and `node bench/footprint-bare.mjs` one after the other,
 * alternating which goes first, with the same configuration: HTTP mode on a free port, the fake
 * Slack Web API of the app's test support for auth.test, and (for the app) the expense emulator, both
 * served from this process. For each it measures the time from spawn to the first 200 from
 * /healthz (polled every 10 ms), then, after 2 s of idle, VmRSS from /proc/<pid>/status of that
 * node process itself. Medians over the rounds are printed with the ratios app / bare; the targets
 * are RSS <= 1.2x and start <= 1.5x.
 *
 * Nothing is built here: the point is to measure the compiled start, so dist/ must exist.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeSlack } from '../packages/app/test/support/fake-slack.js';
import { startEmulator } from '../packages/service-emulator/src/index.js';

const IDLE_MS = 2_000;
const POLL_MS = 10;
const START_LIMIT_MS = 30_000;
const TARGET_RSS = 1.2;
const TARGET_START = 1.5;

interface Sample {
  startMs: number;
  rssKb: number;
}

function roundsFromArgs(): number {
  const at = process.argv.indexOf('--rounds');
  if (at === -1) return 7;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error('--rounds takes a whole number >= 1');
  return value;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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

function vmRssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Spawns `node <entry>`, waits for a healthy /healthz and the idle time, then stops it. */
async function measure(entry: string, env: Record<string, string>, cwd: string): Promise<Sample> {
  const port = await freePort();
  let output = '';
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) },
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
    await new Promise((done) => setTimeout(done, IDLE_MS));
    return { startMs, rssKb: vmRssKb(child.pid!) };
  } finally {
    await stop(child);
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
  const [slack, emu] = await Promise.all([startFakeSlack(), startEmulator()]);
  const dir = await mkdtemp(join(tmpdir(), 'split-footprint-'));
  // A working directory of its own: no .env of the checkout is read, the SQLite file goes here.
  const common = {
    SLACK_BOT_TOKEN: slack.team.botToken,
    SLACK_SIGNING_SECRET: 'footprint-signing-secret',
    SLACK_API_URL: slack.url,
  };
  const appEnv = {
    ...common,
    SERVICE_API_URL: `${emu.url}/api/v3.0`,
    SERVICE_AUTHORIZE_URL: `${emu.url}/oauth/authorize`,
    SERVICE_TOKEN_URL: `${emu.url}/oauth/token`,
    SLACK_CLIENT_ID: 'footprint.client',
    SLACK_CLIENT_SECRET: 'footprint-slack-client',
    SERVICE_CLIENT_ID: 'footprint',
    SERVICE_CLIENT_SECRET: 'footprint-secret',
    PUBLIC_URL: 'http://127.0.0.1:1',
    STORE_URL: `sqlite://${join(dir, 'app.sqlite')}`,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  };
  const app: Sample[] = [];
  const bare: Sample[] = [];
  const loadBefore = loadavg()[0]!;
  try {
    console.log(`${rounds} rounds, Node ${process.version}, load average ${loadBefore.toFixed(2)}`);
    console.log('round | app start | bare start | app RSS | bare RSS');
    for (let round = 1; round <= rounds; round++) {
      const runApp = async () => app.push(await measure(appEntry, appEnv, dir));
      const runBare = async () => bare.push(await measure(bareEntry, common, dir));
      // Alternating the order keeps a machine that warms up (or gets busier) from favouring one.
      if (round % 2 === 1) {
        await runApp();
        await runBare();
      } else {
        await runBare();
        await runApp();
      }
      const a = app.at(-1)!;
      const b = bare.at(-1)!;
      console.log(
        `${round} | ${a.startMs.toFixed(0)} ms | ${b.startMs.toFixed(0)} ms | ` +
          `${(a.rssKb / 1024).toFixed(1)} MB | ${(b.rssKb / 1024).toFixed(1)} MB`,
      );
    }
  } finally {
    await Promise.allSettled([slack.close(), emu.close()]);
    await rm(dir, { recursive: true, force: true });
  }

  const appRss = median(app.map((s) => s.rssKb)) / 1024;
  const bareRss = median(bare.map((s) => s.rssKb)) / 1024;
  const appStart = median(app.map((s) => s.startMs));
  const bareStart = median(bare.map((s) => s.startMs));
  const verdict = (ratio: number, target: number) =>
    ratio <= target ? `within ${target}x` : `over ${target}x`;
  console.log(`\nmedians over ${rounds} rounds (load average ${loadavg()[0]!.toFixed(2)} at end)`);
  console.log(
    `idle RSS: app ${appRss.toFixed(1)} MB, bare ${bareRss.toFixed(1)} MB, ratio ${(appRss / bareRss).toFixed(2)} (${verdict(appRss / bareRss, TARGET_RSS)})`,
  );
  console.log(
    `start:    app ${appStart.toFixed(0)} ms, bare ${bareStart.toFixed(0)} ms, ratio ${(appStart / bareStart).toFixed(2)} (${verdict(appStart / bareStart, TARGET_START)})`,
  );
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
