import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const HEAP = join(import.meta.dirname, '..', 'src', 'heap.ts');

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

describe('tuneForIdle', () => {
  it('keeps the young generation at its starting size through a burst of allocations', async () => {
    const [kept, grown] = await Promise.all([
      youngGenerationAfterBurst(true),
      youngGenerationAfterBurst(false),
    ]);
    expect(kept).toBeLessThanOrEqual(4 * 1024);
    expect(grown).toBeGreaterThan(2 * kept);
  });

  it("leaves the operator's own choices alone", async () => {
    const { tuneForIdle } = await import('../src/heap.js');
    expect(tuneForIdle(['--max-semi-space-size=64', '--liftoff'], undefined)).toEqual([]);
    expect(tuneForIdle([], '--max-old-space-size=512 --max-semi-space-size=64')).toEqual([
      '--liftoff-only',
    ]);
    expect(tuneForIdle(['--no-wasm-tier-up'], undefined)).toEqual(['--semi-space-growth-factor=1']);
    const grown = await youngGenerationAfterBurst(true, ['--max-semi-space-size=32']);
    expect(grown).toBeGreaterThan(4 * 1024);
  });
});
