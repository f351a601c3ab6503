/**
 * `/split paid` end to end: a payment of part of a balance recorded on the emulator and read
 * back (the balance moves by exactly the amount, in the right currency and group), refusals that
 * leave the ledger untouched, and a command delivered twice that pays once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  book,
  eventually,
  payments,
  serviceFor,
  textOf,
} from '../../support/balance-support.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let cho: LinkedPerson;
let dee: LinkedPerson;
let tripId: number;

/** What `of` owes `to` (minor units, cents), per the service, from `to`'s account. */
async function owes(of: LinkedPerson, to: LinkedPerson, currency: string): Promise<number> {
  const friend = await serviceFor(h, to).getFriend(of.serviceId);
  return friend.balance
    .filter((b) => b.currency_code === currency)
    .reduce((sum, b) => sum + Math.round(Number(b.amount) * 100), 0);
}

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
  cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho', last_name: 'Kim' });
  dee = await h.link({ slackId: 'U0DEE', first_name: 'Dee', last_name: 'Berg' });
  // Ann owes Bob €20 outside groups.
  await book(h, bob, {
    cost: '40',
    currency: 'EUR',
    shares: [
      { who: bob, owed: '20' },
      { who: ann, owed: '20' },
    ],
  });
  // Ann owes Cho $30 in USD only (Ann's default is EUR).
  await book(h, cho, {
    cost: '60',
    currency: 'USD',
    shares: [
      { who: cho, owed: '30' },
      { who: ann, owed: '30' },
    ],
  });
  // Dee owes Ann £8 and $4 (two currencies, neither Ann's default); and €50 in the Trip group.
  await book(h, ann, {
    cost: '16',
    currency: 'GBP',
    shares: [
      { who: ann, owed: '8' },
      { who: dee, owed: '8' },
    ],
  });
  await book(h, ann, {
    cost: '8',
    currency: 'USD',
    shares: [
      { who: ann, owed: '4' },
      { who: dee, owed: '4' },
    ],
  });
  const trip = await serviceFor(h, ann).createGroup({
    name: 'Trip',
    users: [{ email: dee.email, first_name: 'Dee' }],
  });
  tripId = trip.group?.id ?? 0;
  await book(h, ann, {
    cost: '100',
    currency: 'EUR',
    group_id: tripId,
    shares: [
      { who: ann, owed: '50' },
      { who: dee, owed: '50' },
    ],
  });
});
afterAll(() => h?.close());

