import { describe } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { ANN, BOB, ctx, errors, expense, table } from './helpers.js';

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
      'The parts add up to $45.00, more than the cost ($40.00).',
      '/split 40 lunch @ann 25 @bob 15',
    ],
    [
      `40 lunch except me ${ANN} 25 ${BOB} 10`,
      'The parts add up to $35.00, $5.00 short of the cost ($40.00): give the rest to someone.',
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
      "Is 40 the total or <@U0ANN>'s part? Put the total first: /split 40 lunch <@U0ANN> splits it, /split 40 lunch <@U0ANN> 40 gives it all to that person.",
      '/split 40 lunch <@U0ANN>',
    ],
    [
      `${ANN} paid ${BOB} $50`,
      "Is $50 the total or <@U0BOB>'s part? Put the total first: /split $50 lunch <@U0BOB> splits it, /split $50 lunch <@U0BOB> $50 gives it all to that person.",
      '/split $50 lunch <@U0BOB>',
    ],
    [
      `40 lunch ${ANN} 3 coffees`,
      'Which is the cost: 40 or 3? Write the currency with it.',
      '/split 40 USD lunch <@U0ANN> 3 coffees',
    ],
    [
      `40 lunch me 10`,
      'To give yourself a part, mention the others too.',
      '/split 40 lunch @ann 25 @bob 15',
      { ...ctx, channelHasGroup: true },
    ],
  ]);
});
