/**
 * The daily balance DM wired into the app: turned on from App Home (time zone from users.info),
 * sent by the app's runner at a chosen instant, its Settle up leading to a confirmation and a
 * payment, its Pause stopping the next day's DM; and the scheduler startApp starts, sending on
 * its own and stopping with the app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../../src/core/money.js';
import {
  book,
  button,
  click,
  current,
  eventually,
  payments,
  serviceFor,
  textOf,
} from '../../support/balance-support.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';
import { viewPayload } from '../../support/slack-requests.js';

const ANN = { team_id: 'T0001', user_id: 'U0ANN' };
/** 08:30 in Paris (UTC+1 in November). */
const MONDAY_0830 = new Date('2026-11-23T07:30:00Z');
const TUESDAY_0830 = new Date('2026-11-24T07:30:00Z');

async function turnOnInHome(h: Harness, hour: string) {
  await h.sender.appHomeOpened({ user: 'U0ANN' });
  await eventually(() => expect(h.slack.homeView('U0ANN')).toBeDefined());
  for (const action of [
    { action_id: 'home_digest_toggle', value: 'on' },
    {
      action_id: 'home_digest_hour',
      type: 'static_select',
      selected_option: { text: { type: 'plain_text', text: `0${hour}:00` }, value: hour },
    },
  ]) {
    const view = h.slack.homeView('U0ANN')!;
    const before = h.slack.callsTo('views.publish').length;
    await h.sender.blockActions({
      user_id: 'U0ANN',
      actions: action,
      view: viewPayload({ id: view.id, type: 'home', blocks: view.view.blocks as unknown[] }),
    });
    await eventually(() => expect(h.slack.callsTo('views.publish').length).toBeGreaterThan(before));
  }
}

async function owes(h: Harness, ann: LinkedPerson, bob: LinkedPerson) {
  await book(h, bob, {
    cost: '40',
    currency: 'EUR',
    shares: [
      { who: bob, owed: '20' },
      { who: ann, owed: '20' },
    ],
  });
}

describe('daily DM, run by the app at a chosen time', () => {
  let h: Harness;
  let ann: LinkedPerson;
  let bob: LinkedPerson;

  beforeAll(async () => {
    h = await startHarness();
    ann = await h.link({
      slackId: 'U0ANN',
      first_name: 'Ann',
      last_name: 'Lee',
      tz: 'Europe/Paris',
    });
    bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
    await owes(h, ann, bob);
  });
  afterAll(() => h?.close());

  it('is sent at the hour chosen in Home; Settle up pays after a confirmation; Pause stops it', async () => {
    await turnOnInHome(h, '8');
    expect(await h.app.deps.digest.get(ANN)).toMatchObject({
      enabled: true,
      hour: 8,
      tz: 'Europe/Paris',
    });
    // 07:30 Paris: not yet.
    const early = await h.app.digest.runner.runDue(new Date('2026-11-23T06:30:00Z'));
    expect(early.outcomes.sent).toBe(0);

    const report = await h.app.digest.runner.runDue(MONDAY_0830);
    expect(report.outcomes.sent).toBe(1);
    const dm = h.slack.dmChannel('U0ANN');
    const [digest] = h.slack.messages(dm);
    expect(digest).toBeDefined();
    expect(blockKitErrors(digest!.blocks, 'message')).toEqual([]);
    expect(textOf(digest!)).toContain('You owe *Bob Ray* *€20.00*');

    // Settle up in the DM: a confirmation with the amount as it stands, then the payment.
    const before = (await payments(h, ann)).length;
    await (
      await click(h, digest!, button(digest!.blocks, 'digest_settle_up'), 'U0ANN', dm)
    ).answer();
    const confirmation = h.slack.messages(dm).at(-1)!;
    expect(textOf(confirmation)).toContain('Record that you paid *Bob Ray* *€20.00*?');
    expect(await payments(h, ann)).toHaveLength(before);
    await (
      await click(
        h,
        confirmation,
        button(confirmation.blocks, 'balance_settle_confirm'),
        'U0ANN',
        dm,
      )
    ).answer();
    expect(await payments(h, ann)).toHaveLength(before + 1);
    const settled = textOf(current(h, confirmation, dm));
    expect(settled).toContain('Recorded: you paid Bob Ray €20.00.');
    expect(settled).toContain('You and *Bob Ray* are settled up.');
    const friends = await serviceFor(h, ann).getFriends();
    expect(friends.find((f) => f.id === bob.serviceId)?.balance).toEqual([]);

    // Pause from the DM: tomorrow's run sends nothing, though there is something new to say.
    await owes(h, ann, bob);
    const pause = await click(h, digest!, button(digest!.blocks, 'digest_pause'), 'U0ANN', dm);
    expect(textOf((await pause.answer()).body)).toContain('Paused');
    expect(await h.app.deps.digest.get(ANN)).toMatchObject({ paused: true });
    const messages = h.slack.messages(dm).length;
    const tomorrow = await h.app.digest.runner.runDue(TUESDAY_0830);
    expect(tomorrow.outcomes.sent).toBe(0);
    expect(h.slack.messages(dm)).toHaveLength(messages);
  });
});

