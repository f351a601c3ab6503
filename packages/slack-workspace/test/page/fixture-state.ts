// Canned workspace state for the browser test: a channel with messages of many block types, a
// modal, an App Home and a notice, as the workspace server would answer them.
import type { Block, State, View } from '../../src/page/types.js';

const pt = (text: string) => ({ type: 'plain_text' as const, text });
const md = (text: string) => ({ type: 'mrkdwn' as const, text });
const option = (text: string, value: string) => ({ text: pt(text), value });

export function expenseBlocks(imageUrl: string): Block[] {
  return [
    { type: 'header', block_id: 'head', text: pt('Lunch :receipt:') },
    {
      type: 'section',
      block_id: 'summary',
      text: md('*40.00 EUR* paid by <@U1>, split with <@U2> in <#C2>'),
      fields: [md('*You owe*\n20.00 EUR'), md('*Date*\n<!date^1767261600^{date_short}|Jan 1>')],
      accessory: { type: 'button', action_id: 'edit', text: pt('Edit'), value: 'e1' },
    },
    { type: 'divider' },
    {
      type: 'actions',
      block_id: 'expense-actions',
      elements: [
        {
          type: 'button',
          action_id: 'settle',
          text: pt('Settle up'),
          style: 'primary',
          value: 's1',
        },
        {
          type: 'button',
          action_id: 'delete',
          text: pt('Delete'),
          style: 'danger',
          value: 'd1',
          confirm: {
            title: pt('Delete this expense?'),
            text: md('Everyone in it will see it *removed*.'),
            confirm: pt('Delete'),
            deny: pt('Keep it'),
            style: 'danger',
          },
        },
        {
          type: 'static_select',
          action_id: 'category',
          placeholder: pt('Category'),
          options: [option('Food', 'food'), option('Travel', 'travel'), option('Rent', 'rent')],
        },
        {
          type: 'overflow',
          action_id: 'more',
          options: [option('Add a comment', 'comment'), option('Show details', 'details')],
        },
      ],
    },
    {
      type: 'context',
      block_id: 'ctx',
      elements: [
        { type: 'image', image_url: imageUrl, alt_text: 'app icon' },
        md('Booked at the service · `ref 42` · :white_check_mark: synced'),
      ],
    },
    {
      type: 'rich_text',
      elements: [
        {
          type: 'rich_text_list',
          style: 'bullet',
          elements: [
            { type: 'rich_text_section', elements: [{ type: 'text', text: 'Ann: paid 40.00' }] },
            { type: 'rich_text_section', elements: [{ type: 'text', text: 'Bob: owes 20.00' }] },
          ],
        },
      ],
    },
  ];
}

export function expenseModal(): View {
  return {
    id: 'V1',
    type: 'modal',
    hash: 'h1',
    callback_id: 'expense_form',
    title: pt('New expense'),
    submit: pt('Save'),
    close: pt('Cancel'),
    private_metadata: '',
    blocks: [
      {
        type: 'input',
        block_id: 'amount',
        label: pt('Amount'),
        element: { type: 'plain_text_input', action_id: 'value', placeholder: pt('e.g. 12.50') },
      },
      {
        type: 'input',
        block_id: 'currency',
        label: pt('Currency'),
        element: {
          type: 'static_select',
          action_id: 'value',
          options: [option('EUR', 'EUR'), option('USD', 'USD'), option('GBP', 'GBP')],
          initial_option: option('EUR', 'EUR'),
        },
      },
      {
        type: 'input',
        block_id: 'date',
        label: pt('Date'),
        element: { type: 'datepicker', action_id: 'value', initial_date: '2026-03-01' },
      },
      {
        type: 'input',
        block_id: 'people',
        label: pt('Split with'),
        element: { type: 'multi_users_select', action_id: 'value', initial_users: ['U2'] },
      },
      {
        type: 'input',
        block_id: 'group',
        label: pt('Group'),
        element: { type: 'external_select', action_id: 'value', min_query_length: 1 },
      },
      {
        type: 'input',
        block_id: 'how',
        label: pt('Split'),
        element: {
          type: 'radio_buttons',
          action_id: 'value',
          options: [option('Equally', 'equal'), option('Exact amounts', 'exact')],
          initial_option: option('Equally', 'equal'),
        },
      },
      {
        type: 'input',
        block_id: 'note',
        optional: true,
        label: pt('Notes'),
        hint: pt('Everyone in the expense sees this.'),
        element: { type: 'plain_text_input', action_id: 'value', multiline: true },
      },
    ],
  };
}

