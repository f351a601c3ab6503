/**
 * Emulator benchmark: get_expenses over 10,000 expenses, create_expense, and memory.
 *
 *   npx tsx bench/emulator.ts            (add --expose-gc through NODE_OPTIONS for settled memory)
 *
 * The emulator runs in this process on port 0. The 10,000 expenses are seeded directly through
 * Ledger.handle() (the same code path as HTTP, minus the socket) so that seeding is quick; every
 * measured request then goes over real HTTP on loopback with a fixed count at a fixed concurrency.
 * Each scenario runs a warm-up round and then several counted rounds; the median is reported.
 * A second emulator, started with a data file in the OS temporary directory and seeded the same
 * way, measures create_expense again: what persistence costs a write.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningEmulator, startEmulator } from '../packages/service-emulator/src/index.js';

const EXPENSES = 10_000;
const CONCURRENCY = 10;
const ROUNDS = 5;
const SCENARIOS = [
  { name: 'get_expenses (limit 20)', requests: 1_000 },
  { name: 'get_expenses (group_id, limit 20)', requests: 1_000 },
  { name: 'get_friends', requests: 1_000 },
  { name: 'create_expense', requests: 500 },
  { name: 'create_expense (--data)', requests: 500 },
  // Last: its 14 MB answers churn the heap, which would slow whatever ran after it.
  { name: 'get_expenses (limit 0 = all 10,000)', requests: 10 },
] as const;

/** A hard stop, so that a stalled run cannot hang a terminal or a CI job. */
const DEADLINE_MS = 10 * 60_000;
setTimeout(() => {
  console.error(`bench/emulator.ts: gave up after ${DEADLINE_MS / 60_000} minutes`);
  process.exit(1);
}, DEADLINE_MS).unref();

const gc = (globalThis as { gc?: () => void }).gc;

