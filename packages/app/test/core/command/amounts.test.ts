import { describe, expect, it } from 'vitest';
import { parseAmount } from '../../../src/core/command/index.js';
import { ANN, ctx, errors, expense, parse, type Readable, readAmount, table } from './helpers.js';

describe('amounts: plain, decimal, thousands', () => {
  table([
    [`40 lunch ${ANN}`, expense({})],
    [`10.50 lunch ${ANN}`, expense({ cost: 1050, amountText: '10.50' })],
    [`5.5 lunch ${ANN}`, expense({ cost: 550, amountText: '5.5' })],
    [`.50 lunch ${ANN}`, expense({ cost: 50, amountText: '.50' })],
    [`0.01 lunch ${ANN}`, expense({ cost: 1, amountText: '0.01' })],
    [`450.99 lunch ${ANN}`, expense({ cost: 45099, amountText: '450.99' })],
    [`100000 lunch ${ANN}`, expense({ cost: 10000000, amountText: '100000' })],
    [`1,500 lunch ${ANN}`, expense({ cost: 150000, amountText: '1,500' })],
    [`1,000,000 lunch ${ANN}`, expense({ cost: 100000000, amountText: '1,000,000' })],
    [`1 000 lunch ${ANN}`, expense({ cost: 100000, amountText: "1'000" })],
    [`1,000.50 lunch ${ANN}`, expense({ cost: 100050, amountText: '1,000.50' })],
    [`1,234.56 lunch ${ANN}`, expense({ cost: 123456, amountText: '1,234.56' })],
    [`1'000 lunch ${ANN}`, expense({ cost: 100000, amountText: "1'000" })],
    [`1,00,000 lunch ${ANN}`, expense({ cost: 10000000, amountText: '1,00,000' })],
  ]);
});

describe('amounts: decimal comma', () => {
  table([
    [`12,50 lunch ${ANN}`, expense({ cost: 1250, amountText: '12,50' })],
    [`10,50 lunch ${ANN}`, expense({ cost: 1050, amountText: '10,50' })],
    [`1,5 lunch ${ANN}`, expense({ cost: 150, amountText: '1,5' })],
    [
      `15,38€ lunch ${ANN}`,
      expense({
        cost: 1538,
        amountText: '15,38€',
        currency: 'EUR',
        currencySource: 'symbol',
        currencyToken: '€',
      }),
    ],
    [`1 000,50 lunch ${ANN}`, expense({ cost: 100050, amountText: "1'000,50" })],
    [`1.015,87 lunch ${ANN}`, expense({ cost: 101587, amountText: '1.015,87' })],
    [
      `1.234,56 € lunch ${ANN}`,
      expense({
        cost: 123456,
        amountText: '1.234,56 €',
        currency: 'EUR',
        currencySource: 'symbol',
        currencyToken: '€',
      }),
    ],
    [`1.000.000 lunch ${ANN}`, expense({ cost: 100000000, amountText: '1.000.000' })],
  ]);
});

