/**
 * `/split balance` end to end: balances booked on the emulator in three currencies and a group,
 * read back through signed commands, checked against figures worked out by hand; then Settle up:
 * the confirm dialog, one payment in the emulator for the exact amount, the message replaced with
 * the new balance, and a double click that records one payment.
 */

import { control } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src/core/money.js';
import {
  ask,
  book,
  button,
  click,
  current,
  elements,
  eventually,
  payments,
  serviceFor,
  textOf,
} from '../../support/balance-support.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let cho: LinkedPerson;
let tripId: number;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({
    slackId: 'U0ANN',
    first_name: 'Ann',
    last_name: 'Lee',
    default_currency: 'EUR',
  });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
  cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho', last_name: 'Kim' });
  const trip = await serviceFor(h, ann).createGroup({
    name: 'Trip',
    simplify_by_default: true,
    users: [
      { email: bob.email, first_name: 'Bob' },
      { email: cho.email, first_name: 'Cho' },
    ],
  });
  tripId = trip.group?.id ?? 0;
  // By hand, from Ann's side:
  //   EUR: Bob owes her 20 (non-group); she owes Cho 30 (Trip: 90 / 3).
  //   USD: she owes Bob 15.   JPY: Cho owes her 500.
  //   Trip (simplified): Ann -> Cho 30, Bob -> Cho 30.
  await book(h, ann, {
    cost: '40',
    currency: 'EUR',
    shares: [
      { who: ann, owed: '20' },
      { who: bob, owed: '20' },
    ],
  });
  await book(h, bob, {
    cost: '30',
    currency: 'USD',
    shares: [
      { who: bob, owed: '15' },
      { who: ann, owed: '15' },
    ],
  });
  await book(h, cho, {
    cost: '90',
    currency: 'EUR',
    group_id: tripId,
    shares: [
      { who: cho, owed: '30' },
      { who: ann, owed: '30' },
      { who: bob, owed: '30' },
    ],
  });
  await book(h, ann, {
    cost: '1000',
    currency: 'JPY',
    shares: [
      { who: ann, owed: '500' },
      { who: cho, owed: '500' },
    ],
  });
});
afterAll(() => h?.close());

describe('/split balance', () => {
  it('shows every currency, each friend and each group, with Settle up per debt', async () => {
    const message = await ask(h, 'balance');
    expect(message.ephemeralFor).toBe('U0ANN');
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    const text = textOf(message);
    // The default currency (EUR) first, then the others by code.
    expect(text).toContain(
      '• *EUR*: you are owed *€20.00* and you owe *€30.00* (overall you owe €10.00)',
    );
    expect(text).toContain('• *JPY*: you are owed *¥500*');
    expect(text).toContain('• *USD*: you owe *$15.00*');
    expect(text).toContain('*Trip*: you owe €30.00');
    const rows = elements(message.blocks)
      .filter((e) => e.action_id === 'balance_settle_up')
      .map((e) => e.blockText);
    expect(rows).toEqual([
      'You owe *Cho Kim* *€30.00*',
      'You owe *Bob Ray* *$15.00*',
      '*Bob Ray* owes you *€20.00*',
      '*Cho Kim* owes you *¥500*',
    ]);
    // Everything that records or sends asks first; "Pay part…" only opens its form.
    for (const e of elements(message.blocks).filter((e) => e.action_id !== 'balance_settle_part'))
      expect(e.confirm).toBeDefined();
  });

  it('filters to one currency', async () => {
    const text = textOf(await ask(h, 'balances in USD'));
    expect(text).toContain('Your balances in USD');
    expect(text).toContain('you owe *$15.00*');
    expect(text).not.toContain('€');
    expect(text).not.toContain('¥');
  });

  it('shows one person, per currency and where it comes from', async () => {
    const message = await ask(h, 'balance <@U0CHO|cho>');
    const text = textOf(message);
    expect(text).toContain('You and Cho Kim');
    expect(text).toContain('You owe *Cho Kim* *€30.00*');
    expect(text).toContain('*Cho Kim* owes you *¥500*');
    expect(text).toContain('*Trip*: you owe €30.00');
    expect(text).toContain('*Outside groups*: owes you ¥500');
  });

  it('shows one group with its simplified debts, mine with a button', async () => {
    const message = await ask(h, 'balance trip');
    const text = textOf(message);
    expect(text).toContain('In *Trip*, you owe €30.00.');
    expect(text).toContain('simplifies');
    expect(text).toContain('*Bob Ray* owes *Cho Kim* *€30.00*');
    const buttons = elements(message.blocks).filter((e) => e.action_id === 'balance_settle_up');
    expect(buttons.map((b) => b.blockText)).toEqual(['You owe *Cho Kim* *€30.00*']);
  });

  it('says which groups exist when the name matches none', async () => {
    const text = textOf(await ask(h, 'balance Holidays'));
    expect(text).toContain('You have no group called "Holidays". Your groups: "Trip".');
  });

  it('asks an unconnected person to connect, keeping the command', async () => {
    h.addSlackUser({ slackId: 'U0NEW', first_name: 'Nia', email: 'nia@example.com' });
    const text = textOf(await ask(h, 'balance', 'U0NEW'));
    expect(text).toContain('connect your Splitwise account first');
    expect(text).toContain('/split balance');
  });
});

