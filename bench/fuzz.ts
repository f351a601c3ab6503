/**
 * Fuzzed `/split` texts against the parser and the share allocation, then the longest texts.
 *
 *   npx tsx bench/fuzz.ts        FUZZ_TEXTS=N (10000), FUZZ_SEED=N (1)
 *
 * Texts are built from pieces people type (amounts in every spelling, currencies by code, symbol
 * and word, mentions, shares, percentages, dates, keywords) mixed with hostile ones
 * (Object.prototype names, malformed numbers, markup, control characters, very long words). Each
 * text is parsed as the app parses it; an expense is then turned into shares as the app books it.
 * Counted: crashes (a throw), slow parses (over 50 ms: a pathological pattern), and wrong
 * bookings: shares that do not add up to the cost in the minor unit, a negative share, a
 * participant missing or twice, a cost that is not what the text said (the typed amount, or the
 * each-amount times the people), a description that kept a malformed number. Deterministic for a
 * seed, so a failure can be replayed.
 *
 * Then the abuse cases, at the 40,000 characters a Slack message may hold: a command (refused
 * unread by parseCommand's cap, and read whole by the parser without its cap, the work the cap
 * saves), and a message read as "Split this" reads one (cut to the cap, then parsed). Each is
 * timed as the fastest of a few runs; one over 50 ms counts as slow.
 *
 * Crowds: one text in twenty names up to 400 people, in every mention form and some broken ones.
 * As in the app, a text naming more than 50 is refused before it is parsed (the ack's count,
 * slack/kit/limits.ts); for the others, every person the booking would look up must be one the
 * count saw, or the count would not bound the lookups: a person it missed is a wrong booking.
 */
import { performance } from 'node:perf_hooks';
import {
  cutToCommandCap,
  ME,
  type ParsedExpense,
  parseCommand,
} from '../packages/app/src/core/command/index.js';
import { parseUncapped } from '../packages/app/src/core/command/parse.js';
import { computeShares, type Split } from '../packages/app/src/core/split.js';
import { MAX_PEOPLE, mentionedIds } from '../packages/app/src/slack/kit/limits.js';

const TEXTS = Number(process.env.FUZZ_TEXTS ?? 10_000);
let seed = Number(process.env.FUZZ_SEED ?? 1) >>> 0 || 1;
const SLOW_MS = 50;

/** xorshift32: small, fast and repeatable. */
function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const AMOUNTS = [
  '40',
  '12.50',
  '12,50',
  '1 000,50',
  '1,234.56',
  '1.234,56',
  '€12',
  '12€',
  '$7',
  'US$9.99',
  '¥500',
  '£3.20',
  '0.01',
  '99.999',
  '0',
  '-5',
  '1e2',
  '12.345',
  '1000000001',
  '7 each',
  '$7 each',
  '40.',
  '.5',
  '١٢',
  '12..5',
  '--3',
  '+5',
  '3/4',
  '40%',
];
const CURRENCIES = ['EUR', 'usd', 'euros', 'JPY', 'kr', 'XYZ', 'BTC', 'gbp', 'pounds', '¥'];
const WORDS = [
  'lunch',
  'taxi',
  'rent',
  'groceries',
  'café',
  '🍕',
  'pizza 2x',
  'C++11',
  '4pm',
  '24/7',
  'x3',
  'dinner at Joe’s',
  'مطعم',
  'ramen',
  '"quoted words"',
  "it's",
  'a'.repeat(300),
];
const HOSTILE = [
  ...Object.getOwnPropertyNames(Object.prototype),
  '__proto__',
  'prototype',
  'constructor.prototype',
  '<script>',
  '&amp;',
  '\u0000',
  '\u202e',
  '#{x}',
  '$x',
  '%s',
  '\\',
  '*bold*',
  '`code`',
  '<!here>',
  '<!channel>',
  '<#C0001|general>',
  '<!subteam^S123|team>',
  '<https://example.com|link>',
  '-1x',
  '1e2%',
  '0x',
  '%',
  '1.5.5',
];
const PEOPLE = ['<@U0ANN|ann>', '<@U0BOB|bob>', '<@U0CAT>', '<@U0DAN|dan>', '@me', 'me'];
const VALUES = ['25', '15', '60%', '40%', '2x', '1x', '33.33%', '0', '10.5', '3x'];
const TAILS = [
  'paid by <@U0BOB|bob>',
  'paid by me',
  'in Roommates',
  'in "Lisbon trip"',
  'on 2026-11-20',
  'yesterday',
  'on Nov 3',
  'on 31/02',
  'on 01/02/2026',
  'except me',
  'last week',
  'on __proto__',
  'in constructor',
  'paid by __proto__',
];

