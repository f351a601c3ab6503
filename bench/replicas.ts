/**
 * The daily balance DM for 2,000 people, sent by one replica of the app and by two replicas on the
 * same Redis store, side by side in one run.
 *
 *   npx tsx bench/replicas.ts       BENCH_ROUNDS=N (5), BENCH_PEOPLE=N (2000)
 *
 * Four processes, so that no two measured parties share an event loop: the outside world (the
 * expense emulator, with a fault adding 20 ms to every /api/v3.0/* request, and the fake Slack Web
 * API), two replicas of the real app (startApp, each with its own connections to the store, the
 * daily DM's runner at the app's default concurrency), and this one, which seeds and measures.
 * The store is a Redis database of its own (one of 1 to 15, flushed at the end).
 *
 * People are seeded through the emulator's control plane (user, OAuth token) and ledger (one
 * expense per neighbouring pair, so everybody has a balance), linked in the shared store, and
 * subscribed with their hour set so that all are due at the benchmark's instant. A first day, not
 * counted, opens every DM channel and warms both replicas up. Then each round measures one full
 * day with replica A alone and one with both at the same moment (each run on its own local day,
 * the order alternating between rounds): DMs sent per second of wall time, from the order to run
 * to the last replica's report. Every day must end with exactly one DM per person (counted at the
 * fake Slack), or the run fails. Alongside: CPU time per DM of the replicas and of the outside
 * world, and the host's load average, since on a shared host the rate follows the CPU left over.
 *
 * The service publishes no rate limit. Each person's two calls (get_friends, get_groups) go out
 * with that person's own token, so no token makes more than two calls a day; the aggregate rate
 * the emulator served is printed for each run.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@keyv/redis';
import type { Logger } from '@slack/bolt';
import { LogLevel } from '@slack/bolt';
import { startApp } from '../packages/app/src/compose.js';
import { loadConfig } from '../packages/app/src/config.js';
import type { DigestRunReport } from '../packages/app/src/slack/digest/index.js';
import { localTime } from '../packages/app/src/slack/digest/index.js';
import { openStore } from '../packages/app/src/store/index.js';
import { scratchRedis } from '../packages/app/test/replicas/stores.js';
import { startFakeSlack } from '../packages/app/test/support/fake-slack.js';
import { startEmulator } from '../packages/service-emulator/src/index.js';
import { median } from './median.js';

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LATENCY_MS = 20;
const SEED_PARALLEL = 32;
const SIGNING_SECRET = 'bench-replicas-signing-secret-0123';
const PUBLIC_URL = 'http://split.test';
const ZONES = [
  'Asia/Tokyo',
  'America/New_York',
  'Europe/Paris',
  'Europe/London',
  'America/Los_Angeles',
  'Australia/Sydney',
  'Asia/Kolkata',
  'America/Sao_Paulo',
  'Africa/Lagos',
  'Pacific/Auckland',
  'Asia/Singapore',
  'UTC',
];
/** The whole benchmark stops itself after this long, whatever happens. */
const DEADLINE_MS = 15 * 60_000;

type ToWorld =
  | {
      type: 'seed';
      people: Array<{ serviceId: number; email: string; slackId: string; tz: string }>;
    }
  | { type: 'oidc' }
  | { type: 'postMessages' }
  | { type: 'cpu' }
  | { type: 'clear' }
  | { type: 'close' };

type ToReplica = { type: 'run'; at: number } | { type: 'close' };

interface Ran {
  type: 'ran';
  report: DigestRunReport;
  problems: number;
  /** CPU time (user + system) the replica's process used during the run, in ms. */
  cpuMs: number;
}

const cpuMsSince = (before: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

/** One request at a time to a child over IPC, each answered by the next message it sends. */
function asker(child: ChildProcess) {
  const waiting: Array<(answer: unknown) => void> = [];
  child.on('message', (answer) => waiting.shift()?.(answer));
  let queue = Promise.resolve<unknown>(undefined);
  return <T>(message: unknown): Promise<T> => {
    queue = queue.then(
      () =>
        new Promise((resolve) => {
          waiting.push(resolve);
          child.send(message as object);
        }),
    );
    return queue as Promise<T>;
  };
}

async function forkSelf(
  role: string,
  argument = '',
): Promise<{ child: ChildProcess; ready: unknown }> {
  const child = fork(fileURLToPath(import.meta.url), [role, argument], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${role} exited (${code}) before it was ready`)));
  });
  child.removeAllListeners('error');
  child.removeAllListeners('exit');
  return { child, ready };
}

async function json<T>(url: string, method: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status}`);
  return (await response.json()) as T;
}

async function inBatches<T>(count: number, parallel: number, task: (i: number) => Promise<T>) {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await task(i);
      }
    }),
  );
  return results;
}

