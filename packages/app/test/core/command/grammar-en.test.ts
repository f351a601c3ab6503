/**
 * The grammar's English words, read for every reader (here en-US): every word of lexicon/en.ts in
 * a row, and what the row parses to. The other test files of this folder hold the rules around
 * them; this one holds the words. Today is Saturday 2026-11-21.
 */
import { describe } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { grammarTables } from './grammar-tables.js';
import { ANN, BOB } from './helpers.js';

const ANN_ID = 'U0ANN';
const BOB_ID = 'U0BOB';
const en = grammarTables('en-US', 'en');
const lunch = (extra: string) => `40 lunch ${ANN} ${extra}`;

describe('English: days', () => {
  en.expenses([
    [lunch('today'), { date: '2026-11-21', description: 'lunch' }],
    [lunch('tonight'), { date: '2026-11-21', description: 'lunch' }],
    [lunch('now'), { date: '2026-11-21', description: 'lunch' }],
    [lunch('yesterday'), { date: '2026-11-20', description: 'lunch' }],
    [lunch('on sunday'), { date: '2026-11-15', description: 'lunch' }],
    [lunch('on sun'), { date: '2026-11-15' }],
    [lunch('on monday'), { date: '2026-11-16' }],
    [lunch('on mon'), { date: '2026-11-16' }],
    [lunch('on tuesday'), { date: '2026-11-17' }],
    [lunch('on tue'), { date: '2026-11-17' }],
    [lunch('on tues'), { date: '2026-11-17' }],
    [lunch('on wednesday'), { date: '2026-11-18' }],
    [lunch('on wed'), { date: '2026-11-18' }],
    [lunch('on thursday'), { date: '2026-11-19' }],
    [lunch('on thu'), { date: '2026-11-19' }],
    [lunch('on thurs'), { date: '2026-11-19' }],
    [lunch('on friday'), { date: '2026-11-20' }],
    [lunch('on fri'), { date: '2026-11-20' }],
    [lunch('on saturday'), { date: '2026-11-21' }],
    [lunch('last sat'), { date: '2026-11-14', description: 'lunch' }],
    [lunch('dated 2026-11-03'), { date: '2026-11-03', description: 'lunch' }],
    [lunch('on 11/3'), { date: '2026-11-03', description: 'lunch' }],
    [lunch('January 3'), { date: '2026-01-03', description: 'lunch' }],
    [lunch('Jan 3'), { date: '2026-01-03' }],
    [lunch('February 3'), { date: '2026-02-03' }],
    [lunch('Feb 3'), { date: '2026-02-03' }],
    [lunch('March 3'), { date: '2026-03-03' }],
    [lunch('Mar 3'), { date: '2026-03-03' }],
    [lunch('April 3'), { date: '2026-04-03' }],
    [lunch('Apr 3'), { date: '2026-04-03' }],
    [lunch('May 3'), { date: '2026-05-03' }],
    [lunch('June 3'), { date: '2026-06-03' }],
    [lunch('Jun 3'), { date: '2026-06-03' }],
    [lunch('July 3'), { date: '2026-07-03' }],
    [lunch('Jul 3'), { date: '2026-07-03' }],
    [lunch('August 3'), { date: '2026-08-03' }],
    [lunch('Aug 3'), { date: '2026-08-03' }],
    [lunch('September 3'), { date: '2026-09-03' }],
    [lunch('Sep 3'), { date: '2026-09-03' }],
    [lunch('Sept 3'), { date: '2026-09-03' }],
    [lunch('October 3'), { date: '2026-10-03' }],
    [lunch('Oct 3'), { date: '2026-10-03' }],
    [lunch('3rd of November'), { date: '2026-11-03', description: 'lunch' }],
    [lunch('Nov 3'), { date: '2026-11-03' }],
    [lunch('December 3'), { date: '2025-12-03' }],
    [lunch('Dec 3'), { date: '2025-12-03' }],
  ]);
});

