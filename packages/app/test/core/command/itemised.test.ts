import { describe, expect, it } from 'vitest';
import { ME, type ParsedExpense } from '../../../src/core/command/index.js';
import { computeShares } from '../../../src/core/split.js';
import { ANN, BOB, CHO, ctx, errors, expense, parse, table } from './helpers.js';

const SUM = '/split 12.50+7.25 lunch @ann';
const TIP = '/split 80 dinner @ann 30 @bob 25 +tip 15% +tax 8%';

function parsed(text: string, context = ctx): ParsedExpense {
  const result = parse(text, context);
  if (result.kind !== 'expense') throw new Error(`not an expense: ${JSON.stringify(result)}`);
  return result.expense;
}

/** Owed shares as the booking computes them, by id. */
function owed(e: ParsedExpense): Map<string, number> {
  const shares = computeShares({
    cost: e.cost,
    payer: e.payer,
    participants: e.participants,
    split: e.split,
  });
  if ('error' in shares) throw new Error(shares.error);
  return new Map(shares.shares.map((row) => [row.id, row.owed]));
}

describe('a cost written as a sum of items', () => {
  table([
    [`12.50+7.25 lunch ${ANN}`, expense({ cost: 1975, amountText: '12.50+7.25' })],
    [`12 + 7.25 lunch ${ANN}`, expense({ cost: 1925, amountText: '12+7.25' })],
    [`12 +7.25 lunch ${ANN}`, expense({ cost: 1925, amountText: '12+7.25' })],
    [`12+ 7.25 lunch ${ANN}`, expense({ cost: 1925, amountText: '12+7.25' })],
    [`1 + 2 + 3.33 lunch ${ANN}`, expense({ cost: 633, amountText: '1+2+3.33' })],
    [`0.1+0.2 lunch ${ANN}`, expense({ cost: 30, amountText: '0.1+0.2' })],
    [`1,234+5,50 lunch ${ANN}`, expense({ cost: 123_950, amountText: '1,234+5,50' })],
    [
      `€12+3,50 lunch ${ANN}`,
      expense({
        cost: 1550,
        currency: 'EUR',
        currencySource: 'symbol',
        currencyToken: '€',
        amountText: '€12+3,50',
      }),
    ],
    [
      `12+3.50€ lunch ${ANN}`,
      expense({
        cost: 1550,
        currency: 'EUR',
        currencySource: 'symbol',
        currencyToken: '€',
        amountText: '12+3.50€',
      }),
    ],
    [
      `$12+$3 lunch ${ANN}`,
      expense({
        cost: 1500,
        currencySource: 'symbol',
        currencyToken: '$',
        amountText: '$12+$3',
      }),
    ],
    [
      `12+3 EUR lunch ${ANN}`,
      expense({
        cost: 1500,
        currency: 'EUR',
        currencySource: 'code',
        currencyToken: 'EUR',
        amountText: '12+3 EUR',
      }),
    ],
    [
      `¥1200+800 ramen ${ANN}`,
      expense({
        cost: 2000,
        currency: 'JPY',
        currencySource: 'symbol',
        currencyToken: '¥',
        amountText: '¥1200+800',
        description: 'ramen',
      }),
    ],
    [
      `$3+4 each coffee ${ANN} ${BOB}`,
      expense({
        cost: 2100,
        each: 700,
        currencySource: 'symbol',
        currencyToken: '$',
        amountText: '$3+4 each',
        description: 'coffee',
        participants: [ME, 'U0ANN', 'U0BOB'],
      }),
    ],
  ]);
});

describe('a currency written as a word of its own inside or before a sum', () => {
  const eur = (amountText: string, extra: Partial<ParsedExpense> = {}) =>
    expense({
      cost: 1500,
      currency: 'EUR',
      currencySource: 'code',
      currencyToken: 'EUR',
      amountText,
      ...extra,
    });
  table([
    [`12 EUR + 3 lunch ${ANN}`, eur('12+3 EUR')],
    [`12 EUR +3 lunch ${ANN}`, eur('12+3 EUR')],
    [`12 EUR+ 3 lunch ${ANN}`, eur('12+3 EUR')],
    [`12 EUR+3 lunch ${ANN}`, eur('12+3 EUR')],
    [`12 EUR + 3 EUR lunch ${ANN}`, eur('12+3 EUR')],
    [`12 EUR + 1 + 2 lunch ${ANN}`, eur('12+1+2 EUR')],
    [`EUR 12 + 3 lunch ${ANN}`, eur('EUR 12+3')],
    [`EUR 12+3 lunch ${ANN}`, eur('EUR 12+3')],
    [
      `12 euros + 3 lunch ${ANN}`,
      eur('12+3 euros', { currencySource: 'word', currencyToken: 'euros' }),
    ],
    [
      `40 lunch ${ANN} 12 EUR + 3 ${BOB} 10`,
      expense({
        cost: 4000,
        currency: 'EUR',
        currencySource: 'code',
        currencyToken: 'EUR',
        participants: [ME, 'U0ANN', 'U0BOB'],
        split: {
          kind: 'exact',
          amounts: [
            { id: 'U0ANN', amount: 1500 },
            { id: 'U0BOB', amount: 1000 },
          ],
        },
      }),
    ],
  ]);
  errors([
    [
      `EUR 12 + $3 lunch ${ANN}`,
      'One currency per amount, please: "EUR 12+$3" has EUR and USD.',
      '/split 12.50+7.25 lunch @ann',
    ],
    [
      `12 EUR + 3 USD lunch ${ANN}`,
      "I found 2 amounts (12 EUR, 3 USD): give the cost once, or put each person's part right after them.",
      '/split 40 lunch @ann 25 @bob 15',
    ],
  ]);
});

