/**
 * App Home end to end: app_home_opened -> views.publish for a connected person (connection,
 * balances with Settle up, the latest activity as readable lines, settings) and for one who is
 * not (Connect), within Slack's limits; each setting changed from the tab and seen where it lives
 * (the default currency on the service, the DM's hour in the digest preferences).
 */

import { control } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mrkdwn } from '../../../src/slack/kit/text.js';
import {
  book,
  button,
  elements,
  eventually,
  payments,
  serviceFor,
} from '../../support/balance-support.js';
import { viewErrors } from '../../support/block-kit-limits.js';
import type { FakeView } from '../../support/fake-slack.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';
import { viewPayload } from '../../support/slack-requests.js';
import { spaced } from '../../support/voice-support.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
const ANN = { team_id: 'T0001', user_id: 'U0ANN' };

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({
    slackId: 'U0ANN',
    first_name: 'Ann',
    last_name: 'Lee',
    default_currency: 'EUR',
  });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob', last_name: 'Ray' });
  const flat = await serviceFor(h, ann).createGroup({
    name: 'Flat <&> friends',
    users: [{ email: bob.email, first_name: 'Bob' }],
  });
  await book(h, bob, {
    cost: '30',
    currency: 'USD',
    description: 'dinner <!channel> *bold*',
    shares: [
      { who: bob, owed: '10' },
      { who: ann, owed: '20' },
    ],
  });
  await book(h, ann, {
    cost: '50',
    currency: 'EUR',
    group_id: flat.group?.id ?? 0,
    shares: [
      { who: ann, owed: '25' },
      { who: bob, owed: '25' },
    ],
  });
});
afterAll(() => h?.close());

/** Opens the Home tab and waits for the publish that follows (the `n`-th for this person). */
async function openHome(user = 'U0ANN'): Promise<FakeView> {
  const before = h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user).length;
  const sent = await h.sender.appHomeOpened({ user });
  expect(sent.status).toBe(200);
  return published(user, before);
}

async function published(user: string, before: number): Promise<FakeView> {
  await eventually(() => {
    const calls = h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user);
    expect(calls.length).toBeGreaterThan(before);
    expect(calls.at(-1)?.response.ok).toBe(true);
  });
  return h.slack.homeView(user)!;
}

/** Uses a control on the published Home tab; resolves with the tab published after it. */
async function act(user: string, action: Record<string, unknown> & { action_id: string }) {
  const view = h.slack.homeView(user)!;
  const before = h.slack.callsTo('views.publish').filter((c) => c.args.user_id === user).length;
  const sent = await h.sender.blockActions({
    user_id: user,
    actions: action,
    view: viewPayload({
      id: view.id,
      type: 'home',
      blocks: view.view.blocks as unknown[],
      hash: view.hash,
    }),
  });
  expect(sent.status).toBe(200);
  return published(user, before);
}

const option = (value: string, text = value) => ({
  type: 'static_select',
  selected_option: { text: { type: 'plain_text', text }, value },
});

const textOfView = (view: FakeView) => blocksText(view.view.blocks);