describe('English: repeats', () => {
  en.expenses([
    [lunch('weekly'), { repeat: 'weekly', description: 'lunch' }],
    [lunch('every week'), { repeat: 'weekly' }],
    [lunch('fortnightly'), { repeat: 'fortnightly' }],
    [lunch('every two weeks'), { repeat: 'fortnightly' }],
    [lunch('every 2 weeks'), { repeat: 'fortnightly' }],
    [lunch('every other week'), { repeat: 'fortnightly' }],
    [lunch('each fortnight'), { repeat: 'fortnightly' }],
    [lunch('monthly'), { repeat: 'monthly' }],
    [lunch('every month'), { repeat: 'monthly' }],
    [lunch('per month'), { repeat: 'monthly' }],
    [lunch('yearly'), { repeat: 'yearly' }],
    [lunch('annually'), { repeat: 'yearly' }],
    [lunch('every year'), { repeat: 'yearly' }],
  ]);
  en.refusals([
    [lunch('every day'), 'repeat_unsupported'],
    [lunch('every 3 days'), 'repeat_unsupported'],
    [lunch('repeat daily'), 'repeat_unsupported'],
    [lunch('every night'), 'repeat_unsupported'],
    [lunch('every weekday'), 'repeat_unsupported'],
    [lunch('every weekend'), 'repeat_unsupported'],
    [lunch('every hour'), 'repeat_unsupported'],
    [lunch('repeat hourly'), 'repeat_unsupported'],
    [lunch('every quarter'), 'repeat_unsupported'],
    [lunch('repeat quarterly'), 'repeat_unsupported'],
    [lunch('every semester'), 'repeat_unsupported'],
    [lunch('repeat biweekly'), 'repeat_unsupported'],
    [lunch('repeat bimonthly'), 'repeat_unsupported'],
    [lunch('every three weeks'), 'repeat_unsupported'],
    [lunch('every four months'), 'repeat_unsupported'],
    [lunch('every six years'), 'repeat_unsupported'],
    [lunch('every monday'), 'repeat_unsupported'],
    [lunch('every tuesday'), 'repeat_unsupported'],
    [lunch('every wednesday'), 'repeat_unsupported'],
    [lunch('every thursday'), 'repeat_unsupported'],
    [lunch('every friday'), 'repeat_unsupported'],
    [lunch('every saturday'), 'repeat_unsupported'],
    [lunch('every sunday'), 'repeat_unsupported'],
  ]);
});

describe('English: me, who paid and who shares', () => {
  en.expenses([
    [`40 lunch ${ANN} and me`, { participants: [ANN_ID, ME], description: 'lunch' }],
    [
      `40 lunch ${ANN} myself 10`,
      { split: { kind: 'exact', amounts: [{ id: ME, amount: 1000 }] } },
    ],
    [`40 lunch ${ANN} self`, { participants: [ANN_ID, ME] }],
    [`40 lunch ${ANN} @me`, { participants: [ANN_ID, ME] }],
    ...[
      'except me',
      'not me',
      'without me',
      'excluding me',
      'minus me',
      'but me',
      'except myself',
      'not myself',
      'without myself',
      'excluding myself',
      'minus myself',
      'but myself',
    ].map((words): [string, { participants: string[]; description: string }] => [
      lunch(words),
      { participants: [ANN_ID], description: 'lunch' },
    ]),
    [lunch(`paid by ${BOB}`), { payer: BOB_ID, description: 'lunch' }],
    [lunch(`payed by ${BOB}`), { payer: BOB_ID }],
    [`paid by me 40 ${BOB}`, { payer: ME, participants: [ME, BOB_ID] }],
    [`i paid 400, ${BOB} paid 200 hotel`, { cost: 60000, description: 'hotel' }],
    ...['each', 'pp', 'a-head', 'apiece', '/person', 'per', 'per person', 'per head'].map(
      (words): [string, { each: number; description: string }] => [
        `7 ${words} coffee ${ANN} ${BOB}`,
        { each: 700, description: 'coffee' },
      ],
    ),
    // Connecting words next to people go with them.
    ...[
      'and',
      '&',
      '+',
      ',',
      'with',
      'between',
      'among',
      'amongst',
      'for',
      'to',
      'by',
      'from',
      '-',
      '–',
      '—',
      ':',
      '=',
      'split',
      'equally',
      'evenly',
      'in',
      'on',
      '.',
      ';',
      '!',
      '?',
      '/',
    ].map((word): [string, { description: string }] => [
      `40 lunch ${word} ${ANN}`,
      { description: 'lunch' },
    ]),
    ...['i', 'spent', 'split', 'add', 'note'].map((word): [string, { description: string }] => [
      `${word} 40 lunch ${ANN}`,
      { description: 'lunch' },
    ]),
    [`paid 40 lunch ${ANN}`, { description: 'lunch' }],
    [
      `60 dinner paid by me 40 and ${BOB} 20`,
      {
        payers: [
          { id: ME, amount: 4000 },
          { id: BOB_ID, amount: 2000 },
        ],
      },
    ],
    [`80 dinner ${ANN} tip 10%`, { cost: 8800 }],
    [`80 dinner ${ANN} gratuity 10%`, { cost: 8800 }],
    [`80 dinner ${ANN} +tip 10`, { cost: 9000 }],
    [`80 dinner ${ANN} service 10%`, { cost: 8800 }],
    [`80 dinner ${ANN} tax 5%`, { cost: 8400 }],
    [`80 dinner ${ANN} vat 20%`, { cost: 9600 }],
    [`80 dinner ${ANN} gst 5%`, { cost: 8400 }],
  ]);
});

