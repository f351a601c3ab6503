/**
 * Long texts made of the grammar's own punctuation and keywords parse in time that grows with
 * their length, not with its square: a regex that starts again at every character of a long run
 * (`x,,,,…,,y` against `[,;]+$`) made a 40,000-character command take seconds. The texts are as
 * long as a Slack message may be, ten times the cap of parseCommand, so they are read by the
 * parser without its cap (parseAmount and parseSum, timed beside it, refuse more than an amount
 * holds before reading). Each must parse within the bound. The heaviest of them (a number in
 * every other character) takes 40 ms of processor time on a quiet machine and over 60 ms while a
 * test run shares its two cores; a quadratic pattern takes seconds at this length. The bound sits
 * between, with room on both sides.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectQuick, LONGEST, long } from '../../support/linear-time.js';

const BOUND_MS = 200;
const SRC = fileURLToPath(new URL('../../../src/core/command/', import.meta.url));

let dir: string;
let bundle: string;

/** The parser's readers, timed on each text in a process of their own (support/text-timer.ts). */
const quick = (texts: string[]) => expectQuick({ module: bundle, dir, texts, boundMs: BOUND_MS });

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
  // Words of the other languages, read for a reader of each (lexicon/).
  'gestern',
  'hier',
  'am',
  'letzten',
  'Freitag',
  'vendredi',
  'dernier',
  'el',
  'viernes',
  'pasado',
  'na',
  'sexta-feira',
  'passada',
  'alle',
  'zwei',
  'Wochen',
  'toutes les',
  'deux',
  'semaines',
  'a cada',
  'duas',
  'jeden',
  'Tag',
  'monatlich',
  'bezahlt von',
  'mir',
  'außer',
  'mí',
  'moi',
  'eu',
  'und',
  '3.12.',
  'de',
  'diciembre',
  'liste',
  'la semaine dernière',
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
const STARTS = [
  '',
  '40 lunch <@U123|ann> ',
  'list ',
  'balance ',
  'group default ',
  'paid ',
  'liste ',
  'paguei ',
  'hilfe ',
];

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
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'split-parse-'));
    bundle = join(dir, 'parser.mjs');
    // Bundled as scripts/build.ts bundles the app: the code that runs in production, without the
    // test runner's module loader between its functions.
    await build({
      stdin: {
        contents: [
          "import { parseUncapped } from './parse.ts';",
          "import { parseAmount, parseSum } from './index.ts';",
          "const ctx = { today: '2026-11-21', defaultCurrency: 'USD' };",
          // A reader of each language reads its words besides English's.
          'const inLocale = (locale) => (text) => parseUncapped(text, { ...ctx, locale });',
          'export const readers = {',
          '  parse: (text) => parseUncapped(text, ctx),',
          "  parseDe: inLocale('de-DE'),",
          "  parseFr: inLocale('fr-FR'),",
          "  parseEs: inLocale('es-ES'),",
          "  parsePt: inLocale('pt-BR'),",
          "  amount: (text) => parseAmount(text, 'USD'),",
          "  sum: (text) => parseSum(text, 'USD'),",
          '};',
          // Compiling the parser's code takes as long again the first time through.
          `export const warm = ${JSON.stringify(`40 lunch <@U123|ann> ${'a, '.repeat(4000)}`)};`,
        ].join('\n'),
        resolveDir: SRC,
        loader: 'ts',
      },
      outfile: bundle,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: ['node20'],
      logLevel: 'silent',
    });
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads the texts that once took seconds quickly', async () => {
    const texts = [
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
      // Phrases of several words started again and again, each stopping one word short.
      `40 lunch <@U123|ann> ${long('a cada duas ')}x`,
      `40 lunch <@U123|ann> ${long('toutes les deux ')}x`,
      `40 lunch <@U123|ann> ${long('am letzten ')}x`,
      `40 lunch <@U123|ann> ${long('el viernes ')}x`,
      `40 lunch <@U123|ann> ${long('bezahlt von ')}x`,
      `40 lunch <@U123|ann> ${long('3 de ')}x`,
      `liste ${long('la semaine ')}x`,
    ];
    await quick(texts);
    // The bound is on processor time; on a busy machine the wall clock runs far past it.
  }, 120_000);

  it('reads random long mixes of punctuation and keywords quickly', async () => {
    const next = generator(20_261_125);
    await quick(Array.from({ length: 60 }, () => next()));
  }, 120_000);
});
