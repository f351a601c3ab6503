/**
 * The forms of docs/split-syntax.md as data, for `/split help` (every example is tested to parse
 * as described).
 */
import type { HelpSection } from './types.js';

export const HELP_SECTIONS: readonly HelpSection[] = [
  {
    title: 'Book an expense',
    lines: [
      {
        example: '/split 40 lunch @ann',
        means: 'I paid 40 (my default currency); Ann and I share it equally',
      },
      {
        example: '/split €12,50 taxi @ann @bob',
        means: 'a currency symbol or code, before or after; decimal comma or point',
      },
      { example: '/split 40 lunch @ann paid by @bob', means: 'Bob paid; Ann, Bob and I share it' },
      {
        example: '/split 60 dinner @ann paid by me 40 @bob 20',
        means: 'several payers, each with what they paid (also `I paid 40, @bob paid 20`)',
      },
      {
        example: '/split 60 dinner paid by me 40 @bob 20 @ann',
        means:
          'Ann, after the last amount, shares it and pays nothing; someone between payers without an amount (`paid by me 40 @bob @cho 20`) is asked about',
      },
      {
        example: '/split 1200 rent @ann monthly',
        means: 'repeats: weekly, fortnightly, monthly or yearly (also `every month`)',
      },
      {
        example: '/split 40 lunch @ann except me',
        means: 'I paid, but only Ann owes (also: `only @ann`)',
      },
      {
        example: '/split 40 lunch @ann yesterday',
        means: 'a date: yesterday, on 2026-11-20, Nov 3, last friday',
      },
      {
        example: '/split 40 lunch in Roommates',
        means: 'in a group; naming nobody means the whole group',
      },
      {
        example: '/split $7 each coffee @ann @bob',
        means: 'a price per person: the cost is 7 times the people',
      },
      { example: '/split', means: 'open the form with every option' },
    ],
  },
  {
    title: 'Split unequally',
    lines: [
      {
        example: '/split 40 lunch @ann 25 @bob 15',
        means: 'exact amounts; people without one share the rest',
      },
      {
        example: '/split 40 lunch @ann 60% @bob 40%',
        means: 'percentages; those without one share what is left of 100%',
      },
      {
        example: '/split 40 lunch @ann 2x @bob 1x',
        means: 'shares (also `2 shares`); those without one have 1 share',
      },
    ],
  },
  {
    title: 'Itemised bills',
    lines: [
      {
        example: '/split 12.50+7.25 lunch @ann',
        means: 'add items with + (also in a part: `@ann 12+3.50`); no minus, no sign',
      },
      {
        example: '/split 80 dinner @ann 30 @bob 25 +tip 15% +tax 8%',
        means: 'tip and tax on the 80 before them, spread in proportion to each part',
      },
      {
        example: '/split 60 dinner @ann +tip 10',
        means: 'a tip as an amount (also `tip 15%`, `+vat 20%`); the form has Itemise too',
      },
    ],
  },
  {
    title: 'Look back',
    lines: [
      { example: '/split balance', means: 'what I owe and am owed, per currency' },
      { example: '/split balance @ann', means: 'with one person' },
      { example: '/split balance Roommates', means: 'in one group' },
      { example: '/split list @ann in Roommates last week', means: 'recent expenses, filtered' },
      {
        example: '/split list about taxi since 2026-10-01',
        means: 'expenses whose description has these words (or a "quoted phrase")',
      },
      {
        example: '/split export in Roommates',
        means: 'the same filters, as a CSV file sent to me in a DM',
      },
      { example: '/split undo', means: 'delete my last expense booked from Slack' },
    ],
  },
  {
    title: 'Pay back and remind',
    lines: [
      {
        example: '/split paid @ann 15',
        means: 'I paid Ann 15 of what I owe her (also `paid 15 to @ann`, `paid @ann €15`)',
      },
      { example: '/split @ann paid me 15', means: 'Ann paid me 15 of what she owes me' },
      {
        example: '/split remind @ann',
        means: 'DM Ann what she owes me (once a day; she can turn reminders off)',
      },
    ],
  },
  {
    title: 'Groups',
    lines: [
      { example: '/split groups', means: 'my groups' },
      { example: '/split group create Roommates @ann @bob', means: 'a new group' },
      { example: '/split group add @cho Roommates', means: 'add people to a group' },
      {
        example: '/split group use Roommates',
        means: 'book expenses in this channel into the group',
      },
      { example: '/split group delete Roommates', means: 'delete a group (after a confirmation)' },
      {
        example: '/split group default Roommates me 60% @ann 40%',
        means: 'a default split (percentages or shares), used when a /split there names nobody',
      },
      { example: '/split group default Roommates', means: 'show the default (`clear` removes it)' },
      {
        example: '/split feed on',
        means: "post the channel's group's activity here, made anywhere (`feed off` stops it)",
      },
    ],
  },
  {
    title: 'Account',
    lines: [
      { example: '/split connect', means: 'link my account' },
      { example: '/split whoami', means: 'which account is linked' },
      { example: '/split disconnect', means: 'unlink it and remove what the app keeps about you' },
    ],
  },
];