describe('a part written as a sum of items', () => {
  table([
    [
      `40 lunch ${ANN} 12+3.50 ${BOB} 10`,
      expense({
        participants: [ME, 'U0ANN', 'U0BOB'],
        split: {
          kind: 'exact',
          amounts: [
            { id: 'U0ANN', amount: 1550 },
            { id: 'U0BOB', amount: 1000 },
          ],
        },
      }),
    ],
    [
      `lunch ${ANN} 12 + 3.50 ${BOB} 5`,
      expense({
        cost: 2050,
        amountText: '12+3.50 + 5',
        participants: [ME, 'U0ANN', 'U0BOB'],
        split: {
          kind: 'exact',
          amounts: [
            { id: 'U0ANN', amount: 1550 },
            { id: 'U0BOB', amount: 500 },
          ],
        },
      }),
    ],
  ]);
});

describe('words with a plus stay words', () => {
  table([
    [`40 C++11 book ${ANN}`, expense({ description: 'C++11 book' })],
    [`40 lunch + drinks ${ANN}`, expense({ description: 'lunch + drinks' })],
    [`40 rent 2026-11 ${ANN}`, expense({ description: 'rent 2026-11' })],
    [`40 "12+3" ${ANN}`, expense({ description: '12+3' })],
  ]);
});

describe('malformed sums are refused by name', () => {
  errors([
    [`12++3 lunch ${ANN}`, '"12++3" has two + in a row: put one + between items.', SUM],
    [
      `12+ lunch ${ANN}`,
      '"12+" ends with a +: add the next item after it, or take the + off.',
      SUM,
    ],
    [
      `40 lunch ${ANN} +5`,
      'I can\'t read "+5" as an amount: an amount has no sign, and items are added with a + between them (12.50+7.25).',
      SUM,
    ],
    [`12+abc lunch ${ANN}`, 'I can\'t read "abc" in "12+abc" as an amount.', SUM],
    [
      `12+-3 lunch ${ANN}`,
      '"12+-3" has a minus: items are added with + and none can be negative.',
      SUM,
    ],
    [`€12+$3 lunch ${ANN}`, 'One currency per amount, please: "€12+$3" has EUR and USD.', SUM],
    [`0.001+0.009 lunch ${ANN}`, 'USD has at most 2 decimals: "0.001" has more.', SUM],
    [`¥1200+0.5 ramen ${ANN}`, 'JPY has no cents: "0.5" can\'t have decimals.', SUM],
    [
      `12+1.500 lunch ${ANN}`,
      '"1.500" is unclear: 1500 or 1.5? Write 1500 for thousands, or at most two digits after the point (in "12+1.500").',
      SUM,
    ],
    [
      `999999999+999999999 lunch ${ANN}`,
      '"999999999+999999999" is more than 1,000,000,000 USD, too large to be a real expense: check the amount.',
    ],
    [`40 lunch ${ANN} 12++3 ${BOB} 5`, '"12++3" has two + in a row: put one + between items.', SUM],
  ]);
});

