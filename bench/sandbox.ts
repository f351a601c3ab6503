/**
 * How soon a newcomer sees the sandbox.
 *
 *   npm run build && npx tsx bench/sandbox.ts      BENCH_ROUNDS=N (7)
 *
 * Each round starts `node packages/app/dist/main.js --fresh` (what `npm start` runs with nothing configured)
 * in a temporary directory with PORT=0 and measures the time from spawn to its `Sandbox:` line
 * (target: within 5 s), then opens the printed page in headless Chromium and reads the page's
 * first contentful paint from the Performance API (target: within 1 s), then stops it with
 * SIGTERM. Chromium is started once, before the rounds, so its own start is not counted. Medians
 * over the rounds; the machine's load average is printed beside them. What the workspace adds to
 * a round trip between the page and the app is measured by bench/workspace.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const root = resolve(import.meta.dirname, '..');
const entry = join(root, 'packages', 'app', 'dist', 'main.js');

async function startOnce(
  cwd: string,
): Promise<{ url: string; ms: number; stop: () => Promise<void> }> {
  const started = performance.now();
  const child = spawn(process.execPath, [entry, '--fresh'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no Sandbox line in 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /^Sandbox: (\S+)$/m.exec(output);
      if (found) {
        clearTimeout(timer);
        done(found[1]!);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
  });
  const ms = performance.now() - started;
  return {
    url,
    ms,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (
  !existsSync(entry) ||
  !existsSync(join(root, 'packages', 'slack-workspace', 'dist', 'page', 'index.html'))
) {
  console.error('dist/ is missing or incomplete: run npm run build first');
  process.exit(2);
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const startMs: number[] = [];
const paintMs: number[] = [];
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const dir = await mkdtemp(join(tmpdir(), 'bench-sandbox-'));
    const sandbox = await startOnce(dir);
    try {
      const page = await browser.newPage();
      await page.goto(sandbox.url, { waitUntil: 'load' });
      await page.getByRole('textbox', { name: 'Message' }).waitFor();
      // Evaluated in the page, where performance is the browser's.
      const paint = Number(
        await page.evaluate(
          "performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint')?.startTime ?? NaN",
        ),
      );
      await page.close();
      startMs.push(sandbox.ms);
      paintMs.push(paint);
      console.log(
        `round ${round}: Sandbox line after ${sandbox.ms.toFixed(0)} ms, first paint ${paint.toFixed(0)} ms`,
      );
    } finally {
      await sandbox.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }
} finally {
  await browser.close();
}
console.log(
  `\nmedians over ${ROUNDS} rounds (Node ${process.version}, load average ${loadavg()[0]!.toFixed(2)}):`,
);
console.log(`  Sandbox line: ${median(startMs).toFixed(0)} ms (target <= 5000 ms)`);
console.log(`  first contentful paint: ${median(paintMs).toFixed(0)} ms (target <= 1000 ms)`);
