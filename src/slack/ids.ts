/**
 * Every action_id, callback_id and block_id the app uses, defined once. manifest.yml repeats the
 * command name and the shortcut's callback_id: keep them in step.
 */
import { DIGEST_ACTION_IDS } from './views/digest.js';

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

/**
 * Balances, settling up, groups, App Home and the daily DM (issue 6). The DM's two buttons keep
 * the ids its view (views/digest.ts) already puts on them.
 */
export const LEDGER_ACTIONS = {
  /** Settle up on a balance message or in Home; value is a SettleRef (views/balances.ts). */
  settleUp: 'balance_settle_up',
  /** "Record payment" on the confirmation a DM's Settle up leads to; value is a SettleRef. */
  settleConfirm: 'balance_settle_confirm',
  settleCancel: 'balance_settle_cancel',
  /** Settle up in the daily DM; value is the DM's own {friend_id, currency}. */
  digestSettleUp: DIGEST_ACTION_IDS.settleUp,
  digestPause: DIGEST_ACTION_IDS.pause,
  /** The danger button (with a confirm dialog) under `/split group delete`; value a GroupRef. */
  groupDelete: 'group_delete',
  homeDisconnect: 'home_disconnect',
  homeDigestToggle: 'home_digest_toggle',
  homeDigestResume: 'home_digest_resume',
  homeDigestHour: 'home_digest_hour',
  homeCurrency: 'home_currency',
  homeDefaultGroup: 'home_default_group',
  homeRefresh: 'home_refresh',
} as const;

export const EVENTS = {
  appHomeOpened: 'app_home_opened',
} as const;
