/** A group's usual currency, by value: the one most of its recent expenses are in. */
import { describe, expect, it } from 'vitest';
import type { Expense } from '../../../src/service/index.js';
import { usualCurrency } from '../../../src/slack/booking/currency.js';

const spent = (currency_code: string, payment = false) =>
  ({ currency_code, payment }) as unknown as Expense;

describe('usualCurrency', () => {
  it('is the currency most expenses are in, payments left out', () => {
    expect(usualCurrency([spent('USD'), spent('EUR'), spent('eur')])).toBe('EUR');
    expect(
      usualCurrency([spent('USD', true), spent('USD', true), spent('USD', true), spent('GBP')]),
    ).toBe('GBP');
  });

  it('takes the most recent among as many, and none without expenses', () => {
    expect(usualCurrency([spent('JPY'), spent('EUR'), spent('EUR'), spent('JPY')])).toBe('JPY');
    expect(usualCurrency([])).toBeNull();
    expect(usualCurrency([spent('USD', true)])).toBeNull();
  });
});