describe("the DM in the person's Slack locale", () => {
  let h: Harness;
  afterAll(() => h?.close());

  it('writes the date and every amount, and its Settle up answers, for de-DE', async () => {
    h = await startHarness();
    const dee = await h.link({
      slackId: 'U0DEE',
      first_name: 'Dee',
      last_name: 'Berg',
      tz: 'Europe/Berlin',
      locale: 'de-DE',
    });
    const bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
    await owes(h, dee, bob);
    await h.app.deps.digest.enable(
      { team_id: 'T0001', user_id: 'U0DEE' },
      {
        tz: 'Europe/Berlin',
        hour: 8,
      },
    );
    expect((await h.app.digest.runner.runDue(MONDAY_0830)).outcomes.sent).toBe(1);
    const dm = h.slack.dmChannel('U0DEE');
    const [digest] = h.slack.messages(dm);
    const amount = formatMoney(2000, 'EUR', 'de-DE');
    expect(amount).not.toBe('€20.00');
    expect(textOf(digest!)).toContain('Deine Salden, Montag, 23. November');
    expect(textOf(digest!)).toContain(`Du schuldest *Bob Ray* *${amount}*`);

    await (
      await click(h, digest!, button(digest!.blocks, 'digest_settle_up'), 'U0DEE', dm)
    ).answer();
    const confirmation = h.slack.messages(dm).at(-1)!;
    expect(textOf(confirmation)).toContain(`Erfassen, dass du *Bob Ray* *${amount}* gezahlt hast?`);
    // Record payment: the DM's confirmation turns into the balance with Bob, still in German.
    await (
      await click(
        h,
        confirmation,
        button(confirmation.blocks, 'balance_settle_confirm'),
        'U0DEE',
        dm,
      )
    ).answer();
    const settled = textOf(current(h, confirmation, dm));
    expect(settled).toContain(`✅ Erfasst: Du hast Bob Ray ${amount} gezahlt.`);
    expect(settled).toContain('Zwischen dir und *Bob Ray* ist alles ausgeglichen.');
  });
});

describe('the scheduler startApp starts', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      digest: { scheduler: true, intervalMs: 50, clock: () => MONDAY_0830 },
    });
    const ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', tz: 'Europe/Paris' });
    const bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
    await owes(h, ann, bob);
  });
  afterAll(() => h?.close());

  it('sends the DM on its own once it is due, once, and stops with the app', async () => {
    expect(h.app.digest.scheduler).toBeDefined();
    await turnOnInHome(h, '8');
    const dm = h.slack.dmChannel('U0ANN');
    await eventually(() => expect(h.slack.messages(dm)).toHaveLength(1));
    // Later ticks find today's DM sent.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(h.slack.messages(dm)).toHaveLength(1);
    await h.app.stop();
    await h.app.digest.scheduler?.idle();
  });
});