describe('amounts: currency symbols, codes and words', () => {
  const cur = (currency: string, source: 'symbol' | 'code' | 'word', token: string) => ({
    currency,
    currencySource: source,
    currencyToken: token,
  });
  table([
    [`$30 lunch ${ANN}`, expense({ cost: 3000, amountText: '$30', ...cur('USD', 'symbol', '$') })],
    [
      `$ 30 lunch ${ANN}`,
      expense({ cost: 3000, amountText: '$ 30', ...cur('USD', 'symbol', '$') }),
    ],
    [`40$ lunch ${ANN}`, expense({ amountText: '40$', ...cur('USD', 'symbol', '$') })],
    [
      `€5.50 lunch ${ANN}`,
      expense({ cost: 550, amountText: '€5.50', ...cur('EUR', 'symbol', '€') }),
    ],
    [
      `€12,50 lunch ${ANN}`,
      expense({ cost: 1250, amountText: '€12,50', ...cur('EUR', 'symbol', '€') }),
    ],
    [
      `£200 lunch ${ANN}`,
      expense({ cost: 20000, amountText: '£200', ...cur('GBP', 'symbol', '£') }),
    ],
    [
      `¥3000 lunch ${ANN}`,
      expense({ cost: 3000, amountText: '¥3000', ...cur('JPY', 'symbol', '¥') }),
    ],
    [
      `¥1200 lunch ${ANN}`,
      expense({ cost: 1200, amountText: '¥1200', ...cur('JPY', 'symbol', '¥') }),
    ],
    [
      `₹250 lunch ${ANN}`,
      expense({ cost: 25000, amountText: '₹250', ...cur('INR', 'symbol', '₹') }),
    ],
    [
      `₪340 lunch ${ANN}`,
      expense({ cost: 34000, amountText: '₪340', ...cur('ILS', 'symbol', '₪') }),
    ],
    [
      `1,500₪ lunch ${ANN}`,
      expense({ cost: 150000, amountText: '1,500₪', ...cur('ILS', 'symbol', '₪') }),
    ],
    [
      `3000円 lunch ${ANN}`,
      expense({ cost: 3000, amountText: '3000円', ...cur('JPY', 'symbol', '円') }),
    ],
    [
      `3,000円 lunch ${ANN}`,
      expense({ cost: 3000, amountText: '3,000円', ...cur('JPY', 'symbol', '円') }),
    ],
    [
      `R$ 10,50 lunch ${ANN}`,
      expense({ cost: 1050, amountText: 'R$ 10,50', ...cur('BRL', 'symbol', 'R$') }),
    ],
    [
      `A$20 lunch ${ANN}`,
      expense({ cost: 2000, amountText: 'A$20', ...cur('AUD', 'symbol', 'A$') }),
    ],
    [
      `150ILS lunch ${ANN}`,
      expense({ cost: 15000, amountText: '150ILS', ...cur('ILS', 'code', 'ILS') }),
    ],
    [
      `100 ILS lunch ${ANN}`,
      expense({ cost: 10000, amountText: '100 ILS', ...cur('ILS', 'code', 'ILS') }),
    ],
    [
      `200 kr lunch ${ANN}`,
      expense({ cost: 20000, amountText: '200 kr', ...cur('SEK', 'symbol', 'kr') }),
    ],
    [
      `₩5000 lunch ${ANN}`,
      expense({ cost: 5000, amountText: '₩5000', ...cur('KRW', 'symbol', '₩') }),
    ],
    [`1'234.50 lunch ${ANN}`, expense({ cost: 123450, amountText: "1'234.50" })],
    [`12:30 lunch 40 ${ANN}`, expense({ description: '12:30 lunch' })],
    [`40 USD lunch ${ANN}`, expense({ amountText: '40 USD', ...cur('USD', 'code', 'USD') })],
    [
      `EUR 12.50 lunch ${ANN}`,
      expense({ cost: 1250, amountText: 'EUR 12.50', ...cur('EUR', 'code', 'EUR') }),
    ],
    [
      `50 eur lunch ${ANN}`,
      expense({ cost: 5000, amountText: '50 eur', ...cur('EUR', 'code', 'eur') }),
    ],
    [
      `20NIS lunch ${ANN}`,
      expense({ cost: 2000, amountText: '20NIS', ...cur('ILS', 'word', 'NIS') }),
    ],
    [
      `25 euro lunch ${ANN}`,
      expense({ cost: 2500, amountText: '25 euro', ...cur('EUR', 'word', 'euro') }),
    ],
    [
      `25 euros lunch ${ANN}`,
      expense({ cost: 2500, amountText: '25 euros', ...cur('EUR', 'word', 'euros') }),
    ],
    [
      `45 euros lunch ${ANN}`,
      expense({ cost: 4500, amountText: '45 euros', ...cur('EUR', 'word', 'euros') }),
    ],
    [
      `50 dollars lunch ${ANN}`,
      expense({ cost: 5000, amountText: '50 dollars', ...cur('USD', 'word', 'dollars') }),
    ],
    [
      `4000 shekels lunch ${ANN}`,
      expense({ cost: 400000, amountText: '4000 shekels', ...cur('ILS', 'word', 'shekels') }),
    ],
    [`40 lunch in EUR ${ANN}`, expense({ ...cur('EUR', 'code', 'EUR') })],
  ]);

  it('reads "$" as the default currency when that is a dollar, else as USD', () => {
    const cad = parse(`$40 lunch ${ANN}`, { ...ctx, defaultCurrency: 'CAD' });
    const aud = parse(`$40 lunch ${ANN}`, { ...ctx, defaultCurrency: 'AUD' });
    const eur = parse(`$40 lunch ${ANN}`, { ...ctx, defaultCurrency: 'EUR' });
    const pick = (r: Readable) => (r.kind === 'expense' ? [r.expense.currency, r.expense.cost] : r);
    expect([pick(cad), pick(aud), pick(eur)]).toEqual([
      ['CAD', 4000],
      ['AUD', 4000],
      ['USD', 4000],
    ]);
  });

  it('reads CA$ as CAD and $ as MXN for a peso default', () => {
    const ca = parse(`CA$20 lunch ${ANN}`, ctx);
    const mx = parse(`$20 lunch ${ANN}`, { ...ctx, defaultCurrency: 'mxn' });
    const pick = (r: Readable) =>
      r.kind === 'expense' ? [r.expense.currency, r.expense.currencyToken, r.expense.cost] : r;
    expect([pick(ca), pick(mx)]).toEqual([
      ['CAD', 'CA$', 2000],
      ['MXN', '$', 2000],
    ]);
  });

  it('reads "¥" as CNY when that is the default, else JPY', () => {
    const cny = parse(`¥40 lunch ${ANN}`, { ...ctx, defaultCurrency: 'CNY' });
    expect(cny.kind === 'expense' && [cny.expense.currency, cny.expense.cost]).toEqual([
      'CNY',
      4000,
    ]);
  });

  it('uses the default currency, with its own minor unit, when none is typed', () => {
    expect(parse(`1200 ramen ${ANN}`, { ...ctx, defaultCurrency: 'JPY' })).toEqual(
      expense({ cost: 1200, currency: 'JPY', amountText: '1200', description: 'ramen' }),
    );
  });

  it('keeps lower-case codes that are English words as words', () => {
    expect(parse(`40 lunch for all ${ANN}`, ctx)).toEqual(
      expense({ description: 'lunch for all' }),
    );
  });
});

