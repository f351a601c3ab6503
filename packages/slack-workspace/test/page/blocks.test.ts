import { describe, expect, it } from 'vitest';
import { collectValues, ValueStore } from '../../src/page/blocks/context.js';
import type { Block } from '../../src/page/types.js';
import { all, byClass, byRole, byTag, labelOf, one, text } from './html.js';
import { makeCtx, md, pt, renderBlocks } from './support.js';

const option = (label: string, value: string) => ({ text: pt(label), value });

describe('layout blocks', () => {
  it('renders a section with text, fields and a button accessory', () => {
    const root = renderBlocks([
      {
        type: 'section',
        block_id: 'summary',
        text: md('*Lunch* — 40.00 EUR'),
        fields: [md('*Paid by*\n<@U1>'), md('*Owes*\n<@U2>')],
        accessory: { type: 'button', action_id: 'edit', text: pt('Edit'), value: 'e1' },
      },
    ]);
    expect(byTag(root, 'strong').map(text)).toEqual(['Lunch', 'Paid by', 'Owes']);
    expect(byClass(root, 'bk-field').map(text)).toEqual(['Paid by\n@Ann', 'Owes\n@Bob']);
    const button = one(byTag(root, 'button'));
    expect(text(button)).toBe('Edit');
    expect(button.attrs.get('type')).toBe('button');
  });

  it('renders header, divider, context (text and image) and image blocks', () => {
    const root = renderBlocks([
      { type: 'header', text: pt('Balances :moneybag:') },
      { type: 'divider' },
      {
        type: 'context',
        elements: [
          { type: 'image', image_url: 'https://img.test/a.png', alt_text: 'avatar' },
          md('Updated by <@U2>'),
        ],
      },
      {
        type: 'image',
        image_url: 'https://img.test/r.png',
        alt_text: 'the receipt',
        title: pt('Receipt'),
      },
      { type: 'image', image_url: 'javascript:alert(1)', alt_text: 'bad' },
    ]);
    expect(text(one(byTag(root, 'h3')))).toBe('Balances 💰');
    expect(byTag(root, 'hr')).toHaveLength(1);
    expect(text(one(byClass(root, 'bk-context')))).toBe('Updated by @Bob');
    const images = byTag(root, 'img');
    expect(images.map((img) => [img.attrs.get('src'), img.attrs.get('alt')])).toEqual([
      ['https://img.test/a.png', 'avatar'],
      ['https://img.test/r.png', 'the receipt'],
    ]);
    expect(text(one(byTag(root, 'figcaption')))).toBe('Receipt');
  });

  it('renders rich_text sections, lists and styles', () => {
    const root = renderBlocks([
      {
        type: 'rich_text',
        elements: [
          {
            type: 'rich_text_section',
            elements: [
              { type: 'text', text: 'Hi ', style: { bold: true } },
              { type: 'user', user_id: 'U1' },
              { type: 'emoji', name: 'tada', unicode: '1f389' },
            ],
          },
          {
            type: 'rich_text_list',
            style: 'ordered',
            elements: [
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'one' }] },
              { type: 'rich_text_section', elements: [{ type: 'text', text: 'two' }] },
            ],
          },
        ],
      },
    ]);
    expect(text(one(byTag(root, 'strong')))).toBe('Hi ');
    expect(text(one(byClass(root, 'bk-mention')))).toBe('@Ann');
    expect(text(one(byClass(root, 'bk-emoji')))).toBe('🎉');
    expect(byTag(one(byTag(root, 'ol')), 'li').map(text)).toEqual(['one', 'two']);
  });

  it('shows an unknown block as a placeholder naming its type', () => {
    expect(text(renderBlocks([{ type: 'video' }]))).toBe('[video block]');
  });

  it('renders plain_text literally, even what looks like markup or mrkdwn', () => {
    const root = renderBlocks([
      { type: 'section', text: { type: 'plain_text', text: '*<b>x</b>* :tada:', emoji: false } },
    ]);
    expect(byTag(root, 'strong')).toHaveLength(0);
    expect(byTag(root, 'b')).toHaveLength(0);
    expect(text(root)).toBe('*<b>x</b>* :tada:');
  });
});

