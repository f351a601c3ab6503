/**
 * The receipt engine on a set this script makes itself (bench/receipt-set.ts): clean receipts,
 * half of them again as phone photos, the other half as hard photos, each with its truth.
 *
 *   nice -n 10 npx tsx bench/receipts.ts                  # seed 1, 30 receipts
 *   nice -n 10 npx tsx bench/receipts.ts --seed 7         # another set (the held-out one)
 *   nice -n 10 npx tsx bench/receipts.ts --save DIR       # also keep the images and truths
 *   nice -n 10 npx tsx bench/receipts.ts --quick          # no waiting for the RSS after
 *   nice -n 10 npx tsx bench/receipts.ts --tuned-malloc   # the child with MALLOC_ARENA_MAX=2 and
 *                                                         # MALLOC_MMAP_THRESHOLD_=131072
 *   nice -n 10 npx tsx bench/receipts.ts --bare           # without the app's V8 tunings
 *   nice -n 10 npx tsx bench/receipts.ts --count N        # N receipts (30), 2 N images
 *   nice -n 10 npx tsx bench/receipts.ts --built          # the reader's process started from
 *                                                         # dist/ (npm run build), as in production
 *
 * The readings run in a child process with the reader as the app creates it (its own process on
 * first use, stopped after a minute idle), so that its RSS is the app's alone: idle before the
 * first reading, the peak during each reading (sampled every 20 ms), and 60 s and 90 s after the
 * last one, with where it is (the main thread's V8 heap, buffers, the rest of anonymous memory).
 * The reader's process is the app's memory too: its RSS is sampled with the app's and added to
 * it ("app + reader"), so that the peak is what the machine holds for a reading.
 * The child starts as main.ts starts the app: heap.ts's tunings (V8 flags are the process's, so
 * `--liftoff-only` holds for the worker's WebAssembly too) and heap-adapt.ts; `--bare` leaves
 * both out, as this script did before.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapStatistics } from 'node:v8';
import type { ReceiptFailure, ReceiptReading } from '../packages/app/src/receipts/index.js';
import {
  HARD_KINDS,
  makeReceipt,
  renderClean,
  renderHard,
  renderPhoto,
  rng,
  type Truth,
} from './receipt-set.js';

interface Sample {
  file: string;
  tier: 'clean' | 'degraded' | 'hard';
  kind: string;
  truth: Truth;
}

/** Where the child's memory is, in bytes: the main thread's V8 heap, buffers, and the rest. */
interface Breakdown {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  mallocedByV8: number;
  rssAnon: number;
  rssFile: number;
}

interface ChildResult {
  idleRss: number;
  breakdown: { idle: Breakdown; last: Breakdown; after60: Breakdown; after90: Breakdown };
  asApp: boolean;
  readings: {
    file: string;
    seconds: number;
    peakRss: number;
    /** The app's and its reader process's RSS together, at their highest sampled sum. */
    peakTotal: number;
    result: ReceiptReading | ReceiptFailure;
  }[];
  rssAfter60: number;
  rssAfter90: number;
  /** The RSS of the app's child processes (the reader's) 60 s and 90 s after the last reading. */
  childrenAfter60: number;
  childrenAfter90: number;
  workerRunningAfter90: boolean;
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function breakdown(): Promise<Breakdown> {
  const usage = process.memoryUsage();
  const status = await readFile('/proc/self/status', 'utf8').catch(() => '');
  const kb = (name: string) =>
    1024 * Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return {
    rss: usage.rss,
    heapTotal: usage.heapTotal,
    heapUsed: usage.heapUsed,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    mallocedByV8: getHeapStatistics().malloced_memory,
    rssAnon: kb('RssAnon'),
    rssFile: kb('RssFile'),
  };
}

/**
 * The RSS of this process's children (the reader's process, while it runs), in bytes. Not tsx's
 * esbuild service, which a script run from the sources has and the app started from dist/ has not.
 */
function childrenRss(): number {
  let total = 0;
  const tasks = (() => {
    try {
      return readdirSync('/proc/self/task');
    } catch {
      return [];
    }
  })();
  for (const task of tasks) {
    let pids: string[] = [];
    try {
      pids = readFileSync(`/proc/self/task/${task}/children`, 'utf8').split(' ').filter(Boolean);
    } catch {}
    for (const pid of pids) {
      try {
        if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'esbuild') continue;
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        total += 1024 * Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      } catch {}
    }
  }
  return total;
}

