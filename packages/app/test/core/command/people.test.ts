import { describe, expect, it } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { ANN, BOB, CHO, ctx, errors, expense, parse, table } from './helpers.js';

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
    expect(parse('40 lunch', { ...ctx, channelHasGroup: true })).toEqual(
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
    ['remind', 'Who should I remind? Mention them with @.', '/split remind @ann'],
    [
      '40 lunch "Firstname Lastname"',
      'Who shared it? Mention them with @ (type @ and pick from the list).',
    ],
    [`40 lunch me ${ANN} except me`, 'You wrote both "me" and "except me": which is it?'],
    [
      `I owe ${ANN} 12.34`,
      'I book shared expenses and payments, not debts. To record a payment, type /split paid @someone 15 (or /split @someone paid me 15); Settle up in `/split balance` pays a whole balance.',
      '/split paid @ann 15',
    ],
    [
      `I borrowed 20 from ${ANN}`,
      'I book shared expenses and payments, not debts. To record a payment, type /split paid @someone 15 (or /split @someone paid me 15); Settle up in `/split balance` pays a whole balance.',
      '/split paid @ann 15',
    ],
    [
      `settle ${ANN} 25`,
      'I book shared expenses and payments, not debts. To record a payment, type /split paid @someone 15 (or /split @someone paid me 15); Settle up in `/split balance` pays a whole balance.',
      '/split paid @ann 15',
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
      '40 lunch paid by yonatan',
      'Who paid? After "paid by", mention the person with @.',
      '/split 40 lunch @ann paid by @bob',
    ],
  ]);
});
