/**
 * The expense form end to end for a person whose Slack speaks German: opened by an empty `/split`
 * in their words (the "opening" view too), an amount typed their way booked to the cent, the
 * message in their words; and a form opened for a group starting from the group's currency, which
 * the form is handed (GroupCurrency), for the channel's group or the person's default group.
 */

import { webApi } from '@slack/bolt';
import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNewForm } from '../../../src/slack/expense-form/open.js';
import { contextActingAs } from '../../../src/slack/shared/voice.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  quietLogger,
  startHarness,
} from '../../support/harness.js';
import {
  element,
  expenseIdIn,
  formOpened,
  formValues,
  submit,
} from '../../support/modal-support.js';
import { plainTexts } from '../../support/typed-text.js';

let h: Harness;
let greta: LinkedPerson;
let flat: { id: number; name: string };
let studio: { id: number; name: string };
const nb = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

beforeAll(async () => {
  h = await startHarness();
  greta = await h.link({
    slackId: 'U0GRETA',
    first_name: 'Greta',
    locale: 'de-DE',
    tz: 'Europe/Berlin',
    default_currency: 'EUR',
  });
  const bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  for (const [name, into] of [
    ['WG', (g: { id: number; name: string }) => (flat = g)],
    ['Atelier', (g: { id: number; name: string }) => (studio = g)],
  ] as const) {
    const group = await call(h.emu.url, greta.apiKey, 'POST', 'create_group', {
      name,
      users__0__email: bob.email,
      users__0__first_name: 'Bob',
    });
    into({ id: group.body.group.id, name });
  }
});
afterAll(() => h?.close());

describe('the form for a German speaker', () => {
  it('opens in German, reads 12,50, and books it with a German message', async () => {
    const since = h.slack.now();
    const response = await h.sender.command({ text: '', user_id: 'U0GRETA' });
    expect(response.status).toBe(200);
    const opening = await h.slack.waitForCall('views.open', (c) => c.at >= since);
    expect((opening.args.view as Loose).title.text).toBe('Ausgabe aufteilen');
    expect(blocksText((opening.args.view as Loose).blocks)).toBe('Das Formular wird geöffnet…');
    const form = await formOpened(h, since);
    expect(form.view.title.text).toBe('Ausgabe aufteilen');
    expect(element(form.view, 'form_amount').placeholder.text).toBe('12,50');
    expect(plainTexts(form.view)).toEqual(
      expect.arrayContaining(['Betrag', 'Währung', 'Geteilt von', 'Bezahlt von', 'Buchen']),
    );
    const posting = h.slack.now();
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      user_id: 'U0GRETA',
      values: formValues({
        amount: '12,50',
        currency: 'EUR',
        description: 'Kaffee & Kuchen',
        date: element(form.view, 'form_date').initial_date,
        participants: ['U0GRETA', 'U0BOB'],
        payer: 'U0GRETA',
      }),
    });
    expect(ack).toEqual({ response_action: 'clear' });
    await h.app.deps.work.idle();
    const posted = await h.slack.waitForCall(
      'chat.postMessage',
      (c) => c.at >= posting && JSON.stringify(c.args.blocks ?? '').includes('expense_edit'),
    );
    expect(blockKitErrors(posted.args.blocks, 'message')).toEqual([]);
    expect(nb(String(posted.args.text))).toBe(
      '<@U0GRETA> hat 12,50 € für Kaffee &amp; Kuchen bezahlt: <@U0BOB> schuldet 6,25 €',
    );
    const id = expenseIdIn(posted.args.blocks);
    const e = (await call(h.emu.url, greta.apiKey, 'GET', `get_expense/${id}`)).body.expense;
    expect(e.cost).toBe('12.5');
    expect(e.description).toBe('Kaffee & Kuchen');
  });
});

describe('a form opened for a group', () => {
  /** Saves `currency` as the group's, as `/split group default <group> <currency>` does. */
  async function save(group: { id: number; name: string }, currency: string) {
    await h.app.deps.splitDefaults.setCurrency(
      { team_id: 'T0001', group_id: group.id },
      {
        group_id: group.id,
        group_name: group.name,
        currency,
        set_by: 'U0GRETA',
        set_at: new Date().toISOString(),
      },
    );
  }

  /** Opens the form as an empty `/split` in `channel` would. */
  async function open(channel: string) {
    const since = h.slack.now();
    const user = { team_id: 'T0001', user_id: 'U0GRETA' };
    const logger = quietLogger();
    await openNewForm({
      deps: h.app.deps,
      context: contextActingAs(h.app.deps, user, logger),
      client: new webApi.WebClient(h.slack.team.botToken, {
        slackApiUrl: h.slack.url,
        retryConfig: { retries: 0 },
      }),
      logger,
      trigger_id: h.slack.issueTrigger(undefined, 'U0GRETA'),
      user,
      channel,
    });
    const form = await formOpened(h, since);
    return {
      currency: element(form.view, 'form_currency').initial_option?.value,
      group: element(form.view, 'form_group').initial_option?.value,
    };
  }

  it("starts from the currency of the channel's group", async () => {
    await save(flat, 'CHF');
    await h.app.deps.bindings.set(
      { team_id: 'T0001', channel_id: 'C0FLAT' },
      { group_id: flat.id, group_name: flat.name, bound_at: new Date().toISOString() },
    );
    expect(await open('C0FLAT')).toEqual({ currency: 'CHF', group: String(flat.id) });
  });

  it("starts from the currency of the person's default group elsewhere", async () => {
    await save(studio, 'JPY');
    await h.app.deps.preferences.setDefaultGroup(
      { team_id: 'T0001', user_id: 'U0GRETA' },
      { id: studio.id, name: studio.name },
    );
    expect(await open('C0ELSEWHERE')).toEqual({ currency: 'JPY', group: String(studio.id) });
  });

  it("starts from the person's own currency when the group has none, or they left it", async () => {
    await h.app.deps.splitDefaults.deleteCurrency({ team_id: 'T0001', group_id: studio.id });
    expect(await open('C0ELSEWHERE')).toEqual({ currency: 'EUR', group: String(studio.id) });
    await h.app.deps.preferences.setDefaultGroup(
      { team_id: 'T0001', user_id: 'U0GRETA' },
      { id: 999_999, name: 'Gone' },
    );
    await save({ id: 999_999, name: 'Gone' }, 'GBP');
    expect(await open('C0ELSEWHERE')).toEqual({ currency: 'EUR', group: '0' });
  });
});
