import { describe, expect, it } from 'vitest';
import { ME, resolveMe } from '../../../src/core/command/index.js';
import { ANN, BOB, CHO, ctx, errors, expense, parse, readResolved, table } from './helpers.js';

const PAYERS_EX = '/split 60 dinner @ann paid by me 40 @bob 20';
const REPEAT_EX = '/split 1200 rent @ann monthly';

describe('several payers', () => {
  table([
    [
      `60 dinner paid by me 40 ${BOB} 20`,
      expense({
        cost: 6000,
        amountText: '60',
        description: 'dinner',
        participants: [ME, 'U0BOB'],
        payers: [
          { id: ME, amount: 4000 },
          { id: 'U0BOB', amount: 2000 },
        ],
      }),
    ],
    [
      `60 dinner ${ANN} paid by me 40, ${BOB} 20`,
      expense({
        cost: 6000,
        amountText: '60',
        description: 'dinner',
        participants: [ME, 'U0ANN', 'U0BOB'],
        payers: [
          { id: ME, amount: 4000 },
          { id: 'U0BOB', amount: 2000 },
        ],
      }),
    ],
    [
      // No total: what the payers paid together is the cost; the first payer is the payer.
      `dinner paid_by ${ANN} 50 ${BOB} 50`,
      expense({
        cost: 10000,
        amountText: '50 + 50',
        description: 'dinner',
        participants: [ME, 'U0ANN', 'U0BOB'],
        payer: 'U0ANN',
        payers: [
          { id: 'U0ANN', amount: 5000 },
          { id: 'U0BOB', amount: 5000 },
        ],
      }),
    ],
    [
      `I paid 400, ${BOB} paid 200`,
      expense({
        cost: 60000,
        amountText: '400 + 200',
        description: '',
        participants: [ME, 'U0BOB'],
        payers: [
          { id: ME, amount: 40000 },
          { id: 'U0BOB', amount: 20000 },
        ],
      }),
    ],
    [
      `€60 dinner paid by ${ANN} €35 and ${BOB} €25 except me`,
      expense({
        cost: 6000,
        currency: 'EUR',
        currencySource: 'symbol',
        currencyToken: '€',
        amountText: '€60',
        description: 'dinner',
        participants: ['U0ANN', 'U0BOB'],
        payer: 'U0ANN',
        payers: [
          { id: 'U0ANN', amount: 3500 },
          { id: 'U0BOB', amount: 2500 },
        ],
      }),
    ],
    [
      // Unequal owed parts before the payers, the payers after "paid by".
      `90 dinner ${ANN} 50 ${BOB} 40 paid by me 60 ${BOB} 30`,
      expense({
        cost: 9000,
        amountText: '90',
        description: 'dinner',
        participants: [ME, 'U0ANN', 'U0BOB'],
        split: {
          kind: 'exact',
          amounts: [
            { id: 'U0ANN', amount: 5000 },
            { id: 'U0BOB', amount: 4000 },
          ],
        },
        payers: [
          { id: ME, amount: 6000 },
          { id: 'U0BOB', amount: 3000 },
        ],
      }),
    ],
    [
      `100 hotel ${ANN} 2x paid by ${ANN} 70 ${CHO} 30`,
      expense({
        cost: 10000,
        amountText: '100',
        description: 'hotel',
        participants: [ME, 'U0ANN', 'U0CHO'],
        payer: 'U0ANN',
        split: { kind: 'shares', shares: [{ id: 'U0ANN', shares: 2 }] },
        payers: [
          { id: 'U0ANN', amount: 7000 },
          { id: 'U0CHO', amount: 3000 },
        ],
      }),
    ],
    [
      `${ANN} paid 30 ${BOB} paid 20 taxi`,
      expense({
        cost: 5000,
        amountText: '30 + 20',
        description: 'taxi',
        participants: [ME, 'U0ANN', 'U0BOB'],
        payer: 'U0ANN',
        payers: [
          { id: 'U0ANN', amount: 3000 },
          { id: 'U0BOB', amount: 2000 },
        ],
      }),
    ],
    [
      // Left out of the owing, not of the paying.
      `60 dinner paid by me 40 and ${BOB} 20 except me`,
      expense({
        cost: 6000,
        amountText: '60',
        description: 'dinner',
        participants: ['U0BOB'],
        payers: [
          { id: ME, amount: 4000 },
          { id: 'U0BOB', amount: 2000 },
        ],
      }),
    ],
    [
      // The list ends at the last payer's amount: Ann, named after it, shares without paying.
      `60 dinner paid by me 40 ${BOB} 20 ${ANN}`,
      expense({
        cost: 6000,
        amountText: '60',
        description: 'dinner',
        participants: [ME, 'U0ANN', 'U0BOB'],
        payers: [
          { id: ME, amount: 4000 },
          { id: 'U0BOB', amount: 2000 },
        ],
      }),
    ],
    [
      `60 dinner paid by me 40, ${BOB} 20, ${ANN} ${CHO}`,
      expense({
        cost: 6000,
        amountText: '60',
        description: 'dinner',
        participants: [ME, 'U0ANN', 'U0CHO', 'U0BOB'],
        payers: [
          { id: ME, amount: 4000 },
          { id: 'U0BOB', amount: 2000 },
        ],
      }),
    ],
    [
      // A share after the person who does not pay is her part, as anywhere else.
      `60 dinner paid by me 40 ${BOB} 20 ${ANN} 2x`,
      expense({
        cost: 6000,
        amountText: '60',
        description: 'dinner',
        participants: [ME, 'U0ANN', 'U0BOB'],
        split: { kind: 'shares', shares: [{ id: 'U0ANN', shares: 2 }] },
        payers: [
          { id: ME, amount: 4000 },
          { id: 'U0BOB', amount: 2000 },
        ],
      }),
    ],
    // One payer with the cost after them stays one payer.
    [
      `lunch ${ANN} paid by ${BOB} 40`,
      expense({ participants: [ME, 'U0ANN', 'U0BOB'], payer: 'U0BOB' }),
    ],
    [`I paid 40 for lunch with ${ANN}`, expense({})],
  ]);

  errors([
    [
      `60 dinner ${ANN} paid by me 40 ${BOB} 30`,
      'The payers paid $70.00 together, but the cost is $60.00: what each paid must add up to the cost.',
      PAYERS_EX,
    ],
    [
      `60 dinner paid by me 40 ${BOB}`,
      "How much did <@U0BOB> pay? With several payers, put each one's amount right after them.",
      PAYERS_EX,
    ],
    [
      // A person without an amount before another payer is asked about, not taken as a sharer.
      `60 dinner paid by me 40 ${BOB} ${CHO} 20`,
      "How much did <@U0BOB> pay? With several payers, put each one's amount right after them.",
      PAYERS_EX,
    ],
    [
      `60 dinner paid by me 30 ${BOB} 20 ${ANN} ${CHO} 10`,
      "How much did <@U0ANN> pay? With several payers, put each one's amount right after them.",
      PAYERS_EX,
    ],
    [
      `I paid 400, ${BOB} paid`,
      'With several payers, say what each one paid: a person, then their amount.',
      PAYERS_EX,
    ],
    [
      `40 lunch paid by ${ANN} paid by ${BOB}`,
      'Name who paid once: all the payers in one list, each with their amount.',
      PAYERS_EX,
    ],
    [
      `60 dinner paid by ${BOB} 40 ${BOB} 20`,
      '<@U0BOB> is among the payers twice: give each payer once, with what they paid.',
      PAYERS_EX,
    ],
    [
      `60 dinner paid by me 60 ${BOB} 0`,
      'Each payer must have paid something: leave out whoever paid nothing.',
      PAYERS_EX,
    ],
    [
      `€60 dinner paid by me €40 ${BOB} $20`,
      'One currency per expense, please: I see EUR and USD.',
      '/split €40 dinner @ann €25 @bob €15',
    ],
    [
      `¥6000 dinner paid by me ¥4000.5 ${BOB} ¥2000`,
      'JPY has no cents: "¥4000.5" can\'t have decimals.',
      PAYERS_EX,
    ],
    [
      `60 dinner ${ANN} paid by me 40 ${BOB} 20 +tip 15%`,
      'With several payers, write the total with the tip and tax in it, and what each paid of it.',
      PAYERS_EX,
    ],
  ]);

  it('puts the caller in place of ME among the payers', () => {
    const parsed = parse(`60 dinner paid by me 40 ${BOB} 20`, ctx);
    if (parsed.kind !== 'expense') throw new Error(JSON.stringify(parsed));
    expect(resolveMe(parsed.expense, 'U0ME')).toMatchObject({
      payer: 'U0ME',
      payers: [
        { id: 'U0ME', amount: 4000 },
        { id: 'U0BOB', amount: 2000 },
      ],
    });
    const twice = parse(`60 dinner paid by me 40 <@U0ME> 20`, ctx);
    if (twice.kind !== 'expense') throw new Error(JSON.stringify(twice));
    expect(readResolved(resolveMe(twice.expense, 'U0ME'))).toEqual({
      error: 'You are among the payers twice: give each payer once, with what they paid.',
    });
  });
});

