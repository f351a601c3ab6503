import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DESCRIPTION,
  HELP_SECTIONS,
  ME,
  type ParseContext,
  type ParsedExpense,
  parseCommand,
  resolveMe,
} from '../../src/core/command/index.js';
import { computeShares } from '../../src/core/split.js';

const ctx: ParseContext = { today: '2026-11-21', defaultCurrency: 'USD' };
const ANN = '<@U0ANN|ann>';
const BOB = '<@U0BOB>';
const CHO = '<@U0CHO|cho>';

/** The expected expense: what a test names, over the defaults of `/split 40 lunch @ann`. */
function expense(overrides: Partial<ParsedExpense>): { kind: 'expense'; expense: ParsedExpense } {
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
function asTyped(example: string): string {
  return example
    .replace(/^\/split ?/, '')
    .replace(/@(\w+)/g, (_, name: string) => `<@U0${name.toUpperCase()}|${name}>`);
}

function table(rows: Array<[string, ReturnType<typeof expense>, ParseContext?]>) {
  for (const [text, expected, context] of rows) {
    it(text, () => expect(parseCommand(text, context ?? ctx)).toEqual(expected));
  }
}

function errors(rows: Array<[string, string, string?, ParseContext?]>) {
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
    const cad = parseCommand(`$40 lunch ${ANN}`, { ...ctx, defaultCurrency: 'CAD' });
    const aud = parseCommand(`$40 lunch ${ANN}`, { ...ctx, defaultCurrency: 'AUD' });
    const eur = parseCommand(`$40 lunch ${ANN}`, { ...ctx, defaultCurrency: 'EUR' });
    const pick = (r: ReturnType<typeof parseCommand>) =>
      r.kind === 'expense' ? [r.expense.currency, r.expense.cost] : r;
    expect([pick(cad), pick(aud), pick(eur)]).toEqual([
      ['CAD', 4000],
      ['AUD', 4000],
      ['USD', 4000],
    ]);
  });

  it('reads CA$ as CAD and $ as MXN for a peso default', () => {
    const ca = parseCommand(`CA$20 lunch ${ANN}`, ctx);
    const mx = parseCommand(`$20 lunch ${ANN}`, { ...ctx, defaultCurrency: 'mxn' });
    const pick = (r: ReturnType<typeof parseCommand>) =>
      r.kind === 'expense' ? [r.expense.currency, r.expense.currencyToken, r.expense.cost] : r;
    expect([pick(ca), pick(mx)]).toEqual([
      ['CAD', 'CA$', 2000],
      ['MXN', '$', 2000],
    ]);
  });

  it('reads "¥" as CNY when that is the default, else JPY', () => {
    const cny = parseCommand(`¥40 lunch ${ANN}`, { ...ctx, defaultCurrency: 'CNY' });
    expect(cny.kind === 'expense' && [cny.expense.currency, cny.expense.cost]).toEqual([
      'CNY',
      4000,
    ]);
  });

  it('uses the default currency, with its own minor unit, when none is typed', () => {
    expect(parseCommand(`1200 ramen ${ANN}`, { ...ctx, defaultCurrency: 'JPY' })).toEqual(
      expense({ cost: 1200, currency: 'JPY', amountText: '1200', description: 'ramen' }),
    );
  });

  it('keeps lower-case codes that are English words as words', () => {
    expect(parseCommand(`40 lunch for all ${ANN}`, ctx)).toEqual(
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
      '"1.500" is unclear: 1500 or 1.500? Write 1500 for thousands, or at most two digits after the point.',
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

describe('which number is the cost', () => {
  table([
    [
      `3 coffees ₪45 ${ANN}`,
      expense({
        cost: 4500,
        currency: 'ILS',
        currencySource: 'symbol',
        currencyToken: '₪',
        amountText: '₪45',
        description: '3 coffees',
      }),
    ],
    [`hookah 700 ${ANN}`, expense({ cost: 70000, amountText: '700', description: 'hookah' })],
    [
      `split 500 between ${ANN} ${BOB}`,
      expense({
        cost: 50000,
        amountText: '500',
        description: DEFAULT_DESCRIPTION,
        participants: [ME, 'U0ANN', 'U0BOB'],
      }),
    ],
    [
      `split 30 among 2 ${ANN}`,
      expense({ cost: 3000, amountText: '30', description: DEFAULT_DESCRIPTION }),
    ],
    [
      `30 taxi 3 ways ${ANN} ${BOB}`,
      expense({
        cost: 3000,
        amountText: '30',
        description: 'taxi',
        participants: [ME, 'U0ANN', 'U0BOB'],
      }),
    ],
    [`40 lunch ${ANN} on 2015-03-22`, expense({ date: '2015-03-22' })],
    [`40 Dan's 30th birthday ${ANN}`, expense({ description: "Dan's 30th birthday" })],
  ]);
  errors([
    [
      `3 coffees 45 ${ANN}`,
      'Which is the cost: 3 or 45? Write the currency with it.',
      '/split 3 coffees 45 USD @ann',
    ],
    [
      `split 500 among 4 ${ANN}`,
      'You said 4 people, but I count 2 (you included): mention each of them.',
      '/split 40 lunch @ann @bob @cho',
    ],
    [
      `my share is 35% 40 ${ANN}`,
      'Whose is 35%? Put each percentage right after the person it belongs to.',
      '/split 40 lunch @ann 60% @bob 40%',
    ],
    [
      `join 50% 40 ${ANN}`,
      'Whose is 50%? Put each percentage right after the person it belongs to.',
      '/split 40 lunch @ann 60% @bob 40%',
    ],
    [
      `split $4 $6 ${ANN}`,
      "I found 2 amounts ($4, $6): give the cost once, or put each person's part right after them.",
      '/split 40 lunch @ann 25 @bob 15',
    ],
  ]);
});

describe('participants', () => {
  table([
    [`40 lunch <@U0ANN>`, expense({})],
    [`40 lunch ${ANN} ${BOB}`, expense({ participants: [ME, 'U0ANN', 'U0BOB'] })],
    [`40 lunch ${ANN} and ${BOB}`, expense({ participants: [ME, 'U0ANN', 'U0BOB'] })],
    [`40 lunch with ${ANN} and ${BOB}`, expense({ participants: [ME, 'U0ANN', 'U0BOB'] })],
    [
      `40 lunch between ${ANN}, ${BOB}, ${CHO}`,
      expense({ participants: [ME, 'U0ANN', 'U0BOB', 'U0CHO'] }),
    ],
    [
      `40 lunch between ${ANN} and ${BOB} and ${CHO}`,
      expense({ participants: [ME, 'U0ANN', 'U0BOB', 'U0CHO'] }),
    ],
    [`40 lunch ${ANN} &amp; ${BOB}`, expense({ participants: [ME, 'U0ANN', 'U0BOB'] })],
    [`40 lunch only ${ANN} and ${BOB}`, expense({ participants: ['U0ANN', 'U0BOB'] })],
    [`40 lunch only me and ${ANN}`, expense({ participants: [ME, 'U0ANN'] })],
    [`40 lunch ${ANN} ${ANN} ${BOB}`, expense({ participants: [ME, 'U0ANN', 'U0BOB'] })],
    [`40 lunch except me ${ANN} ${BOB}`, expense({ participants: ['U0ANN', 'U0BOB'] })],
    [`40 lunch ${ANN} not me`, expense({ participants: ['U0ANN'] })],
    [`40 lunch ${ANN} and me`, expense({ participants: ['U0ANN', ME] })],
    [`40 lunch ${ANN} -me`, expense({ participants: ['U0ANN'] })],
    [`40, lunch ${ANN}`, expense({})],
    [
      `40 lunch equally between ${ANN} and ${BOB}`,
      expense({ participants: [ME, 'U0ANN', 'U0BOB'] }),
    ],
    [`lunch 40 ${ANN}`, expense({})],
    [`0.500 lunch ${ANN}`, expense({ cost: 50, amountText: '0.500' })],
    [`40 lunch ${ANN} tonight`, expense({})],
    [`7 apiece lunch ${ANN}`, expense({ cost: 1400, each: 700, amountText: '7 each' })],
    [`7 per person lunch ${ANN}`, expense({ cost: 1400, each: 700, amountText: '7 each' })],
    [`7 pp lunch ${ANN}`, expense({ cost: 1400, each: 700, amountText: '7 each' })],
    [`40 lunch for ${ANN}`, expense({})],
    [`40 lunch <#C123|lunch> ${ANN}`, expense({ description: 'lunch #lunch' })],
    [
      `40 lunch in Roommates`,
      expense({ participants: [ME], wholeGroup: true, group: 'Roommates' }),
    ],
    [
      `40 lunch except me in Roommates`,
      expense({ participants: [], wholeGroup: true, group: 'Roommates' }),
    ],
  ]);

  it('means the whole channel group when nobody is mentioned there', () => {
    expect(parseCommand('40 lunch', { ...ctx, channelHasGroup: true })).toEqual(
      expense({ participants: [ME], wholeGroup: true }),
    );
  });

  errors([
    [
      `40 lunch <!subteam^S123|@team>`,
      "I can't split with a user group (@team): mention each person instead.",
      '/split 60 team lunch @ann @bob @cho',
    ],
    [
      `40 lunch <!here>`,
      "I can't split with @here: mention each person instead.",
      '/split 60 team lunch @ann @bob @cho',
    ],
    [
      `40 lunch <!everyone>`,
      "I can't split with @everyone: mention each person instead.",
      '/split 60 team lunch @ann @bob @cho',
    ],
    [
      `40 lunch <!here|here>`,
      "I can't split with @here: mention each person instead.",
      '/split 60 team lunch @ann @bob @cho',
    ],
    [
      '40 lunch <mailto:ann@example.com|ann@example.com>',
      'Mention people rather than e-mail addresses ("ann@example.com"): type @ and pick them from the list.',
    ],
    [
      `40 lunch <!channel>`,
      "I can't split with @channel: mention each person instead.",
      '/split 60 team lunch @ann @bob @cho',
    ],
    [
      '40 lunch @ann',
      'I don\'t know who "@ann" is: type @ and pick the person from the list, so that Slack sends me who they are.',
    ],
    [
      `40 lunch @john=2 ${ANN}`,
      'I don\'t know who "@john=2" is: type @ and pick the person from the list, so that Slack sends me who they are.',
    ],
    [
      '40 lunch ann@example.com',
      'Mention people rather than e-mail addresses ("ann@example.com"): type @ and pick them from the list.',
    ],
    [
      '40 lunch with John and Alice',
      'Who shared it? Mention them with @ (type @ and pick from the list).',
    ],
    ['40 lunch hiro luke', 'Who shared it? Mention them with @ (type @ and pick from the list).'],
    ['30 luke', 'Who shared it? Mention them with @ (type @ and pick from the list).'],
    [
      '40 lunch between dan, sara, avi',
      'Who shared it? Mention them with @ (type @ and pick from the list).',
    ],
    [
      '40 lunch sara &amp; dan',
      'Who shared it? Mention them with @ (type @ and pick from the list).',
    ],
    [
      '40 lunch only dan and sara',
      'Who shared it? Mention them with @ (type @ and pick from the list).',
    ],
    [
      '40 lunch dan, dan, sara',
      'Who shared it? Mention them with @ (type @ and pick from the list).',
    ],
    ['40 ארוחה עם דני', 'Who shared it? Mention them with @ (type @ and pick from the list).'],
    [
      'between dan',
      'I didn\'t understand "between dan". To book an expense, give the amount and mention people; `/split help` shows everything.',
    ],
    [
      'remind',
      'I didn\'t understand "remind". To book an expense, give the amount and mention people; `/split help` shows everything.',
    ],
    [
      '40 lunch "Firstname Lastname"',
      'Who shared it? Mention them with @ (type @ and pick from the list).',
    ],
    [`40 lunch me ${ANN} except me`, 'You wrote both "me" and "except me": which is it?'],
    [
      `I owe ${ANN} 12.34`,
      'I book shared expenses. To record a debt or a payment back, use Settle up in `/split balance`.',
      '/split balance @ann',
    ],
    [
      `I borrowed 20 from ${ANN}`,
      'I book shared expenses. To record a debt or a payment back, use Settle up in `/split balance`.',
      '/split balance @ann',
    ],
    [
      `settle ${ANN} 25`,
      'I book shared expenses. To record a debt or a payment back, use Settle up in `/split balance`.',
      '/split balance @ann',
    ],
  ]);
});

describe('who paid', () => {
  table([
    [
      `40 lunch ${ANN} paid by ${BOB}`,
      expense({ participants: [ME, 'U0ANN', 'U0BOB'], payer: 'U0BOB' }),
    ],
    [
      `40 lunch ${ANN} paid:${BOB}`,
      expense({ participants: [ME, 'U0ANN', 'U0BOB'], payer: 'U0BOB' }),
    ],
    [
      `40 lunch ${ANN} paid_by ${BOB}`,
      expense({ participants: [ME, 'U0ANN', 'U0BOB'], payer: 'U0BOB' }),
    ],
    [`40 lunch paid by ${ANN}`, expense({ payer: 'U0ANN' })],
    [`40 lunch ${ANN} paid by me`, expense({})],
    [`I paid 500 for lunch ${ANN}`, expense({ cost: 50000, amountText: '500' })],
    [
      `I bought lunch for 37.5 ${ANN}`,
      expense({ cost: 3750, amountText: '37.5', description: 'bought lunch' }),
    ],
    [
      `40 lunch except me paid by ${ANN} ${BOB}`,
      expense({ participants: ['U0BOB', 'U0ANN'], payer: 'U0ANN' }),
    ],
  ]);
  errors([
    [
      `paid_by ${ANN} 50000 ${BOB} 50000`,
      'Give one payer: for an expense several people paid, use the form (`/split` alone).',
      '/split 40 lunch @ann paid by @bob',
    ],
    [
      `I paid 400, ${BOB} paid 200`,
      'Give one payer: for an expense several people paid, use the form (`/split` alone).',
      '/split 40 lunch @ann paid by @bob',
    ],
    [
      '40 lunch paid by yonatan',
      'Who paid? After "paid by", mention the person with @.',
      '/split 40 lunch @ann paid by @bob',
    ],
    [
      `40 lunch paid by ${ANN} paid by ${BOB}`,
      'Give one payer: for an expense several people paid, use the form (`/split` alone).',
      '/split 40 lunch @ann paid by @bob',
    ],
  ]);
});

describe('split kinds', () => {
  const exact = (...amounts: Array<[string, number]>) => ({
    kind: 'exact' as const,
    amounts: amounts.map(([id, amount]) => ({ id, amount })),
  });
  const percent = (...percents: Array<[string, number]>) => ({
    kind: 'percent' as const,
    percents: percents.map(([id, basisPoints]) => ({ id, basisPoints })),
  });
  const shares = (...values: Array<[string, number]>) => ({
    kind: 'shares' as const,
    shares: values.map(([id, count]) => ({ id, shares: count })),
  });
  const both = [ME, 'U0ANN', 'U0BOB'];
  table([
    [`40 lunch split equally ${ANN}`, expense({})],
    [
      `40 lunch ${ANN} 25 ${BOB} 15`,
      expense({ participants: both, split: exact(['U0ANN', 2500], ['U0BOB', 1500]) }),
    ],
    [
      `40 lunch ${ANN}=25 ${BOB}=15`,
      expense({ participants: both, split: exact(['U0ANN', 2500], ['U0BOB', 1500]) }),
    ],
    [
      `40 lunch ${ANN}: 25, ${BOB}: 15`,
      expense({ participants: both, split: exact(['U0ANN', 2500], ['U0BOB', 1500]) }),
    ],
    [
      `$40 lunch ${ANN} $25 ${BOB} $15`,
      expense({
        participants: both,
        currencySource: 'symbol',
        currencyToken: '$',
        amountText: '$40',
        split: exact(['U0ANN', 2500], ['U0BOB', 1500]),
      }),
    ],
    [
      `60 lunch ${ANN} 30`,
      expense({ cost: 6000, amountText: '60', split: exact(['U0ANN', 3000]) }),
    ],
    [
      `dinner ${ANN} 30 ${BOB} 20`,
      expense({
        cost: 5000,
        amountText: '30 + 20',
        description: 'dinner',
        participants: both,
        split: exact(['U0ANN', 3000], ['U0BOB', 2000]),
      }),
    ],
    [
      `dinner me 20 ${ANN} 20`,
      expense({
        amountText: '20 + 20',
        description: 'dinner',
        split: exact([ME, 2000], ['U0ANN', 2000]),
      }),
    ],
    [
      `40 lunch ${ANN} 60% ${BOB} 40%`,
      expense({ participants: both, split: percent(['U0ANN', 6000], ['U0BOB', 4000]) }),
    ],
    [`40 lunch ${ANN}=50%`, expense({ split: percent(['U0ANN', 5000]) })],
    [`40 lunch ${ANN} 60 %`, expense({ split: percent(['U0ANN', 6000]) })],
    [
      `100 lunch ${ANN} 33.33% ${BOB} 33.33% me 33.34%`,
      expense({
        cost: 10000,
        amountText: '100',
        participants: ['U0ANN', 'U0BOB', ME],
        split: percent(['U0ANN', 3333], ['U0BOB', 3333], [ME, 3334]),
      }),
    ],
    [
      `40 lunch ${ANN} 2x ${BOB} 1x`,
      expense({ participants: both, split: shares(['U0ANN', 2], ['U0BOB', 1]) }),
    ],
    [
      `40 lunch ${ANN} x2 ${BOB} x1`,
      expense({ participants: both, split: shares(['U0ANN', 2], ['U0BOB', 1]) }),
    ],
    [
      `40 lunch ${ANN} 2 shares ${BOB} 1 share`,
      expense({ participants: both, split: shares(['U0ANN', 2], ['U0BOB', 1]) }),
    ],
    [`40 lunch ${ANN}=2x`, expense({ split: shares(['U0ANN', 2]) })],
    [
      `custom ${ANN}:30, ${BOB}:20`,
      expense({
        cost: 5000,
        amountText: '30 + 20',
        description: 'custom',
        participants: both,
        split: exact(['U0ANN', 3000], ['U0BOB', 2000]),
      }),
    ],
    // "=2" is an amount, never shares: shares are written 2x (docs/split-syntax.md).
    [
      `40 lunch ${ANN}=2 ${BOB}=1`,
      expense({ participants: both, split: exact(['U0ANN', 200], ['U0BOB', 100]) }),
    ],
    [
      `self 10 ${ANN} 30 lunch`,
      expense({ cost: 3000, amountText: '30', split: exact([ME, 1000]) }),
    ],
    [
      `$7 each coffee ${ANN} ${BOB}`,
      expense({
        cost: 2100,
        each: 700,
        amountText: '$7 each',
        currencySource: 'symbol',
        currencyToken: '$',
        description: 'coffee',
        participants: both,
      }),
    ],
  ]);
  errors([
    [
      `40 lunch ${ANN} 25 ${BOB} 20`,
      'The parts add up to 45.00, more than the cost (40.00 USD).',
      '/split 40 lunch @ann 25 @bob 15',
    ],
    [
      `40 lunch except me ${ANN} 25 ${BOB} 10`,
      'The parts add up to 35.00, 5.00 short of the cost (40.00 USD): give the rest to someone.',
      '/split 40 lunch @ann 25 @bob 15',
    ],
    [
      `40 lunch ${ANN} 60% ${BOB} 60%`,
      "That doesn't add up: the percentages add up to 120%, over 100%.",
      '/split 40 lunch @ann 60% @bob 40%',
    ],
    [
      `40 lunch only ${ANN} 33.33% ${BOB} 33.33%`,
      "That doesn't add up: the percentages add up to 66.66%, not 100%.",
      '/split 40 lunch @ann 60% @bob 40%',
    ],
    [
      `40 lunch ${ANN} 33.333%`,
      'Percentages take at most two decimals ("33.333%").',
      '/split 40 lunch @ann 60% @bob 40%',
    ],
    [
      `40 lunch ${ANN} 1.5x`,
      'Shares are whole numbers from 1 ("1.5x" is not).',
      '/split 40 lunch @ann 2x @bob 1x',
    ],
    [
      `40 lunch ${ANN} 0x`,
      'Shares are whole numbers from 1 ("0x" is not).',
      '/split 40 lunch @ann 2x @bob 1x',
    ],
    [
      `40 lunch ${ANN} 25 ${BOB} 50%`,
      'Use one kind of split: amounts for everyone, percentages for everyone, or shares (2x) for everyone.',
      '/split 40 lunch @ann 25 @bob 15',
    ],
    [
      `€40 dinner ${ANN} $25`,
      'One currency per expense, please: I see EUR and USD.',
      '/split €40 dinner @ann €25 @bob €15',
    ],
    [
      `40 lunch ${ANN} 25 ${ANN} 15`,
      '<@U0ANN> is there twice with a value each.',
      '/split 40 lunch @ann 25 @bob 15',
    ],
    [
      `lunch ${ANN} 40`,
      "Is 40 the total or <@U0ANN>'s part? Put the total first: `/split 40 lunch @ann` splits it, `/split 40 lunch @ann 40` gives it all to Ann.",
    ],
    [
      `${ANN} paid ${BOB} $50`,
      "Is $50 the total or <@U0BOB>'s part? Put the total first: `/split $50 lunch @ann` splits it, `/split $50 lunch @ann $50` gives it all to Ann.",
      '/split $50 lunch @ann',
    ],
    [
      `40 lunch ${ANN} 3 coffees`,
      'Which is the cost: 40 or 3? Write the currency with it.',
      '/split 40 USD lunch @ann 3 coffees',
    ],
    [
      `40 lunch me 10`,
      'To give yourself a part, mention the others too.',
      '/split 40 lunch @ann 25 @bob 15',
      { ...ctx, channelHasGroup: true },
    ],
  ]);
});

describe('dates', () => {
  table([
    [`40 lunch ${ANN} today`, expense({})],
    [`40 lunch ${ANN} now`, expense({})],
    [`40 lunch ${ANN} yesterday`, expense({ date: '2026-11-20' })],
    [`yesterday 40 lunch ${ANN}`, expense({ date: '2026-11-20' })],
    [`40 lunch ${ANN} on 2026-11-20`, expense({ date: '2026-11-20' })],
    [`40 lunch ${ANN} 2026-11-20`, expense({ date: '2026-11-20' })],
    [`40 lunch ${ANN} on 20261120`, expense({ date: '2026-11-20' })],
    [`40 lunch ${ANN} 2026/11/20`, expense({ date: '2026-11-20' })],
    [`40 lunch ${ANN} on 01/20/2026`, expense({ date: '2026-01-20' })],
    [`40 lunch ${ANN} on 20/01/2026`, expense({ date: '2026-01-20' })],
    [`40 lunch ${ANN} on 01/02/2026`, expense({ date: '2026-01-02' }), { ...ctx, locale: 'en-US' }],
    [`40 lunch ${ANN} on 01/02/2026`, expense({ date: '2026-02-01' }), { ...ctx, locale: 'en-GB' }],
    [`40 lunch ${ANN} January 20, 2026`, expense({ date: '2026-01-20' })],
    [`40 lunch ${ANN} Jan 20`, expense({ date: '2026-01-20' })],
    [`40 lunch ${ANN} 20 Jan 2026`, expense({ date: '2026-01-20' })],
    [`40 lunch ${ANN} Nov 3`, expense({ date: '2026-11-03' })],
    [`40 lunch ${ANN} 3 Nov`, expense({ date: '2026-11-03' })],
    [`40 lunch ${ANN} on 3rd of November`, expense({ date: '2026-11-03' })],
    [`40 lunch ${ANN} Dec 28`, expense({ date: '2025-12-28' })],
    [`40 lunch ${ANN} last friday`, expense({ date: '2026-11-20' })],
    [`40 lunch ${ANN} last saturday`, expense({ date: '2026-11-14' })],
    [`40 lunch ${ANN} on monday`, expense({ date: '2026-11-16' })],
    [`note Friday drinks 🍻 40 ${ANN}`, expense({ description: 'Friday drinks 🍻' })],
  ]);
  errors([
    [
      `40 lunch ${ANN} on 01/02/2026`,
      'Is 01/02/2026 January 2 or February 1? Write the date as year-month-day.',
      '/split 40 lunch @ann on 2026-11-20',
    ],
    [
      `40 lunch ${ANN} on 2026-12-25`,
      '2026-12-25 is in the future: an expense needs a past date.',
      '/split 40 lunch @ann on 2026-11-20',
    ],
    [
      `40 lunch ${ANN} on 2026-02-30`,
      'There is no February 30, 2026 ("2026-02-30").',
      '/split 40 lunch @ann on 2026-11-20',
    ],
    [
      `40 lunch ${ANN} Feb 30`,
      'There is no February 30 ("Feb 30").',
      '/split 40 lunch @ann on 2026-11-20',
    ],
    [
      `40 lunch ${ANN} on 1999-01-01`,
      '1999-01-01 is too long ago: write a date from 2000 on.',
      '/split 40 lunch @ann on 2026-11-20',
    ],
    [
      `40 lunch ${ANN} yesterday on Nov 3`,
      'I found two dates: give one.',
      '/split 40 lunch @ann on 2026-11-20',
    ],
  ]);
});

describe('descriptions and groups', () => {
  it('keeps a very long description whole', () => {
    const long = 'dinner '.repeat(300).trim();
    expect(parseCommand(`40 ${long} ${ANN}`, ctx)).toEqual(expense({ description: long }));
  });

  table([
    [`40 Dan's dinner, drinks ${ANN}`, expense({ description: "Dan's dinner, drinks" })],
    [`40 post-dinner ${ANN}`, expense({ description: 'post-dinner' })],
    [`40 Café 🍕 ${ANN}`, expense({ description: 'Café 🍕' })],
    [`40 ארוחת ערב ${ANN}`, expense({ description: 'ארוחת ערב' })],
    [`40 x'; DROP TABLE users; -- ${ANN}`, expense({ description: "x'; DROP TABLE users; --" })],
    [`40 "lunch in Paris" ${ANN}`, expense({ description: 'lunch in Paris' })],
    [`40 for dinner with John ${ANN}`, expense({ description: 'dinner with John' })],
    [`40 fish &amp; chips ${ANN}`, expense({ description: 'fish & chips' })],
    [`40 lunch <!date^1392734382^{date}|Feb 18> ${ANN}`, expense({ description: 'lunch Feb 18' })],
    [`40 lunch with ${ANN}.`, expense({})],
    [
      `40 lunch at Joe's with ${ANN}, ${BOB} and ${CHO}!`,
      expense({ description: "lunch at Joe's", participants: [ME, 'U0ANN', 'U0BOB', 'U0CHO'] }),
    ],
    [`40 ${ANN}`, expense({ description: DEFAULT_DESCRIPTION })],
    [`KAI ADD DINNER 40 ${ANN}`, expense({ description: 'KAI ADD DINNER' })],
    [`   40    lunch    ${ANN}   `, expense({})],
    [`40 lunch in Roommates ${ANN}`, expense({ group: 'Roommates' })],
    [`40 lunch in group Trip to Rome ${ANN}`, expense({ group: 'Trip to Rome' })],
    [`40 lunch in "Trip for Two" ${ANN}`, expense({ group: 'Trip for Two' })],
    [`40 lunch ${ANN} in Roommates yesterday`, expense({ group: 'Roommates', date: '2026-11-20' })],
    [
      `40 lunch <https://example.com/menu|the menu> ${ANN}`,
      expense({ description: 'lunch the menu' }),
    ],
  ]);
});

describe('other subcommands', () => {
  const rows: Array<[string, ReturnType<typeof parseCommand>]> = [
    ['', { kind: 'open_modal' }],
    ['   ', { kind: 'open_modal' }],
    ['help', { kind: 'help' }],
    ['h', { kind: 'help' }],
    ['HELP', { kind: 'help' }],
    ['ヘルプ', { kind: 'help' }],
    ['connect', { kind: 'connect' }],
    ['disconnect', { kind: 'disconnect' }],
    ['whoami', { kind: 'whoami' }],
    ['who am i', { kind: 'whoami' }],
    ['login', { kind: 'connect' }],
    ['logout', { kind: 'disconnect' }],
    ['undo', { kind: 'undo' }],
    ['delete last expense', { kind: 'undo' }],
    ['balance', { kind: 'balance', mention: null, group: null, currency: null }],
    ['balances', { kind: 'balance', mention: null, group: null, currency: null }],
    ['status', { kind: 'balance', mention: null, group: null, currency: null }],
    ['debts', { kind: 'balance', mention: null, group: null, currency: null }],
    ['who should I pay?', { kind: 'balance', mention: null, group: null, currency: null }],
    [`balance ${ANN}`, { kind: 'balance', mention: 'U0ANN', group: null, currency: null }],
    [
      `how much do I owe ${ANN}`,
      { kind: 'balance', mention: 'U0ANN', group: null, currency: null },
    ],
    ['balance Roommates', { kind: 'balance', mention: null, group: 'Roommates', currency: null }],
    [
      'balance in Trip to Rome',
      { kind: 'balance', mention: null, group: 'Trip to Rome', currency: null },
    ],
    ['balances in EUR', { kind: 'balance', mention: null, group: null, currency: 'EUR' }],
    ['balances in ₪', { kind: 'balance', mention: null, group: null, currency: 'ILS' }],
    ['groups', { kind: 'groups' }],
    ['group list', { kind: 'groups' }],
    [
      `group create Roommates ${ANN} ${BOB}`,
      { kind: 'group_create', name: 'Roommates', mentions: ['U0ANN', 'U0BOB'] },
    ],
    [
      `group create Trip to Rome with ${ANN} and ${BOB}`,
      { kind: 'group_create', name: 'Trip to Rome', mentions: ['U0ANN', 'U0BOB'] },
    ],
    [`group add ${CHO} Roommates`, { kind: 'group_add', mentions: ['U0CHO'], group: 'Roommates' }],
    [
      `group add ${CHO} ${BOB} to Trip to Rome`,
      { kind: 'group_add', mentions: ['U0CHO', 'U0BOB'], group: 'Trip to Rome' },
    ],
    ['group delete Roommates', { kind: 'group_delete', name: 'Roommates' }],
    ['group use "Trip to Rome"', { kind: 'group_use', name: 'Trip to Rome' }],
    ['list', { kind: 'list', mentions: [], group: null, range: { from: null, to: null } }],
    ['show history', { kind: 'list', mentions: [], group: null, range: { from: null, to: null } }],
    [
      'show yesterday',
      { kind: 'list', mentions: [], group: null, range: { from: '2026-11-20', to: '2026-11-20' } },
    ],
    [
      `list ${ANN}`,
      { kind: 'list', mentions: ['U0ANN'], group: null, range: { from: null, to: null } },
    ],
    [
      'list in Roommates',
      { kind: 'list', mentions: [], group: 'Roommates', range: { from: null, to: null } },
    ],
    [
      'list from 2026-11-01 to 2026-11-20',
      { kind: 'list', mentions: [], group: null, range: { from: '2026-11-01', to: '2026-11-20' } },
    ],
    [
      'list since Nov 1',
      { kind: 'list', mentions: [], group: null, range: { from: '2026-11-01', to: null } },
    ],
    [
      'list until Nov 1',
      { kind: 'list', mentions: [], group: null, range: { from: null, to: '2026-11-01' } },
    ],
    [
      'list yesterday',
      { kind: 'list', mentions: [], group: null, range: { from: '2026-11-20', to: '2026-11-20' } },
    ],
    [
      'list this week',
      { kind: 'list', mentions: [], group: null, range: { from: '2026-11-16', to: '2026-11-21' } },
    ],
    [
      'list this month',
      { kind: 'list', mentions: [], group: null, range: { from: '2026-11-01', to: '2026-11-21' } },
    ],
    [
      'list last week',
      { kind: 'list', mentions: [], group: null, range: { from: '2026-11-09', to: '2026-11-15' } },
    ],
    [
      'list last month',
      { kind: 'list', mentions: [], group: null, range: { from: '2026-10-01', to: '2026-10-31' } },
    ],
    [
      'list last 7 days',
      { kind: 'list', mentions: [], group: null, range: { from: '2026-11-15', to: '2026-11-21' } },
    ],
    [
      `list ${ANN} in Roommates from Nov 1 to Nov 20`,
      {
        kind: 'list',
        mentions: ['U0ANN'],
        group: 'Roommates',
        range: { from: '2026-11-01', to: '2026-11-20' },
      },
    ],
    ['group', { kind: 'groups' }],
    [
      'group create',
      {
        kind: 'error',
        message: 'Give the new group a name.',
        example: '/split group create Roommates @ann @bob',
      },
    ],
    [
      'group add Roommates',
      {
        kind: 'error',
        message: 'Who should join? Mention them with @.',
        example: '/split group add @cho Roommates',
      },
    ],
    [
      `group add ${CHO}`,
      {
        kind: 'error',
        message: 'Which group should they join?',
        example: '/split group add @cho Roommates',
      },
    ],
    [
      'group delete',
      {
        kind: 'error',
        message: 'Which group should I delete?',
        example: '/split group delete Roommates',
      },
    ],
    [
      'group use',
      {
        kind: 'error',
        message: 'Which group should this channel use?',
        example: '/split group use Roommates',
      },
    ],
    [
      'group frobnicate',
      {
        kind: 'error',
        message: 'I don\'t know "group frobnicate". Try group create, add, delete or use.',
        example: '/split group create Roommates @ann @bob',
      },
    ],
    [
      `balance ${ANN} ${BOB}`,
      { kind: 'error', message: 'One person at a time, please.', example: '/split balance @ann' },
    ],
    [
      'balance @ann',
      {
        kind: 'error',
        message:
          'I don\'t know who "@ann" is: type @ and pick the person from the list, so that Slack sends me who they are.',
        example: '/split 40 lunch @ann',
      },
    ],
    [
      'list from 2026-11-20 to 2026-11-01',
      {
        kind: 'error',
        message: 'The range starts (2026-11-20) after it ends (2026-11-01).',
        example: '/split list @ann in Roommates from 2026-11-01 to 2026-11-20',
      },
    ],
  ];
  for (const [text, expected] of rows) {
    it(JSON.stringify(text), () => expect(parseCommand(text, ctx)).toEqual(expected));
  }
});

describe('resolveMe', () => {
  it('puts the caller in place of ME and merges a self-mention', () => {
    const parsed = parseCommand(`40 lunch ${ANN} 10 <@U0ME> ${BOB}`, ctx);
    if (parsed.kind !== 'expense') throw new Error(JSON.stringify(parsed));
    expect(resolveMe(parsed.expense, 'U0ME')).toEqual({
      ...parsed.expense,
      participants: ['U0ME', 'U0ANN', 'U0BOB'],
      payer: 'U0ME',
    });
  });

  it('refuses two values for the caller', () => {
    const parsed = parseCommand(`40 lunch me 10 <@U0ME> 10 ${ANN}`, ctx);
    if (parsed.kind !== 'expense') throw new Error(JSON.stringify(parsed));
    expect(resolveMe(parsed.expense, 'U0ME')).toEqual({ error: 'You gave yourself two values.' });
  });
});

describe('never throws', () => {
  it('answers every mix of fragments with a result', () => {
    const fragments = [
      '40',
      '$',
      '€12,50',
      '1.234,56',
      ANN,
      BOB,
      '<!here>',
      '<#C1|x>',
      'paid',
      'by',
      'in',
      'on',
      'yesterday',
      'Nov',
      '3',
      '%',
      '2x',
      'me',
      'except',
      '"',
      '<',
      '>',
      '&amp;',
      '=',
      ':',
      'each',
      '0',
      '-5',
      '1e3',
      'group',
      'list',
      'balance',
      '2026-02-30',
      'only',
      'shares',
      '¥',
      '円',
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 3000; round++) {
      const words = Array.from(
        { length: 1 + random(8) },
        () => fragments[random(fragments.length)],
      );
      const text = words.join(random(2) === 0 ? ' ' : '');
      const result = parseCommand(text, ctx);
      expect(typeof result.kind).toBe('string');
      if (result.kind === 'expense') {
        expect(Number.isSafeInteger(result.expense.cost) && result.expense.cost > 0).toBe(true);
        if (result.expense.wholeGroup) continue;
        // What the parser accepts, the allocation books exactly.
        const resolved = resolveMe(result.expense, 'U0ME');
        if ('error' in resolved) continue;
        const shares = computeShares({ ...resolved, cost: resolved.cost });
        if (!('shares' in shares)) throw new Error(`${text}: ${shares.error}`);
        expect(shares.shares.reduce((sum, r) => sum + r.owed, 0)).toBe(resolved.cost);
      }
    }
  });
});

describe('help', () => {
  it('offers only examples that parse, each to what it says', () => {
    const kinds = HELP_SECTIONS.flatMap((s) =>
      s.lines.map((l) => [l.example, parseCommand(asTyped(l.example), ctx).kind]),
    );
    expect(kinds).toEqual([
      ['/split 40 lunch @ann', 'expense'],
      ['/split €12,50 taxi @ann @bob', 'expense'],
      ['/split 40 lunch @ann paid by @bob', 'expense'],
      ['/split 40 lunch @ann except me', 'expense'],
      ['/split 40 lunch @ann yesterday', 'expense'],
      ['/split 40 lunch in Roommates', 'expense'],
      ['/split $7 each coffee @ann @bob', 'expense'],
      ['/split', 'open_modal'],
      ['/split 40 lunch @ann 25 @bob 15', 'expense'],
      ['/split 40 lunch @ann 60% @bob 40%', 'expense'],
      ['/split 40 lunch @ann 2x @bob 1x', 'expense'],
      ['/split balance', 'balance'],
      ['/split balance @ann', 'balance'],
      ['/split balance Roommates', 'balance'],
      ['/split list @ann in Roommates last week', 'list'],
      ['/split undo', 'undo'],
      ['/split groups', 'groups'],
      ['/split group create Roommates @ann @bob', 'group_create'],
      ['/split group add @cho Roommates', 'group_add'],
      ['/split group use Roommates', 'group_use'],
      ['/split group delete Roommates', 'group_delete'],
      ['/split connect', 'connect'],
      ['/split whoami', 'whoami'],
      ['/split disconnect', 'disconnect'],
    ]);
  });
});

describe('parsed expenses always book exactly', () => {
  it('turns thousands of generated commands into shares that add up to the cost', () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const decimal = (minor: number) =>
      `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
    const people = ['<@U0A|a>', '<@U0B>', '<@U0C|c>', '<@U0D>', '<@U0E|e>'];
    let booked = 0;
    for (let round = 0; round < 2000; round++) {
      const cost = 1 + random(random(2) === 0 ? 1000 : 10_000_000);
      const amount = decimal(cost);
      const mentioned = people.slice(0, 1 + random(people.length));
      const kind = random(4);
      const parts = mentioned.map((m) => {
        if (kind === 0 || random(3) === 0) return m;
        if (kind === 1) return `${m} ${decimal(random(Math.floor(cost / mentioned.length) + 1))}`;
        if (kind === 2) return `${m} ${random(100 / mentioned.length)}%`;
        return `${m} ${1 + random(5)}x`;
      });
      const extras = [random(4) === 0 ? 'except me' : '', random(4) === 0 ? 'paid by <@U0P>' : ''];
      const text = `${amount} lunch ${parts.join(' ')} ${extras.join(' ')}`;
      const result = parseCommand(text, ctx);
      if (result.kind === 'error') {
        // Only parts that cannot make the cost may be refused.
        expect(result.message).toMatch(/add up|short of|more than the cost|percentages/);
        continue;
      }
      if (result.kind !== 'expense') throw new Error(`${text}: ${result.kind}`);
      expect(result.expense.cost).toBe(cost);
      const resolved = resolveMe(result.expense, 'U0ME');
      if ('error' in resolved) throw new Error(`${text}: ${resolved.error}`);
      const shares = computeShares(resolved);
      if (!('shares' in shares)) throw new Error(`${text}: ${shares.error}`);
      expect(shares.shares.reduce((sum, r) => sum + r.owed, 0)).toBe(cost);
      expect(shares.shares.reduce((sum, r) => sum + r.paid, 0)).toBe(cost);
      booked++;
    }
    expect(booked).toBeGreaterThan(1000);
  });
});
