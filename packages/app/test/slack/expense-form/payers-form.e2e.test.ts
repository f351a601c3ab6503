/**
 * Several payers and a repeat in the expense form, end to end: the form opened by `/split`, a
 * second payer added under "Also paid by", the second step asking what each paid, the booking
 * read back from the emulator; refusals under the fields; and Edit keeping the payers.
 */

import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMinor } from '../../../src/core/money.js';
import { blockKitErrors, viewErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';
import {
  element,
  expenseIdIn,
  type FormFields,
  formOpened,
  formValues,
  stepValues,
  submit,
} from '../../support/modal-support.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;
let cho: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  cho = await h.link({ slackId: 'U0CHO', first_name: 'Cho' });
});
afterAll(() => h?.close());

const today = () => new Date().toISOString().slice(0, 10);

function values(fields: FormFields, alsoPaid: string[]) {
  return {
    ...formValues({
      amount: '40',
      currency: 'EUR',
      description: 'Groceries',
      date: today(),
      participants: ['U0ANN', 'U0BOB'],
      payer: 'U0ANN',
      ...fields,
    }),
    form_also_paid: {
      form_also_paid: { type: 'multi_users_select', selected_users: alsoPaid },
    },
  };
}

function paidValues(amounts: Array<string | null>) {
  return Object.fromEntries(
    amounts.map((v, i) => [
      `form_paid_${i}`,
      { [`form_paid_${i}`]: { type: 'plain_text_input', value: v } },
    ]),
  );
}

async function openFromCommand() {
  const since = h.slack.now();
  const response = await h.sender.command({ text: '' });
  expect(response.status).toBe(200);
  return formOpened(h, since);
}

async function expense(id: number): Promise<Loose> {
  const reply = await call(h.emu.url, ann.apiKey, 'GET', `get_expense/${id}`);
  expect(reply.status).toBe(200);
  return reply.body.expense;
}

/** Paid and owed shares in cents, by name. */
function shares(e: Loose): Record<string, { paid: number; owed: number }> {
  const names = new Map([
    [ann.serviceId, 'ann'],
    [bob.serviceId, 'bob'],
    [cho.serviceId, 'cho'],
  ]);
  return Object.fromEntries(
    e.users.map((u: Loose) => [
      names.get(u.user_id) ?? String(u.user_id),
      { paid: parseMinor(u.paid_share, 2), owed: parseMinor(u.owed_share, 2) },
    ]),
  );
}

async function posted(since: number) {
  const found = await h.slack.waitForCall(
    'chat.postMessage',
    (c) => c.at >= since && JSON.stringify(c.args.blocks ?? '').includes('expense_edit'),
  );
  expect(blockKitErrors(found.args.blocks, 'message')).toEqual([]);
  return found;
}

/** Submits the first step, expecting the second; returns the pushed view. */
async function firstStep(form: { viewId: string; meta: string }, v: ReturnType<typeof values>) {
  const ack = await submit(h, { viewId: form.viewId, meta: form.meta, values: v });
  expect(ack?.response_action, JSON.stringify(ack)).toBe('push');
  expect(viewErrors(ack.view)).toEqual([]);
  return ack.view as Loose;
}

let steps = 0;
async function secondStep(
  form: { viewId: string },
  step: Loose,
  v: Record<string, Record<string, Record<string, unknown>>>,
) {
  steps += 1;
  return submit(h, {
    viewId: `V0PAID${steps}`,
    callback_id: 'expense_form_split',
    meta: step.private_metadata,
    root_view_id: form.viewId,
    previous_view_id: form.viewId,
    values: v,
  });
}

