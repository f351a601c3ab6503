/**
 * The linear-time tests' check: every reader of a module reads each text within a bound of
 * processor time, timed in a child process by text-timer.ts. A pattern that starts again at every
 * character of a long run takes seconds at the 40,000 characters a Slack message may hold; a
 * linear reader takes milliseconds.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'vitest';

/** The most a Slack message holds. */
export const LONGEST = 40_000;

const TIMER = fileURLToPath(new URL('./text-timer.ts', import.meta.url));
const run = promisify(execFile);

/** `unit` repeated to `length` characters. */
export function long(unit: string, length = LONGEST): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** Each reader's processor time on each text, from text-timer.ts run on `module` in `dir`. */
async function timesOf(
  module: string,
  dir: string,
  texts: string[],
  boundMs: number,
): Promise<Array<Record<string, number>>> {
  const file = join(dir, `texts-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, JSON.stringify(texts));
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--conditions=source', TIMER, module, file, String(boundMs)],
    { timeout: 240_000, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout);
}

/**
 * Expects every reader of `module` to read every text within `boundMs` of processor time. A
 * failure lists each text (its start and length) with the time of each reader beyond the bound.
 */
export async function expectQuick(input: {
  module: string;
  /** A directory for the texts' file. */
  dir: string;
  texts: string[];
  boundMs: number;
}): Promise<void> {
  const times = await timesOf(input.module, input.dir, input.texts, input.boundMs);
  // Within the bound reads `true`; beyond it, the time taken. A time that is no number (a timer
  // that measured nothing) fails too.
  const within = (ms: unknown) =>
    (typeof ms === 'number' && ms < input.boundMs) ||
    (typeof ms === 'number' ? `${ms.toFixed(0)} ms` : String(ms));
  const read = input.texts.map((text, n) => ({
    text: `${JSON.stringify(text.slice(0, 60))}… (${text.length} characters)`,
    ...Object.fromEntries(Object.entries(times[n] ?? {}).map(([name, ms]) => [name, within(ms)])),
  }));
  const names = Object.keys(times[0] ?? {});
  expect(names.length).toBeGreaterThan(0);
  expect(read).toEqual(
    read.map(({ text }) => ({ text, ...Object.fromEntries(names.map((name) => [name, true])) })),
  );
}
