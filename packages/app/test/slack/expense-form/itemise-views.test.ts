/**
 * The form's Itemise step as pure functions: reading and checking what was typed, the preview,
 * and the view (by value, and within Slack's limits with 50 people and long texts).
 */

import type { Loose } from '@split/service-emulator/testing';
import { describe, expect, it } from 'vitest';
import { readAmount } from '../../../src/slack/expense-form/amount.js';
import {
  type CheckedForm,
  checkSplitStep,
  type StateValues,
} from '../../../src/slack/expense-form/form.js';
import {
  checkItemiseStep,
  itemiseTyped,
  previewText,
} from '../../../src/slack/expense-form/itemise.js';
import { itemiseStepView, shownPreview } from '../../../src/slack/expense-form/itemise-view.js';
import { voiceFor } from '../../../src/voice/index.js';
import { viewErrors } from '../../support/block-kit-limits.js';

const en = await voiceFor({ locale: 'en-US' });

const form: CheckedForm = {
  cost: 8000,
  currency: 'USD',
  description: 'Dinner',
  date: '2026-11-20',
  category_id: null,
  group_id: null,
  participants: ['U0ANN', 'U0BOB', 'U0CHO'],
  payer: 'U0ANN',
  method: 'itemise',
  notes: '',
  repeat: 'never',
  files: [],
};
const names = { U0ANN: 'Ann', U0BOB: 'Bob', U0CHO: 'Cho' };

function state(
  items: Array<string | null>,
  extra: { shared?: string; tip?: string; tax?: string } = {},
): StateValues {
  const out: StateValues = {};
  const put = (id: string, value: string | null | undefined) => {
    out[id] = { [id]: { type: 'plain_text_input', value: value ?? null } };
  };
  for (const [i, v] of items.entries()) put(`form_value_${i}`, v);
  put('form_item_shared', extra.shared);
  put('form_item_tip', extra.tip);
  put('form_item_tax', extra.tax);
  return out;
}

describe('checkItemiseStep', () => {
  it('books exact amounts that add up to the total, with the first step amount as subtotal', () => {
    const checked = checkItemiseStep(
      form,
      state([null, '30', '20 + 5'], { tip: '15%', tax: '8 %' }),
      en,
    );
    expect(checked).toEqual({
      itemised: {
        form: { ...form, cost: 9840, values: { U0BOB: '30', U0CHO: '20 + 5' } },
        split: {
          kind: 'exact',
          amounts: [
            { id: 'U0ANN', amount: 3075 },
            { id: 'U0BOB', amount: 3690 },
            { id: 'U0CHO', amount: 3075 },
          ],
        },
        summary: {
          subtotal: 8000,
          tip: { minor: 1200, basisPoints: 1500 },
          tax: { minor: 640, basisPoints: 800 },
          total: 9840,
        },
      },
    });
  });

  it('takes amounts for tip and tax, and shared items split among everyone', () => {
    const checked = checkItemiseStep(
      form,
      state(['20', '20', '20'], { shared: '10+10', tip: '4' }),
      en,
    );
    if (!('itemised' in checked)) throw new Error(JSON.stringify(checked));
    expect(checked.itemised.summary.total).toBe(8400);
    expect(checked.itemised.split).toEqual({
      kind: 'exact',
      amounts: [
        // Everyone had the same: 20 + 20/3 of the 80, so each owes a third of the 84, rounded
        // once (rounding the shared 20 first would have given 28.01, 28.00, 27.99).
        { id: 'U0ANN', amount: 2800 },
        { id: 'U0BOB', amount: 2800 },
        { id: 'U0CHO', amount: 2800 },
      ],
    });
  });

  it('refuses each bad field by name', () => {
    expect(
      checkItemiseStep(
        form,
        state(['€5', '1.234.5', '0.001'], { shared: '-3', tip: '12.345%', tax: '5+' }),
        en,
      ),
    ).toEqual({
      errors: {
        form_value_0:
          "That's in EUR: choose EUR under Currency in the first step, or type the numbers alone.",
        form_value_1: 'I can\'t read "1.234.5" as an amount: type a number, like 12.50.',
        form_value_2: 'USD has at most 2 decimals: "0.001" has more.',
        form_item_shared: "The amount can't be negative.",
        form_item_tip: 'A percentage takes at most two decimals, like 12.5%.',
        form_item_tax:
          '"5+" isn\'t a sum I can read: put one + between numbers, like 12.50+7. Write a percentage like 15% or an amount like 10.',
      },
    });
  });

  it('asks for items when there is nothing to split', () => {
    expect(checkItemiseStep({ ...form, participants: [] }, state([]), en)).toEqual({
      errors: { form_value_0: 'Enter at least one item.' },
    });
  });
});