/** Many people at once, in every mention form and a few broken ones. */
function crowd(): string {
  const size = 1 + Math.floor(random() ** 2 * 400);
  const forms = [
    (i: number) => `<@U${i}>`,
    (i: number) => `<@U${i}|p${i}>`,
    (i: number) => `<@W${i}|${'x'.repeat(40)}>`,
    (i: number) => `<@U${i}> ${pick(VALUES)}`,
    (i: number) => `<@U${i}|`,
    () => '<@',
    (i: number) => `<@U${i}|<@U${i + 1}>`,
  ];
  const people = Array.from({ length: size }, (_, i) =>
    pick(forms)(Math.floor(random() * size * 1.2) + i),
  );
  return [pick(AMOUNTS), pick(WORDS), ...people, random() < 0.3 ? pick(TAILS) : ''].join(' ');
}

function text(): string {
  if (random() < 0.05) return crowd();
  const parts: string[] = [];
  const n = 1 + Math.floor(random() * 7);
  if (random() < 0.9) parts.push(pick(AMOUNTS));
  if (random() < 0.2) parts.push(pick(CURRENCIES));
  for (let i = 0; i < n; i++) {
    const r = random();
    if (r < 0.3) parts.push(pick(WORDS));
    else if (r < 0.45) parts.push(pick(HOSTILE));
    else if (r < 0.75) {
      parts.push(pick(PEOPLE));
      if (random() < 0.4) parts.push(pick(VALUES));
    } else if (r < 0.9) parts.push(pick(TAILS));
    else parts.push(pick(AMOUNTS));
  }
  if (random() < 0.05) parts.unshift(pick(['help', 'balance', 'list', 'groups', 'undo']));
  return parts.join(random() < 0.1 ? '  ' : ' ');
}

/** The split with ME replaced by the caller's id, as the app does before booking. */
function swapIds(split: Split, swap: (id: string) => string): Split {
  switch (split.kind) {
    case 'equal':
      return split;
    case 'exact':
      return { kind: 'exact', amounts: split.amounts.map((v) => ({ ...v, id: swap(v.id) })) };
    case 'percent':
      return { kind: 'percent', percents: split.percents.map((v) => ({ ...v, id: swap(v.id) })) };
    case 'shares':
      return { kind: 'shares', shares: split.shares.map((v) => ({ ...v, id: swap(v.id) })) };
  }
}

interface Problem {
  text: string;
  what: string;
}

function checkExpense(typed: string, expense: ParsedExpense, problems: Problem[]): void {
  const wrong = (what: string) => problems.push({ text: typed, what });
  // Everyone the booking looks up in Slack was counted at the ack.
  const counted = mentionedIds(typed);
  const lookedUp = [
    expense.payer,
    ...expense.participants,
    ...(expense.payers ?? []).map((p) => p.id),
  ];
  for (const id of new Set(lookedUp)) {
    if (id !== ME && !counted.has(id)) wrong(`${id} is looked up but was not counted at the ack`);
  }
  if (!Number.isSafeInteger(expense.cost) || expense.cost <= 0) wrong(`cost ${expense.cost}`);
  if (/(^|\s)(-1x|1e2%|1\.5\.5|--3)(\s|$)/.test(expense.description)) {
    wrong(`malformed number kept in the description "${expense.description}"`);
  }
  // The participants as the app books them: ME is the caller, the others are Slack ids.
  const caller = 'U0CALLER';
  const swap = (id: string) => (id === ME ? caller : id);
  const participants = expense.participants.map(swap);
  if (expense.wholeGroup) participants.push('U0GROUPMATE');
  if (participants.length === 0) return;
  if (expense.each !== null && expense.cost !== expense.each * participants.length) {
    wrong(`each ${expense.each} x ${participants.length} is not the cost ${expense.cost}`);
  }
  const split = swapIds(expense.split, swap);
  const result = computeShares({
    cost: expense.cost,
    payer: swap(expense.payer),
    participants,
    split,
  });
  if ('error' in result) return; // refused with a message: nothing is booked
  const owed = result.shares.reduce((sum, row) => sum + row.owed, 0);
  const paid = result.shares.reduce((sum, row) => sum + row.paid, 0);
  if (owed !== expense.cost) wrong(`owed shares add up to ${owed}, not ${expense.cost}`);
  if (paid !== expense.cost) wrong(`paid shares add up to ${paid}, not ${expense.cost}`);
  if (result.shares.some((row) => row.owed < 0 || row.paid < 0)) wrong('a negative share');
  const ids = result.shares.map((row) => row.id);
  if (new Set(ids).size !== ids.length) wrong('someone appears twice');
  for (const id of participants) if (!ids.includes(id)) wrong(`participant ${id} left out`);
}