describe('repeating expenses', () => {
  const rent = (repeat: 'weekly' | 'fortnightly' | 'monthly' | 'yearly') =>
    expense({ cost: 120000, amountText: '1200', description: 'rent', repeat });
  table([
    [`1200 rent ${ANN} monthly`, rent('monthly')],
    [`1200 rent ${ANN} weekly`, rent('weekly')],
    [`1200 rent ${ANN} fortnightly`, rent('fortnightly')],
    [`1200 rent ${ANN} yearly`, rent('yearly')],
    [`1200 rent ${ANN} annually`, rent('yearly')],
    [`1200 rent ${ANN} every month`, rent('monthly')],
    [`1200 rent ${ANN} each week`, rent('weekly')],
    [`1200 rent ${ANN} every 2 weeks`, rent('fortnightly')],
    [`1200 rent ${ANN} every two weeks`, rent('fortnightly')],
    [`1200 rent ${ANN} every other week`, rent('fortnightly')],
    [`1200 rent ${ANN} every year`, rent('yearly')],
    [`1200 rent ${ANN} every fortnight`, rent('fortnightly')],
    [`1200 rent ${ANN} per month`, rent('monthly')],
    [`1200 rent ${ANN} repeat monthly`, rent('monthly')],
    [`1200 rent ${ANN} repeats: every month`, rent('monthly')],
    [`Monthly 1200 rent ${ANN}`, rent('monthly')],
    // Quoted, it is the description.
    [
      `1200 "monthly rent" ${ANN}`,
      expense({ cost: 120000, amountText: '1200', description: 'monthly rent' }),
    ],
    // "each" after the cost is still a price per person, and the repeat can follow.
    [
      `$7 each coffee ${ANN} each week`,
      expense({
        cost: 1400,
        currencySource: 'symbol',
        currencyToken: '$',
        amountText: '$7 each',
        each: 700,
        description: 'coffee',
        repeat: 'weekly',
      }),
    ],
    // "every" before anything but a period is a word of the description.
    [`40 every penny ${ANN}`, expense({ description: 'every penny' })],
    [
      `60 dinner paid by me 40 ${BOB} 20 monthly`,
      expense({
        cost: 6000,
        amountText: '60',
        description: 'dinner',
        participants: [ME, 'U0BOB'],
        payers: [
          { id: ME, amount: 4000 },
          { id: 'U0BOB', amount: 2000 },
        ],
        repeat: 'monthly',
      }),
    ],
  ]);

  errors([
    [
      `1200 rent ${ANN} repeat sometimes`,
      'After "repeat", say how often: weekly, fortnightly (every two weeks), monthly or yearly. To keep it in the description, put it in quotes.',
      REPEAT_EX,
    ],
    [
      `1200 rent ${ANN} repeat daily`,
      'Splitwise can repeat an expense weekly, fortnightly (every two weeks), monthly or yearly, not "daily".',
      REPEAT_EX,
    ],
    [
      `5 coffee ${ANN} every day`,
      'Splitwise can repeat an expense weekly, fortnightly (every two weeks), monthly or yearly, not "every day".',
      REPEAT_EX,
    ],
    [
      `300 insurance ${ANN} every 3 months`,
      'Splitwise can repeat an expense weekly, fortnightly (every two weeks), monthly or yearly, not "every 3 months".',
      REPEAT_EX,
    ],
    [
      `20 yoga ${ANN} every friday`,
      'Splitwise can repeat an expense weekly, fortnightly (every two weeks), monthly or yearly, not "every friday".',
      REPEAT_EX,
    ],
    [`1200 rent ${ANN} monthly weekly`, 'Give one repeat: monthly or weekly?', REPEAT_EX],
    [
      `300 insurance ${ANN} repeat quarterly`,
      'Splitwise can repeat an expense weekly, fortnightly (every two weeks), monthly or yearly, not "quarterly".',
      REPEAT_EX,
    ],
  ]);
});