describe('tip and tax', () => {
  it('adds both on the subtotal and spreads them in proportion to each part', () => {
    const e = parsed(`80 dinner ${ANN} 30 ${BOB} 25 +tip 15% +tax 8%`);
    // 80 + 15% of 80 + 8% of 80 = 98.40; 18.40 spread over 25 / 30 / 25.
    expect(e.cost).toBe(9840);
    expect(e.itemised).toEqual({
      subtotal: 8000,
      tip: { minor: 1200, basisPoints: 1500 },
      tax: { minor: 640, basisPoints: 800 },
      total: 9840,
    });
    expect(e.split).toEqual({
      kind: 'exact',
      amounts: [
        { id: ME, amount: 3075 },
        { id: 'U0ANN', amount: 3690 },
        { id: 'U0BOB', amount: 3075 },
      ],
    });
    expect(e.description).toBe('dinner');
    expect(e.amountText).toBe('80');
  });

  table([
    [
      `40 lunch ${ANN} +tip 10`,
      expense({
        cost: 5000,
        itemised: {
          subtotal: 4000,
          tip: { minor: 1000, basisPoints: null },
          tax: null,
          total: 5000,
        },
      }),
    ],
    [
      `40 lunch ${ANN} tip 15%`,
      expense({
        cost: 4600,
        itemised: {
          subtotal: 4000,
          tip: { minor: 600, basisPoints: 1500 },
          tax: null,
          total: 4600,
        },
      }),
    ],
    [
      `40 lunch ${ANN} + tip 15 %`,
      expense({
        cost: 4600,
        itemised: {
          subtotal: 4000,
          tip: { minor: 600, basisPoints: 1500 },
          tax: null,
          total: 4600,
        },
      }),
    ],
    [
      `40 lunch ${ANN} +vat 20%`,
      expense({
        cost: 4800,
        itemised: {
          subtotal: 4000,
          tip: null,
          tax: { minor: 800, basisPoints: 2000 },
          total: 4800,
        },
      }),
    ],
    [
      // 12.5% of 10.01 is 1.25125: rounded to 1.25.
      `10.01 lunch ${ANN} +gratuity 12.5%`,
      expense({
        cost: 1126,
        amountText: '10.01',
        itemised: {
          subtotal: 1001,
          tip: { minor: 125, basisPoints: 1250 },
          tax: null,
          total: 1126,
        },
      }),
    ],
    [
      // 10% of 0.05 is half a cent: halves round up.
      `0.05 gum ${ANN} +tax 10%`,
      expense({
        cost: 6,
        amountText: '0.05',
        description: 'gum',
        itemised: { subtotal: 5, tip: null, tax: { minor: 1, basisPoints: 1000 }, total: 6 },
      }),
    ],
    [
      `€40 lunch ${ANN} +tip €4`,
      expense({
        cost: 4400,
        currency: 'EUR',
        currencySource: 'symbol',
        currencyToken: '€',
        amountText: '€40',
        itemised: {
          subtotal: 4000,
          tip: { minor: 400, basisPoints: null },
          tax: null,
          total: 4400,
        },
      }),
    ],
    [
      `40 lunch ${ANN} 60% ${BOB} 40% except me +tip 10%`,
      expense({
        cost: 4400,
        participants: ['U0ANN', 'U0BOB'],
        split: {
          kind: 'percent',
          percents: [
            { id: 'U0ANN', basisPoints: 6000 },
            { id: 'U0BOB', basisPoints: 4000 },
          ],
        },
        itemised: {
          subtotal: 4000,
          tip: { minor: 400, basisPoints: 1000 },
          tax: null,
          total: 4400,
        },
      }),
    ],
    [
      `40 pizza in Roommates +tip 10%`,
      expense({
        cost: 4400,
        description: 'pizza',
        participants: [ME],
        wholeGroup: true,
        group: 'Roommates',
        itemised: {
          subtotal: 4000,
          tip: { minor: 400, basisPoints: 1000 },
          tax: null,
          total: 4400,
        },
      }),
    ],
    [
      `10 tip for the guide ${ANN}`,
      expense({ cost: 1000, amountText: '10', description: 'tip for the guide' }),
    ],
  ]);

  it('takes a sum as the subtotal and keeps a part with no total', () => {
    const e = parsed(`dinner ${ANN} 12+8 ${BOB} 10 +tax 10%`);
    expect(e.itemised?.subtotal).toBe(3000);
    expect(e.cost).toBe(3300);
    expect(e.split).toEqual({
      kind: 'exact',
      amounts: [
        { id: ME, amount: 0 },
        { id: 'U0ANN', amount: 2200 },
        { id: 'U0BOB', amount: 1100 },
      ],
    });
  });

  it('gives every share of a three-way bill with tip and tax, adding up to the total', () => {
    const e = parsed(`100 dinner ${ANN} ${BOB} ${CHO} +tip 18% +tax 8.87%`);
    const shares = owed(e);
    expect([...shares.values()].reduce((a, b) => a + b, 0)).toBe(e.cost);
    expect(e.cost).toBe(10_000 + 1800 + 887);
  });
});

describe('tip and tax mistakes are refused by name', () => {
  errors([
    [
      `40 lunch ${ANN} +tip`,
      'How much is the tip? Put a percentage or an amount right after "+tip", like +tip 15% or +tip 10.',
      TIP,
    ],
    [
      `40 lunch ${ANN} +tax lunch`,
      'How much is the tax? Put a percentage or an amount right after "+tax", like +tax 15% or +tax 10.',
      TIP,
    ],
    [`40 lunch ${ANN} +tip 150%`, 'A tip of 150%? Tip and tax go up to 100%.', TIP],
    [
      `40 lunch ${ANN} +tip 12.345%`,
      'Percentages take at most two decimals ("+tip 12.345%").',
      TIP,
    ],
    [`40 lunch ${ANN} +tip 5 +tip 3`, 'Give the tip once (I see it twice).', TIP],
    [`40 lunch ${ANN} +tip 10% tip 5%`, 'Give the tip once (I see it twice).', TIP],
    [`40 lunch ${ANN} +tip €5`, 'One currency per expense, please: I see USD and EUR.', TIP],
    [`40 lunch ${ANN} +tip 0.001`, 'USD has at most 2 decimals: "0.001" has more.', TIP],
    [`40 lunch ${ANN} +tip -5`, 'The tip can\'t be negative ("-5").', TIP],
  ]);
});