async function child(dir: string, wait: boolean, asApp: boolean, built: boolean): Promise<void> {
  if (asApp) {
    // As main.ts starts the app: its heap tunings, and memory given back once idle.
    const { PINNED_YOUNG, tuneForIdle } = await import('../packages/app/src/heap.js');
    const { adaptYoungGeneration } = await import('../packages/app/src/heap-adapt.js');
    if (tuneForIdle(process.execArgv, process.env.NODE_OPTIONS).includes(PINNED_YOUNG)) {
      adaptYoungGeneration({ nodeFlags: process.execArgv.join(' ') });
    }
  }
  const { createReceiptReader } = await import('../packages/app/src/receipts/index.js');
  const samples = JSON.parse(await readFile(join(dir, 'samples.json'), 'utf8')) as Sample[];
  // From the sources, the reader's process loads its TypeScript through tsx, which the built
  // script started in production does without.
  const script = fileURLToPath(new URL('../packages/app/dist/receipts-worker.js', import.meta.url));
  const reader = createReceiptReader({
    timeoutMs: 30_000,
    ...(built ? { worker: { path: script, execArgv: [] } } : {}),
  });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await sleep(1000);
  const idleRss = process.memoryUsage().rss;
  const idle = await breakdown();
  const readings: ChildResult['readings'] = [];
  for (const sample of samples) {
    let peak = process.memoryUsage().rss;
    let peakTotal = peak + childrenRss();
    const sampler = setInterval(() => {
      const rss = process.memoryUsage().rss;
      peak = Math.max(peak, rss);
      peakTotal = Math.max(peakTotal, rss + childrenRss());
    }, 20);
    const started = performance.now();
    const result = await reader.read(join(dir, sample.file));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    readings.push({
      file: sample.file,
      seconds,
      peakRss: Math.max(peak, process.memoryUsage().rss),
      peakTotal: Math.max(peakTotal, process.memoryUsage().rss + childrenRss()),
      result,
    });
  }
  const last = await breakdown();
  await sleep(wait ? 60_000 : 0);
  const rssAfter60 = process.memoryUsage().rss;
  const childrenAfter60 = childrenRss();
  const after60 = await breakdown();
  await sleep(wait ? 30_000 : 0);
  const out: ChildResult = {
    idleRss,
    breakdown: { idle, last, after60, after90: await breakdown() },
    asApp,
    readings,
    rssAfter60,
    rssAfter90: process.memoryUsage().rss,
    childrenAfter60,
    childrenAfter90: childrenRss(),
    workerRunningAfter90: reader.workerRunning,
  };
  await reader.close();
  process.stdout.write(JSON.stringify(out));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args[i + 1];
  };
  const seed = Number(option('--seed') ?? 1);
  const count = Number(option('--count') ?? 30);
  const save = option('--save');
  const dir = save ?? (await mkdtemp(join(tmpdir(), 'receipts-bench-')));
  await mkdir(dir, { recursive: true });
  const next = rng(seed);
  const samples: Sample[] = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const receipt = makeReceipt(next, i);
    const clean = `r${i}-clean.png`;
    await writeFile(join(dir, clean), await renderClean(receipt));
    samples.push({ file: clean, tier: 'clean', kind: receipt.style, truth: receipt.truth });
    if (i % 2 === 0) {
      const file = `r${i}-photo.jpg`;
      await writeFile(join(dir, file), await renderPhoto(receipt, next));
      samples.push({ file, tier: 'degraded', kind: receipt.style, truth: receipt.truth });
    } else {
      const kind = HARD_KINDS[Math.floor(i / 2) % HARD_KINDS.length]!;
      const file = `r${i}-${kind}.jpg`;
      await writeFile(join(dir, file), await renderHard(receipt, kind, next));
      samples.push({ file, tier: 'hard', kind, truth: receipt.truth });
    }
  }
  await writeFile(join(dir, 'samples.json'), JSON.stringify(samples, null, 1));
  console.log(
    `seed ${seed}: ${samples.length} images rendered in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  const self = fileURLToPath(import.meta.url);
  const output = await new Promise<string>((resolve, reject) => {
    const wait = args.includes('--quick') ? 'no-wait' : 'wait';
    // glibc's allocator keeps freed memory in per-thread arenas and raises its mmap threshold after
    // a large free; with these two settings the worker's memory goes back to the system.
    const tuned = args.includes('--tuned-malloc')
      ? { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' }
      : {};
    const asApp = args.includes('--bare') ? 'bare' : 'as-app';
    const built = args.includes('--built') ? 'built' : 'source';
    const childArgs = ['--import', 'tsx', self, '--child', dir, wait, asApp, built];
    const proc = spawn(process.execPath, childArgs, {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...tuned },
    });
    let text = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    proc.on('exit', (code) =>
      code === 0 ? resolve(text) : reject(new Error(`child exited ${code}`)),
    );
  });
  const result = JSON.parse(output) as ChildResult;
  if (!save) await rm(dir, { recursive: true, force: true });

  const byFile = new Map(result.readings.map((r) => [r.file, r]));
  const tally = (tier: Sample['tier'] | 'all') => {
    const list = samples.filter((s) => tier === 'all' || s.tier === tier);
    let totals = 0;
    let currency = 0;
    let listing = 0;
    let itemsRight = 0;
    let date = 0;
    let merchant = 0;
    for (const s of list) {
      const r = byFile.get(s.file)!.result;
      if (!r.ok) continue;
      if (r.total?.value === s.truth.total) totals++;
      if (r.currency?.value === s.truth.currency) currency++;
      if (r.date?.value === s.truth.date) date++;
      if (r.merchant?.value.toLowerCase() === s.truth.merchant.toLowerCase()) merchant++;
      if (s.truth.items.length > 0) {
        listing++;
        const sum = r.items.reduce((n, item) => n + item.minor, 0);
        if (sum === s.truth.subtotal && r.items.length === s.truth.items.length) itemsRight++;
      }
    }
    if (tier !== 'all') listing = list.filter((s) => s.truth.items.length > 0).length;
    else listing = samples.length;
    const pct = (n: number, of: number) =>
      `${((100 * n) / Math.max(1, of)).toFixed(0)} % (${n}/${of})`;
    return {
      n: list.length,
      totals: pct(totals, list.length),
      currency: pct(currency, list.length),
      items: pct(itemsRight, listing),
      date: pct(date, list.length),
      merchant: pct(merchant, list.length),
    };
  };
  console.log(
    '\n| tier | images | total right | currency right | items add up | date right | merchant right |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const tier of ['clean', 'degraded', 'hard', 'all'] as const) {
    const t = tally(tier);
    console.log(
      `| ${tier} | ${t.n} | ${t.totals} | ${t.currency} | ${t.items} | ${t.date} | ${t.merchant} |`,
    );
  }
  const seconds = result.readings.map((r) => r.seconds);
  const warm = seconds.slice(1);
  const peak = Math.max(...result.readings.map((r) => r.peakRss));
  const peakTotal = Math.max(...result.readings.map((r) => r.peakTotal));
  console.log('\n| measure | value |');
  console.log('|---|---:|');
  console.log(
    `| child started | ${result.asApp ? 'as the app (heap.ts, heap-adapt.ts)' : 'bare (--bare)'} |`,
  );
  console.log(`| first reading (reader start, tesseract load) | ${seconds[0]!.toFixed(2)} s |`);
  console.log(
    `| median seconds per reading (after the first) | ${percentile(warm, 0.5).toFixed(2)} s |`,
  );
  console.log(`| p95 seconds per reading | ${percentile(warm, 0.95).toFixed(2)} s |`);
  console.log(`| RSS idle (before the first reading) | ${mb(result.idleRss)} MB |`);
  const above = (bytes: number) => `${mb(bytes)} MB (+${mb(bytes - result.idleRss)} MB)`;
  console.log(`| peak RSS during a reading, app alone | ${above(peak)} |`);
  console.log(`| peak RSS during a reading, app + reader | ${above(peakTotal)} |`);
  console.log(
    `| RSS 60 s after the last reading | app ${above(result.rssAfter60)}, reader ${mb(result.childrenAfter60)} MB |`,
  );
  console.log(
    `| RSS 90 s after the last reading | app ${above(result.rssAfter90)}, reader ${mb(result.childrenAfter90)} MB, reader ${result.workerRunningAfter90 ? 'running' : 'stopped'} |`,
  );
  console.log('\n| MB | idle | after the last reading | 60 s after | 90 s after |');
  console.log('|---|---:|---:|---:|---:|');
  const b = result.breakdown;
  for (const key of Object.keys(b.idle) as (keyof Breakdown)[]) {
    console.log(
      `| ${key} | ${mb(b.idle[key])} | ${mb(b.last[key])} | ${mb(b.after60[key])} | ${mb(b.after90[key])} |`,
    );
  }
  const wrong = samples.filter((s) => {
    const r = byFile.get(s.file)!.result;
    return !r.ok || r.total?.value !== s.truth.total;
  });
  if (wrong.length > 0) {
    console.log('\nTotals missed:');
    for (const s of wrong) {
      const r = byFile.get(s.file)!.result;
      console.log(
        `  ${s.file} (${s.tier}, ${s.kind}): want ${s.truth.total}, got ${r.ok ? (r.total?.value ?? 'none') : r.reason}`,
      );
    }
  }
}

if (process.argv[2] === '--child') {
  const [dir, wait, asApp, built] = process.argv.slice(3);
  await child(dir!, wait === 'wait', asApp === 'as-app', built === 'built');
} else await main();