describe('amounts that are refused', () => {
  errors([
    [`€-50 lunch ${ANN}`, 'The amount can\'t be negative ("€-50").'],
    [`-$5 lunch ${ANN}`, 'The amount can\'t be negative ("-$5").'],
    [`₪0 lunch ${ANN}`, 'The amount is zero: nothing to split.'],
    [`0 lunch ${ANN}`, 'The amount is zero: nothing to split.'],
    [`₪abc lunch ${ANN}`, 'How much was it? I found no amount.'],
    [`nan lunch ${ANN}`, 'Write the amount in plain digits ("nan" is not one).'],
    [`inf lunch ${ANN}`, 'Write the amount in plain digits ("inf" is not one).'],
    [`1e3 lunch ${ANN}`, 'Write the amount in plain digits ("1e3" is not one).'],
    [`lunch ${ANN}`, 'How much was it? I found no amount.'],
    [
      `10.005 lunch ${ANN}`,
      '"10.005" is unclear: 10005 or 10.005? Write 10005 for thousands, or at most two digits after the point.',
    ],
    [
      `1.500 lunch ${ANN}`,
      '"1.500" is unclear: 1500 or 1.5? Write 1500 for thousands, or at most two digits after the point.',
    ],
    [`0.001 lunch ${ANN}`, 'USD has at most 2 decimals: "0.001" has more.'],
    [`¥1200.50 lunch ${ANN}`, 'JPY has no cents: "¥1200.50" can\'t have decimals.'],
    [`1,2345 lunch ${ANN}`, 'USD has at most 2 decimals: "1,2345" has more.'],
    [`1,23,4 lunch ${ANN}`, 'I can\'t read "1,23,4" as an amount.'],
    [
      `2000000000 lunch ${ANN}`,
      '"2000000000" is more than 1,000,000,000 USD, too large to be a real expense: check the amount.',
    ],
    [
      `99999999999999999999 lunch ${ANN}`,
      '"99999999999999999999" is more than 1,000,000,000 USD, too large to be a real expense: check the amount.',
    ],
  ]);
});

