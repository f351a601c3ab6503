/**
 * Every action_id, callback_id and block_id the app uses, defined once. manifest.yml repeats the
 * command name and the shortcut's callback_id: keep them in step.
 */

export const COMMAND = '/split';

export const CALLBACKS = {
  /** The "Split this" message shortcut (manifest.yml). */
  splitMessage: 'split_message',
} as const;

export const ACTIONS = {
  /** The Connect link button: Slack still posts block_actions for a link button, so it is acked. */
  connect: 'account_connect',
  /** Undo on a booked expense; value is an ExpenseRef (views/expense-message.ts). */
  undo: 'expense_undo',
} as const;

export const BLOCKS = {
  connectActions: 'connect_actions',
  expenseHeader: 'expense_header',
  expenseFacts: 'expense_facts',
  expenseActions: 'expense_actions',
} as const;
