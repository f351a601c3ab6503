import { describe } from 'vitest';
import { ANN, BOB, errors, expense, table } from './helpers.js';

const SHARES = '/split 40 lunch @ann 2x @bob 1x';
const PERCENT = '/split 40 lunch @ann 60% @bob 40%';
const DATE = '/split 40 lunch @ann on 2026-11-20';
const EXACT = '/split 40 lunch @ann 25 @bob 15';

describe('malformed shares are refused, never kept as description', () => {
  errors([
    [`40 lunch ${ANN} -1x`, 'Shares are whole numbers from 1 ("-1x" is not).', SHARES],
    [`40 lunch ${ANN}=-1x`, 'Shares are whole numbers from 1 ("=-1x" is not).', SHARES],
    [`40 lunch -1x ${ANN}`, 'Shares are whole numbers from 1 ("-1x" is not).', SHARES],
    [`40 lunch 0x ${ANN}`, 'Shares are whole numbers from 1 ("0x" is not).', SHARES],
    [`40 lunch ${ANN} x0`, 'Shares are whole numbers from 1 ("x0" is not).', SHARES],
    [`40 lunch ${ANN} 25 ${BOB} -1x`, 'Shares are whole numbers from 1 ("-1x" is not).', SHARES],
    [`40 lunch 2.5x ${ANN}`, 'Shares are whole numbers from 1 ("2.5x" is not).', SHARES],
    [`40 lunch in Trip -1x ${ANN}`, 'Shares are whole numbers from 1 ("-1x" is not).', SHARES],
  ]);
});

describe('shares with more than one x are refused by name, never kept as description', () => {
  const many = (typed: string) =>
    `I can't read "${typed}" as a share: write a whole number with one x, like 2x or x2.`;
  errors([
    [`40 lunch ${ANN} 2x3x`, many('2x3x'), SHARES],
    [`40 lunch ${ANN} x2x`, many('x2x'), SHARES],
    [`40 lunch ${ANN} 2xx`, many('2xx'), SHARES],
    [`40 lunch ${ANN} 2XX,`, many('2XX,'), SHARES],
    [`40 lunch ${ANN}=2x3x ${BOB} 1x`, many('=2x3x'), SHARES],
    [`40 lunch ${ANN} 2x ${BOB} 1x1x`, many('1x1x'), SHARES],
    [`40 lunch 2x3x ${ANN}`, many('2x3x'), SHARES],
    [`40 lunch in Trip 2x3x ${ANN}`, many('2x3x'), SHARES],
    [`40 lunch ${ANN} 1.5xx`, many('1.5xx'), SHARES],
    [`40 lunch ${ANN} 2×3×`, many('2×3×'), SHARES],
  ]);
});

describe('malformed percentages are refused, never kept as description', () => {
  errors([
    [`40 lunch ${ANN} 1e2%`, 'I can\'t read "1e2%" as a percentage.', PERCENT],
    [`40 lunch 1e2% ${ANN}`, 'I can\'t read "1e2%" as a percentage.', PERCENT],
    [`40 lunch ${ANN} 40%%`, 'I can\'t read "40%%" as a percentage.', PERCENT],
    [`40 lunch ${ANN} %40`, 'I can\'t read "%40" as a percentage.', PERCENT],
    [`40 lunch ${ANN} 40.%`, 'I can\'t read "40.%" as a percentage.', PERCENT],
    [`40 lunch ${ANN} -40%`, 'Percentages can\'t be negative ("-40%").', PERCENT],
    [
      `40 lunch ${ANN} %`,
      '"%" needs a number: put each percentage right after the person it belongs to.',
      PERCENT,
    ],
    [
      `40 lunch % ${ANN}`,
      '"%" needs a number: put each percentage right after the person it belongs to.',
      PERCENT,
    ],
    [
      `40 lunch 60 % ${ANN}`,
      'Whose is 60 %? Put each percentage right after the person it belongs to.',
      PERCENT,
    ],
    [
      `join 50%, ${ANN} 40`,
      'Whose is 50%? Put each percentage right after the person it belongs to.',
      PERCENT,
    ],
  ]);
});

describe('malformed amounts are refused, even beside a cost with a currency', () => {
  errors([
    [`40 lunch ${ANN} --3`, 'I can\'t read "--3" as an amount.'],
    [`40 lunch --3 ${ANN}`, 'I can\'t read "--3" as an amount.'],
    [`--3 lunch ${ANN}`, 'I can\'t read "--3" as an amount.'],
    [
      `40 lunch ${ANN} +5`,
      'I can\'t read "+5" as an amount: an amount has no sign, and items are added with a + between them (12.50+7.25).',
      '/split 12.50+7.25 lunch @ann',
    ],
    [`40 lunch ${ANN} 1.5.5`, 'I can\'t read "1.5.5" as an amount.', EXACT],
    [`40 lunch 1.5.5 ${ANN}`, 'I can\'t read "1.5.5" as an amount.'],
    [`€40 lunch 1.5.5 ${ANN}`, 'I can\'t read "1.5.5" as an amount.'],
    [`€40 lunch 12..5 ${ANN}`, 'I can\'t read "12..5" as an amount.'],
    [`€40 lunch -5 ${ANN}`, 'The amount can\'t be negative ("-5").'],
  ]);
});

describe('malformed dates are refused, never kept as description', () => {
  errors([
    [
      `40 lunch ${ANN} on 2026-1-1-1`,
      'I can\'t read "2026-1-1-1" as a date: write it as year-month-day.',
      DATE,
    ],
    [
      `40 lunch ${ANN} 2026.11.20`,
      'I can\'t read "2026.11.20" as a date: write it as year-month-day.',
      DATE,
    ],
    [
      `40 lunch ${ANN} 3/4/5/6`,
      'I can\'t read "3/4/5/6" as a date: write it as year-month-day.',
      DATE,
    ],
  ]);
});

describe('words with digits that are not malformed values stay in the description', () => {
  table([
    [`40 C++11 book ${ANN}`, expense({ description: 'C++11 book' })],
    [`40 coffee x3 ${ANN}`, expense({ description: 'coffee x3' })],
    [`40 plank 2x4 ${ANN}`, expense({ description: 'plank 2x4' })],
    [`40 screen 1920x1080 ${ANN}`, expense({ description: 'screen 1920x1080' })],
    [`40 box 2x3x4 ${ANN}`, expense({ description: 'box 2x3x4' })],
    [`40 xx large ${ANN}`, expense({ description: 'xx large' })],
    [`40 lunch ${ANN} 4pm`, expense({ description: 'lunch 4pm' })],
    [`40 rent 2026-11 ${ANN}`, expense({ description: 'rent 2026-11' })],
    [`40 lunch ${ANN} 24/7`, expense({ description: 'lunch 24/7' })],
    [`40 lunch ${ANN} 50/50`, expense({ description: 'lunch 50/50' })],
    [`40 lunch "1e2%" ${ANN}`, expense({ description: 'lunch 1e2%' })],
  ]);
});
