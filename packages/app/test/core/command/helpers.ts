/** What the parser's test files share: a context, people, and table-driven test builders. */
import { expect, it } from 'vitest';
import {
  ME,
  type ParseContext,
  type ParsedExpense,
  parseCommand,
} from '../../../src/core/command/index.js';

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
    .replace(/@(\w+)/g, (_, name: string) => `<@U0${name.toUpperCase()}|${name}>`);
}

export function table(rows: Array<[string, ReturnType<typeof expense>, ParseContext?]>) {
  for (const [text, expected, context] of rows) {
    it(text, () => expect(parseCommand(text, context ?? ctx)).toEqual(expected));
  }
}

export function errors(rows: Array<[string, string, string?, ParseContext?]>) {
  for (const [text, message, example, context] of rows) {
    it(text, () => {
      const result = parseCommand(text, context ?? ctx);
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
