import { describe, expect, it } from 'vitest';
import { ANN, BOB, CHO, ctx, parse, type Readable } from './helpers.js';

describe('other subcommands', () => {
  const rows: Array<[string, Readable]> = [
    ['', { kind: 'open_modal' }],
    ['   ', { kind: 'open_modal' }],
    ['help', { kind: 'help', topic: null, asked: null }],
    ['h', { kind: 'help', topic: null, asked: null }],
    ['HELP', { kind: 'help', topic: null, asked: null }],
    ['ヘルプ', { kind: 'help', topic: null, asked: null }],
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
    [
      'list',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: null, to: null },
        words: [],
      },
    ],
    [
      'show history',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: null, to: null },
        words: [],
      },
    ],
    [
      'show yesterday',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: '2026-11-20', to: '2026-11-20' },
        words: [],
      },
    ],
    [
      `list ${ANN}`,
      {
        kind: 'list',
        mentions: ['U0ANN'],
        group: null,
        loose: null,
        range: { from: null, to: null },
        words: [],
      },
    ],
    [
      'list in Roommates',
      {
        kind: 'list',
        mentions: [],
        group: 'Roommates',
        loose: null,
        range: { from: null, to: null },
        words: [],
      },
    ],
    [
      'list from 2026-11-01 to 2026-11-20',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: '2026-11-01', to: '2026-11-20' },
        words: [],
      },
    ],
    [
      'list since Nov 1',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: '2026-11-01', to: null },
        words: [],
      },
    ],
    [
      'list until Nov 1',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: null, to: '2026-11-01' },
        words: [],
      },
    ],
    [
      'list yesterday',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: '2026-11-20', to: '2026-11-20' },
        words: [],
      },
    ],
    [
      'list this week',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: '2026-11-16', to: '2026-11-21' },
        words: [],
      },
    ],
    [
      'list this month',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: '2026-11-01', to: '2026-11-21' },
        words: [],
      },
    ],
    [
      'list last week',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: '2026-11-09', to: '2026-11-15' },
        words: [],
      },
    ],
    [
      'list last month',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: '2026-10-01', to: '2026-10-31' },
        words: [],
      },
    ],
    [
      'list last 7 days',
      {
        kind: 'list',
        mentions: [],
        group: null,
        loose: null,
        range: { from: '2026-11-15', to: '2026-11-21' },
        words: [],
      },
    ],
    [
      `list ${ANN} in Roommates from Nov 1 to Nov 20`,
      {
        kind: 'list',
        mentions: ['U0ANN'],
        group: 'Roommates',
        loose: null,
        range: { from: '2026-11-01', to: '2026-11-20' },
        words: [],
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
        message: 'The range starts (Fri, Nov 20, 2026) after it ends (Sun, Nov 1, 2026).',
        example: '/split list @ann in Roommates from 2026-11-01 to 2026-11-20',
      },
    ],
  ];
  for (const [text, expected] of rows) {
    it(JSON.stringify(text), () => expect(parse(text, ctx)).toEqual(expected));
  }
});
