/**
 * Daily balance DM benchmark: one day's DM for 2,000 connected people.
 *
 *   npx tsx bench/digest.ts                                  (SQLite in the OS temp directory)
 *   npx tsx bench/digest.ts --store sqlite:///dev/shm/d.sqlite (SQLite on tmpfs: no disk syncs)
 *   npx tsx bench/digest.ts --store redis://127.0.0.1:6379
 *
 * All on loopback: the emulator (with a fault adding 20 ms to every /api/v3.0/* request) and the
 * fake Slack Web API run in a child process, so that neither their CPU time nor their memory is
 * charged to the runner; the store is SQLite in a temporary directory unless --store says otherwise.
 * People are seeded through the emulator's control plane (users, OAuth tokens) and its ledger
 * (one expense per neighbouring pair, so everybody has a balance); every person's hour is set so
 * that all are due at the benchmark's instant, in a dozen time zones.
 *
 * For each concurrency level one full run is measured (a new local day each, so nobody is
 * skipped as already sent): wall time against the ideal (people x service calls per person x
 * 20 ms / concurrency), service calls per person from the emulator's request log, Slack calls,
 * and peak RSS of the runner's process, sampled every 20 ms during the run.
 */

import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { webApi } from '@slack/bolt';
import { ServiceClient } from '../packages/app/src/service/index.js';
import {
  createDigestPreferences,
  createDigestRunner,
  type DigestLogger,
  localTime,
} from '../packages/app/src/slack/digest/index.js';
import { createClaims, createKeyv, createTokenStore } from '../packages/app/src/store/index.js';
import { startFakeSlack } from '../packages/app/test/support/fake-slack.js';
import { startEmulator } from '../packages/service-emulator/src/index.js';

interface SeedPerson {
  serviceId: number;
  email: string;
  slackId: string;
  tz: string;
}

type ToServers =
  | { type: 'seed'; people: SeedPerson[] }
  | { type: 'slackCalls' }
  | { type: 'clearCalls' }
  | { type: 'close' };

interface ServersReady {
  type: 'ready';
  emuUrl: string;
  slackUrl: string;
  botToken: string;
  teamId: string;
}

const PEOPLE = 2_000;
const LATENCY_MS = 20;
/**
 * One run per entry, each on the next local day. The first day also opens every DM channel
 * (conversations.open, then kept), so the same concurrency is measured again in steady state.
 */
const CONCURRENCY_LEVELS = [16, 16, 64];
const SEED_PARALLEL = 32;
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
const DEADLINE_MS = 10 * 60_000;

