/**
 * Text a person types must never reach the prototype of a lookup table: `constructor`,
 * `__proto__`, `toString` and the other names every plain object carries, typed in each slot of
 * the grammar, must read as ordinary words (kept in the description or a group name) or be
 * refused with an error result. Never a throw, never "[object …]" or a function in the answer,
 * and never a parse that does not return: each text is parsed in a child process (see
 * parse-child.ts) under a time bound, so that a loop fails the test instead of hanging it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PROBLEM_IDS } from '../../../src/core/command/index.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./parse-child.ts', import.meta.url));
/** A parse takes well under a millisecond; this much leaves room for a busy machine. */
const PARSE_BOUND_MS = 3000;
const MAX_HANGS = 3;
/** Starting a process that compiles TypeScript is slow on a loaded machine. */
const START_BOUND_MS = 15_000;

const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__'])];
/** Each name as typed: as is, capitalised, in capitals, and with the punctuation the grammar trims. */
const TYPED = NAMES.flatMap((name) => [
  name,
  `${name[0]!.toUpperCase()}${name.slice(1)}`,
  name.toUpperCase(),
  `${name},`,
  `${name}.`,
]);

const ANN = '<@U0ANN|ann>';
const BOB = '<@U0BOB>';
/** Every slot of the grammar where a person types a word, `{w}` standing for it. */
const SLOTS: Record<string, string[]> = {
  description: [`40 {w} ${ANN}`, `40 {w} lunch ${ANN}`, `40 "{w}" ${ANN}`, `{w} 40 lunch ${ANN}`],
  'currency code or symbol': [`40{w} lunch ${ANN}`, `{w}40 lunch ${ANN}`, `{w} 40 ${ANN}`],
  'currency word': [`40 {w}s lunch ${ANN}`, `$7 {w} coffee ${ANN} ${BOB}`],
  'in: group or currency': [
    `40 lunch in {w} ${ANN}`,
    `40 lunch in group {w} ${ANN}`,
    '40 pizza in {w}',
    `40 lunch ${ANN} in {w} 3`,
  ],
  date: [
    `40 lunch ${ANN} on {w}`,
    `40 lunch ${ANN} dated {w}`,
    `40 lunch ${ANN} {w} 3`,
    `40 lunch ${ANN} {w} 3, 2026`,
    `40 lunch ${ANN} 3 {w}`,
    `40 lunch ${ANN} 3rd of {w}`,
  ],
  weekday: [`40 lunch ${ANN} last {w}`, `40 lunch ${ANN} on {w}`],
  'a person’s value: amount, share, percent': [
    `40 lunch ${ANN} {w}`,
    `40 lunch ${ANN} {w} ${BOB}`,
    `40 lunch ${ANN} 25{w} ${BOB}`,
    `40 lunch ${ANN} {w}25 ${BOB}`,
    `40 lunch ${ANN} 25 {w} ${BOB} 15`,
    `40 lunch ${ANN}={w} ${BOB}`,
    `40 lunch ${ANN} {w}% ${BOB}`,
    `40 lunch ${ANN} 60% ${BOB} {w}%`,
    `40 lunch ${ANN} x{w} ${BOB}`,
    `40 lunch ${ANN} 2 {w} ${BOB} 1x`,
  ],
  'paid by': [
    `40 lunch ${ANN} paid by {w}`,
    `40 lunch ${ANN} paid by: {w}`,
    `40 lunch ${ANN} {w} by ${BOB}`,
    `40 lunch ${ANN} paid {w} ${BOB}`,
  ],
  'except, only, head counts': [
    `40 lunch ${ANN} {w} me`,
    `40 lunch ${ANN} except {w}`,
    `40 lunch only {w} ${ANN}`,
    `40 lunch among {w} ${ANN}`,
    `40 lunch 2 {w} ${ANN}`,
  ],
  subcommand: ['{w}', '{w}?', `{w} ${ANN}`, '{w} 40', 'group {w}'],
  'group name': [
    `group create {w} ${ANN}`,
    `group add ${BOB} {w}`,
    `group add ${BOB} to {w}`,
    'group delete {w}',
    'group use {w}',
  ],
  'list and since': [
    'list {w}',
    'list since {w}',
    'list from {w} to {w}',
    'list until {w}',
    'list on {w}',
    'list last {w}',
    'list this {w}',
    'list last 3 {w}',
    'list {w} 3',
    'list 3 {w}',
    `list ${ANN} in {w}`,
    'show {w}',
  ],
  balance: ['balance {w}', 'balance in {w}', 'balances {w} USD'],
};

