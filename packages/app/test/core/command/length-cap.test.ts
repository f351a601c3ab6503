/** The length cap: longer texts are refused unread, and a message is cut to it before reading. */
import { describe, expect, it } from 'vitest';
import {
  cutToCommandCap,
  isSplitThis,
  MAX_AMOUNT_CHARS,
  MAX_COMMAND_CHARS,
  parseAmount,
  parseSum,
} from '../../../src/core/command/index.js';
import { withoutTrailingZeros } from '../../../src/core/money.js';
import { ANN, asTyped, ctx, parse } from './helpers.js';

/** `40 lunch @ann` and a description padded to `length` characters. */
function lunchOf(length: number): string {
  const start = `40 lunch ${ANN} `;
  return `${start}${'x'.repeat(length - start.length)}`;
}

describe('parseCommand and the length cap', () => {
  it('reads a text of exactly the cap', () => {
    const text = lunchOf(MAX_COMMAND_CHARS);
    expect(text.length).toBe(4000);
    expect(parse(text, ctx).kind).toBe('expense');
  });

  it('refuses a longer text with the cap in the message and an example that works', () => {
    for (const length of [MAX_COMMAND_CHARS + 1, 40_000]) {
      const result = parse(lunchOf(length), ctx);
      expect(result).toEqual({
        kind: 'error',
        message: `That is ${length.toLocaleString('en-US')} characters: /split reads at most 4,000. Shorten it to the amount, the people and a short description.`,
        example: '/split 40 lunch @ann',
      });
      expect(parse(asTyped('/split 40 lunch @ann'), ctx).kind).toBe('expense');
    }
  });
});

describe('cutToCommandCap', () => {
  it('leaves a text within the cap as it is', () => {
    expect(cutToCommandCap('Dinner €84.50 with <@U0BOB>')).toBe('Dinner €84.50 with <@U0BOB>');
    const full = lunchOf(MAX_COMMAND_CHARS);
    expect(cutToCommandCap(full)).toBe(full);
  });

  it('cuts a longer text at white space, so that no number is cut short', () => {
    const text = `${'a '.repeat(1998)}x 123456 more`;
    expect(text.slice(0, MAX_COMMAND_CHARS).endsWith(' 12')).toBe(true);
    expect(cutToCommandCap(text)).toBe(`${'a '.repeat(1998)}x`);
  });

  it('cuts before a mention it would split, which would then name nobody', () => {
    const text = `${'a '.repeat(1993)}<@U0ANN|ann lee> paid`;
    expect(text.slice(0, MAX_COMMAND_CHARS).endsWith('<@U0ANN|ann le')).toBe(true);
    expect(cutToCommandCap(text)).toBe('a '.repeat(1993));
  });

  it('cuts a text with no white space at the cap', () => {
    expect(cutToCommandCap('x'.repeat(40_000))).toBe('x'.repeat(MAX_COMMAND_CHARS));
  });

  it('gives parseCommand the start of a long message to read', () => {
    const message = `Dinner €84.50 with <@U0BOB> ${'and then we walked along the river '.repeat(1200)}`;
    expect(message.length).toBeGreaterThan(40_000);
    const cut = cutToCommandCap(message);
    expect(cut.length).toBeLessThanOrEqual(MAX_COMMAND_CHARS);
    const parsed = parse(cut, ctx);
    expect(parsed.kind).toBe('expense');
    if (parsed.kind === 'expense') expect(parsed.expense.cost).toBe(8450);
  });
});

describe('an amount typed on its own (a form field)', () => {
  it('is read up to the cap, and refused unread beyond it with its length', () => {
    const sum = `${'1+'.repeat(MAX_AMOUNT_CHARS / 2 - 1)}1 `;
    expect(sum.length).toBe(MAX_AMOUNT_CHARS);
    expect(parseSum(sum, 'EUR')).toEqual({ minor: 25_000, currency: 'EUR' });
    const over = `${sum}1`;
    const refused = { id: 'amount_too_long', values: { count: 501, max: 500 } };
    expect(parseSum(over, 'EUR')).toEqual({ problem: refused });
    expect(parseAmount(`1.${'0'.repeat(40_000)}1`, 'EUR')).toEqual({
      problem: { id: 'amount_too_long', values: { count: 40_003, max: 500 } },
    });
  });

  it('loses the zeros it ends with, however many zeros come before another digit', () => {
    expect(withoutTrailingZeros('500')).toBe('5');
    expect(withoutTrailingZeros('000')).toBe('');
    expect(withoutTrailingZeros(`${'0'.repeat(40_000)}1`)).toBe(`${'0'.repeat(40_000)}1`);
  });
});

describe('"split this"', () => {
  it('is a phrase and its closing marks, never a long text that ends like one', () => {
    expect(isSplitThis('split this!!!')).toBe(true);
    expect(isSplitThis('これを割り勘。')).toBe(true);
    expect(isSplitThis(`split this${'。'.repeat(40_000)}`)).toBe(false);
    expect(isSplitThis(`${'。'.repeat(40_000)}x`)).toBe(false);
  });
});
