/**
 * Long texts made of the grammar's own punctuation and keywords parse in time that grows with
 * their length, not with its square: a regex that starts again at every character of a long run
 * (`x,,,,…,,y` against `[,;]+$`) made a 40,000-character command take seconds. The texts are as
 * long as a Slack message may be, ten times the cap of parseCommand, so they are read by the
 * parser without its cap. Each must parse within the bound; a quadratic pattern takes a hundred
 * times longer at this length, so the bound leaves room for a busy machine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAmount, parseSum } from '../../../src/core/command/index.js';
import { parseUncapped } from '../../../src/core/command/parse.js';
import { trimBoth, trimEnd } from '../../../src/core/command/tokens.js';
import { ctx } from './helpers.js';

const BOUND_MS = 50;
const LONGEST = 40_000;

/**
 * The processor time of the fastest of a few runs, in ms. Processor time, not time on the clock:
 * other processes on a busy machine lengthen the second and not the first. The fastest run: a
 * pause of the garbage collector is not the parser's.
 */
function fastest(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 5 && best >= BOUND_MS; attempt++) {
    const started = process.cpuUsage();
    run();
    const { user, system } = process.cpuUsage(started);
    best = Math.min(best, (user + system) / 1000);
  }
  return best;
}

function expectQuick(text: string): void {
  const parse = fastest(() => parseUncapped(text, ctx));
  const amount = fastest(() => parseAmount(text, 'USD'));
  const sum = fastest(() => parseSum(text, 'USD'));
  const shown = `${JSON.stringify(text.slice(0, 60))}… (${text.length} characters)`;
  // Within the bound reads `true`; beyond it, the time taken.
  const within = (ms: number) => ms < BOUND_MS || `${ms.toFixed(0)} ms`;
  expect({ text: shown, parse: within(parse), amount: within(amount), sum: within(sum) }).toEqual({
    text: shown,
    parse: true,
    amount: true,
    sum: true,
  });
}

/** What the grammar gives a meaning to, one character or word at a time. */
const PIECES = [
  ',',
  '.',
  '!',
  '?',
  '+',
  'x',
  '×',
  '%',
  ';',
  ':',
  ')',
  '(',
  '-',
  '−',
  '=',
  '/',
  "'",
  '’',
  '"',
  '“',
  '”',
  '<',
  '>',
  '@',
  '&amp;',
  '&lt;',
  '$',
  '€',
  '£',
  '¥',
  'R$',
  'EUR',
  'kr',
  'euros',
  '0',
  '1',
  '7',
  '12',
  '40',
  '2026',
  '1,000',
  '12.50',
  '12,50',
  '.5',
  '2x',
  'x3',
  '60%',
  '1e3',
  'paid by',
  'paid',
  'by',
  'paid_by',
  'each',
  'per person',
  'pp',
  'me',
  'except',
  'only',
  'in',
  'on',
  'and',
  'with',
  'for',
  'tip',
  '+tip',
  'tax',
  'every',
  'monthly',
  'repeat',
  'among',
  'ways',
  'shares',
  'group',
  'default',
  'list',
  'balance',
  'help',
  'yesterday',
  'last',
  'friday',
  'Nov',
  'about',
  'from',
  'to',
  'I',
  'note',
  'split',
  'lunch',
  'Roommates',
  '<@U123|ann>',
  '<@U456>',
  '<@U789|cho',
  '<!here>',
  '<#C1|general>',
  '<!subteam^S1|team>',
  ' ',
  ' ',
  ' ',
  '\n',
  '\t',
];
const STARTS = ['', '40 lunch <@U123|ann> ', 'list ', 'balance ', 'group default ', 'paid '];

/** xorshift32, so that a failing text can be made again from its seed. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  return (): string => {
    const length = random() < 0.7 ? LONGEST : 1 + Math.floor(random() * LONGEST);
    let text = pick(STARTS);
    while (text.length < length) {
      // Long runs of one piece are where backtracking patterns spend their time; mixes of a
      // few pieces make the runs stop short of the end of a word, or of the text.
      const pieces = [pick(PIECES), pick(PIECES)].slice(0, random() < 0.7 ? 1 : 2);
      const joiner = random() < 0.6 ? '' : ' ';
      const run = 1 + Math.floor((random() ** 2 * LONGEST) / (pieces[0]!.length + joiner.length));
      text += Array.from({ length: run }, (_, i) => pieces[i % pieces.length]).join(joiner);
    }
    return text.slice(0, length);
  };
}

describe('parsing takes time in proportion to the text', () => {
  beforeAll(() => {
    // Compiling the parser's code takes as long again the first time through; that is no
    // property of the text.
    const warm = `40 lunch <@U123|ann> ${'a, '.repeat(4000)}`;
    for (let n = 0; n < 3; n++) parseUncapped(warm, ctx);
  });

  it('reads the texts that once took seconds quickly', () => {
    const long = (unit: string) => unit.repeat(Math.ceil(LONGEST / unit.length)).slice(0, LONGEST);
    for (const text of [
      `40 lunch <@U123|ann> x${long(',')}y`,
      `40 lunch <@U123|ann> ${long(', ')}y`,
      `40 lunch <@U123|ann> ${long('1,')}x`,
      // As many words as a text this long holds, each a number: the most work per character.
      `40 lunch <@U123|ann> ${long('1 ')}`,
      `40 lunch <@U123|ann> ${long('$ 1 ')}`,
      `help${long('.')}x`,
      `help ${long('. ')}x`,
      `40 lunch <@U123|ann> ${long('“a ')}`,
      `40 lunch <@U123|ann> ${long('"a ')}`,
      `40 lunch <@U123|ann> ${long('<a ')}`,
      `<!here ${long(',')}\nx>`,
      `group create ${long(', ')}x`,
      `group default ${long('in ')}x`,
      `list about x${long(',;')}y`,
      `list ${long('for ')}x`,
      `40 lunch ${long('<@U1|a> ')}`,
      `40 lunch ${long('note ')}`,
      `40 ${long('+')}`,
      `40 ${long('12+')}x`,
      `40 lunch <@U123|ann> ${long('2x')}y`,
      `40 lunch <@U123|ann> ${long('%')}y`,
      `40 lunch <@U123|ann> 1${long('.')}x`,
    ]) {
      expectQuick(text);
    }
    // The bound is on processor time; on a busy machine the wall clock runs far past it.
  }, 60_000);

  it('reads random long mixes of punctuation and keywords quickly', () => {
    const next = generator(20_261_125);
    for (let n = 0; n < 60; n++) expectQuick(next());
  }, 60_000);
});

describe('trimEnd and trimBoth', () => {
  it('take the characters of the class off the end, or off both ends', () => {
    expect(trimEnd('12,50,;:', /[,;:]/)).toBe('12,50');
    expect(trimEnd(',,,', /[,]/)).toBe('');
    expect(trimEnd('lunch', /[,]/)).toBe('lunch');
    expect(trimBoth(' ,Trip to Rome; ', /[,;\s]/)).toBe('Trip to Rome');
    expect(trimBoth(', ;', /[,;\s]/)).toBe('');
  });
});
