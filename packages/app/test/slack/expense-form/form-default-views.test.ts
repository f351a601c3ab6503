/**
 * The expense form refilled from a group's default split, by value: the people and method inputs
 * under new block_ids with the default's values, the note, everything else as it was; and the
 * form's check reading those inputs under any version of their block_id.
 */

import type { Loose } from '@split/service-emulator/testing';
import { describe, expect, it } from 'vitest';
import {
  defaultNoteText,
  type GroupDefaultFill,
  withGroupDefault,
} from '../../../src/slack/expense-form/default-view.js';
import { checkForm, type StateValues } from '../../../src/slack/expense-form/form.js';
import { expenseFormView, type ModalView } from '../../../src/slack/expense-form/views.js';
import type { SplitDefault } from '../../../src/store/index.js';
import { voiceFor } from '../../../src/voice/index.js';
import { viewErrors } from '../../support/block-kit-limits.js';

const rent: SplitDefault = {
  group_id: 7,
  group_name: 'Roommates',
  kind: 'percent',
  parts: [
    { slack_id: 'U0ANN', service_user_id: 1, value: 6000 },
    { slack_id: 'U0BOB', service_user_id: 2, value: 4000 },
  ],
  set_by: 'U0ANN',
  set_at: '2026-11-21T09:00:00.000Z',
};
const en = await voiceFor({ locale: 'en-US' });
const fill: GroupDefaultFill = { saved: rent, groupName: 'Roommates', gone: [] };

function form(): ModalView {
  return expenseFormView(
    {
      mode: 'new',
      meta: '{"v":1,"c":"C0FLAT"}',
      initial: {
        currency: 'EUR',
        date: '2026-11-21',
        participants: ['U0ANN', 'U0CHO'],
        payer: 'U0ANN',
      },
      groups: [
        { id: 7, name: 'Roommates' },
        { id: 8, name: 'Studio' },
      ],
    },
    en,
  );
}

const blockOf = (view: ModalView, id: string) =>
  (view.blocks as Loose[]).find((b) => b.block_id === id);

describe('the form refilled from a group default', () => {
  it('has a Group select that dispatches its choice', () => {
    expect(blockOf(form(), 'form_group')?.dispatch_action).toBe(true);
  });

  it('puts the default people and kind under new block_ids, with a note, and keeps the rest', () => {
    const before = form();
    const after = withGroupDefault(before, fill, en);
    if (!after) throw new Error('no view');
    expect(viewErrors(after)).toEqual([]);
    expect(after.blocks[0]).toEqual({
      type: 'context',
      block_id: 'form_default_note',
      elements: [{ type: 'mrkdwn', text: 'Filled in from the default split of Roommates: 60/40.' }],
    });
    const people = blockOf(after, 'form_participants~1');
    expect(people?.element).toMatchObject({
      type: 'multi_users_select',
      action_id: 'form_participants',
      initial_users: ['U0ANN', 'U0BOB'],
    });
    const method = blockOf(after, 'form_split~1');
    expect(method?.element.action_id).toBe('form_split');
    expect(method?.element.initial_option.value).toBe('percent');
    expect(blockOf(after, 'form_participants')).toBeUndefined();
    expect(blockOf(after, 'form_split')).toBeUndefined();
    // Every other block is as it was, so Slack keeps what the person typed in it.
    const others = (v: ModalView) =>
      (v.blocks as Loose[]).filter(
        (b) => !/^form_(participants|split|default_note)/.test(b.block_id ?? ''),
      );
    expect(others(after)).toEqual(others(before));
    expect({ ...after, blocks: [] }).toEqual({ ...before, blocks: [] });
  });

  it('moves to the next version and replaces its note when another default is picked', () => {
    const once = withGroupDefault(form(), fill, en);
    const studio: SplitDefault = {
      ...rent,
      group_id: 8,
      group_name: 'Studio',
      kind: 'shares',
      parts: [
        { slack_id: 'U0ANN', service_user_id: 1, value: 2 },
        { slack_id: 'U0CHO', service_user_id: 3, value: 1 },
      ],
    };
    const twice = withGroupDefault(once!, { saved: studio, groupName: 'Studio', gone: [] }, en);
    if (!twice) throw new Error('no view');
    expect(blockOf(twice, 'form_participants~2')?.element.initial_users).toEqual([
      'U0ANN',
      'U0CHO',
    ]);
    expect(blockOf(twice, 'form_split~2')?.element.initial_option.value).toBe('shares');
    const notes = (twice.blocks as Loose[]).filter((b) => b.block_id === 'form_default_note');
    expect(notes.map((n) => n.elements[0].text)).toEqual([
      'Filled in from the default split of Studio: 2:1 shares.',
    ]);
    expect(twice.blocks).toHaveLength(form().blocks.length + 1);
  });

  it('leaves out and names whoever left the group', () => {
    const gone = { ...fill, gone: [rent.parts[1]!] };
    const after = withGroupDefault(form(), gone, en);
    expect(blockOf(after!, 'form_participants~1')?.element.initial_users).toEqual(['U0ANN']);
    expect(defaultNoteText(gone, en)).toBe(
      'Filled in from the default split of Roommates: 60/40. <@U0BOB> left Roommates since, so I left them out: check the parts in the next step.',
    );
  });

  it('escapes the group name in the note', () => {
    expect(defaultNoteText({ ...fill, groupName: 'A&B <crew>' }, en)).toBe(
      'Filled in from the default split of A&amp;B &lt;crew&gt;: 60/40.',
    );
  });

  it('fills nothing in a form whose people cannot be edited', () => {
    const fixed = expenseFormView(
      {
        mode: 'edit',
        meta: '{"v":1,"e":5}',
        initial: { date: '2026-11-21', participants: ['U0ANN'], payer: 'U0ANN' },
        groups: [{ id: 7, name: 'Roommates' }],
        peopleEditable: false,
        people: ['Ann', 'someone outside Slack'],
      },
      en,
    );
    expect(withGroupDefault(fixed, fill, en)).toBeUndefined();
  });

  it('is opened with the note when the form starts from the default', () => {
    const opened = expenseFormView(
      {
        mode: 'new',
        meta: '{"v":1}',
        initial: { date: '2026-11-21', participants: ['U0ANN', 'U0BOB'], payer: 'U0ANN' },
        byDefault: fill,
      },
      en,
    );
    expect(blockOf(opened, 'form_default_note')?.elements[0].text).toBe(
      'Filled in from the default split of Roommates: 60/40.',
    );
  });
});