describe('parseAmount: one amount as typed in a field', () => {
  const rows: Array<[string, string, ReturnType<typeof readAmount>]> = [
    ['12,50', 'USD', { minor: 1250, currency: 'USD', currencyToken: null }],
    ['€12.50', 'USD', { minor: 1250, currency: 'EUR', currencyToken: '€' }],
    ['12 €', 'USD', { minor: 1200, currency: 'EUR', currencyToken: '€' }],
    ['1 000,50', 'EUR', { minor: 100050, currency: 'EUR', currencyToken: null }],
    ['1.234,56', 'EUR', { minor: 123456, currency: 'EUR', currencyToken: null }],
    ['EUR 12.50', 'USD', { minor: 1250, currency: 'EUR', currencyToken: 'EUR' }],
    ['12.50 eur', 'USD', { minor: 1250, currency: 'EUR', currencyToken: 'eur' }],
    ['$5', 'cad', { minor: 500, currency: 'CAD', currencyToken: '$' }],
    ['1200', 'JPY', { minor: 1200, currency: 'JPY', currencyToken: null }],
    ['0', 'USD', { minor: 0, currency: 'USD', currencyToken: null }],
    ['  ', 'USD', { error: 'Type an amount, like 12.50.' }],
    ['lunch', 'USD', { error: 'I can\'t read "lunch" as an amount: type a number, like 12.50.' }],
    [
      '12 lunch',
      'USD',
      { error: 'I can\'t read "12 lunch" as an amount: type a number, like 12.50.' },
    ],
    ['1e3', 'USD', { error: 'I can\'t read "1e3" as an amount: type a number, like 12.50.' }],
    [
      '40 toString',
      'USD',
      { error: 'I can\'t read "40 toString" as an amount: type a number, like 12.50.' },
    ],
    [
      '__proto__40',
      'USD',
      { error: 'I can\'t read "__proto__40" as an amount: type a number, like 12.50.' },
    ],
    ['-5', 'USD', { error: 'The amount can\'t be negative ("-5").' }],
    ['€-50', 'USD', { error: 'The amount can\'t be negative ("€-50").' }],
    [
      '1.500',
      'USD',
      {
        error:
          '"1.500" is unclear: 1500 or 1.5? Write 1500 for thousands, or at most two digits after the point.',
      },
    ],
    ['0.001', 'USD', { error: 'USD has at most 2 decimals: "0.001" has more.' }],
    ['¥1200.50', 'USD', { error: 'JPY has no cents: "¥1200.50" can\'t have decimals.' }],
    [
      '2000000000',
      'USD',
      {
        error:
          '"2000000000" is more than 1,000,000,000 USD, too large to be a real expense: check the amount.',
      },
    ],
  ];
  for (const [text, currency, expected] of rows) {
    it(`${JSON.stringify(text)} in ${currency}`, () => {
      expect(readAmount(parseAmount(text, currency))).toEqual(expected);
    });
  }
});