class RefusedAtAck extends Error {}

const ctx = { today: '2026-11-25', defaultCurrency: 'USD', locale: 'en-US' };
const kinds = new Map<string, number>();
const crashes: Problem[] = [];
const slow: Problem[] = [];
const wrong: Problem[] = [];
let slowest = 0;
const started = performance.now();
for (let i = 0; i < TEXTS; i++) {
  const typed = text();
  const t0 = performance.now();
  let kind = 'crash';
  try {
    // As the ack does: more people than an expense can have is refused before any parse.
    if (mentionedIds(typed).size > MAX_PEOPLE) {
      kind = `refused at the ack (over ${MAX_PEOPLE} people)`;
      throw new RefusedAtAck();
    }
    const parsed = parseCommand(typed, ctx);
    kind = parsed.kind;
    if (parsed.kind === 'expense') checkExpense(typed, parsed.expense, wrong);
    const said = parsed.kind === 'error' ? JSON.stringify(parsed.problem) : '';
    if (parsed.kind === 'error' && /\[object|function |undefined|NaN|null/.test(said)) {
      wrong.push({ text: typed, what: `garbled refusal: ${said}` });
    }
  } catch (error) {
    if (!(error instanceof RefusedAtAck))
      crashes.push({ text: typed, what: (error as Error).message });
  }
  const ms = performance.now() - t0;
  slowest = Math.max(slowest, ms);
  if (ms > SLOW_MS) slow.push({ text: typed, what: `${ms.toFixed(0)} ms` });
  kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
}
const elapsed = performance.now() - started;

/** The fastest of five runs, in ms: the parse's own time, not a pause of the collector. */
function fastest(run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let n = 0; n < 5; n++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}
const ABUSE_CHARS = 40_000;
const padded = (start: string, unit: string, end: string) =>
  `${start}${unit.repeat(Math.ceil(ABUSE_CHARS / unit.length))}`.slice(
    0,
    ABUSE_CHARS - end.length,
  ) + end;
const abuseCommand = padded('40 lunch <@U0ANN|ann> x', ',', 'y');
const abuseMessage = padded(
  'Dinner at Luigi’s €84.50 with <@U0BOB|bob>, ',
  'and then we walked along the river, ',
  '',
);
const abuse: Array<{ what: string; ms: number; result: string }> = [];
for (const [what, run] of [
  ['40k command, parseCommand (cap)', () => parseCommand(abuseCommand, ctx)],
  ['40k command, parser without the cap', () => parseUncapped(abuseCommand, ctx)],
  [
    '40k message, cut to the cap and parsed',
    () => parseCommand(cutToCommandCap(abuseMessage), ctx),
  ],
  ['40k message, parser without the cap', () => parseUncapped(abuseMessage, ctx)],
] as const) {
  const result = run();
  abuse.push({ what, ms: fastest(run), result: result.kind });
  if (abuse[abuse.length - 1]!.ms > SLOW_MS) {
    slow.push({ text: `${what} (${ABUSE_CHARS} characters)`, what: 'slow' });
  }
}

console.log(`${TEXTS} fuzzed texts, seed ${process.env.FUZZ_SEED ?? 1}, ${elapsed.toFixed(0)} ms`);
console.log(
  `results: ${[...kinds]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')}`,
);
console.log(`crashes: ${crashes.length}`);
console.log(`slow parses (> ${SLOW_MS} ms): ${slow.length} (slowest ${slowest.toFixed(1)} ms)`);
console.log(`wrong bookings: ${wrong.length}`);
console.log(`longest texts (${ABUSE_CHARS.toLocaleString('en-US')} characters), fastest of 5:`);
for (const { what, ms, result } of abuse) console.log(`  ${what}: ${ms.toFixed(2)} ms (${result})`);
for (const problem of [...crashes, ...slow, ...wrong].slice(0, 20)) {
  console.log(`  ${JSON.stringify(problem.text)}: ${problem.what}`);
}
process.exitCode = crashes.length + slow.length + wrong.length === 0 ? 0 : 1;
