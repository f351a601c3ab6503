import { describe } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { ANN, BOB, errors, expense, table } from './helpers.js';

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
        description: '',
        participants: [ME, 'U0ANN', 'U0BOB'],
      }),
    ],
    [`split 30 among 2 ${ANN}`, expense({ cost: 3000, amountText: '30', description: '' })],
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
      '/split 3 coffees 45 USD <@U0ANN>',
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