type Reply = { json: string } | { threw: string } | { hung: true };

let child: ChildProcess | null = null;

function stopChild(): void {
  child?.kill('SIGKILL');
  child = null;
}

function reply(process: ChildProcess, send: string | null, boundMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    const done = (value: unknown) => {
      clearTimeout(timer);
      process.off('message', done);
      resolve(value);
    };
    const timer = setTimeout(() => done({ hung: true }), boundMs);
    process.on('message', done);
    if (send !== null) process.send(send);
  });
}

async function parseBounded(text: string): Promise<Reply> {
  if (child === null) {
    child = fork(CHILD, [], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: 'ignore' });
    const ready = await reply(child, null, START_BOUND_MS);
    if (ready !== 'ready') throw new Error('the parsing process did not start');
  }
  const answer = (await reply(child, text, PARSE_BOUND_MS)) as Reply;
  // A hung child can take no more texts: the next one gets a fresh process.
  if ('hung' in answer) stopChild();
  return answer;
}

const ALLOWED = new Set([
  'expense',
  'list',
  'balance',
  'group_create',
  'group_add',
  'group_delete',
  'group_use',
  'error',
]);

/** What is wrong with the answer to `text`, in which `typed` was put; null when it is sensible. */
function problem(text: string, typed: string, answer: Reply): string | null {
  if ('hung' in answer) return `${text}: no answer within ${PARSE_BOUND_MS} ms`;
  if ('threw' in answer) return `${text}: threw ${answer.threw}`;
  if (/\[object|function/i.test(answer.json)) return `${text}: ${answer.json}`;
  const result = JSON.parse(answer.json) as {
    kind: string;
    problem?: { id?: string };
    expense?: { currency: string; description: string; group: string | null };
  };
  if (!ALLOWED.has(result.kind)) return `${text}: read as ${result.kind}`;
  if (result.kind === 'error') {
    const id = result.problem?.id ?? '';
    return (PROBLEM_IDS as readonly string[]).includes(id) ? null : `${text}: refused as "${id}"`;
  }
  const word = typed.replace(/[,.]$/, '').toLowerCase();
  if (result.expense) {
    const { currency, description, group } = result.expense;
    if (currency !== 'USD') return `${text}: currency ${currency}`;
    const kept = `${description} ${group ?? ''}`.toLowerCase();
    return kept.includes(word) ? null : `${text}: "${typed}" was lost (${answer.json})`;
  }
  return answer.json.toLowerCase().includes(word)
    ? null
    : `${text}: "${typed}" was lost (${answer.json})`;
}

describe('names of Object.prototype typed in every slot of the grammar', () => {
  afterAll(stopChild);

  for (const [slot, templates] of Object.entries(SLOTS)) {
    it(`reads them as words or refuses them: ${slot}`, { timeout: 120_000 }, async () => {
      const problems: string[] = [];
      let hangs = 0;
      texts: for (const template of templates) {
        for (const typed of TYPED) {
          const text = template.replaceAll('{w}', typed);
          const answer = await parseBounded(text);
          const found = problem(text, typed, answer);
          if (found !== null) problems.push(found);
          // Each hang costs the whole bound: a few prove the point without stalling the run.
          if ('hung' in answer && ++hangs === MAX_HANGS) break texts;
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
