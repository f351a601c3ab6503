/**
 * The form's Itemise mode end to end, pressed in the simulated workspace as a person would:
 * `/split` alone, choose Itemise, type items, tip and tax, see the total and shares (Preview, or
 * a Submit that shows them first), Book it, and read the expense back from the emulator.
 */

import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors, viewErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  SIGNING_SECRET,
  startHarness,
} from '../../support/harness.js';
import { expenseIdIn, formValues } from '../../support/modal-support.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let cho: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho' });
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
});
afterAll(() => h?.close());

const today = () => new Date().toISOString().slice(0, 10);

/** Opens the form with `/split` and fills its first step for an itemised dinner of `amount`. */
async function itemiseStep(amount: string, description: string): Promise<Loose> {
  const since = h.slack.now();
  await h.slack.act.message({ as: 'U0ANN', channel: 'C0001', text: '/split' });
  const opened = await h.slack.waitForCall('views.open', (c) => c.at >= since && c.status === 200);
  const root = (opened.response as Loose).view.id as string;
  await h.slack.waitForCall('views.update', (c) => c.args.view_id === root && c.status === 200);
  const answer = await h.slack.act.submitView({
    as: 'U0ANN',
    view_id: root,
    values: formValues({
      amount,
      currency: 'EUR',
      description,
      date: today(),
      participants: ['U0ANN', 'U0BOB', 'U0CHO'],
      payer: 'U0ANN',
      split: 'itemise',
    }),
  });
  expect(answer.errors).toBeUndefined();
  const step = h.slack.modals('U0ANN').at(-1) as Loose;
  expect(step.callback_id).toBe('expense_form_itemise');
  return step;
}

/** The step's state as Slack sends it: each person's items, then shared, tip and tax. */
function itemValues(
  items: Array<string | null>,
  extra: { shared?: string; tip?: string; tax?: string } = {},
) {
  const leaf = (id: string, value: string | null | undefined) => ({
    [id]: { [id]: { type: 'plain_text_input', value: value ?? null } },
  });
  return {
    ...Object.assign({}, ...items.map((v, i) => leaf(`form_value_${i}`, v))),
    ...leaf('form_item_shared', extra.shared),
    ...leaf('form_item_tip', extra.tip),
    ...leaf('form_item_tax', extra.tax),
  };
}

function current(viewId: string): Loose {
  const view = h.slack.modals('U0ANN').find((v) => v.id === viewId) as Loose | undefined;
  if (!view) throw new Error(`view ${viewId} is not open`);
  return view;
}

function preview(view: Loose): string {
  const blocks = (view.view?.blocks ?? view.blocks) as Loose[];
  return blocks.find((b) => b.block_id === 'form_item_preview')?.text.text ?? '';
}

