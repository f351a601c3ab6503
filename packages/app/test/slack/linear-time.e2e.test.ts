/**
 * Every entry point reads what a person sent in time that grows with its length, not with its
 * square: the cap comes before any pattern, and the patterns left are linear. A mention of 40,000
 * `。` once held the process for seconds, "split this" being looked for with `[.!?。！？]+$`
 * before the cap; a form's amount of `1.000…0001` met `0+$`. The texts are as long as a Slack
 * message may be, made of long runs of what patterns trip on (dots, `。`, digits, spaces, `@`,
 * commas, pieces of mentions), each alone, after a mention of the app or a command, and with a
 * character at the end that no run ends with. Each reader (entry-readers.ts) must read each text
 * within the bound of processor time: linear readers take a few milliseconds, a quadratic one
 * seconds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectQuick, LONGEST, long } from '../support/linear-time.js';

const BOUND_MS = 200;
const READERS = fileURLToPath(new URL('./entry-readers.ts', import.meta.url));

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-entry-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs that patterns trip on, one unit each. */
const RUNS = [
  '.',
  '。',
  '！',
  '?',
  '1',
  '0',
  ' ',
  '\n',
  '@',
  ',',
  '+',
  '%',
  '1.',
  '1,',
  '. ',
  ', ',
  '<',
  '<@',
  '<@U',
  '<@U0BOB|',
  '<@U0BOT0001',
  '<@U0BOT0001|',
  '<@U0BOB> ',
  '<@U0BOT0001> ',
  '&',
  'http://a.',
  'https://secure.splitwise.com/expenses/1',
];

/** Where a run starts: alone, after the app's mention, after a command's start. */
const STARTS = ['', '<@U0BOT0001> ', '40 lunch <@U0BOB> ', '1.'];

/** The run filling `start` out to the longest message, with `end` as its last character. */
const text = (start: string, unit: string, end: string) =>
  `${start}${long(unit, LONGEST - start.length - end.length)}${end}`;

describe('every entry point reads a message-long text quickly', () => {
  it('reads runs of one piece, alone and after a start, with and without a last character', async () => {
    const texts = RUNS.flatMap((unit) => [
      text('', unit, ''),
      ...STARTS.map((start) => text(start, unit, 'x')),
    ]);
    await expectQuick({ module: READERS, dir, texts, boundMs: BOUND_MS });
  }, 240_000);

  it('reads mixes of the pieces', async () => {
    const mixes = [
      '1.。 ',
      '@, ',
      '<@U0BOT0001> split this',
      '<@U0BOB|bob <@',
      '0.00',
      '1 000,',
      '12.50+',
      '. 。 ！ ? ',
      '+ ',
      // Phrases of the other languages' words, each stopping one word short.
      'a cada duas ',
      'am letzten ',
      'bezahlt von ',
      'gestern 3.12. ',
    ];
    const texts = mixes.flatMap((unit) => [text('', unit, 'x'), text('<@U0BOT0001> ', unit, '')]);
    await expectQuick({ module: READERS, dir, texts, boundMs: BOUND_MS });
  }, 240_000);
});