function memory() {
  gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss: Math.round(rss / 2 ** 20), heapUsed: Math.round(heapUsed / 2 ** 20) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Seeded {
  ann: { user: { id: number }; api_key: string };
  ben: { user: { id: number }; api_key: string };
  group: { id: number };
  seedMs: number;
}

/** Three users, a group and EXPENSES expenses for Ann, most of them through Ledger.handle(). */
async function seed(emu: RunningEmulator): Promise<Seeded> {
  const createUser = async (email: string, first_name: string) => {
    const response = await fetch(`${emu.url}/__emulator/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, first_name }),
    });
    if (response.status !== 201) throw new Error(`could not create ${email}: ${response.status}`);
    return (await response.json()) as { user: { id: number }; api_key: string };
  };
  const ann = await createUser('ann@bench.example', 'Ann');
  const ben = await createUser('ben@bench.example', 'Ben');
  await createUser('cat@bench.example', 'Cat');
  const handle = (actorId: number, op: string, params: Record<string, string>) => {
    const result = emu.ledger.handle({ op, method: 'POST', params, files: [], actorId });
    if (result.status !== 200) throw new Error(`${op}: ${JSON.stringify(result.body)}`);
    return result.body as Record<string, unknown>;
  };
  const group = handle(ann.user.id, 'create_group', {
    name: 'Bench flat',
    users__0__email: 'ben@bench.example',
    users__1__email: 'cat@bench.example',
  }).group as { id: number };

  const seedStart = performance.now();
  const day = 86_400_000;
  const start = Date.UTC(2020, 0, 1);
  for (let i = 0; i < EXPENSES; i++) {
    const date = new Date(start + (i % 2000) * day + i * 1000).toISOString();
    if (i % 4 === 0) {
      handle(ann.user.id, 'create_expense', {
        cost: '30.00',
        description: `Groceries ${i}`,
        group_id: String(group.id),
        split_equally: 'true',
        date,
      });
    } else {
      handle(ann.user.id, 'create_expense', {
        cost: `${(i % 97) + 1}.50`,
        description: `Lunch ${i}`,
        date,
        users__0__user_id: String(ann.user.id),
        users__0__paid_share: `${(i % 97) + 1}.50`,
        users__0__owed_share: `${(i % 97) + 1}.00`,
        users__1__user_id: String(ben.user.id),
        users__1__paid_share: '0',
        users__1__owed_share: '0.50',
      });
    }
  }
  return { ann, ben, group, seedMs: performance.now() - seedStart };
}

type ScenarioName = (typeof SCENARIOS)[number]['name'];

function requestsFor(
  emu: RunningEmulator,
  s: Seeded,
): Record<ScenarioName, () => Promise<Response>> {
  const auth = { authorization: `Bearer ${s.ann.api_key}` };
  const form = { ...auth, 'content-type': 'application/x-www-form-urlencoded' };
  const createBody = new URLSearchParams({
    cost: '12.34',
    description: 'Bench lunch',
    users__0__user_id: String(s.ann.user.id),
    users__0__paid_share: '12.34',
    users__0__owed_share: '6.17',
    users__1__user_id: String(s.ben.user.id),
    users__1__paid_share: '0',
    users__1__owed_share: '6.17',
  }).toString();
  const create = () =>
    fetch(`${emu.url}/api/v3.0/create_expense`, {
      method: 'POST',
      headers: form,
      body: createBody,
    });
  return {
    'get_expenses (limit 20)': () => fetch(`${emu.url}/api/v3.0/get_expenses`, { headers: auth }),
    'get_expenses (limit 0 = all 10,000)': () =>
      fetch(`${emu.url}/api/v3.0/get_expenses?limit=0`, { headers: auth }),
    'get_expenses (group_id, limit 20)': () =>
      fetch(`${emu.url}/api/v3.0/get_expenses?group_id=${s.group.id}`, { headers: auth }),
    get_friends: () => fetch(`${emu.url}/api/v3.0/get_friends`, { headers: auth }),
    create_expense: create,
    'create_expense (--data)': create,
  };
}

let resets = 0;

/** One warm-up round (JIT, connection pool, shape caches), then ROUNDS counted ones. */
async function run(
  name: string,
  requests: number,
  send: () => Promise<Response>,
): Promise<{ rps: number[]; p50: number[] }> {
  const rps: number[] = [];
  const p50: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    let next = 0;
    const latencies: number[] = [];
    const began = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < requests) {
          next++;
          const t = performance.now();
          let response: Response;
          try {
            response = await send();
          } catch (error) {
            // A pooled keep-alive connection can be closed by the server just as it is reused
            // (ECONNRESET); count it and send again once rather than abort the run.
            resets++;
            if (resets > 20) throw new Error(`${name}: ${(error as Error).message}`);
            response = await send();
          }
          const body = await response.arrayBuffer();
          if (response.status !== 200 || body.byteLength === 0) {
            throw new Error(`${name}: HTTP ${response.status}`);
          }
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - began) / 1000;
    if (round === 0) continue;
    rps.push(requests / seconds);
    p50.push(median(latencies));
  }
  return { rps, p50 };
}

async function main() {
  const before = memory();
  const results: { name: string; requests: number; rps: number[]; p50: number[] }[] = [];
  let seedMs = 0;
  let seeded = before;
  let after = before;
  const emu = await startEmulator();
  try {
    const data = await seed(emu);
    seedMs = data.seedMs;
    seeded = memory();
    const requestFor = requestsFor(emu, data);
    for (const scenario of SCENARIOS) {
      if (scenario.name === 'create_expense (--data)') continue;
      const figures = await run(scenario.name, scenario.requests, requestFor[scenario.name]);
      results.push({ name: scenario.name, requests: scenario.requests, ...figures });
    }
    after = memory();
  } finally {
    await emu.close();
  }

  const dir = mkdtempSync(join(tmpdir(), 'emulator-bench-'));
  try {
    const durable = await startEmulator({ dataFile: join(dir, 'state.json') });
    try {
      const requestFor = requestsFor(durable, await seed(durable));
      const name = 'create_expense (--data)';
      const requests = SCENARIOS.find((s) => s.name === name)!.requests;
      results.push({ name, requests, ...(await run(name, requests, requestFor[name])) });
    } finally {
      await durable.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  console.log(
    `Emulator benchmark: ${EXPENSES} expenses, concurrency ${CONCURRENCY}, ${ROUNDS} rounds (median)`,
  );
  console.log(`node ${process.version}, gc ${gc ? 'exposed (settled figures)' : 'not exposed'}`);
  console.log(
    `seeding through Ledger.handle(): ${(seedMs / 1000).toFixed(2)} s (${Math.round(EXPENSES / (seedMs / 1000))} expenses/s)`,
  );
  console.log('');
  console.log('| scenario | requests/round | req/s (median) | median latency | req/s per round |');
  console.log('|---|---:|---:|---:|---|');
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.requests} | ${Math.round(median(r.rps))} | ${median(r.p50).toFixed(2)} ms | ${r.rps.map((x) => Math.round(x)).join(', ')} |`,
    );
  }
  console.log('');
  console.log(`connection resets retried: ${resets}`);
  console.log('');
  console.log('| memory (first emulator, without --data) | RSS | heapUsed |');
  console.log('|---|---:|---:|');
  console.log(`| before start | ${before.rss} MB | ${before.heapUsed} MB |`);
  console.log(`| after seeding ${EXPENSES} expenses | ${seeded.rss} MB | ${seeded.heapUsed} MB |`);
  console.log(
    `| after the runs (+${(ROUNDS + 1) * 500} expenses) | ${after.rss} MB | ${after.heapUsed} MB |`,
  );
}

await main();