async function expense(id: number): Promise<Loose> {
  const reply = await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${id}`);
  expect(reply.status).toBe(200);
  return reply.body.expense;
}

describe('the form itemises a bill', () => {
  it('shows the total and shares before booking, then books exactly those', async () => {
    const step = await itemiseStep('80', 'Itemised dinner');
    const labels = ((step.view?.blocks ?? step.blocks) as Loose[])
      .filter((b) => b.type === 'input')
      .map((b) => b.label.text);
    expect(labels).toEqual(['ann', 'bob', 'cho', 'Shared by everyone', 'Tip', 'Tax']);
    expect(viewErrors(step.view ?? step)).toEqual([]);

    // Preview with a first guess: the view is redrawn with the shares.
    const first = itemValues([null, '30', '20+5'], { tip: '10%' });
    await h.slack.act.action({
      as: 'U0ANN',
      container: { type: 'view', view_id: step.id },
      action: { action_id: 'form_item_preview', block_id: 'form_item_actions', type: 'button' },
      state: first,
    });
    await h.slack.waitForCall('views.update', (c) => c.args.view_id === step.id);
    expect(preview(current(step.id))).toBe(
      [
        '*Total €88.00* · Subtotal €80.00 + tip 10% €8.00',
        '• ann: *€27.50*',
        '• bob: *€33.00*',
        '• cho: *€27.50*',
      ].join('\n'),
    );

    // The tax added after the preview: Submit shows the new shares instead of booking.
    const before = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses');
    const final = itemValues([null, '30', '20+5'], { tip: '15%', tax: '8%' });
    const shown = await h.slack.act.submitView({ as: 'U0ANN', view_id: step.id, values: final });
    expect(shown.errors).toBeUndefined();
    const updated = current(step.id);
    expect(viewErrors(updated.view ?? updated)).toEqual([]);
    expect(preview(updated)).toBe(
      [
        '*Total €98.40* · Subtotal €80.00 + tip 15% €12.00 + tax 8% €6.40',
        '• ann: *€30.75*',
        '• bob: *€36.90*',
        '• cho: *€30.75*',
      ].join('\n'),
    );
    const notYet = await call(h.emu.url, ann.apiKey, 'GET', 'get_expenses');
    expect(notYet.body.expenses.length).toBe(before.body.expenses.length);

    // Submit again, the preview matching: booked, and what was booked is what was shown.
    const since = h.slack.now();
    await h.slack.act.submitView({ as: 'U0ANN', view_id: step.id, values: final });
    expect(h.slack.modals('U0ANN')).toEqual([]);
    const posted = await h.slack.waitForCall(
      'chat.postMessage',
      (c) => c.at >= since && JSON.stringify(c.args.blocks ?? '').includes('expense_edit'),
    );
    expect(blockKitErrors(posted.args.blocks, 'message')).toEqual([]);
    const line = 'Subtotal €80.00 + tip 15% €12.00 + tax 8% €6.40 = total €98.40';
    expect(blocksText(posted.args.blocks)).toContain(line);
    const e = await expense(expenseIdIn(posted.args.blocks));
    expect(e.description).toBe('Itemised dinner');
    expect(e.cost).toBe('98.4');
    expect(e.details).toContain(line);
    const owed = Object.fromEntries(e.users.map((u: Loose) => [u.user_id, u.owed_share]));
    expect(owed).toEqual({
      [ann.serviceId]: '30.75',
      [bob.serviceId]: '36.9',
      [cho.serviceId]: '30.75',
    });
  });

  it('splits shared items among everyone', async () => {
    const step = await itemiseStep('40', 'Shared platter');
    const values = itemValues(['10', '10', '10'], { shared: '4+6' });
    await h.slack.act.submitView({ as: 'U0ANN', view_id: step.id, values });
    expect(preview(current(step.id))).toContain('• ann: *€13.34*');
    const since = h.slack.now();
    await h.slack.act.submitView({ as: 'U0ANN', view_id: step.id, values });
    const posted = await h.slack.waitForCall(
      'chat.postMessage',
      (c) => c.at >= since && JSON.stringify(c.args.blocks ?? '').includes('expense_edit'),
    );
    const e = await expense(expenseIdIn(posted.args.blocks));
    expect(e.cost).toBe('40.0');
    const owed = Object.fromEntries(e.users.map((u: Loose) => [u.user_id, u.owed_share]));
    expect(owed).toEqual({
      [ann.serviceId]: '13.34',
      [bob.serviceId]: '13.33',
      [cho.serviceId]: '13.33',
    });
  });

  it("takes a sum in the first step's Amount", async () => {
    const since = h.slack.now();
    await h.slack.act.message({ as: 'U0ANN', channel: 'C0001', text: '/split' });
    const opened = await h.slack.waitForCall(
      'views.open',
      (c) => c.at >= since && c.status === 200,
    );
    const root = (opened.response as Loose).view.id as string;
    await h.slack.waitForCall('views.update', (c) => c.args.view_id === root && c.status === 200);
    const answer = await h.slack.act.submitView({
      as: 'U0ANN',
      view_id: root,
      values: formValues({
        amount: '12,50 + 7,25',
        currency: 'EUR',
        description: 'Summed lunch',
        date: today(),
        participants: ['U0ANN', 'U0BOB'],
        payer: 'U0ANN',
      }),
    });
    expect(answer.errors).toBeUndefined();
    const posted = await h.slack.waitForCall(
      'chat.postMessage',
      (c) => c.at >= since && JSON.stringify(c.args.blocks ?? '').includes('Summed lunch'),
    );
    const e = await expense(expenseIdIn(posted.args.blocks));
    expect(e.cost).toBe('19.75');
    const owed = Object.fromEntries(e.users.map((u: Loose) => [u.user_id, u.owed_share]));
    expect(owed).toEqual({ [ann.serviceId]: '9.88', [bob.serviceId]: '9.87' });
  });

  it('puts each mistake under the field it is in, booking nothing', async () => {
    const step = await itemiseStep('50', 'Wrong dinner');
    const bad = await h.slack.act.submitView({
      as: 'U0ANN',
      view_id: step.id,
      values: itemValues([null, '12++3', '10'], { tip: '150%', tax: 'lots' }),
    });
    expect(bad.errors).toEqual({
      form_value_1: '"12++3" isn\'t a sum I can read: put one + between numbers, like 12.50+7.',
      form_item_tip: 'Tip and tax go up to 100%.',
      form_item_tax:
        'I can\'t read "lots" as a tip or tax. Write a percentage like 15% or an amount like 10.',
    });
    const over = await h.slack.act.submitView({
      as: 'U0ANN',
      view_id: step.id,
      values: itemValues(['30', '20', '10']),
    });
    expect(over.errors).toEqual({
      form_value_0:
        'The items come to €60.00, more than the amount (€50.00 before tip and tax). Check the items, or go back and change the amount.',
    });
    const short = await h.slack.act.submitView({
      as: 'U0ANN',
      view_id: step.id,
      values: itemValues(['10', '20', '10']),
    });
    expect(short.errors).toEqual({
      form_value_0:
        'The items come to €40.00, €10.00 short of the amount (€50.00): leave someone empty to give them the rest, or put it under Shared by everyone.',
    });
    expect(preview(current(step.id))).toBe(
      'Press Preview to see the total and each share before booking.',
    );
  });
});
