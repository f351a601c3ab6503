/**
 * How long the parser takes over typical `/split` texts, on whichever Node runs it.
 *
 *   npx tsx bench/parse.ts       BENCH_COMPARE=<tree>: that checkout's parser too, in the same
 *                                rounds (its sources, through tsx, as this tree's)
 *                                BENCH_ROUNDS=N (7), BENCH_PARSES=N parses per text a round (20000)
 *
 * Each round parses every text BENCH_PARSES times with each parser (alternating which goes
 * first), after a warm-up round; the table gives the median of the rounds, in µs per parse.
 */
import { pathToFileURL } from 'node:url';
import type * as Command from '../packages/app/src/core/command/index.js';
import { parseCommand } from '../packages/app/src/core/command/index.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PARSES = Number(process.env.BENCH_PARSES ?? 20_000);
const COMPARE = process.env.BENCH_COMPARE;

const TEXTS = [
  '12 coffee <@U0BOB>',
  '40 lunch <@U0ANN|ann> <@U0BOB|bob>',
  '€12,50 taxi yesterday <@U0ANN> <@U0BOB>',
  '90 dinner <@U0ANN> 30 <@U0BOB> 20 me 40 tip 10%',
  '1 000,50 EUR hotel in Paris with <@U0ANN> on friday every month',
];
const CTX = {
  today: '2026-12-06',
  defaultCurrency: 'USD',
  locale: 'en-US',
  channelHasGroup: false,
};

type Parse = typeof parseCommand;
const parsers: Array<{ name: string; parse: Parse }> = [{ name: 'this tree', parse: parseCommand }];
if (COMPARE) {
  const url = pathToFileURL(`${COMPARE}/packages/app/src/core/command/index.ts`).href;
  parsers.push({ name: COMPARE, parse: ((await import(url)) as typeof Command).parseCommand });
}

/** µs per parse of each text, for one parser, in one round. */
function round(parse: Parse): number[] {
  return TEXTS.map((text) => {
    let kinds = 0;
    const started = performance.now();
    for (let i = 0; i < PARSES; i++) if (parse(text, CTX).kind === 'expense') kinds++;
    const us = ((performance.now() - started) * 1000) / PARSES;
    if (kinds !== PARSES) throw new Error(`"${text}" did not parse as an expense`);
    return us;
  });
}

const times = parsers.map(() => TEXTS.map(() => [] as number[]));
for (let r = 0; r <= ROUNDS; r++) {
  for (let k = 0; k < parsers.length; k++) {
    const i = (r + k) % parsers.length;
    const measured = round(parsers[i]!.parse);
    if (r > 0) {
      for (const [t, us] of measured.entries()) times[i]![t]!.push(us);
    }
  }
}
console.log(
  `parseCommand on Node ${process.versions.node}: µs per parse, medians of ${ROUNDS} rounds of ${PARSES}`,
);
console.log(`text | ${parsers.map((p) => p.name).join(' | ')}`);
TEXTS.forEach((text, t) => {
  console.log(`${text} | ${parsers.map((_, i) => median(times[i]![t]!).toFixed(2)).join(' | ')}`);
});