describe('/split paid', () => {
  it('records part of what I owe, in the balance currency, and reads back 15 less', async () => {
    expect(await owes(ann, bob, 'EUR')).toBe(2000);
    const before = (await payments(h, ann)).length;
    const text = textOf(await ask(h, 'paid <@U0BOB|bob> 15'));
    expect(text).toContain('Recorded: you paid Bob Ray €15.00. You still owe Bob Ray €5.00.');
    expect(await owes(ann, bob, 'EUR')).toBe(500);
    const all = await payments(h, ann);
    expect(all).toHaveLength(before + 1);
    const payment = all.find((p) => !all.slice(0, before).includes(p)) ?? all[0]!;
    expect(payment.payment).toBe(true);
    expect(payment.currency_code).toBe('EUR');
    expect(Number(payment.cost)).toBe(15);
    const paid = new Map(payment.users.map((u) => [u.user_id, Number(u.paid_share)]));
    expect(paid.get(ann.serviceId)).toBe(15);
    expect(paid.get(bob.serviceId)).toBe(0);
  });

  it('refuses a payment larger than what is owed, recording nothing', async () => {
    const before = (await payments(h, ann)).length;
    const text = textOf(await ask(h, 'paid 6 to <@U0BOB|bob>'));
    expect(text).toContain(
      'You owe Bob Ray €5.00: a payment of €6.00 would leave them owing you. Pay at most €5.00. Nothing was recorded.',
    );
    expect(text).toContain('/split paid @someone 15');
    expect((await payments(h, ann)).length).toBe(before);
    expect(await owes(ann, bob, 'EUR')).toBe(500);
  });

  it('takes the only currency owed when none is typed, not the default', async () => {
    const text = textOf(await ask(h, 'I paid <@U0CHO|cho> 12.50'));
    expect(text).toContain('Recorded: you paid Cho Kim $12.50. You still owe Cho Kim $17.50.');
    expect(await owes(ann, cho, 'USD')).toBe(1750);
  });

  it('records a payment to me, in the group whose debt covers it', async () => {
    const text = textOf(await ask(h, '<@U0DEE|dee> paid me €20'));
    expect(text).toContain(
      'Recorded: Dee Berg paid you €20.00 in Trip. Dee Berg still owes you €30.00.',
    );
    const group = await serviceFor(h, ann).getGroup(tripId);
    const mine = group.members?.find((m) => m.id === ann.serviceId);
    expect(mine?.balance).toEqual([{ currency_code: 'EUR', amount: '30.0' }]);
  });

  it('takes my default currency when it is among several owed', async () => {
    const text = textOf(await ask(h, 'received 5 from <@U0DEE|dee>'));
    expect(text).toContain(
      'Recorded: Dee Berg paid you €5.00 in Trip. Dee Berg still owes you €25.00.',
    );
  });

  it('asks which currency when several are owed and my default is not among them', async () => {
    await book(h, cho, {
      cost: '6',
      currency: 'GBP',
      shares: [
        { who: cho, owed: '3' },
        { who: ann, owed: '3' },
      ],
    });
    const before = (await payments(h, ann)).length;
    const text = textOf(await ask(h, 'paid <@U0CHO|cho> 1'));
    expect(text).toContain(
      'You owe Cho Kim £3.00 and $17.50: say which currency the payment is in. Nothing was recorded.',
    );
    expect(text).toContain('/split paid @someone €15');
    expect((await payments(h, ann)).length).toBe(before);
  });

  it('an explicit currency picks among them', async () => {
    const text = textOf(await ask(h, 'received £5 from <@U0DEE|dee>'));
    expect(text).toContain('Recorded: Dee Berg paid you £5.00. Dee Berg still owes you £3.00.');
  });

  it('refuses a payment where nothing is owed in that direction', async () => {
    const text = textOf(await ask(h, '<@U0BOB|bob> paid me 5'));
    expect(text).toContain(
      "Bob Ray doesn't owe you anything in EUR, so there is nothing to pay back.",
    );
  });

  it('refuses decimals the currency does not have, once it is known', async () => {
    await book(h, dee, {
      cost: '1000',
      currency: 'JPY',
      shares: [
        { who: dee, owed: '500' },
        { who: bob, owed: '500' },
      ],
    });
    const text = textOf(await ask(h, 'paid <@U0DEE|dee> 10.5', 'U0BOB'));
    expect(text).toContain('JPY has no cents: "10.5" can\'t have decimals.');
  });

  it('pays once when Slack delivers the same command twice', async () => {
    const before = await owes(ann, cho, 'USD');
    const trigger_id = '12345.67890.paid-twice';
    const send = () =>
      h.sender.command({ text: 'paid <@U0CHO|cho> $1', user_id: 'U0ANN', trigger_id });
    const [one, two] = await Promise.all([send(), send()]);
    expect([one.status, two.status]).toEqual([200, 200]);
    await eventually(async () => expect(await owes(ann, cho, 'USD')).toBe(before - 100));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await owes(ann, cho, 'USD')).toBe(before - 100);
  });
});

describe('/split paid, for someone whose Slack is in German', () => {
  it('answers in German, amounts written the German way', async () => {
    const han = await h.link({ slackId: 'U0HAN', first_name: 'Han', locale: 'de-DE' });
    await book(h, bob, {
      cost: '40',
      currency: 'EUR',
      shares: [
        { who: bob, owed: '20' },
        { who: han, owed: '20' },
      ],
    });
    const text = textOf(await ask(h, 'paid <@U0BOB|bob> 15', 'U0HAN'));
    expect(text).toContain(
      '✅ Erfasst: Du hast Bob Ray 15,00\u00a0€ gezahlt. Du schuldest Bob Ray noch 5,00\u00a0€.',
    );
    const refused = textOf(await ask(h, 'paid <@U0BOB|bob> 6', 'U0HAN'));
    expect(refused).toContain(
      'Du schuldest Bob Ray 5,00\u00a0€: Eine Zahlung von 6,00\u00a0€ würde die Schuld umdrehen. Zahle höchstens 5,00\u00a0€. Es wurde nichts erfasst.',
    );
    expect(refused).toContain('Zum Beispiel: `/split paid @jemand 15`');
    expect(await owes(han, bob, 'EUR')).toBe(500);
  });
});
