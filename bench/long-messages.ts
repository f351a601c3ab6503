/**
 * A message as long as Slack allows (40,000 characters), read as a mention or a DM is read, and
 * a fraction of 40,000 zeros read as an amount's decimals: the patterns these paths used before,
 * side by side with what they do now, in one run.
 *
 *   npx tsx --conditions=source bench/long-messages.ts      BENCH_ROUNDS=N (5)
 *
 * "Before" is the text of a mention as the app read it before the cap came first: the app's own
 * mention taken out, spaces collapsed, then "split this" looked for with a closing-marks pattern
 * anchored at the end (`[.!?。！？]+$`), which starts again at every mark of a run that something
 * else ends; and `0+$` on a fraction. "After" is commandText and withoutTrailingZeros as they are.
 * Each figure is the processor time of one read, the median of the rounds.
 */
import { MAX_COMMAND_CHARS } from '../packages/app/src/core/command/index.js';
import { fold } from '../packages/app/src/core/command/tokens.js';
import { withoutTrailingZeros } from '../packages/app/src/core/money.js';
import { commandText } from '../packages/app/src/slack/split/talk.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BOT = 'U0BOT0001';
const LONGEST = 40_000;

/** The mention's text as it was read before: every pattern over the whole message. */
function before(text: string): string {
  const own = text.replace(new RegExp(`<@${BOT}(?:\\|[^<>]*)?>`, 'g'), ' ');
  const trimmed = own.replace(/\s+/g, ' ').trim();
  fold(trimmed.toLowerCase())
    .replace(/[\s\u3000]+/g, ' ')
    .replace(/[.!?。！？]+$/u, '')
    .trim();
  return trimmed;
}

/** Processor time of `run`, in ms. */
function cpu(run: () => unknown): number {
  const started = process.cpuUsage();
  run();
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const message = (start: string, unit: string) =>
  `${start}${unit.repeat(LONGEST - start.length - 1)}x`;

const cases: Array<{ name: string; before: () => unknown; after: () => unknown }> = [];
for (const [name, text] of [
  ['mention, 。 run', message(`<@${BOT}> `, '。')],
  ['mention, . run', message(`<@${BOT}> `, '.')],
  ['mention, "split this" then ！ run', message(`<@${BOT}> split this`, '！')],
  ['DM, . run', message('', '.')],
  ['DM, digits', message('', '1')],
] as const) {
  cases.push({ name, before: () => before(text), after: () => commandText(text, BOT) });
}
const zeros = `${'0'.repeat(LONGEST - 1)}1`;
cases.push({
  name: 'amount decimals, 0 run then 1',
  before: () => zeros.replace(/0+$/, ''),
  after: () => withoutTrailingZeros(zeros),
});

// Compiling each path's code the first time is no property of the text.
for (const c of cases) {
  c.before();
  c.after();
}
const times = new Map(
  cases.map((c) => [c.name, { before: [] as number[], after: [] as number[] }]),
);
for (let round = 0; round < ROUNDS; round++) {
  for (const c of cases) {
    const t = times.get(c.name)!;
    t.before.push(cpu(c.before));
    t.after.push(cpu(c.after));
  }
}
console.log(`Node ${process.version}, ${ROUNDS} rounds, command cap ${MAX_COMMAND_CHARS}`);
console.log('| 40,000 characters | before (ms) | after (ms) |');
console.log('|---|---:|---:|');
for (const c of cases) {
  const t = times.get(c.name)!;
  console.log(`| ${c.name} | ${median(t.before).toFixed(1)} | ${median(t.after).toFixed(2)} |`);
}