describe('several payers in the form', () => {
  it('offers "Also paid by", asks what each paid, and books it with the repeat', async () => {
    const form = await openFromCommand();
    // Nobody else paid yet: Slack refuses an empty initial_users, so there is none.
    const alsoPaid = element(form.view, 'form_also_paid');
    expect(alsoPaid).toMatchObject({ type: 'multi_users_select' });
    expect(alsoPaid).not.toHaveProperty('initial_users');
    const step = await firstStep(form, values({ repeat: 'monthly' }, ['U0BOB']));
    expect(step.title.text).toBe('Who paid what');
    expect(
      step.blocks.filter((b: Loose) => b.type === 'input').map((b: Loose) => b.label.text),
    ).toEqual(['ann paid', 'bob paid']);
    const since = h.slack.now();
    const done = await secondStep(form, step, paidValues(['25', '15']));
    expect(done).toEqual({ response_action: 'clear' });
    const message = await posted(since);
    const e = await expense(expenseIdIn(message.args.blocks));
    expect(shares(e)).toEqual({
      ann: { paid: 2500, owed: 2000 },
      bob: { paid: 1500, owed: 2000 },
    });
    expect(e.repeat_interval).toBe('monthly');
    const text = blocksText(message.args.blocks);
    expect(text).toContain('*Paid by*\n<@U0ANN> €25.00\n<@U0BOB> €15.00');
    expect(text).toContain('*Repeats*\nmonthly');
  });

  it('combines several payers with an exact split in one second step', async () => {
    const form = await openFromCommand();
    const step = await firstStep(
      form,
      values({ amount: '90', split: 'exact', participants: ['U0ANN', 'U0BOB', 'U0CHO'] }, [
        'U0CHO',
      ]),
    );
    expect(step.title.text).toBe('Exact amounts');
    expect(
      step.blocks.filter((b: Loose) => b.type === 'input').map((b: Loose) => b.label.text),
    ).toEqual(['ann paid', 'cho paid', 'ann', 'bob', 'cho']);
    const since = h.slack.now();
    const done = await secondStep(form, step, {
      ...paidValues(['60', '30']),
      ...stepValues(['10', '50', null]),
    });
    expect(done).toEqual({ response_action: 'clear' });
    const e = await expense(expenseIdIn((await posted(since)).args.blocks));
    expect(shares(e)).toEqual({
      ann: { paid: 6000, owed: 1000 },
      bob: { paid: 0, owed: 5000 },
      cho: { paid: 3000, owed: 3000 },
    });
  });

  it('refuses paid amounts that do not add up to the cost, under the first payer', async () => {
    const form = await openFromCommand();
    const step = await firstStep(form, values({}, ['U0BOB']));
    const ack = await secondStep(form, step, paidValues(['25', '10']));
    expect(ack).toEqual({
      response_action: 'errors',
      errors: {
        form_paid_0:
          'Together they paid €35.00, but the cost is €40.00: what each paid must add up to the cost.',
      },
    });
  });

  it('refuses a payer without an amount, under that payer', async () => {
    const form = await openFromCommand();
    const step = await firstStep(form, values({}, ['U0BOB']));
    const ack = await secondStep(form, step, paidValues(['40', null]));
    expect(ack).toEqual({
      response_action: 'errors',
      errors: { form_paid_1: 'Type what this payer paid: each payer needs an amount.' },
    });
  });
});

describe('Edit of an expense several people paid', () => {
  it('keeps the payers: pre-filled, and not resent when only the description changes', async () => {
    const out = await h.split('60 dinner <@U0CHO> paid by me 40 <@U0BOB> 20 weekly');
    const blocks = out.answer.body.blocks as unknown[];
    const id = expenseIdIn(blocks);
    const since = h.slack.now();
    const clicked = await h.sender.blockActions({
      user_id: 'U0ANN',
      actions: {
        action_id: 'expense_edit',
        block_id: 'expense_actions',
        value: JSON.stringify({ v: 1, e: id }),
      },
      message: { ts: '1700000200.000001', blocks, text: 'expense' },
      response_url: h.slack.responseUrl({ id: `edit-${id}` }),
    });
    expect(clicked.status).toBe(200);
    const form = await formOpened(h, since);
    expect(element(form.view, 'form_payer').initial_user).toBe('U0ANN');
    expect(element(form.view, 'form_also_paid').initial_users).toEqual(['U0BOB']);
    expect(element(form.view, 'form_repeat').initial_option.value).toBe('weekly');
    const step = await firstStep(
      form,
      values(
        {
          amount: '60.00',
          description: 'Dinner for three',
          date: element(form.view, 'form_date').initial_date,
          participants: element(form.view, 'form_participants').initial_users,
          category: element(form.view, 'form_category').initial_option?.value,
          group: '0',
          repeat: 'weekly',
        },
        ['U0BOB'],
      ),
    );
    const paidInputs = step.blocks.filter((b: Loose) => b.type === 'input');
    expect(paidInputs.map((b: Loose) => b.element.initial_value)).toEqual(['40.00', '20.00']);
    const done = await secondStep(form, step, paidValues(['40.00', '20.00']));
    expect(done).toEqual({ response_action: 'clear' });
    await h.app.deps.work.idle();
    const e = await expense(id);
    expect(e.description).toBe('Dinner for three');
    expect(e.repeat_interval).toBe('weekly');
    expect(shares(e)).toEqual({
      ann: { paid: 4000, owed: 2000 },
      cho: { paid: 0, owed: 2000 },
      bob: { paid: 2000, owed: 2000 },
    });
    const system = e.comments.filter((c: Loose) => c.comment_type === 'System');
    expect(system.at(-1).content).toBe(
      "Ann updated this transaction:\n- Description changed from 'dinner' to 'Dinner for three'",
    );
  });
});