describe('interactive elements', () => {
  it('renders button styles, a link button and an overflow menu in an actions block', () => {
    const root = renderBlocks([
      {
        type: 'actions',
        elements: [
          { type: 'button', action_id: 'ok', text: pt('Save'), style: 'primary' },
          { type: 'button', action_id: 'del', text: pt('Delete'), style: 'danger' },
          { type: 'button', action_id: 'doc', text: pt('Docs'), url: 'https://docs.test' },
          { type: 'overflow', action_id: 'more', options: [option('Hide', 'h')] },
        ],
      },
    ]);
    const buttons = byTag(root, 'button');
    expect(buttons.map((b) => b.attrs.get('class'))).toEqual([
      'bk-button bk-button-primary',
      'bk-button bk-button-danger',
      'bk-button',
      'bk-button bk-overflow-button',
    ]);
    // A link button carries the external-link icon, drawn, after its text.
    expect(text(buttons[2]!)).toBe('Docs');
    expect(byTag(buttons[2]!, 'svg')).toHaveLength(1);
    expect(buttons[3]!.attrs.get('aria-label')).toBe('More options');
    expect(buttons[3]!.attrs.get('aria-haspopup')).toBe('menu');
  });

  it('labels every input block field and marks optional ones', () => {
    const root = renderBlocks(
      [
        {
          type: 'input',
          block_id: 'amount',
          label: pt('Amount'),
          element: { type: 'number_input', action_id: 'v', is_decimal_allowed: true },
        },
        {
          type: 'input',
          block_id: 'note',
          optional: true,
          label: pt('Notes'),
          hint: pt('Shown on the expense'),
          element: {
            type: 'plain_text_input',
            action_id: 'v',
            multiline: true,
            initial_value: 'hi',
          },
        },
        {
          type: 'input',
          block_id: 'when',
          label: pt('Date'),
          element: { type: 'datepicker', action_id: 'v', initial_date: '2026-03-01' },
        },
        {
          type: 'input',
          block_id: 'at',
          label: pt('Time'),
          element: { type: 'timepicker', action_id: 'v', initial_time: '09:30' },
        },
      ],
      makeCtx({ surface: 'modal' }),
    );
    const fields = all(root, (el) => el.tag === 'input' || el.tag === 'textarea');
    expect(fields.map((f) => labelOf(root, f))).toEqual([
      'Amount',
      'Notes (optional)',
      'Date',
      'Time',
    ]);
    expect(fields[0]!.attrs.get('inputmode')).toBe('decimal');
    expect(fields[1]!.tag).toBe('textarea');
    expect(fields[1]!.attrs.get('value') ?? text(fields[1]!)).toBe('hi');
    expect(fields.slice(2).map((f) => [f.attrs.get('type'), f.attrs.get('value')])).toEqual([
      ['date', '2026-03-01'],
      ['time', '09:30'],
    ]);
    expect(text(one(byClass(root, 'bk-hint')))).toBe('Shown on the expense');
  });

  it('shows a block error under its field and ties it to the field', () => {
    const root = renderBlocks(
      [
        {
          type: 'input',
          block_id: 'amount',
          label: pt('Amount'),
          element: { type: 'plain_text_input', action_id: 'v' },
        },
      ],
      makeCtx({ surface: 'modal', errors: { amount: 'Must be above zero' } }),
    );
    const alert = one(byRole(root, 'alert'));
    expect(text(alert)).toBe('Must be above zero');
    const input = one(byTag(root, 'input'));
    expect(input.attrs.get('aria-describedby')).toBe(alert.attrs.get('id'));
    expect(input.attrs.get('aria-invalid')).toBe('true');
  });

  it('renders checkboxes and radio buttons as labelled groups with initial choices', () => {
    const root = renderBlocks(
      [
        {
          type: 'input',
          block_id: 'who',
          label: pt('Who shares'),
          element: {
            type: 'checkboxes',
            action_id: 'v',
            options: [option('Ann', 'U1'), option('Bob', 'U2')],
            initial_options: [option('Bob', 'U2')],
          },
        },
        {
          type: 'input',
          block_id: 'how',
          label: pt('Split'),
          element: {
            type: 'radio_buttons',
            action_id: 'v',
            options: [
              { text: pt('Equally'), value: 'equal', description: pt('Everyone the same') },
              option('Exact amounts', 'exact'),
            ],
            initial_option: option('Equally', 'equal'),
          },
        },
      ],
      makeCtx({ surface: 'modal' }),
    );
    const group = one(byTag(root, 'fieldset'));
    expect(labelOf(root, group)).toBe('Who shares');
    const boxes = byTag(group, 'input');
    expect(boxes.map((b) => [b.attrs.get('type'), b.attrs.has('checked')])).toEqual([
      ['checkbox', false],
      ['checkbox', true],
    ]);
    const radios = one(byRole(root, 'radiogroup'));
    expect(labelOf(root, radios)).toBe('Split');
    expect(byTag(radios, 'label').map(text)).toEqual(['EquallyEveryone the same', 'Exact amounts']);
    expect(byTag(radios, 'input')[0]!.attrs.has('checked')).toBe(true);
  });

  it('renders every select kind as a labelled combobox showing its selection', () => {
    const root = renderBlocks(
      [
        {
          type: 'input',
          block_id: 'cur',
          label: pt('Currency'),
          element: {
            type: 'static_select',
            action_id: 'v',
            options: [option('EUR', 'EUR'), option('USD', 'USD')],
            initial_option: option('USD', 'USD'),
          },
        },
        {
          type: 'input',
          block_id: 'payer',
          label: pt('Paid by'),
          element: { type: 'users_select', action_id: 'v', initial_user: 'U2' },
        },
        {
          type: 'input',
          block_id: 'people',
          label: pt('With'),
          element: { type: 'multi_users_select', action_id: 'v', initial_users: ['U1', 'U2'] },
        },
        {
          type: 'input',
          block_id: 'group',
          label: pt('Group'),
          element: { type: 'external_select', action_id: 'v', min_query_length: 0 },
        },
        {
          type: 'input',
          block_id: 'where',
          label: pt('Channel'),
          element: { type: 'conversations_select', action_id: 'v', initial_conversation: 'C2' },
        },
      ],
      makeCtx({ surface: 'modal' }),
    );
    const boxes = byRole(root, 'combobox');
    expect(boxes.map((b) => labelOf(root, b))).toEqual([
      'Currency',
      'Paid by',
      'With',
      'Group',
      'Channel',
    ]);
    expect(boxes.map((b) => b.attrs.get('value'))).toEqual(['USD', 'Bob', '', '', '#lunch']);
    expect(byClass(root, 'bk-chip').map((chip) => text(chip).replace('×', ''))).toEqual([
      'Ann',
      'Bob',
    ]);
    expect(byTag(root, 'button').map((b) => b.attrs.get('aria-label'))).toEqual([
      'Remove Ann',
      'Remove Bob',
    ]);
  });

  it('names selects outside input blocks by their placeholder', () => {
    const root = renderBlocks([
      {
        type: 'actions',
        elements: [{ type: 'static_select', placeholder: pt('Pick a group'), options: [] }],
      },
    ]);
    expect(one(byRole(root, 'combobox')).attrs.get('aria-label')).toBe('Pick a group');
  });
});

