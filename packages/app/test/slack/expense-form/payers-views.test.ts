/** Several payers and repeats in the pure parts: the expense message, the form's views and checks. */
import { describe, expect, it } from 'vitest';
import { type BookedExpense, expenseMessage } from '../../../src/slack/booking/expense-message.js';
import {
  type CheckedForm,
  checkForm,
  checkSplitStep,
  needsSecondStep,
  type StateValues,
} from '../../../src/slack/expense-form/form.js';
import { expenseFormView, splitStepView } from '../../../src/slack/expense-form/views.js';
import { LIMITS } from '../../../src/slack/kit/limits.js';
import { voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors, viewErrors } from '../../support/block-kit-limits.js';

const en = await voiceFor({ locale: 'en-US' });

const dinner: BookedExpense = {
  id: 7,
  description: 'Dinner',
  cost: 6000,
  currency: 'EUR',
  date: '2026-11-20',
  payer: { slack: 'U001' },
  lines: [
    { who: { slack: 'U001' }, paid: 4000, owed: 2000 },
    { who: { slack: 'U003' }, paid: 0, owed: 2000 },
    { who: { slack: 'U002' }, paid: 2000, owed: 2000 },
  ],
  group: null,
  split: 'equal',
  bookedBy: 'U001',
};

describe('expense message with several payers', () => {
  it('lists each payer with what they paid, and each person paid, share and balance', () => {
    const m = expenseMessage(dinner, en);
    expect(m.text).toBe('<@U001> (€40.00) and <@U002> (€20.00) paid €60.00 for Dinner');
    expect(m.blocks[1]).toEqual({
      type: 'section',
      block_id: 'expense_facts',
      fields: [
        { type: 'mrkdwn', text: '*Cost*\n€60.00' },
        { type: 'mrkdwn', text: '*Date*\nFri, Nov 20, 2026' },
        { type: 'mrkdwn', text: '*Paid by*\n<@U001> €40.00\n<@U002> €20.00' },
        { type: 'mrkdwn', text: '*Split*\nsplit equally' },
      ],
    });
    expect(m.blocks[2]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: [
          '• <@U001>: paid *€40.00* · share €20.00 · is owed €20.00',
          '• <@U003>: share €20.00 · owes €20.00',
          '• <@U002>: paid *€20.00* · share €20.00 · settled up',
        ].join('\n'),
      },
    });
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
  });

  it('says how often it repeats, in the facts and the fallback text', () => {
    const m = expenseMessage({ ...dinner, repeat: 'monthly' }, en);
    expect(JSON.stringify(m.blocks[1])).toContain('*Repeats*\\nmonthly');
    expect(m.text).toBe(
      '<@U001> (€40.00) and <@U002> (€20.00) paid €60.00 for Dinner · repeats monthly',
    );
    expect(JSON.stringify(expenseMessage(dinner, en).blocks)).not.toContain('Repeats');
  });

  it('stays within Slack limits with many payers', () => {
    const lines = Array.from({ length: 300 }, (_, i) => ({
      who: { name: `Payer ${i} with a long name`.repeat(4) },
      paid: 20,
      owed: 20,
    }));
    const m = expenseMessage({ ...dinner, lines, cost: 6000 }, en);
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
    expect(m.text.length).toBeLessThanOrEqual(LIMITS.fallbackText);
  });
});

const form: CheckedForm = {
  cost: 4000,
  currency: 'EUR',
  description: 'Groceries',
  date: '2026-11-20',
  category_id: null,
  group_id: null,
  participants: ['U001', 'U002'],
  payer: 'U001',
  alsoPaid: ['U002'],
  method: 'equal',
  notes: '',
  repeat: 'never',
  files: [],
};

const typed = (entries: Record<string, string | null>): StateValues =>
  Object.fromEntries(Object.entries(entries).map(([id, value]) => [id, { [id]: { value } }]));