describe('the preview', () => {
  it('shows the total, the breakdown and each share', () => {
    const checked = checkItemiseStep(
      form,
      state([null, '30', '25'], { tip: '15%', tax: '8%' }),
      en,
    );
    expect(previewText(checked, names, en)).toBe(
      [
        '*Total $98.40* · Subtotal $80.00 + tip 15% $12.00 + tax 8% $6.40',
        '• Ann: *$30.75*',
        '• Bob: *$36.90*',
        '• Cho: *$30.75*',
      ].join('\n'),
    );
  });

  it('shows the first problem, escaped', () => {
    expect(previewText({ errors: { x: 'Bad <b> & worse' } }, names, en)).toBe(
      ':warning: Bad &lt;b&gt; &amp; worse',
    );
  });
});

describe('itemiseStepView', () => {
  it('has an input per person, shared, tip and tax, a Preview button and the preview', () => {
    const view = itemiseStepView(
      {
        subtotal: 8000,
        currency: 'USD',
        participants: form.participants,
        names,
        typed: itemiseTyped(form, state([null, '30'], { tip: '15%' })),
        preview: 'the preview',
        meta: '{"v":1}',
      },
      en,
    );
    expect(view.callback_id).toBe('expense_form_itemise');
    expect(view.private_metadata).toBe('{"v":1}');
    const blocks = view.blocks as Loose[];
    expect(blocks.map((b) => b.block_id)).toEqual([
      'form_split_info',
      'form_value_0',
      'form_value_1',
      'form_value_2',
      'form_item_shared',
      'form_item_tip',
      'form_item_tax',
      'form_item_actions',
      'form_item_preview',
    ]);
    expect(blocks[1]!.element.initial_value).toBeUndefined();
    expect(blocks[2]!.element.initial_value).toBe('30');
    expect(blocks[5]!.element.initial_value).toBe('15%');
    expect(blocks[7]!.elements[0]).toMatchObject({
      type: 'button',
      action_id: 'form_item_preview',
    });
    expect(shownPreview(view)).toBe('the preview');
    expect(viewErrors(view)).toEqual([]);
  });

  it('stays within Slack limits with 50 people, long names and long text', () => {
    const people = Array.from({ length: 50 }, (_, i) => `U0P${i}`);
    const longNames = Object.fromEntries(people.map((id) => [id, 'N'.repeat(300)]));
    const view = itemiseStepView(
      {
        subtotal: 100_000_000_000,
        currency: 'USD',
        participants: people,
        names: longNames,
        typed: { items: { U0P1: '1+'.repeat(400) }, shared: '', tip: '', tax: '' },
        preview: 'x'.repeat(5000),
        meta: '{"v":1}',
      },
      en,
    );
    expect(viewErrors(view)).toEqual([]);
  });

  it('asks for a preview until one is shown', () => {
    const view = itemiseStepView(
      {
        subtotal: 100,
        currency: 'USD',
        participants: ['U0ANN'],
        names,
        meta: '{}',
      },
      en,
    );
    expect(shownPreview(view)).toBe(
      'Press Preview to see the total and each share before booking.',
    );
  });
});

describe("sums in the form's other amount fields", () => {
  it('reads the Amount and exact parts as sums, by the rules of /split', () => {
    expect(readAmount('12.50+7.25', 'USD', en)).toEqual({ minor: 1975 });
    expect(readAmount('12 + 3', 'EUR', en)).toEqual({ minor: 1500 });
    expect(readAmount('12++3', 'USD', en)).toEqual({
      error: '"12++3" isn\'t a sum I can read: put one + between numbers, like 12.50+7.',
    });
    expect(readAmount('€12+3', 'USD', en)).toEqual({
      error: "That's an amount in EUR: choose EUR under Currency, or type the number alone.",
    });
    const exact = checkSplitStep(
      { ...form, method: 'exact' },
      state(['10+5.50', '20+4.50', null]),
      en,
    );
    expect('split' in exact && exact.split).toEqual({
      kind: 'exact',
      amounts: [
        { id: 'U0ANN', amount: 1550 },
        { id: 'U0BOB', amount: 2450 },
      ],
    });
  });
});