describe('collected values', () => {
  const blocks: Block[] = [
    {
      type: 'input',
      block_id: 'amount',
      label: pt('Amount'),
      element: { type: 'plain_text_input', action_id: 'v' },
    },
    {
      type: 'input',
      block_id: 'cur',
      label: pt('Currency'),
      element: {
        type: 'static_select',
        action_id: 'pick',
        options: [option('EUR', 'EUR')],
        initial_option: option('EUR', 'EUR'),
      },
    },
    {
      type: 'input',
      label: pt('With'),
      element: { type: 'multi_users_select', action_id: 'who', initial_users: ['U1'] },
    },
    { type: 'actions', elements: [{ type: 'button', action_id: 'b', text: pt('Go') }] },
  ];

  it('reports untouched fields as Slack does, buttons not at all', () => {
    expect(collectValues(blocks, new ValueStore())).toEqual({
      amount: { v: { type: 'plain_text_input', value: null } },
      cur: { pick: { type: 'static_select', selected_option: option('EUR', 'EUR') } },
      'block-2': { who: { type: 'multi_users_select', selected_users: ['U1'] } },
    });
  });

  it('prefers what the person entered over the initial values', () => {
    const store = new ValueStore();
    store.set('amount', 'v', { type: 'plain_text_input', value: '12.50' });
    store.set('block-2', 'who', { type: 'multi_users_select', selected_users: ['U1', 'U2'] });
    const values = collectValues(blocks, store);
    expect(values.amount?.v?.value).toBe('12.50');
    expect(values['block-2']?.who?.selected_users).toEqual(['U1', 'U2']);
    expect(values.cur?.pick?.selected_option?.value).toBe('EUR');
  });
});
