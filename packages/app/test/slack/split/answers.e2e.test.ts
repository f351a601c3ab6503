/**
 * Where answers go when the channel is not simply open to the app: "Split this" in a public
 * channel the app has not joined answers in the message's thread (with the manifest's scopes);
 * a private conversation it is not in gets the answer by DM, saying why; an edit whose message
 * cannot be rewritten tells the person so.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Harness, startHarness } from '../../support/harness.js';
import {
  element,
  expenseIdIn,
  formOpened,
  formValues,
  submit,
} from '../../support/modal-support.js';

let h: Harness;

/** The bot scopes manifest.yml asks for: what a workspace installing the app grants it. */
const manifestScopes = (): string[] =>
  parse(readFileSync('manifest.yml', 'utf8')).oauth_config.scopes.bot;

beforeAll(async () => {
  h = await startHarness();
  await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  h.slack.setApp({ ...h.slack.app, scopes: manifestScopes() });
});
afterAll(() => h?.close());

const lunch = (description: string) =>
  formValues({
    amount: '30',
    currency: 'EUR',
    description,
    date: new Date().toISOString().slice(0, 10),
    participants: ['U0ANN', 'U0BOB'],
    payer: 'U0ANN',
  });

describe('"Split this" and the form', () => {
  it('answer in the thread of a public channel the app has not joined', async () => {
    h.slack.addChannel({ id: 'C0OPEN', name: 'open', is_private: false, botIsMember: false });
    const since = h.slack.now();
    await h.sender.messageShortcut({
      channel_id: 'C0OPEN',
      message: { text: 'Pizza 30 <@U0BOB>', user: 'U0BOB', ts: '1700000300.000100' },
    });
    const form = await formOpened(h, since);
    await submit(h, { viewId: form.viewId, meta: form.meta, values: lunch('Pizza') });
    const posted = await h.slack.waitForCall(
      'chat.postMessage',
      (c) => c.at >= since && JSON.stringify(c.args.blocks ?? '').includes('expense_edit'),
    );
    expect(posted.args).toMatchObject({ channel: 'C0OPEN', thread_ts: '1700000300.000100' });
    expect(posted.response.ok).toBe(true);
    expect(expenseIdIn(posted.args.blocks)).toBeGreaterThan(0);
  });

  it('come by DM, saying why, from a private channel the app is not in', async () => {
    h.slack.addChannel({ id: 'C0SHUT', name: 'shut', is_private: true, botIsMember: false });
    const since = h.slack.now();
    await h.sender.messageShortcut({
      channel_id: 'C0SHUT',
      message: { text: 'Taxi 30 <@U0BOB>', user: 'U0BOB', ts: '1700000300.000200' },
    });
    const form = await formOpened(h, since);
    await submit(h, { viewId: form.viewId, meta: form.meta, values: lunch('Taxi') });
    const dm = await h.slack.waitForCall(
      'chat.postMessage',
      (c) => c.at >= since && c.args.channel === 'U0ANN' && c.response.ok === true,
    );
    const text = JSON.stringify(dm.args.blocks);
    expect(text).toContain("I couldn't answer in <#C0SHUT>");
    expect(text).toContain("the app isn't in that conversation");
    expect(text).toContain('expense_edit');
  });
});

describe('Edit', () => {
  it("tells the person when the expense's message could not be rewritten", async () => {
    const booked = await h.split('40 lunch <@U0BOB>');
    const blocks = booked.answer.body.blocks as unknown[];
    const id = expenseIdIn(blocks);
    const since = h.slack.now();
    await h.sender.blockActions({
      user_id: 'U0ANN',
      actions: {
        action_id: 'expense_edit',
        block_id: 'expense_actions',
        value: JSON.stringify({ v: 1, e: id }),
      },
      message: { ts: '1700000300.000300', blocks, text: 'expense' },
      response_url: h.slack.responseUrl({ id: `edit-${id}` }),
    });
    const form = await formOpened(h, since);
    h.slack.fail('chat.update', 'channel_not_found', 1);
    await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues({
        amount: '40.00',
        currency: 'EUR',
        description: 'Team lunch',
        date: element(form.view, 'form_date').initial_date,
        participants: ['U0ANN', 'U0BOB'],
        payer: 'U0ANN',
        category: element(form.view, 'form_category').initial_option?.value,
        group: '0',
      }),
    });
    const told = await h.slack.waitForCall(
      'chat.postEphemeral',
      (c) => c.at >= since && String(c.args.text).includes('Saved'),
    );
    expect(told.args.user).toBe('U0ANN');
    // Slack's words are written as text: the zero-width fences keep its underscores from pairing.
    expect(String(told.args.text).replace(/\u200b/g, '')).toContain(
      "I couldn't update its message in the channel (Slack said channel_not_found)",
    );
  });
});
