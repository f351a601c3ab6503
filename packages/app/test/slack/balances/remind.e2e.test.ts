/**
 * Payment reminders end to end: `/split remind @bob` and the Remind buttons send one DM per pair
 * per day (a second try the same day, or a double click, is refused with a message), with Settle
 * up for someone linked (which records the payment) and Connect for someone who is not; someone
 * who turned reminders off (from the DM or App Home) gets none, and the sender is told only that.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  book,
  button,
  click,
  elements,
  eventually,
  serviceFor,
  textOf,
} from '../../support/balance-support.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';
import { viewPayload } from '../../support/slack-requests.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let dee: LinkedPerson;

const EVE_EMAIL = 'eve.remind@example.com';

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
  await h.link({ slackId: 'U0CHO', first_name: 'Cho', last_name: 'Kim' });
  dee = await h.link({ slackId: 'U0DEE', first_name: 'Dee', last_name: 'Berg' });
  h.addSlackUser({ slackId: 'U0EVE', first_name: 'Eve', last_name: 'Moss', email: EVE_EMAIL });
  // Bob owes Ann €20 and $4; Dee owes Ann €6; Eve (never linked) owes Ann €10.
  await book(h, ann, {
    cost: '40',
    currency: 'EUR',
    shares: [
      { who: ann, owed: '20' },
      { who: bob, owed: '20' },
    ],
  });
  await book(h, ann, {
    cost: '8',
    currency: 'USD',
    shares: [
      { who: ann, owed: '4' },
      { who: bob, owed: '4' },
    ],
  });
  await book(h, ann, {
    cost: '12',
    currency: 'EUR',
    shares: [
      { who: ann, owed: '6' },
      { who: dee, owed: '6' },
    ],
  });
  await serviceFor(h, ann).createExpense({
    description: 'tickets',
    cost: '20',
    currency_code: 'EUR',
    users: [
      { user_id: ann.serviceId, paid_share: '20', owed_share: '10' },
      { email: EVE_EMAIL, first_name: 'Eve', paid_share: '0', owed_share: '10' },
    ],
  });
});
afterAll(() => h?.close());

const dmOf = (user: string): FakeMessage[] =>
  h.slack
    .messages(h.slack.dmChannel(user))
    .filter((m) => textOf(m).includes('sent you a reminder'));

describe('/split remind', () => {
  it('DMs Bob what he owes me, with Settle up per currency, and tells me it was sent', async () => {
    const text = textOf(await ask(h, 'remind <@U0BOB|bob>'));
    expect(text).toContain(
      'Reminder sent to Bob Ray: they owe you €20.00 and $4.00. You can remind them again tomorrow.',
    );
    await eventually(() => expect(dmOf('U0BOB')).toHaveLength(1));
    const dm = dmOf('U0BOB')[0]!;
    expect(blockKitErrors(dm.blocks, 'message')).toEqual([]);
    expect(dm.text).toBe(
      '<@U0ANN> sent you a reminder: according to their Splitwise account, you owe them €20.00 and $4.00.',
    );
    const rows = elements(dm.blocks).map((e) => [e.blockText, e.action_id]);
    expect(rows).toEqual([
      ['*€20.00*', 'balance_settle_up'],
      ['*$4.00*', 'balance_settle_up'],
      ['', 'reminder_off'],
    ]);
  });

  it('refuses a second reminder to the same person the same day', async () => {
    const text = textOf(await ask(h, 'remind <@U0BOB|bob>'));
    expect(text).toContain("You already reminded Bob Ray today, so I didn't send another.");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(dmOf('U0BOB')).toHaveLength(1);
  });

  it("lets Bob settle from the reminder, recording the payment in Ann's ledger", async () => {
    const channel = h.slack.dmChannel('U0BOB');
    const dm = dmOf('U0BOB')[0]!;
    const settle = button(dm.blocks, 'balance_settle_up');
    const { answer } = await click(h, dm, { ...settle }, 'U0BOB', channel);
    expect((await answer()).status).toBe(200);
    // Only the EUR button was pressed: Bob still owes $4.
    const friend = await serviceFor(h, ann).getFriend(bob.serviceId);
    expect(friend.balance).toEqual([{ currency_code: 'USD', amount: '4.0' }]);
  });

  it('reaches someone who never linked, with a Connect button', async () => {
    const text = textOf(await ask(h, 'remind <@U0EVE|eve>'));
    expect(text).toContain('Reminder sent to Eve: they owe you €10.00.');
    await eventually(() => expect(dmOf('U0EVE')).toHaveLength(1));
    const dm = dmOf('U0EVE')[0]!;
    expect(dm.text).toContain('you owe them €10.00');
    expect(button(dm.blocks, 'account_connect').url).toMatch(/^http/);
    expect(() => button(dm.blocks, 'balance_settle_up')).toThrow();
  });

  it('respects No more reminders: the sender is told only that', async () => {
    const channel = h.slack.dmChannel('U0EVE');
    const dm = dmOf('U0EVE')[0]!;
    const { answer } = await click(h, dm, button(dm.blocks, 'reminder_off'), 'U0EVE', channel);
    expect((await answer()).body.replace_original).toBe(true);
    const after = h.slack.messages(channel).find((m) => m.ts === dm.ts)!;
    expect(textOf(after)).toContain("You won't get payment reminders from anyone any more.");
    const text = textOf(await ask(h, 'remind <@U0EVE|eve>'));
    expect(text).toContain("Eve has turned payment reminders off, so I didn't send one.");
    expect(text).not.toContain('€');
  });

  it('refuses reminding someone who owes me nothing, and myself', async () => {
    expect(textOf(await ask(h, 'remind <@U0CHO|cho>'))).toContain(
      "Cho Kim doesn't owe you anything, so there is nothing to remind them of.",
    );
    expect(textOf(await ask(h, 'remind <@U0ANN|ann>'))).toContain("You can't remind yourself.");
    expect(textOf(await ask(h, 'remind'))).toContain('Who should I remind? Mention them with @.');
  });
});

describe('Remind buttons', () => {
  it('a double click on Remind under a balance sends one DM', async () => {
    const message = await ask(h, 'balance <@U0DEE|dee>');
    const remind = button(message.blocks, 'balance_remind');
    expect(remind.text?.text).toBe('Remind Dee Berg');
    const [one, two] = await Promise.all([click(h, message, remind), click(h, message, remind)]);
    const answers = [(await one.answer()).body.text, (await two.answer()).body.text].sort();
    expect(answers).toEqual([
      'Reminder sent to Dee Berg: they owe you €6.00. You can remind them again tomorrow.',
      "You already reminded Dee Berg today, so I didn't send another. You can remind them again tomorrow.",
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(dmOf('U0DEE')).toHaveLength(1);
  });

  it('the menu under all balances names everyone who owes me', async () => {
    const message = await ask(h, 'balance');
    const menu = button(message.blocks, 'balance_remind') as unknown as {
      options: Array<{ text: { text: string } }>;
    };
    expect(menu.options.map((o) => o.text.text).sort()).toEqual([
      'Remind Bob Ray',
      'Remind Dee Berg',
      'Remind Eve',
    ]);
  });
});

describe('App Home', () => {
  async function home(user: string) {
    const before = h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user).length;
    await h.sender.appHomeOpened({ user });
    await eventually(() =>
      expect(
        h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user).length,
      ).toBeGreaterThan(before),
    );
    return h.slack.homeView(user)!;
  }

  it('turns reminders off and on for someone not linked, and the sender hears so', async () => {
    h.addSlackUser({ slackId: 'U0FIN', first_name: 'Fin', email: 'fin.remind@example.com' });
    await serviceFor(h, ann).createExpense({
      description: 'cab',
      cost: '8',
      currency_code: 'EUR',
      users: [
        { user_id: ann.serviceId, paid_share: '8', owed_share: '4' },
        { email: 'fin.remind@example.com', first_name: 'Fin', paid_share: '0', owed_share: '4' },
      ],
    });
    const view = await home('U0FIN');
    expect(blocksText(view.view.blocks)).toContain('*Payment reminders*');
    const toggle = button(view.view.blocks, 'home_reminders_toggle');
    expect(toggle.value).toBe('off');
    const before = h.slack.callsTo('views.publish').length;
    await h.sender.blockActions({
      user_id: 'U0FIN',
      actions: { action_id: 'home_reminders_toggle', value: 'off' },
      view: viewPayload({
        id: view.id,
        type: 'home',
        blocks: view.view.blocks as unknown[],
        hash: view.hash,
      }),
    });
    await eventually(() => expect(h.slack.callsTo('views.publish').length).toBeGreaterThan(before));
    const after = h.slack.homeView('U0FIN')!;
    expect(blocksText(after.view.blocks)).toContain('Payment reminders are off');
    expect(button(after.view.blocks, 'home_reminders_toggle').value).toBe('on');
    expect(textOf(await ask(h, 'remind <@U0FIN|fin>'))).toContain(
      "Fin has turned payment reminders off, so I didn't send one.",
    );
    expect(dmOf('U0FIN')).toHaveLength(0);
  });

  it('offers Remind in Home for a person who owes me', async () => {
    const view = await home('U0ANN');
    const menu = button(view.view.blocks, 'balance_remind') as unknown as {
      options: Array<{ text: { text: string } }>;
    };
    expect(menu.options.map((o) => o.text.text)).toContain('Remind Dee Berg');
  });
});

describe('a reminder to someone whose Slack is in German', () => {
  it('reaches them in German, amounts written their way, and its answers stay German', async () => {
    const gia = await h.link({
      slackId: 'U0GIA',
      first_name: 'Gia',
      last_name: 'Rossi',
      locale: 'de-DE',
      tz: 'Europe/Berlin',
    });
    await book(h, ann, {
      cost: '2469',
      currency: 'EUR',
      shares: [
        { who: ann, owed: '1234.50' },
        { who: gia, owed: '1234.50' },
      ],
    });
    // Ann asks in English, and hears back in English.
    const text = textOf(await ask(h, 'remind <@U0GIA|gia>'));
    expect(text).toContain('Reminder sent to Gia Rossi: they owe you €1,234.50.');
    const channel = h.slack.dmChannel('U0GIA');
    const german = () =>
      h.slack.messages(channel).filter((m) => textOf(m).includes('Erinnerung geschickt'));
    await eventually(() => expect(german()).toHaveLength(1));
    const dm = german()[0]!;
    expect(dm.text).toBe(
      '<@U0ANN> hat dir eine Erinnerung geschickt: Laut dem Splitwise-Konto von <@U0ANN> schuldest du 1.234,50\u00a0€.',
    );
    const settle = button(dm.blocks, 'balance_settle_up');
    expect(settle.text?.text).toBe('Ausgleichen');
    expect(JSON.stringify(settle.confirm)).toContain('*1.234,50\u00a0€*');
    expect(button(dm.blocks, 'reminder_off').text?.text).toBe('Keine Erinnerungen mehr');
    // Gia settles from the DM: the answer is hers, in German.
    const { answer } = await click(h, dm, settle, 'U0GIA', channel);
    expect((await answer()).status).toBe(200);
    const after = textOf(h.slack.messages(channel).find((m) => m.ts === dm.ts)!);
    // Ann as the reminder named her: her Slack name.
    expect(after).toContain('✅ Erfasst: Du hast ann 1.234,50\u00a0€ gezahlt.');
    expect(after).toContain('Zwischen dir und *Ann* ist alles ausgeglichen.');
  });
});