const deadline = setTimeout(() => {
  console.error(`bench/digest.ts: gave up after ${DEADLINE_MS / 60_000} minutes`);
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

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

function storeArgument(): string | undefined {
  const index = process.argv.indexOf('--store');
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'split-bench-digest-'));
  const storeUrl = storeArgument() ?? `sqlite://${join(dir, 'app.sqlite')}`;
  // A namespace per run keeps a shared Redis or PostgreSQL free of leftovers from earlier runs.
  const run = randomBytes(4).toString('hex');
  console.log(`store: ${storeUrl.replace(/\/\/[^@/]*@/, '//')}`);
  const servers = await startServers();
  const emu = { url: servers.emuUrl };
  const slack = { team: { id: servers.teamId, botToken: servers.botToken }, url: servers.slackUrl };
  const prefsKeyv = await createKeyv(storeUrl, { namespace: `bench-digest-${run}` });
  const tokensKeyv = await createKeyv(storeUrl, { namespace: `bench-tokens-${run}` });
  const claims = createClaims(storeUrl, { namespace: `bench-${run}` });
  const control = (path: string, body?: unknown, method = 'POST') =>
    json<Record<string, unknown>>(`${emu.url}/__emulator/${path}`, method, body);
  try {
    const preferences = createDigestPreferences(prefsKeyv);
    const tokens = createTokenStore(tokensKeyv, randomBytes(32));
    const { client_id } = (await control('apps', { redirect_uri: 'http://127.0.0.1/cb' })) as {
      client_id: string;
    };
    const start = new Date('2026-11-21T12:00:00Z');

    const seedStarted = performance.now();
    const people = await inBatches(PEOPLE, SEED_PARALLEL, async (i) => {
      const { user } = (await control('users', {
        email: `p${i}@bench.example`,
        first_name: `Person${i}`,
      })) as { user: { id: number; email: string } };
      const { access_token } = (await control('tokens', { user_id: user.id, client_id })) as {
        access_token: string;
      };
      return { i, user, access_token, team_id: slack.team.id, user_id: `UB${i}` };
    });
    await servers.ask({
      type: 'seed',
      people: people.map((p) => ({
        serviceId: p.user.id,
        email: p.user.email,
        slackId: p.user_id,
        tz: ZONES[p.i % ZONES.length]!,
      })),
    });
    await inBatches(PEOPLE, SEED_PARALLEL, async (i) => {
      const person = people[i]!;
      const tz = ZONES[i % ZONES.length]!;
      await tokens.set(person, {
        access_token: person.access_token,
        token_type: 'bearer',
        service_user_id: person.user.id,
        name: `Person${i}`,
        linked_at: start.toISOString(),
      });
      // Everybody's hour is the one it is at `start` where they live, so all are due then.
      await preferences.enable(person, { tz, hour: localTime(start, tz).hour, always: true });
    });
    const seedMs = performance.now() - seedStarted;
    console.log(`seeded ${PEOPLE} people in ${(seedMs / 1000).toFixed(1)} s`);

    await control('faults', { path: '/api/v3.0/*', latency_ms: LATENCY_MS });
    const slackClient = new webApi.WebClient(slack.team.botToken, {
      slackApiUrl: slack.url,
      retryConfig: { retries: 2, minTimeout: 100, maxTimeout: 1_000 },
      logLevel: webApi.LogLevel.ERROR,
    });
    let warnings = 0;
    const logger: DigestLogger = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => {
        warnings += 1;
      },
      error: (...m) => {
        warnings += 1;
        console.error(...m);
      },
    };

    const rows: string[] = [];
    for (const [round, concurrency] of CONCURRENCY_LEVELS.entries()) {
      const runner = createDigestRunner({
        preferences,
        tokens,
        claims,
        slackFor: async () => slackClient,
        serviceClientFor: (record) =>
          new ServiceClient({
            baseUrl: `${emu.url}/api/v3.0`,
            oauth2AccessToken: record.access_token,
            retries: 0,
          }),
        clock: () => start,
        concurrency,
        logger,
      });
      await control('requests', undefined, 'DELETE');
      await servers.ask({ type: 'clearCalls' });
      const now = new Date(start.getTime() + round * 86_400_000);
      const rssBefore = process.memoryUsage().rss;
      let peakRss = rssBefore;
      const sampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
      }, 20);
      const started = performance.now();
      const report = await runner.runDue(now);
      const wallMs = performance.now() - started;
      clearInterval(sampler);
      peakRss = Math.max(peakRss, process.memoryUsage().rss);

      const log = await json<{ counts: Record<string, number> }>(
        `${emu.url}/__emulator/requests`,
        'GET',
      );
      const serviceCalls = Object.entries(log.counts)
        .filter(([route]) => route.includes('/api/v3.0/'))
        .reduce((sum, [, n]) => sum + n, 0);
      const perPerson = serviceCalls / PEOPLE;
      const idealMs = (PEOPLE * perPerson * LATENCY_MS) / concurrency;
      const slackCalls = (await servers.ask({ type: 'slackCalls' })) as number;
      const row = [
        round + 1,
        concurrency,
        report.outcomes.sent,
        perPerson.toFixed(2),
        (slackCalls / PEOPLE).toFixed(2),
        (wallMs / 1000).toFixed(2),
        (idealMs / 1000).toFixed(2),
        (wallMs / idealMs).toFixed(2),
        mib(rssBefore),
        mib(peakRss),
      ];
      rows.push(`| ${row.join(' | ')} |`);
      console.log(
        `concurrency ${concurrency}: ${report.outcomes.sent} sent (${JSON.stringify(report.outcomes)}), ` +
          `${wallMs.toFixed(0)} ms wall vs ${idealMs.toFixed(0)} ms ideal, ` +
          `${perPerson.toFixed(2)} service calls/person, ${slackCalls} Slack calls, ` +
          `RSS ${mib(rssBefore)} -> peak ${mib(peakRss)} MiB`,
      );
    }
    console.log(
      `\n| day | concurrency | DMs sent | service calls / person | Slack calls / person | wall (s) | ideal (s) | wall / ideal | RSS before (MiB) | peak RSS (MiB) |`,
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const row of rows) console.log(row);
    console.log(`\nwarnings and errors logged by the runner: ${warnings}`);
  } finally {
    await prefsKeyv.clear().catch(() => undefined);
    await tokensKeyv.clear().catch(() => undefined);
    await claims.close();
    await prefsKeyv.disconnect();
    await tokensKeyv.disconnect();
    await servers.ask({ type: 'close' });
    servers.child.disconnect();
    await rm(dir, { recursive: true, force: true });
    if (storeUrl.startsWith('sqlite:///dev/shm/')) {
      await rm(storeUrl.slice('sqlite://'.length), { force: true });
    }
  }
}

/** Starts this file again in a child process (same tsx loader flags) as the servers' side. */
async function startServers() {
  const child = fork(fileURLToPath(import.meta.url), ['--servers'], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<ServersReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as ServersReady));
    child.once('error', reject);
  });
  let queue = Promise.resolve<unknown>(undefined);
  // One request at a time, so that each answer belongs to the question before it.
  const ask = (message: ToServers) => {
    queue = queue.then(
      () =>
        new Promise((resolve, reject) => {
          child.once('message', resolve);
          child.once('error', reject);
          child.send(message);
        }),
    );
    return queue;
  };
  return { ...ready, child, ask };
}

async function serve() {
  const port = {
    postMessage: (message: unknown) => process.send!(message),
    on: process.on.bind(process),
  };
  const emu = await startEmulator();
  const slack = await startFakeSlack();
  port.on('message', async (message: ToServers) => {
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
        port.postMessage('seeded');
        return;
      }
      case 'slackCalls':
        port.postMessage(slack.calls.length);
        return;
      case 'clearCalls':
        slack.clearCalls();
        port.postMessage('cleared');
        return;
      case 'close':
        await slack.close();
        await emu.close();
        port.postMessage('closed');
        process.exit(0);
    }
  });
  const ready: ServersReady = {
    type: 'ready',
    emuUrl: emu.url,
    slackUrl: slack.url,
    botToken: slack.team.botToken,
    teamId: slack.team.id,
  };
  port.postMessage(ready);
}

if (process.argv.includes('--servers')) await serve();
else await main();