describe('the form check reads refilled inputs', () => {
  const base: StateValues = {
    form_amount: { form_amount: { value: '100' } },
    form_currency: { form_currency: { selected_option: { value: 'EUR' } } },
    form_description: { form_description: { value: 'Rent' } },
    form_payer: { form_payer: { selected_user: 'U0ANN' } },
    form_group: { form_group: { selected_option: { value: '7' } } },
  };
  const ctx = { today: '2026-11-21', knownCurrency: () => true, voice: en };

  it('under a versioned block_id', () => {
    const checked = checkForm(
      {
        ...base,
        'form_participants~2': { form_participants: { selected_users: ['U0ANN', 'U0BOB'] } },
        'form_split~2': { form_split: { selected_option: { value: 'percent' } } },
      },
      ctx,
      en,
    );
    if ('errors' in checked) throw new Error(JSON.stringify(checked.errors));
    expect(checked.form).toMatchObject({
      participants: ['U0ANN', 'U0BOB'],
      method: 'percent',
      group_id: 7,
    });
  });

  it('and under the plain one', () => {
    const checked = checkForm(
      {
        ...base,
        form_participants: { form_participants: { selected_users: ['U0ANN', 'U0BOB'] } },
        form_split: { form_split: { selected_option: { value: 'shares' } } },
      },
      ctx,
      en,
    );
    if ('errors' in checked) throw new Error(JSON.stringify(checked.errors));
    expect(checked.form.method).toBe('shares');
  });

  it('puts an error under the block_id the input has now', () => {
    const checked = checkForm(
      { ...base, 'form_participants~1': { form_participants: { selected_users: [] } } },
      ctx,
      en,
    );
    expect(checked).toEqual({
      errors: { 'form_participants~1': 'Nobody to split with: add the people who share it.' },
    });
  });

  it('ignores a block_id that only looks like a version', () => {
    const checked = checkForm(
      {
        ...base,
        'form_participants~x': { form_participants: { selected_users: ['U0ANN', 'U0BOB'] } },
      },
      ctx,
      en,
    );
    expect(checked).toEqual({
      errors: { form_participants: 'Nobody to split with: add the people who share it.' },
    });
  });
});