export function homeView(): View {
  return {
    id: 'VH',
    type: 'home',
    hash: 'hh',
    callback_id: 'home',
    private_metadata: '',
    blocks: [
      { type: 'header', text: pt('Your balances') },
      {
        type: 'section',
        block_id: 'bal',
        text: md('You are owed *20.00 EUR* by <@U2>'),
        accessory: { type: 'button', action_id: 'remind', text: pt('Remind'), value: 'U2' },
      },
    ],
  };
}

export function cannedState(imageUrl: string): State {
  const person = (id: string, name: string, display: string, real: string) => ({
    id,
    name,
    display_name: display,
    real_name: real,
    email: `${name}@example.com`,
    is_bot: false,
    tz: 'Europe/Paris',
    locale: 'en-US',
  });
  return {
    version: 1,
    team: { id: 'T1', name: 'Acme' },
    app: {
      name: 'Split',
      bot_user_id: 'UB',
      commands: [
        {
          command: '/split',
          description: 'Share an expense',
          usage_hint: '[amount] [what] [@people]',
        },
      ],
      shortcuts: [{ callback_id: 'split_this', name: 'Split this', type: 'message' }],
    },
    app_home: { home: true, messages: 'writable' },
    people: [person('U1', 'ann', 'Ann', 'Ann Lee'), person('U2', 'bob', 'Bob', 'Bob Stone')],
    locales: [
      { locale: 'en-US', name: 'English (US)' },
      { locale: 'de-DE', name: 'Deutsch (Deutschland)' },
      { locale: 'ja-JP', name: '日本語' },
    ],
    acting: 'U1',
    channels: [
      { id: 'C1', name: 'general', kind: 'channel' },
      { id: 'C2', name: 'lunch', kind: 'channel' },
      { id: 'D1', name: 'split', kind: 'app' },
    ],
    messages: {
      C1: [
        {
          ts: '1767261600.000100',
          channel: 'C1',
          reply_count: 1,
          thread_ts: '1767261600.000100',
          sender: { id: 'U2', name: 'bob', is_bot: false },
          text: 'Who is in for *lunch*? <script>alert(1)</script> &lt;b&gt;',
          ephemeral: false,
          edited: true,
        },
        {
          ts: '1767261660.000200',
          channel: 'C1',
          thread_ts: '1767261600.000100',
          reply_count: 0,
          sender: { id: 'U1', name: 'ann', is_bot: false },
          text: 'Me! :tada:',
          ephemeral: false,
          edited: false,
        },
        {
          ts: '1767261700.000300',
          channel: 'C1',
          reply_count: 0,
          sender: { id: 'UB', name: 'Split', is_bot: true },
          text: 'Lunch: 40.00 EUR',
          blocks: expenseBlocks(imageUrl),
          ephemeral: false,
          edited: false,
        },
        {
          ts: '1767261800.000400',
          channel: 'C1',
          reply_count: 0,
          sender: { id: 'UB', name: 'Split', is_bot: true },
          text: 'Connect your account first.',
          ephemeral: true,
          edited: false,
        },
      ],
      C2: [],
      D1: [],
    },
    home: homeView(),
    modals: [expenseModal()],
    notices: [
      {
        id: 'n1',
        at: 1767261900000,
        text: '/split failed with the error "operation_timeout"',
        tone: 'error',
      },
    ],
    controls: { digest: true, reset: true },
  };
}
