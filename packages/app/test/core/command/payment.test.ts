import { describe, expect, it } from 'vitest';
import { ANN, BOB, ctx, errors, expense, parse } from './helpers.js';

const paid = (direction: 'to' | 'from', amountText: string, currency: string | null = null) => ({
  kind: 'paid',
  payment: { direction, person: 'U0ANN', amountText, currency },
});

describe('paid: a payment to or from one person', () => {
  const rows: Array<[string, unknown]> = [
    [`paid ${ANN} 15`, paid('to', '15')],
    [`I paid ${ANN} 15`, paid('to', '15')],
    [`paid 15 to ${ANN}`, paid('to', '15')],
    [`paid ${ANN} back 15`, paid('to', '15')],
    [`repaid ${ANN} 15.50`, paid('to', '15.50')],
    [`paid ${ANN} €15`, paid('to', '€15', 'EUR')],
    [`paid ${ANN} 15 EUR`, paid('to', '15 EUR', 'EUR')],
    [`paid ${ANN} 1 000,50 €`, paid('to', "1'000,50 €", 'EUR')],
    [`Paid ${ANN} 15!`, paid('to', '15')],
    [`${ANN} paid me 15`, paid('from', '15')],
    [`${ANN} paid me back £7`, paid('from', '£7', 'GBP')],
    [`${ANN} repaid me 15`, paid('from', '15')],
    [`received 15 from ${ANN}`, paid('from', '15')],
    [`got $3 from ${ANN}`, paid('from', '$3', 'USD')],
  ];
  for (const [text, expected] of rows) {
    it(text, () => expect(parse(text, ctx)).toEqual(expected));
  }
});

describe('paid with a description is still an expense', () => {
  it('I paid 500 for lunch with @ann', () => {
    expect(parse(`I paid 500 for lunch with ${ANN}`, ctx)).toEqual(
      expense({ cost: 50000, amountText: '500' }),
    );
  });
  it('paid 40 lunch @ann', () => {
    expect(parse(`paid 40 lunch ${ANN}`, ctx)).toEqual(expense({}));
  });
  it('@ann paid @bob $50 (no "me") stays with the expense grammar', () => {
    expect(parse(`${ANN} paid ${BOB} $50`, ctx).kind).toBe('error');
    expect(parse(`${ANN} paid ${BOB} $50`, ctx)).not.toHaveProperty('payment');
  });
  it('several payers stay an expense', () => {
    expect(parse(`I paid 400, ${BOB} paid 200`, ctx).kind).toBe('expense');
    expect(parse(`60 dinner ${ANN} paid by me 40 ${BOB} 20`, ctx).kind).toBe('expense');
    expect(parse(`${ANN} paid 30 ${BOB} paid 20 taxi`, ctx).kind).toBe('expense');
  });
  it('paid 15 with nobody named is an expense missing its people', () => {
    expect(parse('paid 15', ctx)).toEqual({
      kind: 'error',
      message: 'Who shared it? Mention them with @ (type @ and pick from the list).',
      example: '/split 40 lunch @ann',
    });
  });
});

describe('bad payments', () => {
  errors([
    [`paid ${ANN}`, 'How much did you pay? Give the amount.', '/split paid @ann 15'],
    [`${ANN} paid me`, 'How much did they pay you? Give the amount.', '/split @ann paid me 15'],
    [
      `paid ${ANN} ${BOB} 15`,
      'A payment is between you and one person: mention just one.',
      '/split paid @ann 15',
    ],
    [`paid ${ANN} 15 20`, 'One amount per payment, please.', '/split paid @ann 15'],
    [`paid ${ANN} -15`, 'The amount can\'t be negative ("-15").', '/split paid @ann 15'],
    [`paid ${ANN} 0`, 'A payment must be more than zero ("0").', '/split paid @ann 15'],
    [`paid ${ANN} 0,00`, 'A payment must be more than zero ("0,00").', '/split paid @ann 15'],
    [
      `paid ${ANN} 1.500`,
      '"1.500" is unclear: 1500 or 1.5? Write 1500 for thousands, or at most two digits after the point.',
      '/split paid @ann 15',
    ],
    [
      'paid <!subteam^S1|@team> 15',
      'A payment is between you and one person: mention them with @, not @team.',
      '/split paid @ann 15',
    ],
    [
      'paid <!here> 15',
      'A payment is between you and one person: mention them with @, not @here.',
      '/split paid @ann 15',
    ],
  ]);
});

describe('remind', () => {
  it('remind @ann', () => {
    expect(parse(`remind ${ANN}`, ctx)).toEqual({ kind: 'remind', mention: 'U0ANN' });
    expect(parse(`nudge ${ANN} to pay me`, ctx)).toEqual({
      kind: 'remind',
      mention: 'U0ANN',
    });
  });
  errors([
    ['remind', 'Who should I remind? Mention them with @.', '/split remind @ann'],
    [`remind ${ANN} ${BOB}`, 'One person at a time, please.', '/split remind @ann'],
    [
      `remind ${ANN} about lunch`,
      'I only need the person to remind, not "about": the reminder says everything they owe you.',
      '/split remind @ann',
    ],
  ]);
});