describe('App Home', () => {
  it('shows a person who is not connected a Connect button and what it is for', async () => {
    h.addSlackUser({ slackId: 'U0NEW', first_name: 'Nia', email: 'nia.home@example.com' });
    const view = await openHome('U0NEW');
    expect(viewErrors(view.view)).toEqual([]);
    expect(textOfView(view)).toContain("You haven't connected your Splitwise account yet.");
    const connect = button(view.view.blocks, 'account_connect');
    expect(String(connect.url)).toMatch(/^http:\/\/split\.test\/oauth\/start\?/);
  });

  it('leaves the Messages tab alone', async () => {
    const before = h.slack.callsTo('views.publish').length;
    await h.sender.appHomeOpened({ user: 'U0ANN', tab: 'messages' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(h.slack.callsTo('views.publish')).toHaveLength(before);
  });

  it('shows the connection, balances, activity and settings of a connected person', async () => {
    const view = await openHome();
    expect(viewErrors(view.view)).toEqual([]);
    expect((view.view.blocks as unknown[]).length).toBeLessThanOrEqual(100);
    const text = textOfView(view);
    expect(text).toContain(`Connected as *Ann Lee* (account #${ann.serviceId}).`);
    expect(button(view.view.blocks, 'home_disconnect').confirm).toBeDefined();
    // Balances by hand: Bob owes Ann 25 EUR (Flat); Ann owes Bob 20 USD.
    expect(text).toContain('• *EUR*: you are owed *€25.00*');
    expect(text).toContain('• *USD*: you owe *$20.00*');
    expect(text).toContain('*Flat &lt;&amp;&gt; friends*: you are owed €25.00');
    const settle = elements(view.view.blocks).filter((e) => e.action_id === 'balance_settle_up');
    expect(settle.map((e) => e.blockText)).toEqual([
      'You owe *Bob Ray* *$20.00*',
      '*Bob Ray* owes you *€25.00*',
    ]);
    // Activity: written by the app from each notification's expense or group, what people typed
    // escaped.
    expect(text).toContain('Latest activity');
    expect(text).toContain(
      `• *Bob Ray* added *${mrkdwn('dinner <!channel> *bold*')}* ($30.00) — you owe $20.00 · `,
    );
    expect(text).toContain('• You added *test expense* (€50.00) — you are owed €25.00 · ');
    expect(text).toContain(`• You created the group *${mrkdwn('Flat <&> friends')}* · `);
    expect(text).not.toMatch(/<strong>|<br>|<font|“/);
    expect(text).toMatch(/<!date\^\d+\^\{date_short_pretty\} \{time\}\|/);
    // Settings.
    expect(text).toContain('*Daily balance DM*\nOff.');
    expect(text).toContain('Hour in your Slack time zone: Europe/Paris.');
    const currency = button(view.view.blocks, 'home_currency') as unknown as {
      option_groups: Array<{ options: unknown[] }>;
      initial_option: { value: string };
    };
    expect(currency.initial_option.value).toBe('EUR');
    const offered = currency.option_groups.reduce((n, g) => n + g.options.length, 0);
    expect(offered).toBeGreaterThan(100);
    expect(button(view.view.blocks, 'home_default_group').options).toHaveLength(2);
  });

  it('changes the default currency on the service and shows it', async () => {
    const view = await act('U0ANN', { action_id: 'home_currency', ...option('USD', 'USD ($)') });
    expect(textOfView(view)).toContain('Your default currency is now USD.');
    expect((await serviceFor(h, ann).getCurrentUser()).default_currency).toBe('USD');
    // The balances now list USD first.
    expect(textOfView(view).indexOf('• *USD*')).toBeLessThan(textOfView(view).indexOf('• *EUR*'));
  });

  it('turns the daily DM on in the Slack time zone, and changes its hour', async () => {
    let view = await act('U0ANN', { action_id: 'home_digest_toggle', value: 'on' });
    // Ann's Slack gives no locale: en-US times.
    expect(spaced(textOfView(view))).toContain(
      'The daily balance DM is on: every day at 9:00 AM (Europe/Paris)',
    );
    expect(await h.app.deps.digest.get(ANN)).toMatchObject({
      enabled: true,
      hour: 9,
      tz: 'Europe/Paris',
    });
    view = await act('U0ANN', { action_id: 'home_digest_hour', ...option('7', '7:00 AM') });
    expect(spaced(textOfView(view))).toContain('now comes at 7:00 AM (Europe/Paris)');
    expect(spaced(textOfView(view))).toContain('On, at 7:00 AM every day.');
    expect(await h.app.deps.digest.get(ANN)).toMatchObject({ enabled: true, hour: 7 });
    view = await act('U0ANN', { action_id: 'home_digest_toggle', value: 'off' });
    expect(await h.app.deps.digest.get(ANN)).toMatchObject({ enabled: false, hour: 7 });
  });

  it('sets and clears the default group', async () => {
    const flat = (await serviceFor(h, ann).getGroups()).find((g) => g.id !== 0)!;
    let view = await act('U0ANN', {
      action_id: 'home_default_group',
      ...option(String(flat.id), flat.name),
    });
    expect(textOfView(view)).toContain(
      'Your default group is now Flat <&> friends.'.replace('<&>', '&lt;&amp;&gt;'),
    );
    expect((await h.app.deps.preferences.get(ANN)).default_group).toEqual({
      id: flat.id,
      name: flat.name,
    });
    // /split in a channel without a group now books into it, among the whole group.
    const pizza = await h.split('30 EUR pizza');
    expect(pizza.answer.status).toBe(200);
    // Found by description, not as the newest: /split dates an expense at midday in the person's
    // time zone, so the setup's expenses dated "now" sort before it for part of the day.
    const booked = await serviceFor(h, ann).getExpenses({ group_id: flat.id, limit: 0 });
    const pizzas = booked.filter((e) => e.description === 'pizza');
    expect(pizzas).toHaveLength(1);
    const expense = pizzas[0];
    expect(expense?.users.map((u) => Number(u.owed_share))).toEqual([15, 15]);
    view = await act('U0ANN', {
      action_id: 'home_default_group',
      ...option('0', 'No default group'),
    });
    expect((await h.app.deps.preferences.get(ANN)).default_group).toBeNull();
  });

  it('settles up from Home and republishes it', async () => {
    const view = h.slack.homeView('U0ANN')!;
    const settle = button(view.view.blocks, 'balance_settle_up', '$20.00');
    const before = (await payments(h, ann)).length;
    const after = await act('U0ANN', { action_id: settle.action_id, value: settle.value! });
    expect(textOfView(after)).toContain('✅ Recorded: you paid Bob Ray $20.00.');
    expect(textOfView(after)).not.toContain('• *USD*');
    expect(await payments(h, ann)).toHaveLength(before + 1);
  });

  it("speaks the person's language: balances, settings, and what a Settle up there answers", async () => {
    const dee = await h.link({
      slackId: 'U0DEE',
      first_name: 'Dee',
      last_name: 'Berg',
      locale: 'de-DE',
      tz: 'Europe/Berlin',
    });
    await book(h, bob, {
      cost: '40',
      currency: 'EUR',
      shares: [
        { who: bob, owed: '20' },
        { who: dee, owed: '20' },
      ],
    });
    const view = await openHome('U0DEE');
    expect(viewErrors(view.view)).toEqual([]);
    const text = spaced(textOfView(view));
    expect(text).toContain('Verbunden als *Dee Berg*');
    expect(text).toContain('• *EUR*: du schuldest *20,00 €*');
    expect(text).toContain('Du schuldest *Bob Ray* *20,00 €*');
    expect(text).toContain('*Tägliche Saldo-DM* Aus.');
    expect(text).toContain('Uhrzeit in deiner Slack-Zeitzone: Europe/Berlin.');
    // The latest activity in German, written by the app.
    expect(text).toContain(
      '• *Bob Ray* hat *test expense* (40,00 €) hinzugefügt — du schuldest 20,00 € · ',
    );
    expect(text).not.toMatch(/ added | You owe /);
    const hour = button(view.view.blocks, 'home_digest_hour') as unknown as {
      options: Array<{ text: { text: string } }>;
      initial_option: unknown;
    };
    expect(hour.options[14]?.text.text).toBe('14:00');
    expect(hour.options).toContainEqual(hour.initial_option);
    const settle = button(view.view.blocks, 'balance_settle_up', 'Bob Ray');
    const after = await act('U0DEE', { action_id: settle.action_id, value: settle.value! });
    expect(spaced(textOfView(after))).toContain('✅ Erfasst: Du hast Bob Ray 20,00 € gezahlt.');
    expect(spaced(textOfView(after))).toContain('• Du hast *Bob Ray* 20,00 € gezahlt · ');
    const toggled = await act('U0DEE', { action_id: 'home_digest_toggle', value: 'on' });
    expect(textOfView(toggled)).toContain(
      'Die tägliche Saldo-DM ist an: jeden Tag um 9:00 (Europe/Berlin)',
    );
  });

  it('reads at most five expenses for its activity, one per line, each once', async () => {
    for (let i = 0; i < 8; i += 1) {
      await book(h, bob, {
        cost: '10',
        currency: 'EUR',
        description: `round ${i}`,
        shares: [
          { who: bob, owed: '5' },
          { who: ann, owed: '5' },
        ],
      });
    }
    const reads = async () =>
      Object.entries(await h.serviceCounts())
        .filter(([route]) => /\/get_expense(\/|$)/.test(route))
        .reduce((sum, [, n]) => sum + n, 0);
    const before = await reads();
    const text = textOfView(await openHome());
    expect((await reads()) - before).toBe(5);
    expect(text).toContain('• *Bob Ray* added *round 7* (€10.00) — you owe €5.00 · ');
    expect(text).toContain('• *Bob Ray* added *round 3* (€10.00) — you owe €5.00 · ');
    expect(text).not.toContain('round 2');
  });

  it('disconnects, and shows Connect again', async () => {
    h.addSlackUser({ slackId: 'U0ANN', first_name: 'Ann', last_name: 'Lee', email: ann.email });
    const view = await act('U0ANN', { action_id: 'home_disconnect', value: 'disconnect' });
    expect(await h.app.deps.tokens.get(ANN)).toBeUndefined();
    expect(textOfView(view)).toContain("You haven't connected your Splitwise account yet.");
  });

  it('removes a revoked link and says so', async () => {
    await control(h.emu.url, 'POST', 'tokens/revoke', { access_token: bob.accessToken });
    const view = await openHome('U0BOB');
    expect(textOfView(view)).toContain('stopped working');
    expect(await h.app.deps.tokens.get({ team_id: 'T0001', user_id: 'U0BOB' })).toBeUndefined();
    expect(viewErrors(view.view)).toEqual([]);
  });
});
