/** What the parser's test files share: a context, people, and table-driven test builders. */
import { expect, it } from 'vitest';
import {
  ME,
  type ParseContext,
  type ParsedExpense,
  type ParseResult,
  parseCommand,
  type Trouble,
} from '../../../src/core/command/index.js';
import { troubleText } from '../../../src/slack/shared/parse-problem.js';
import { voiceFor } from '../../../src/voice/index.js';

/** How an en-US reader reads a refusal: the parser's decisions are tested in their words. */
const english = await voiceFor({ locale: 'en-US', tz: 'UTC' });

/**
 * A refusal's sentence in English, as an en-US reader with nobody to mention sees it: the text
 * escaped for Slack (parse-problem's own tests hold the escaping) read back as shown.
 */
export function inEnglish(trouble: Trouble): string {
  return troubleText(english, trouble)
    .replace(/\u200b/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** resolveMe's answer, a refusal written in English as `error`. */
export function readResolved<T extends object>(
  read: T | { problem: Trouble },
): T | { error: string } {
  return 'problem' in read ? { error: inEnglish(read.problem) } : read;
}

/** parseAmount's or parseSum's answer, a refusal written in English as `error`. */
export function readAmount<T extends object>(
  read: T | { problem: Trouble; unreadable?: true },
): T | { error: string; unreadable?: true } {
  if (!('problem' in read)) return read;
  return { error: inEnglish(read.problem), ...(read.unreadable ? { unreadable: true } : {}) };
}

export type Readable =
  | Exclude<ParseResult, { kind: 'error' }>
  | { kind: 'error'; message: string; example: string };

/** A parse result with its refusal, if any, written in English. */
export function readable(result: ParseResult): Readable {
  if (result.kind !== 'error') return result;
  return { kind: 'error', message: inEnglish(result.problem), example: result.problem.example };
}

/** parseCommand, its refusals written in English. */
export function parse(text: string, context: ParseContext = ctx): Readable {
  return readable(parseCommand(text, context));
}

export const ctx: ParseContext = { today: '2026-11-21', defaultCurrency: 'USD' };
export const ANN = '<@U0ANN|ann>';
export const BOB = '<@U0BOB>';
export const CHO = '<@U0CHO|cho>';

/** The expected expense: what a test names, over the defaults of `/split 40 lunch @ann`. */
export function expense(overrides: Partial<ParsedExpense>): {
  kind: 'expense';
  expense: ParsedExpense;
} {
  return {
    kind: 'expense',
    expense: {
      cost: 4000,
      currency: 'USD',
      currencySource: 'default',
      currencyToken: null,
      amountText: '40',
      each: null,
      description: 'lunch',
      participants: [ME, 'U0ANN'],
      wholeGroup: false,
      payer: ME,
      group: null,
      date: '2026-11-21',
      split: { kind: 'equal' },
      ...overrides,
    },
  };
}

/** An example as Slack would send it once typed: people picked from the list become mentions. */
export function asTyped(example: string): string {
  return example
    .replace(/^\/split ?/, '')
    .replace(/(?<!<)@(\w+)/g, (_, name: string) => `<@U0${name.toUpperCase()}|${name}>`);
}

export function table(rows: Array<[string, ReturnType<typeof expense>, ParseContext?]>) {
  for (const [text, expected, context] of rows) {
    it(text, () => expect(parse(text, context ?? ctx)).toEqual(expected));
  }
}

export function errors(rows: Array<[string, string, string?, ParseContext?]>) {
  for (const [text, message, example, context] of rows) {
    it(text, () => {
      const result = parse(text, context ?? ctx);
      expect(result).toEqual({
        kind: 'error',
        message,
        example: example ?? '/split 40 lunch @ann',
      });
      // The example offered must itself work.
      expect(parseCommand(asTyped(example ?? '/split 40 lunch @ann'), ctx).kind).not.toBe('error');
    });
  }
}