describe('English: commands', () => {
  en.results([
    ...['balance', 'balances', 'status', 'debts'].map((w): [string, { kind: string }] => [
      w,
      { kind: 'balance' },
    ]),
    ...['list', 'history', 'expenses', 'recent'].map((w): [string, { kind: string }] => [
      w,
      { kind: 'list' },
    ]),
    ['list this week', { range: { from: '2026-11-16', to: '2026-11-21' } }],
    ['list last week', { range: { from: '2026-11-09', to: '2026-11-15' } }],
    ['list this month', { range: { from: '2026-11-01', to: '2026-11-21' } }],
    ['list last month', { range: { from: '2026-10-01', to: '2026-10-31' } }],
    ['list from 2026-11-01 to 2026-11-10', { range: { from: '2026-11-01', to: '2026-11-10' } }],
    ['list since Nov 1 until Nov 10', { range: { from: '2026-11-01', to: '2026-11-10' } }],
    ['list after Nov 1 till Nov 10', { range: { from: '2026-11-01', to: '2026-11-10' } }],
    ['list before Nov 10', { range: { from: null, to: '2026-11-10' } }],
    ['list in Roommates about taxi', { group: 'Roommates', words: ['taxi'] }],
    ['list group Roommates matching taxi', { group: 'Roommates', words: ['taxi'] }],
    ['list containing taxi', { words: ['taxi'] }],
    ['export', { kind: 'export' }],
    ['csv', { kind: 'export' }],
    [`remind ${ANN}`, { kind: 'remind', mention: ANN_ID }],
    [`nudge ${ANN} to pay me`, { kind: 'remind', mention: ANN_ID }],
    ...['help', 'h', '?', 'commands'].map((w): [string, { kind: string }] => [w, { kind: 'help' }]),
    ...(
      [
        ['payers', 'payers'],
        ['shares', 'shares'],
        ['list', 'list'],
        ['groups', 'groups'],
        ['reminders', 'reminders'],
        ['recurring', 'recurring'],
        ['itemise', 'itemise'],
        ['export', 'export'],
        ['feed', 'feed'],
        ['account', 'account'],
      ] as const
    ).map(([word, topic]): [string, { topic: string }] => [`help ${word}`, { topic }]),
    [`paid ${ANN} 15`, { kind: 'paid', payment: { direction: 'to' } }],
    [`i payed ${ANN} back 15`, { kind: 'paid', payment: { direction: 'to' } }],
    [`repaid 15 to ${ANN}`, { kind: 'paid', payment: { direction: 'to' } }],
    [`received 15 from ${ANN}`, { kind: 'paid', payment: { direction: 'from' } }],
    [`got 15 back from ${ANN}`, { kind: 'paid', payment: { direction: 'from' } }],
  ]);
  en.splitThis(['split this', 'Split it!']);
});

describe('English: outside groups', () => {
  en.expenses([
    [
      lunch('no group'),
      { noGroup: true, group: null, participants: [ME, ANN_ID], description: 'lunch' },
    ],
    [
      lunch('without a group'),
      { noGroup: true, group: null, participants: [ME, ANN_ID], description: 'lunch' },
    ],
    [
      lunch('outside groups'),
      { noGroup: true, group: null, participants: [ME, ANN_ID], description: 'lunch' },
    ],
  ]);
});

en.coversLexicon();