describe('Settle up', () => {
  it('records exactly what is owed, group by group, and updates the message to settled', async () => {
    const message = await ask(h, 'balance');
    const settle = button(message.blocks, 'balance_settle_up', 'Cho Kim* *€30.00');
    const before = (await payments(h, ann)).length;
    const { answer } = await click(h, message, settle);
    const posted = await answer();
    expect(posted.body.replace_original).toBe(true);
    const after = await payments(h, ann);
    expect(after).toHaveLength(before + 1);
    const payment = after.find((p) => p.currency_code === 'EUR')!;
    expect(payment.group_id).toBe(tripId);
    expect(Number(payment.cost)).toBe(30);
    const paid = Object.fromEntries(payment.users.map((u) => [u.user_id, u.paid_share]));
    expect(Number(paid[ann.serviceId])).toBe(30);
    expect(Number(paid[cho.serviceId])).toBe(0);
    // The message now shows the new balance: no EUR debt to Cho any more.
    const updated = current(h, message);
    const text = textOf(updated);
    expect(text).toContain('Recorded: you paid Cho Kim €30.00.');
    expect(text).toContain('• *EUR*: you are owed *€20.00*');
    expect(text).not.toContain('you owe *€30.00*');
    expect(blockKitErrors(updated.blocks, 'message')).toEqual([]);
    const friends = await serviceFor(h, ann).getFriends();
    expect(friends.find((f) => f.id === cho.serviceId)?.balance).toEqual([
      { currency_code: 'JPY', amount: '500.0' },
    ]);
  });

  it("answers in the person's Slack locale, the button's answer as the command's", async () => {
    const dee = await h.link({
      slackId: 'U0DEE',
      first_name: 'Dee',
      last_name: 'Berg',
      locale: 'de-DE',
    });
    await book(h, ann, {
      cost: '24',
      currency: 'EUR',
      shares: [
        { who: ann, owed: '12' },
        { who: dee, owed: '12' },
      ],
    });
    const message = await ask(h, 'balance', 'U0DEE');
    const amount = formatMoney(1200, 'EUR', 'de-DE');
    expect(amount).not.toBe('€12.00');
    expect(textOf(message)).toContain('Deine Salden');
    expect(textOf(message)).toContain(`Du schuldest *Ann Lee* *${amount}*`);
    const settle = button(message.blocks, 'balance_settle_up', amount);
    expect(settle.text?.text).toBe('Ausgleichen');
    await (await click(h, message, settle, 'U0DEE')).answer();
    const after = textOf(current(h, message));
    expect(after).toContain(`✅ Erfasst: Du hast Ann Lee ${amount} gezahlt.`);
    expect(after).toContain('Alles ausgeglichen');
  });

  it('records one payment when the button is clicked twice at once', async () => {
    const message = await ask(h, 'balance <@U0BOB>');
    const settle = button(message.blocks, 'balance_settle_up', '$15.00');
    const before = (await payments(h, ann)).length;
    const [first, second] = await Promise.all([
      click(h, message, settle),
      click(h, message, settle),
    ]);
    await Promise.race([first.answer(), second.answer()]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await payments(h, ann);
    expect(after.length - before).toBe(1);
    expect(Number(after.find((p) => p.currency_code === 'USD')?.cost)).toBe(15);
    const friends = await serviceFor(h, ann).getFriends();
    expect(friends.find((f) => f.id === bob.serviceId)?.balance).toEqual([
      { currency_code: 'EUR', amount: '20.0' },
    ]);
  });

  it('records nothing when the balance moved since the button was drawn', async () => {
    const message = await ask(h, 'balance <@U0BOB>');
    const settle = button(message.blocks, 'balance_settle_up', '€20.00');
    await book(h, bob, {
      cost: '10',
      currency: 'EUR',
      shares: [
        { who: bob, owed: '5' },
        { who: ann, owed: '5' },
      ],
    });
    const before = (await payments(h, ann)).length;
    await (await click(h, message, settle)).answer();
    expect(await payments(h, ann)).toHaveLength(before);
    await eventually(() => {
      const text = textOf(current(h, message));
      expect(text).toContain('Nothing was recorded: the balance changed');
      expect(text).toContain('*Bob Ray* owes you *€15.00*');
    });
  });

  it('settles a group debt from the group view', async () => {
    await book(h, bob, {
      cost: '60',
      currency: 'EUR',
      group_id: tripId,
      shares: [
        { who: bob, owed: '20' },
        { who: ann, owed: '20' },
        { who: cho, owed: '20' },
      ],
    });
    const message = await ask(h, 'balance Trip');
    // By hand: Trip nets are Ann -20 (-30 +30 paid -20), Bob +10 (-30 +40), Cho +10 (+60 -30 -20);
    // simplified, Ann pays Bob 10 and Cho 10.
    expect(textOf(message)).toContain('In *Trip*, you owe €20.00.');
    const rows = elements(message.blocks)
      .filter((e) => e.action_id === 'balance_settle_up')
      .map((e) => e.blockText);
    expect(rows).toEqual(['You owe *Bob Ray* *€10.00*', 'You owe *Cho Kim* *€10.00*']);
    await (
      await click(h, message, button(message.blocks, 'balance_settle_up', 'Bob Ray'))
    ).answer();
    const half = current(h, message);
    expect(textOf(half)).toContain('Recorded: you paid Bob Ray €10.00.');
    expect(textOf(half)).toContain('In *Trip*, you owe €10.00.');
    await (await click(h, half, button(half.blocks, 'balance_settle_up', 'Cho Kim'))).answer();
    const done = textOf(current(h, message));
    expect(done).toContain('Recorded: you paid Cho Kim €10.00.');
    expect(done).toContain('You are settled up in *Trip*');
    const group = await serviceFor(h, ann).getGroup(tripId);
    const mine = group.members.find((m) => m.id === ann.serviceId)?.balance ?? [];
    expect(mine.every((b) => Number(b.amount) === 0)).toBe(true);
  });
});

describe('a revoked link', () => {
  it('is removed when Settle up meets a 401, and the person is asked to connect again', async () => {
    const dee = await h.link({ slackId: 'U0DEE', first_name: 'Dee' });
    await book(h, dee, {
      cost: '10',
      currency: 'EUR',
      shares: [
        { who: dee, owed: '5' },
        { who: ann, owed: '5' },
      ],
    });
    const message = await ask(h, 'balance', 'U0DEE');
    await control(h.emu.url, 'POST', 'tokens/revoke', { access_token: dee.accessToken });
    const settle = button(message.blocks, 'balance_settle_up', 'Ann Lee');
    const { answer } = await click(h, message, settle, 'U0DEE');
    const posted = await answer();
    // Dee's Slack speaks German (an earlier test gave her de-DE).
    expect(textOf(posted.body)).toContain(
      'Die Verbindung zu deinem Splitwise-Konto funktioniert nicht mehr',
    );
    expect(JSON.stringify(posted.body.blocks)).toContain('account_connect');
    expect(await h.app.deps.tokens.get({ team_id: 'T0001', user_id: 'U0DEE' })).toBeUndefined();
  });

  it('is removed when /split balance meets a 401, keeping the command for afterwards', async () => {
    const eve = await h.link({ slackId: 'U0EVE', first_name: 'Eve' });
    await control(h.emu.url, 'POST', 'tokens/revoke', { access_token: eve.accessToken });
    const text = textOf(await ask(h, 'balance', 'U0EVE'));
    expect(text).toContain('stopped working');
    expect(text).toContain('/split balance');
    expect(await h.app.deps.tokens.get({ team_id: 'T0001', user_id: 'U0EVE' })).toBeUndefined();
  });
});
