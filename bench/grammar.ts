/**
 * The parser reading what people type, for a reader of each language: English (its words
 * only) and German, French, Spanish and Brazilian Portuguese (their words beside English's),
 * side by side in one run. Optionally beside another copy of the parser, such as the one
 * before the words of other languages were read:
 *
 *   npx tsx --conditions=source bench/grammar.ts       BENCH_ROUNDS=N (7)
 *   BENCH_BEFORE=/tmp/before npx tsx --conditions=source bench/grammar.ts
 *
 * where /tmp/before holds `packages/app/src/core` of an older commit (for example
 * `git archive <commit> packages/app/src/core | tar -x -C /tmp/before`); that parser reads the
 * same texts as an English reader.
 *
 * Two workloads: every example of every language's `/split help` and the eight commands of the
 * German, French, Spanish and Brazilian users (a few dozen short commands, parsed 200 times a
 * round), and texts as long as a command may be (4,000 characters) made of the grammar's words.
 * Each figure is the processor time, the median of the rounds.
 */
import { pathToFileURL } from 'node:url';
import {
  GRAMMAR_LANGUAGES,
  HELP_TOPICS,
  helpFor,
  MAX_COMMAND_CHARS,
  type ParseContext,
  parseCommand,
} from '../packages/app/src/core/command/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const REPEATS = 200;

type Parse = (text: string, ctx: ParseContext) => unknown;

const asTyped = (example: string) =>
  example
    .replace(/^\/split ?/, '')
    .replace(/(?<!<)@(\w+)/g, (_, name: string) => `<@U0${name.toUpperCase()}|${name}>`);

const ANN = '<@U0ANN|ann>';
const short = [
  ...GRAMMAR_LANGUAGES.flatMap((language) => {
    const help = helpFor(language);
    return [...help.overview, ...HELP_TOPICS.flatMap((t) => help.details[t])].map((l) =>
      asTyped(l.example),
    );
  }),
  ...['gestern', 'monatlich', 'hier', 'mensuel', 'ayer', 'mensual', 'ontem', 'mensal'].map(
    (word) => `40 Mittagessen ${ANN} ${word}`,
  ),
];

const fill = (unit: string) =>
  `40 lunch ${ANN} ${unit.repeat(MAX_COMMAND_CHARS)}`.slice(0, MAX_COMMAND_CHARS);
const long = [
  fill('a cada duas '),
  fill('toutes les deux '),
  fill('am letzten '),
  fill('bezahlt von '),
  fill('gestern hier ayer ontem '),
  fill('lunch with and for '),
  fill('3 de '),
];

const readers: Array<{ name: string; parse: Parse; locale?: string }> = [
  { name: 'English reader', parse: parseCommand },
  { name: 'German reader', parse: parseCommand, locale: 'de-DE' },
  { name: 'French reader', parse: parseCommand, locale: 'fr-FR' },
  { name: 'Spanish reader', parse: parseCommand, locale: 'es-ES' },
  { name: 'Brazilian reader', parse: parseCommand, locale: 'pt-BR' },
];
if (process.env.BENCH_BEFORE) {
  const url = pathToFileURL(
    `${process.env.BENCH_BEFORE}/packages/app/src/core/command/index.ts`,
  ).href;
  const before = (await import(url)) as { parseCommand: Parse };
  readers.unshift({ name: 'before (English words only)', parse: before.parseCommand });
}

function cpu(run: () => void): number {
  const started = process.cpuUsage();
  run();
  const { user, system } = process.cpuUsage(started);
  return (user + system) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const work = {
  short: (r: (typeof readers)[number]) => {
    const ctx = {
      today: '2026-11-21',
      defaultCurrency: 'EUR',
      ...(r.locale ? { locale: r.locale } : {}),
    };
    for (let k = 0; k < REPEATS; k++) for (const text of short) r.parse(text, ctx);
  },
  long: (r: (typeof readers)[number]) => {
    const ctx = {
      today: '2026-11-21',
      defaultCurrency: 'EUR',
      ...(r.locale ? { locale: r.locale } : {}),
    };
    for (const text of long) r.parse(text, ctx);
  },
};

// Compiling each reader's code the first time is no property of the texts.
for (const r of readers) {
  work.short(r);
  work.long(r);
}
const times = readers.map(() => ({ short: [] as number[], long: [] as number[] }));
for (let round = 0; round < ROUNDS; round++) {
  readers.forEach((r, i) => {
    times[i]!.short.push(cpu(() => work.short(r)));
    times[i]!.long.push(cpu(() => work.long(r)));
  });
}

console.log(
  `${short.length} short commands x ${REPEATS}, and ${long.length} texts of ${MAX_COMMAND_CHARS} characters; median of ${ROUNDS} rounds, processor time\n`,
);
console.log('| reader | per short command | per 4,000-character text |');
console.log('|---|---:|---:|');
readers.forEach((r, i) => {
  const perShort = (median(times[i]!.short) * 1000) / (REPEATS * short.length);
  const perLong = median(times[i]!.long) / long.length;
  console.log(`| ${r.name} | ${perShort.toFixed(1)} µs | ${perLong.toFixed(2)} ms |`);
});
