import { describe } from 'vitest';
import { ANN, ctx, errors, expense, table } from './helpers.js';

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
      'Fri, Dec 25, 2026 is in the future: an expense needs a past date.',
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
      'Fri, Jan 1, 1999 is too long ago: write a date from 2000 on.',
      '/split 40 lunch @ann on 2026-11-20',
    ],
    [
      `40 lunch ${ANN} yesterday on Nov 3`,
      'I found two dates: give one.',
      '/split 40 lunch @ann on 2026-11-20',
    ],
  ]);
});
