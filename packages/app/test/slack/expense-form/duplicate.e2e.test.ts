/**
 * Duplicate on a booked expense, end to end: the form opens as a new expense filled in from the
 * booked one and dated today; a double click opens one form; submitting it twice books one new
 * expense, read back from the emulator; someone who is not on the expense is refused.
 */

import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { type Harness, type LinkedPerson, startHarness } from '../../support/harness.js';
import {
  element,
  expenseIdIn,
  formOpened,
  formValues,
  submit,
} from '../../support/modal-support.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  await h.link({ slackId: 'U0DAN', first_name: 'Dan' });
});
afterAll(() => h?.close());

async function expenses(): Promise<Loose[]> {
  const all = (await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses', { limit: 0 })).body
    .expenses as Loose[];
  return all.filter((e) => !e.deleted_at);
}

async function clickDuplicate(id: number, blocks: unknown[], ts: string, user_id = 'U0ANN') {
  const rid = `dup-${id}-${Math.random()}`;
  const response = await h.sender.blockActions({
    user_id,
    actions: {
      action_id: 'expense_duplicate',
      block_id: 'expense_actions',
      value: JSON.stringify({ v: 1, e: id }),
    },
    message: { ts, blocks, text: 'expense' },
    response_url: h.slack.responseUrl({ id: rid }),
  });
  expect(response.status).toBe(200);
  return { answer: () => h.slack.waitForResponse((p) => p.id === rid) };
}

describe('Duplicate', () => {
  it('is a button on a booked expense', async () => {
    const out = await h.split('40 lunch <@U0BOB> on 2026-11-02');
    const blocks = out.answer.body.blocks as unknown[];
    expect(blockKitErrors(blocks, 'message')).toEqual([]);
    expect(JSON.stringify(blocks)).toContain('"action_id":"expense_duplicate"');
  });

  it('opens one form for a double click, filled in and dated today, and books once', async () => {
    const out = await h.split('36.60 taxi <@U0BOB> on 2026-11-03');
    const blocks = out.answer.body.blocks as unknown[];
    const id = expenseIdIn(blocks);
    const since = h.slack.now();
    await Promise.all([
      clickDuplicate(id, blocks, '1700000200.000001'),
      clickDuplicate(id, blocks, '1700000200.000001'),
    ]);
    const form = await formOpened(h, since);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.slack.calls.filter((c) => c.method === 'views.open' && c.at >= since)).toHaveLength(1);

    expect(form.view.title.text).toBe('Duplicate expense');
    expect(element(form.view, 'form_amount').initial_value).toBe('36.60');
    expect(element(form.view, 'form_description').initial_value).toBe('taxi');
    expect(element(form.view, 'form_participants').initial_users).toEqual(['U0ANN', 'U0BOB']);
    const today = new Date().toISOString().slice(0, 10);
    expect(element(form.view, 'form_date').initial_date).not.toBe('2026-11-03');
    expect(JSON.stringify(form.view)).toContain('Copied from \\"taxi\\", dated today');

    const values = formValues({
      amount: '36.60',
      currency: 'EUR',
      description: 'taxi',
      date: today,
      participants: ['U0ANN', 'U0BOB'],
      payer: 'U0ANN',
    });
    const acks = await Promise.all([
      submit(h, { viewId: form.viewId, meta: form.meta, values }),
      submit(h, { viewId: form.viewId, meta: form.meta, values }),
    ]);
    expect(acks).toEqual([{ response_action: 'clear' }, { response_action: 'clear' }]);
    await h.slack.waitForCall('chat.postMessage', (c) => c.at >= since);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const taxis = (await expenses()).filter((e) => e.description === 'taxi');
    expect(taxis).toHaveLength(2);
    const copy = taxis.find((e) => e.id !== id)!;
    expect(copy.cost).toBe('36.6');
    expect(copy.date.slice(0, 10)).not.toBe('2026-11-03');
    expect(copy.users.map((u: Loose) => [u.user_id, Number(u.owed_share)]).sort()).toEqual(
      [
        [ann.serviceId, 18.3],
        [bob.serviceId, 18.3],
      ].sort(),
    );
  });

  it("keeps an unequal expense's parts for the second step", async () => {
    const out = await h.split('40 dinner <@U0BOB> 30');
    const blocks = out.answer.body.blocks as unknown[];
    const since = h.slack.now();
    await clickDuplicate(expenseIdIn(blocks), blocks, '1700000200.000003');
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_split').initial_option.value).toBe('exact');
    const participants = element(form.view, 'form_participants').initial_users as string[];
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: formValues({
        amount: '40.00',
        currency: 'EUR',
        description: 'dinner',
        date: element(form.view, 'form_date').initial_date,
        participants,
        payer: 'U0ANN',
        split: 'exact',
      }),
    });
    expect(ack.response_action).toBe('push');
    const inputs = ack.view.blocks.filter((b: Loose) => b.type === 'input');
    const byPerson = Object.fromEntries(
      participants.map((id, i) => [id, inputs[i]?.element.initial_value]),
    );
    expect(byPerson).toEqual({ U0ANN: '10.00', U0BOB: '30.00' });
  });

  it('keeps several payers, each with what they paid, for the second step', async () => {
    const out = await h.split('60 dinner <@U0BOB> paid by me 40 <@U0BOB> 20');
    const blocks = out.answer.body.blocks as unknown[];
    const since = h.slack.now();
    await clickDuplicate(expenseIdIn(blocks), blocks, '1700000200.000004');
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_payer').initial_user).toBe('U0ANN');
    expect(element(form.view, 'form_also_paid').initial_users).toEqual(['U0BOB']);
    const participants = element(form.view, 'form_participants').initial_users as string[];
    const ack = await submit(h, {
      viewId: form.viewId,
      meta: form.meta,
      values: {
        ...formValues({
          amount: '60.00',
          currency: 'EUR',
          description: 'dinner',
          date: element(form.view, 'form_date').initial_date,
          participants,
          payer: 'U0ANN',
        }),
        form_also_paid: {
          form_also_paid: { type: 'multi_users_select', selected_users: ['U0BOB'] },
        },
      },
    });
    expect(ack.response_action).toBe('push');
    const paid = ack.view.blocks
      .filter((b: Loose) => b.type === 'input' && String(b.block_id).startsWith('form_paid_'))
      .map((b: Loose) => b.element?.initial_value);
    expect(paid).toEqual(['40.00', '20.00']);
  });

  it('refuses someone who is not on the expense', async () => {
    const out = await h.split('12 snacks <@U0BOB>');
    const blocks = out.answer.body.blocks as unknown[];
    const since = h.slack.now();
    await clickDuplicate(expenseIdIn(blocks), blocks, '1700000200.000002', 'U0DAN');
    const form = await formOpened(h, since);
    expect(JSON.stringify(form.view)).toContain(
      "Only the people on this expense can duplicate it, and you're not one of them.",
    );
  });
});
