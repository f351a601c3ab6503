import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const HEAP = join(import.meta.dirname, '..', 'src', 'heap.ts');
const ADAPT = join(import.meta.dirname, '..', 'src', 'heap-adapt.ts');

/**
 * A child process allocates 60 MB of short-lived objects after optionally keeping the young
 * generation small, then prints the young generation's size in kB. In a child, so that the flag
 * does not change the test runner's own heap.
 */
async function youngGenerationAfterBurst(keep: boolean, execArgv: string[] = []): Promise<number> {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    const { tuneForIdle } = await import(${JSON.stringify(HEAP)});
    if (${keep}) tuneForIdle(process.execArgv, undefined);
    let last;
    for (let i = 0; i < 600_000; i++) last = { i, text: String(i).padStart(64, '-') };
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    console.log(Math.round(young.space_size / 1024), last.i);
  `;
  const { stdout } = await run(
    process.execPath,
    [...execArgv, '--import', 'tsx', '--input-type=module', '-e', script],
    { timeout: 20_000 },
  );
  return Number(stdout.split(' ')[0]);
}

/**
 * A child process makes 60 calls with the global fetch to a server of its own, then waits up to
 * 2 s, and prints the peak of the memory V8 took from malloc, in kB: over 10 MB once undici's
 * HTTP parser is compiled again by WebAssembly's optimizing compiler, about 1 MB in baseline code.
 * heap.ts is compiled to plain JavaScript first: a TypeScript loader's own work would show in the
 * peak.
 */
async function mallocPeakAfterFetches(tune: boolean): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'split-heap-'));
  const heap = join(dir, 'heap.mjs');
  const { code } = await transform(await readFile(HEAP, 'utf8'), { loader: 'ts', format: 'esm' });
  await writeFile(heap, code);
  const script = `
    import { createServer } from 'node:http';
    import { getHeapStatistics } from 'node:v8';
    const { tuneForIdle } = await import(${JSON.stringify(heap)});
    if (${tune}) tuneForIdle(process.execArgv, undefined);
    const body = JSON.stringify({ expenses: Array.from({ length: 20 }, (_, id) => ({ id, description: 'coffee'.repeat(10) })) });
    const server = createServer((_req, res) => res.end(body)).listen(0, '127.0.0.1');
    await new Promise((done) => server.once('listening', done));
    const url = 'http://127.0.0.1:' + server.address().port + '/';
    for (let i = 0; i < 60; i++) await (await fetch(url, { method: 'POST', body: 'x'.repeat(500) })).text();
    const peak = () => getHeapStatistics().peak_malloced_memory;
    const end = Date.now() + 2000;
    while (Date.now() < end && peak() < 8 * 1024 * 1024) await new Promise((done) => setTimeout(done, 100));
    console.log(Math.round(peak() / 1024));
    server.close();
  `;
  try {
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 30_000,
    });
    return Number(stdout.trim());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface Adapted {
  applied: string[];
  resting: number;
  burst: { young: number; state: string; bursts: number; leftMb: number; oldMb: number };
  idle: {
    young: number;
    state: string;
    givenBack: number;
    gcOnGlobal: string;
    leftMb: number;
    oldMb: number;
  };
  light: { state: string };
}

/**
 * A child process tuned as main.ts tunes it, adapting with short idle times: its young generation
 * in kB at rest, after a burst of allocations, once idle again, and after a light load (a few
 * allocations a second, as single commands make).
 */
async function adaptThroughBurst(execArgv: string[] = []): Promise<Adapted> {
  const script = `
    import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
    const { tuneForIdle, PINNED_YOUNG } = await import(${JSON.stringify(HEAP)});
    const { adaptYoungGeneration } = await import(${JSON.stringify(ADAPT)});
    const young = () => Math.round(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1024);
    const pause = (ms) => new Promise((done) => setTimeout(done, ms));
    const applied = tuneForIdle(process.execArgv, undefined);
    const adapted = applied.includes(PINNED_YOUNG) ? adaptYoungGeneration({ idleMs: 1000, checkMs: 250 }) : undefined;
    const resting = young();
    const usedMb = () => getHeapStatistics().used_heap_size / 2 ** 20;
    const oldMb = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space').space_size / 2 ** 20;
    const oldBefore = oldMb();
    const usedBefore = usedMb();
    const survivors = [];
    const allocate = async (n, keep = 2000) => {
      const kept = [];
      for (let i = 0; i < n; i++) {
        kept[i % keep] = { i, text: String(i).padStart(64, '-') };
        // A few outlive the burst, spread over its pages, as a cache's entries do.
        if (keep > 2000 && i % 50 === 0) survivors.push(kept[i % keep]);
        if (i % 20000 === 0) await pause(0);
      }
    };
    // What a burst leaves in the old generation once its work is done: garbage, 20 MB or more.
    await allocate(1_200_000, 200_000);
    const burst = { young: young(), state: adapted?.state, bursts: adapted?.bursts, leftMb: Math.round(usedMb() - usedBefore), oldMb: Math.round(oldMb() - oldBefore) };
    const until = Date.now() + 15_000;
    while (adapted?.state === 'grown' && Date.now() < until) await pause(100);
    const idle = { young: young(), state: adapted?.state, givenBack: adapted?.givenBack, gcOnGlobal: typeof globalThis.gc, leftMb: Math.round(usedMb() - usedBefore), oldMb: Math.round(oldMb() - oldBefore) };
    for (let i = 0; i < 10; i++) { await allocate(2_000); await pause(100); }
    const light = { state: adapted?.state };
    adapted?.stop();
    console.log(JSON.stringify({ applied, resting, burst, idle, light, survivors: survivors.length }));
  `;
  const { stdout } = await run(
    process.execPath,
    [...execArgv, '--import', 'tsx', '--input-type=module', '-e', script],
    { timeout: 30_000 },
  );
  return JSON.parse(stdout) as Adapted;
}

describe('adaptYoungGeneration', () => {
  it('grows the young generation for a burst and gives it back once idle', async () => {
    const adapted = await adaptThroughBurst();
    expect(adapted.burst.state).toBe('grown');
    expect(adapted.burst.young).toBeGreaterThan(2 * adapted.resting);
    expect(adapted.idle).toEqual({
      young: expect.any(Number),
      state: 'pinned',
      givenBack: 1,
      gcOnGlobal: 'undefined',
      leftMb: expect.any(Number),
      oldMb: expect.any(Number),
    });
    expect(adapted.idle.young).toBeLessThanOrEqual(adapted.resting);
    // The burst's garbage is collected, not left for V8 to find some time later.
    expect(adapted.burst.leftMb).toBeGreaterThan(15);
    expect(adapted.idle.leftMb).toBeLessThan(10);
    // And the old generation's pages it filled are returned, not kept around what survived.
    expect(adapted.burst.oldMb).toBeGreaterThan(15);
    expect(adapted.idle.oldMb).toBeLessThan(10);
    // A few allocations a second are no burst.
    expect(adapted.light.state).toBe('pinned');
  }, 30_000);

  it('is not started where the operator sized the young generation', async () => {
    const adapted = await adaptThroughBurst(['--max-semi-space-size=1']);
    expect(adapted.applied).not.toContain('--semi-space-growth-factor=1');
    expect(adapted.burst.state).toBeUndefined();
    expect(adapted.burst.young).toBeLessThanOrEqual(2 * 1024);
  }, 30_000);
});

describe('tuneForIdle', () => {
  it('keeps the young generation at its starting size through a burst of allocations', async () => {
    const [kept, grown] = await Promise.all([
      youngGenerationAfterBurst(true),
      youngGenerationAfterBurst(false),
    ]);
    expect(kept).toBeLessThanOrEqual(4 * 1024);
    expect(grown).toBeGreaterThan(2 * kept);
  });

  it('keeps WebAssembly in baseline code, on every Node it runs on', async () => {
    const [kept, optimized] = await Promise.all([
      mallocPeakAfterFetches(true),
      mallocPeakAfterFetches(false),
    ]);
    expect(kept).toBeLessThan(4 * 1024);
    expect(optimized).toBeGreaterThan(8 * 1024);
  });

  it("leaves the operator's own choices alone", async () => {
    const { tuneForIdle } = await import('../src/heap.js');
    expect(tuneForIdle(['--max-semi-space-size=64', '--liftoff'], undefined)).toEqual([]);
    expect(tuneForIdle([], '--max-old-space-size=512 --max-semi-space-size=64')).toEqual([
      '--liftoff-only',
      '--no-wasm-tier-up',
      '--no-wasm-dynamic-tiering',
    ]);
    expect(tuneForIdle(['--no-wasm-tier-up'], undefined)).toEqual(['--semi-space-growth-factor=1']);
    const grown = await youngGenerationAfterBurst(true, ['--max-semi-space-size=32']);
    expect(grown).toBeGreaterThan(4 * 1024);
  });
});