async function main() {
  const deadline = setTimeout(() => {
    console.error(`bench/replicas.ts: gave up after ${DEADLINE_MS / 60_000} minutes`);
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();
  const store = await scratchRedis();
  const dir = await mkdtemp(join(tmpdir(), 'split-bench-replicas-'));
  const children: ChildProcess[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  try {
    const world = await forkSelf('--world');
    children.push(world.child);
    const askWorld = asker(world.child);
    const { emuUrl, slackUrl, slackOrigin, botToken, teamId } = world.ready as {
      emuUrl: string;
      slackUrl: string;
      slackOrigin: string;
      botToken: string;
      teamId: string;
    };
    const control = (path: string, body?: unknown, method = 'POST') =>
      json<Record<string, unknown>>(`${emuUrl}/__emulator/${path}`, method, body);
    const oauthApp = (await control('apps', {
      redirect_uri: `${PUBLIC_URL}/oauth/callback`,
      name: 'Split for Slack',
    })) as { client_id: string; client_secret: string };
    const oidc = await askWorld<{ clientId: string; clientSecret: string }>({ type: 'oidc' });
    const encryptionKey = randomBytes(32).toString('hex');
    const env: Record<string, string> = {
      SLACK_BOT_TOKEN: botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slackUrl,
      SLACK_WEB_URL: slackOrigin,
      SLACK_CLIENT_ID: oidc.clientId,
      SLACK_CLIENT_SECRET: oidc.clientSecret,
      SERVICE_API_URL: `${emuUrl}/api/v3.0`,
      SERVICE_AUTHORIZE_URL: `${emuUrl}/oauth/authorize`,
      SERVICE_TOKEN_URL: `${emuUrl}/oauth/token`,
      SERVICE_CLIENT_ID: oauthApp.client_id,
      SERVICE_CLIENT_SECRET: oauthApp.client_secret,
      PUBLIC_URL,
      PORT: '0',
      STORE_URL: store.url,
      ENCRYPTION_KEY: encryptionKey,
      LOG_LEVEL: 'error',
    };

    const start = new Date('2026-11-21T12:00:00Z');
    const seedStarted = performance.now();
    const people = await inBatches(PEOPLE, SEED_PARALLEL, async (i) => {
      const { user } = (await control('users', {
        email: `p${i}@bench.example`,
        first_name: `Person${i}`,
      })) as { user: { id: number; email: string } };
      const { access_token } = (await control('tokens', {
        user_id: user.id,
        client_id: oauthApp.client_id,
      })) as { access_token: string };
      return { i, user, access_token, team_id: teamId, user_id: `UB${i}` };
    });
    await askWorld({
      type: 'seed',
      people: people.map((p) => ({
        serviceId: p.user.id,
        email: p.user.email,
        slackId: p.user_id,
        tz: ZONES[p.i % ZONES.length]!,
      })),
    });
    const seeding = await openStore(store.url, { encryptionKey, dataDir: dir });
    try {
      await inBatches(PEOPLE, SEED_PARALLEL, async (i) => {
        const person = people[i]!;
        const tz = ZONES[i % ZONES.length]!;
        await seeding.tokens.set(person, {
          access_token: person.access_token,
          token_type: 'bearer',
          service_user_id: person.user.id,
          name: `Person${i}`,
          linked_at: start.toISOString(),
        });
        // Everybody's hour is the one it is at `start` where they live, so all are due then.
        await seeding.digest.enable(person, { tz, hour: localTime(start, tz).hour, always: true });
      });
    } finally {
      await seeding.close();
    }
    console.log(
      `seeded ${PEOPLE} people in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    await control('faults', { path: '/api/v3.0/*', latency_ms: LATENCY_MS });

    const replicas: Array<{ name: string; ask: ReturnType<typeof asker> }> = [];
    for (const name of ['A', 'B']) {
      const replica = await forkSelf('--replica', JSON.stringify(env));
      children.push(replica.child);
      replicas.push({ name, ask: asker(replica.child) });
    }

    const redis = createClient({ url: store.url });
    redis.on('error', () => undefined);
    await redis.connect();
    closers.push(() => redis.quit());
    /**
     * The days here follow each other within seconds, but a day's claims live 48 hours: in a real
     * deployment, only the last two days' claims are in the store when a run starts. Older ones
     * are removed before each run, as their expiry would have, so that the walk over the store
     * (a SCAN over every key) meets as many keys as it would in production.
     */
    const expireOldClaims = async (at: number) => {
      const oldest = new Date(at - 2 * 86_400_000).toISOString().slice(0, 10);
      const old: string[] = [];
      for await (const keys of redis.scanIterator({
        MATCH: 'claim:slack:digest:*',
        COUNT: 1_000,
      })) {
        for (const key of [keys].flat()) if (key.slice(-10) < oldest) old.push(key);
      }
      for (let i = 0; i < old.length; i += 500) await redis.del(old.slice(i, i + 500));
    };

    let day = 0;
    const runDay = async (which: typeof replicas) => {
      const at = start.getTime() + day * 86_400_000;
      day += 1;
      await expireOldClaims(at);
      await control('requests', undefined, 'DELETE');
      await askWorld({ type: 'clear' });
      const started = performance.now();
      const results = await Promise.all(which.map((r) => r.ask<Ran>({ type: 'run', at })));
      const wallMs = performance.now() - started;
      const sent = results.reduce((sum, r) => sum + r.report.outcomes.sent, 0);
      const elsewhere = results.reduce((sum, r) => sum + r.report.outcomes.claimed_elsewhere, 0);
      const problems = results.reduce((sum, r) => sum + r.problems, 0);
      const worldCpuMs = await askWorld<number>({ type: 'cpu' });
      const load = loadavg()[0]!;
      const dms = await askWorld<number>({ type: 'postMessages' });
      const log = await json<{ counts: Record<string, number> }>(
        `${emuUrl}/__emulator/requests`,
        'GET',
      );
      const serviceCalls = Object.entries(log.counts)
        .filter(([route]) => route.includes('/api/v3.0/'))
        .reduce((sum, [, n]) => sum + n, 0);
      if (sent !== PEOPLE || dms !== PEOPLE) {
        throw new Error(
          `day ${day}: ${sent} reported sent, ${dms} DMs at Slack, for ${PEOPLE} people`,
        );
      }
      return {
        replicas: which.length,
        day,
        sent,
        elsewhere,
        problems,
        wallMs,
        rate: sent / (wallMs / 1000),
        serviceRate: serviceCalls / (wallMs / 1000),
        perReplica: results.map((r) => r.report.outcomes.sent),
        replicaCpuPerDm: results.reduce((sum, r) => sum + r.cpuMs, 0) / sent,
        worldCpuPerDm: worldCpuMs / sent,
        load,
      };
    };

    const warm = await runDay(replicas);
    console.log(
      `day 1 (warm-up, both replicas): ${(warm.wallMs / 1000).toFixed(2)} s, not counted`,
    );
    const rows: Array<Awaited<ReturnType<typeof runDay>> & { round: number }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? [[replicas[0]!], replicas] : [replicas, [replicas[0]!]];
      for (const which of order) {
        const row = { ...(await runDay(which)), round };
        rows.push(row);
        console.log(
          `round ${round}, ${row.replicas} replica(s), day ${row.day}: ${row.sent} DMs in ` +
            `${(row.wallMs / 1000).toFixed(2)} s = ${row.rate.toFixed(0)} DMs/s ` +
            `(per replica ${row.perReplica.join(' + ')}; ${row.elsewhere} left to the other; ` +
            `${row.serviceRate.toFixed(0)} service requests/s; CPU per DM: replicas ` +
            `${row.replicaCpuPerDm.toFixed(2)} ms, world ${row.worldCpuPerDm.toFixed(2)} ms; ` +
            `load ${row.load.toFixed(1)}; ${row.problems} warnings/errors)`,
        );
      }
    }
    const one = median(rows.filter((r) => r.replicas === 1).map((r) => r.rate));
    const two = median(rows.filter((r) => r.replicas === 2).map((r) => r.rate));
    console.log(
      '\n| round | replicas | day | DMs sent | sent by A + B | wall (s) | DMs/s | service requests/s | replicas CPU / DM (ms) | world CPU / DM (ms) | load (1 min) |',
    );
    console.log('|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      console.log(
        `| ${r.round} | ${r.replicas} | ${r.day} | ${r.sent} | ${r.perReplica.join(' + ')} | ` +
          `${(r.wallMs / 1000).toFixed(2)} | ${r.rate.toFixed(0)} | ${r.serviceRate.toFixed(0)} | ` +
          `${r.replicaCpuPerDm.toFixed(2)} | ${r.worldCpuPerDm.toFixed(2)} | ${r.load.toFixed(1)} |`,
      );
    }
    console.log(
      `\nmedian over ${ROUNDS} rounds: one replica ${one.toFixed(0)} DMs/s, two replicas ` +
        `${two.toFixed(0)} DMs/s, ratio ${(two / one).toFixed(2)} (target >= 1.7)`,
    );
    for (const replica of replicas) await replica.ask({ type: 'close' });
    await askWorld({ type: 'close' });
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const close of closers) await close().catch(() => undefined);
    await store.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The emulator and the fake Slack, answering the benchmark over IPC. */
async function serveWorld() {
  const emu = await startEmulator();
  const slack = await startFakeSlack();
  let cpu = process.cpuUsage();
  process.on('message', async (message: ToWorld) => {
    switch (message.type) {
      case 'seed': {
        // One expense per neighbouring pair, straight through the ledger (HTTP adds nothing here).
        for (let i = 0; i + 1 < message.people.length; i += 2) {
          const [a, b] = [message.people[i]!, message.people[i + 1]!];
          const result = emu.ledger.handle({
            op: 'create_expense',
            method: 'POST',
            params: {
              cost: '30.00',
              description: 'Lunch',
              currency_code: i % 3 ? 'USD' : 'EUR',
              users__0__user_id: String(a.serviceId),
              users__0__paid_share: '30.00',
              users__0__owed_share: '15.00',
              users__1__email: b.email,
              users__1__paid_share: '0',
              users__1__owed_share: '15.00',
            },
            files: [],
            actorId: a.serviceId,
          });
          if (result.status !== 200) throw new Error(`create_expense: ${result.status}`);
        }
        for (const person of message.people) {
          slack.addUser({ id: person.slackId, name: person.slackId, tz: person.tz });
        }
        process.send!('seeded');
        return;
      }
      case 'oidc':
        process.send!(
          slack.addOidcClient({ redirectUris: [`${PUBLIC_URL}/oauth/slack/callback`] }),
        );
        return;
      case 'postMessages':
        process.send!(slack.callsTo('chat.postMessage').length);
        return;
      case 'cpu':
        process.send!(cpuMsSince(cpu));
        return;
      case 'clear':
        cpu = process.cpuUsage();
        slack.clearCalls();
        process.send!('cleared');
        return;
      case 'close':
        await slack.close();
        await emu.close();
        process.send!('closed');
        process.exit(0);
    }
  });
  process.send!({
    emuUrl: emu.url,
    slackUrl: slack.url,
    slackOrigin: slack.origin,
    botToken: slack.team.botToken,
    teamId: slack.team.id,
  });
}

/** One replica: the real app, its daily DM run when the benchmark says so. */
async function serveReplica(env: Record<string, string>) {
  let problems = 0;
  let level = LogLevel.ERROR;
  const count = () => {
    problems += 1;
  };
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: count,
    error: count,
    setLevel: (l: LogLevel) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
  const app = await startApp({ config: loadConfig(env), logger, digest: { scheduler: false } });
  process.on('message', async (message: ToReplica) => {
    if (message.type === 'close') {
      await app.stop();
      process.send!('closed');
      process.exit(0);
    }
    problems = 0;
    const cpu = process.cpuUsage();
    const report = await app.digest.runner.runDue(new Date(message.at));
    const ran: Ran = { type: 'ran', report, problems, cpuMs: cpuMsSince(cpu) };
    process.send!(ran);
  });
  process.send!('ready');
}

const role = process.argv[2];
if (role === '--world') await serveWorld();
else if (role === '--replica') await serveReplica(JSON.parse(process.argv[3] ?? '{}'));
else await main();
