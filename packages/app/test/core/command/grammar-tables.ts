/**
 * Table-driven tests of one language's grammar (grammar-<language>.test.ts): each row is a
 * command as a person of that locale types it and what it must parse to. The last check of each
 * file is that its rows hold every word of the language's lexicon, so that a word added to
 * lexicon/ without a row fails.
 */
import { expect, it } from 'vitest';
import {
  type GrammarLanguage,
  isSplitThis,
  LEXICONS,
  type Lexicon,
  type ParsedExpense,
  type ProblemId,
  parseCommand,
} from '../../../src/core/command/index.js';
import { fold } from '../../../src/core/command/tokens.js';

/** A Saturday: weekdays and months below are counted from it. */
export const TODAY = '2026-11-21';

/** A word as the parser compares it: lower case, no accents, no closing punctuation. */
const key = (word: string) => fold(word.toLowerCase()).replace(/[,;.!?:]+$/, '');

/** Every word and phrase of a lexicon, each list flattened. */
export function phrasesOf(l: Lexicon): string[] {
  const out: string[] = [];
  for (const value of Object.values(l)) {
    if (typeof value === 'boolean') continue;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (typeof item === 'string') out.push(item);
        // Weekdays and months: each day's or month's names. Periods: the word, then its repeat.
        else if (value === l.periods) out.push((item as readonly [string, string])[0]);
        else out.push(...(item as readonly string[]));
      }
    } else {
      for (const words of Object.values(value as Record<string, string | readonly string[]>)) {
        out.push(...(typeof words === 'string' ? [words] : words));
      }
    }
  }
  return [...new Set(out)];
}

export function grammarTables(locale: string, language: GrammarLanguage) {
  const ctx = { today: TODAY, defaultCurrency: 'EUR', locale };
  // Every row's text, kept as the rows are written down: coversLexicon reads them all.
  const texts: string[] = [];
  const keep = (rows: ReadonlyArray<string | readonly [string, unknown]>) => {
    for (const row of rows) texts.push(typeof row === 'string' ? row : row[0]);
  };
  const parse = (text: string) => parseCommand(text, ctx);
  return {
    ctx,
    /** Commands booked as expenses, with what each must hold. */
    expenses(rows: Array<[string, Partial<ParsedExpense>]>) {
      keep(rows);
      for (const [text, expected] of rows) {
        it(text, () => {
          const result = parse(text);
          expect(result, JSON.stringify(result)).toMatchObject({ kind: 'expense' });
          const { expense } = result as { expense: ParsedExpense };
          expect(expense).toMatchObject(expected);
          // A word read for its meaning is never left in the description too.
          if (expected.repeat === undefined) expect(expense.repeat).toBeUndefined();
          if (expected.date === undefined) expect(expense.date).toBe(TODAY);
        });
      }
    },
    /** Commands that are no expense, with what they must parse to. */
    results(rows: Array<[string, Record<string, unknown>]>) {
      keep(rows);
      for (const [text, expected] of rows) {
        it(text, () => expect(parse(text)).toMatchObject(expected));
      }
    },
    /** Commands refused, each for its reason. */
    refusals(rows: Array<[string, ProblemId]>) {
      keep(rows);
      for (const [text, id] of rows) {
        it(text, () => {
          const result = parse(text);
          expect(result.kind === 'error' && result.problem.id, JSON.stringify(result)).toBe(id);
        });
      }
    },
    /** Said to the app in a thread: the form for the thread's first message. */
    splitThis(rows: string[]) {
      keep(rows);
      for (const text of rows) {
        it(`"${text}" offers the form`, () => expect(isSplitThis(text)).toBe(true));
      }
    },
    /** Every word of the language is in some row of the file. */
    coversLexicon() {
      it(`has a row for every word of lexicon/${language}.ts`, () => {
        const rows = texts.map((t) => ` ${t.split(/\s+/).map(key).join(' ')} `);
        const missing = phrasesOf(LEXICONS[language]).filter((phrase) => {
          const wanted = ` ${phrase.split(' ').map(key).join(' ')} `;
          return !rows.some((row) => row.includes(wanted));
        });
        expect(missing).toEqual([]);
      });
    },
  };
}