describe('the form with several payers', () => {
  it('offers "Also paid by" after "Paid by", pre-filled', () => {
    const view = expenseFormView(
      {
        mode: 'edit',
        meta: '{}',
        initial: { date: '2026-11-20', participants: ['U001'], payer: 'U001', alsoPaid: ['U002'] },
      },
      en,
    );
    const ids = view.blocks.map((b) => b.block_id);
    expect(ids.indexOf('form_also_paid')).toBe(ids.indexOf('form_payer') + 1);
    expect(view.blocks[ids.indexOf('form_also_paid')]).toMatchObject({
      optional: true,
      label: { text: 'Also paid by' },
      element: { type: 'multi_users_select', initial_users: ['U002'], max_selected_items: 9 },
    });
    expect(viewErrors(view)).toEqual([]);
  });

  it('reads the other payers without the payer, and goes on to the second step', () => {
    const values: StateValues = {
      ...typed({ form_amount: '40', form_description: 'Groceries' }),
      form_currency: { form_currency: { selected_option: { value: 'EUR' } } },
      form_participants: { form_participants: { selected_users: ['U001', 'U002'] } },
      form_payer: { form_payer: { selected_user: 'U001' } },
      form_also_paid: { form_also_paid: { selected_users: ['U001', 'U002', 'U002'] } },
    };
    const checked = checkForm(values, { today: '2026-11-21', knownCurrency: () => true }, en);
    if ('errors' in checked) throw new Error(JSON.stringify(checked.errors));
    expect(checked.form.alsoPaid).toEqual(['U002']);
    expect(needsSecondStep(checked.form)).toBe(true);
    const { alsoPaid: _, ...onePayer } = checked.form;
    expect(needsSecondStep(onePayer)).toBe(false);
  });

  it('refuses more than ten payers', () => {
    const checked = checkForm(
      {
        form_payer: { form_payer: { selected_user: 'U000' } },
        form_also_paid: {
          form_also_paid: { selected_users: Array.from({ length: 10 }, (_, i) => `U${i + 1}`) },
        },
      },
      { today: '2026-11-21', knownCurrency: () => true },
      en,
    );
    expect('errors' in checked && checked.errors.form_also_paid).toBe(
      'At most 10 payers in one expense here.',
    );
  });

  it('refuses several payers with Itemise, under "Also paid by"', () => {
    const values: StateValues = {
      ...typed({ form_amount: '40', form_description: 'Dinner' }),
      form_currency: { form_currency: { selected_option: { value: 'EUR' } } },
      form_participants: { form_participants: { selected_users: ['U001', 'U002'] } },
      form_payer: { form_payer: { selected_user: 'U001' } },
      form_also_paid: { form_also_paid: { selected_users: ['U002'] } },
      form_split: { form_split: { selected_option: { value: 'itemise' } } },
    };
    const checked = checkForm(values, { today: '2026-11-21', knownCurrency: () => true }, en);
    expect('errors' in checked && checked.errors).toEqual({
      form_also_paid:
        'Itemise books one payer: leave this empty, or split by exact amounts to record several.',
    });
  });

  it('asks what each paid, then the split, in one step within Slack limits', () => {
    const view = splitStepView(
      {
        method: 'exact',
        cost: 4000,
        currency: 'EUR',
        participants: ['U001', 'U002'],
        payers: ['U001', 'U002'],
        paidValues: { U001: '25.00' },
        names: { U001: 'ann', U002: 'bob' },
        meta: '{}',
      },
      en,
    );
    expect(view.blocks.map((b) => b.block_id)).toEqual([
      'form_paid_info',
      'form_paid_0',
      'form_paid_1',
      'form_split_info',
      'form_value_0',
      'form_value_1',
    ]);
    expect(view.blocks[1]).toMatchObject({
      label: { text: 'ann paid' },
      element: { initial_value: '25.00' },
    });
    expect(viewErrors(view)).toEqual([]);
    const equal = splitStepView(
      {
        method: 'equal',
        cost: 4000,
        currency: 'EUR',
        participants: ['U001', 'U002'],
        payers: ['U001', 'U002'],
        names: {},
        meta: '{}',
      },
      en,
    );
    expect(equal.title.text).toBe('Who paid what');
    expect(equal.blocks.map((b) => b.block_id)).toEqual([
      'form_paid_info',
      'form_paid_0',
      'form_paid_1',
    ]);
  });

  it('books what each paid when it adds up to the cost', () => {
    const checked = checkSplitStep(form, typed({ form_paid_0: '25', form_paid_1: '15,00' }), en);
    expect(checked).toEqual({
      form: { ...form, values: {}, paid: { U001: '25', U002: '15,00' } },
      split: { kind: 'equal' },
      payers: [
        { id: 'U001', amount: 2500 },
        { id: 'U002', amount: 1500 },
      ],
    });
  });

  it.each([
    [
      { form_paid_0: '25', form_paid_1: '25' },
      {
        form_paid_0:
          'Together they paid €50.00, but the cost is €40.00: what each paid must add up to the cost.',
      },
    ],
    [
      { form_paid_0: '40', form_paid_1: '' },
      { form_paid_1: 'Type what this payer paid: each payer needs an amount.' },
    ],
    [
      { form_paid_0: '40', form_paid_1: '0' },
      { form_paid_1: 'The amount must be more than zero.' },
    ],
    [{ form_paid_0: 'lots', form_paid_1: '10' }, { form_paid_0: expect.stringContaining('lots') }],
  ])('refuses %j under the payer', (values, errors) => {
    expect(checkSplitStep(form, typed(values), en)).toEqual({ errors });
  });
});
