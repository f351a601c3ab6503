/**
 * Memory under a flood of Accept-Language tags, against the app as production starts it.
 *
 *   npm run build && npx tsx bench/locale-flood.ts [--rounds N]     (N = 3 unless given)
 *   ... [--compare packages/app/<other>/main.js]
 *
 * Each round starts `node packages/app/dist/main.js` with NODE_ENV=production, installed into many
 * workspaces (SLACK_STATE_SECRET) so that it serves every public route; Slack and the service point
 * at a closed port, since nothing these routes answer calls them. It sends 600 requests over every
 * route (what loads on first use), idles 2 s and reads VmRSS ("start"); then 20,000 requests, each
 * with an Accept-Language tag, a state, a code and a cookie never sent before (four in five to the
 * pages that answer in the browser's language: /oauth/start, the two OAuth callbacks, the install's
 * callback; the fifth to /slack/install, /slack/events unsigned, /healthz, /readyz, /metrics and
 * unknown paths), 16 at a time over kept-alive connections (packages/app/test/support/
 * public-flood.ts, the same flood as the e2e test). Then VmHWM, the highest RSS of the process's
 * life ("peak"), and after 2 s of idle VmRSS again ("after"). Medians over the rounds.
 *
 * --compare starts another build of the app (another tree's dist/, placed inside packages/app so
 * that its packages resolve) in the same rounds, the two taking turns at going first: a change is
 * read against a "before" measured at the same time on the same machine.
 *
 * Nothing is built here: dist/ must exist.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { flood, startProductionApp } from '../packages/app/test/support/public-flood.js';
import { median } from './median.js';

const WARM_UP = 600;
const FLOOD = 20_000;
const IDLE_MS = 2_000;

interface Sample {
  startKb: number;
  peakKb: number;
  afterKb: number;
  ms: number;
}

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const idle = () => new Promise((done) => setTimeout(done, IDLE_MS));
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;

async function measure(entry: string): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), 'split-locale-flood-'));
  const app = await startProductionApp({ entry, dir });
  try {
    await flood(app.url, 0, WARM_UP);
    await idle();
    const startKb = app.memory().rssKb;
    const { ms, answered } = await flood(app.url, 1_000_000, FLOOD);
    const failed = [...answered].filter(([key]) => /: 5\d\d$/.test(key));
    if (failed.length > 0) throw new Error(`${entry} failed requests: ${JSON.stringify(failed)}`);
    const { peakKb } = app.memory();
    await idle();
    return { startKb, peakKb, afterKb: app.memory().rssKb, ms };
  } finally {
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const entry = resolve('packages/app/dist/main.js');
  if (!existsSync(entry)) {
    console.error('packages/app/dist/main.js is missing: run `npm run build` first.');
    process.exit(1);
  }
  if (!existsSync('/proc/self/status')) {
    console.error('This benchmark reads /proc/<pid>/status, which only Linux has.');
    process.exit(1);
  }
  const rounds = Number(argument('--rounds') ?? 3);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds takes a whole number');
  const compared = argument('--compare');
  if (compared !== undefined && !existsSync(compared)) {
    throw new Error('--compare takes the path of a built main.js');
  }
  const builds: [string, string][] = [['this tree', entry]];
  if (compared) builds.push(['compared', resolve(compared)]);

  console.log(
    `${FLOOD} requests with new tags, ${rounds} rounds, Node ${process.version}, load average ${loadavg()[0]!.toFixed(2)}`,
  );
  const samples = new Map<string, Sample[]>(builds.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? [...builds].reverse() : builds;
    for (const [name, main] of order) {
      const sample = await measure(main);
      samples.get(name)!.push(sample);
      console.log(
        `round ${round + 1} ${name}: start ${mb(sample.startKb)}, peak ${mb(sample.peakKb)}, after ${mb(sample.afterKb)}, flood ${(sample.ms / 1000).toFixed(1)} s`,
      );
    }
  }
  console.log(`\nmedians (load average ${loadavg()[0]!.toFixed(2)} at the end)`);
  console.log('| build | RSS start | RSS peak | RSS after | after - start | flood |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name] of builds) {
    const all = samples.get(name)!;
    const start = median(all.map((s) => s.startKb));
    const after = median(all.map((s) => s.afterKb));
    console.log(
      `| ${name} | ${mb(start)} | ${mb(median(all.map((s) => s.peakKb)))} | ${mb(after)} | ${mb(median(all.map((s) => s.afterKb - s.startKb)))} | ${(median(all.map((s) => s.ms)) / 1000).toFixed(1)} s |`,
    );
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
