/**
 * Every action_id, callback_id and block_id the app uses, defined once. manifest.yml repeats the
 * command name and the shortcut's callback_id: keep them in step.
 */
export const COMMAND = '/split';

export const CALLBACKS = {
  /** The "Split this" message shortcut (manifest.yml). */
  splitMessage: 'split_message',
} as const;

/** The workflow steps (manifest.yml's `functions`), by their callback_id. */
export const STEPS = {
  bookExpense: 'book_expense',
  postBalances: 'post_balances',
} as const;

export const ACTIONS = {
  /** The Connect link button: Slack still posts block_actions for a link button, so it is acked. */
  connect: 'account_connect',
  /** Undo on a booked expense; value is an ExpenseRef (views/expense-message.ts). */
  undo: 'expense_undo',
} as const;

/** The DM after linking. */
export const LINKING_ACTIONS = {
  /** Unlink; value is an UnlinkRef (linking/views.ts). */
  unlink: 'account_unlink',
} as const;

/** Under `/split list`; each value is a ListRef (split/list-ref.ts). */
export const LIST_ACTIONS = {
  previous: 'list_previous',
  next: 'list_next',
  /** Sends the listed filters' expenses as a CSV file to the clicker's DM. */
  export: 'list_export',
} as const;

/** What a mention or a DM offers when the form is wanted: a click gives the trigger it needs. */
export const TALK_ACTIONS = {
  /** Opens the expense form for the thread (or DM) it was offered in; value is a FormRef. */
  openForm: 'talk_open_form',
} as const;

export const BLOCKS = {
  connectActions: 'connect_actions',
  expenseHeader: 'expense_header',
  expenseFacts: 'expense_facts',
  expenseActions: 'expense_actions',
  listActions: 'list_actions',
} as const;

/** The daily DM's two buttons. */
export const DIGEST_ACTION_IDS = {
  settleUp: 'digest_settle_up',
  pause: 'digest_pause',
} as const;

/** Balances, settling up, groups, App Home and the daily DM. */
export const LEDGER_ACTIONS = {
  /** Settle up on a balance message or in Home; value is a SettleRef (views/balances.ts). */
  settleUp: 'balance_settle_up',
  /** "Record a payment" on the confirmation a DM's Settle up leads to; value is a SettleRef. */
  settleConfirm: 'balance_settle_confirm',
  settleCancel: 'balance_settle_cancel',
  /** Settle up in the daily DM; value is the DM's own {friend_id, currency}. */
  digestSettleUp: DIGEST_ACTION_IDS.settleUp,
  digestPause: DIGEST_ACTION_IDS.pause,
  /** The danger button (with a confirm dialog) under `/split group delete`; value a GroupRef. */
  groupDelete: 'group_delete',
  homeDisconnect: 'home_disconnect',
  homeForget: 'home_forget',
  homeDigestToggle: 'home_digest_toggle',
  homeDigestResume: 'home_digest_resume',
  homeDigestHour: 'home_digest_hour',
  homeCurrency: 'home_currency',
  homeDefaultGroup: 'home_default_group',
  homeRefresh: 'home_refresh',
  /** "Record part…" on a Settle up confirmation: opens the amount form; value is a SettleRef. */
  settlePart: 'balance_settle_part',
  /** Remind next to someone who owes me; value is a RemindRef (balances/remind-views.ts). */
  remind: 'balance_remind',
  /** On a reminder DM: no more reminders for me. */
  reminderOff: 'reminder_off',
  /** App Home: reminders from others on or off; value 'on' or 'off'. */
  homeRemindersToggle: 'home_reminders_toggle',
} as const;

/** The form for paying part of a balance (Settle up's "Record part…"). */
export const SETTLE_FORM = {
  callback: 'settle_part_form',
  /** The amount input: its block_id and action_id. */
  amount: 'settle_part_amount',
} as const;

/** Links to the expense service, unfolded under the message that carries them (unfurl/). */
export const UNFURL = {
  /** Sent when a message carries a link to one of manifest.yml's unfurl_domains. */
  linkShared: 'link_shared',
  /** The Open button: a link, but Slack still posts block_actions for it, so it is acked. */
  open: 'unfurl_open',
} as const;

export const EVENTS = {
  appHomeOpened: 'app_home_opened',
  /** The app mentioned in a channel or a thread it is in. */
  appMention: 'app_mention',
  /** Every message event; the app reads those of its DMs (message.im) only. */
  message: 'message',
  appUninstalled: 'app_uninstalled',
  tokensRevoked: 'tokens_revoked',
  /** A member's profile changed: their language, zone or name may be new. */
  userChange: 'user_change',
  /** A workflow ran one of the app's steps (STEPS). */
  functionExecuted: 'function_executed',
} as const;

/**
 * The expense form, the buttons on a booked expense, and the comment form. Each form
 * input uses the same string as its block_id and its action_id, so field errors (keyed by
 * block_id) and state values (block_id, then action_id) are read with one name.
 */
export const EXPENSE_CALLBACKS = {
  /** The expense form: new (from /split or "Split this") or editing a booked expense. */
  form: 'expense_form',
  /** Its second step: the per-person amounts, percentages or shares. */
  splitStep: 'expense_form_split',
  /** Its second step for an itemised bill: items per person, shared items, tip and tax. */
  itemiseStep: 'expense_form_itemise',
  comment: 'expense_comment_form',
} as const;

export const EXPENSE_ACTIONS = {
  /** Buttons on a booked expense; each value is an ExpenseRef (views/expense-message.ts). */
  edit: 'expense_edit',
  delete: 'expense_delete',
  comment: 'expense_comment',
  details: 'expense_details',
  /** Undo on a deleted expense's message: restores it. */
  restore: 'expense_restore',
  /** Opens the expense form filled in from a booked expense, to book a copy of it. */
  duplicate: 'expense_duplicate',
} as const;

export const FORM = {
  amount: 'form_amount',
  currency: 'form_currency',
  description: 'form_description',
  date: 'form_date',
  category: 'form_category',
  /** The Group select dispatches a block action (same id) so that a group's default applies. */
  group: 'form_group',
  /** The context block naming the group default the form was filled in from. */
  defaultNote: 'form_default_note',
  participants: 'form_participants',
  payer: 'form_payer',
  /** Others who paid part of it, besides `payer`; the second step asks what each paid. */
  alsoPaid: 'form_also_paid',
  split: 'form_split',
  notes: 'form_notes',
  repeat: 'form_repeat',
  receipt: 'form_receipt',
  /** "Split this" on a message with an image: a checkbox to attach it as the receipt. */
  messageReceipt: 'form_message_receipt',
  /** The line saying a photo is being read, then what was read from it (receipt-fill.ts). */
  receiptNote: 'form_receipt_note',
  /** Second step: one input per participant, `valuePrefix + index`. */
  valuePrefix: 'form_value_',
  /** A context block in the second step saying what the values must add up to. */
  splitInfo: 'form_split_info',
  /** Second step with several payers: one input per payer, `paidPrefix + index`. */
  paidPrefix: 'form_paid_',
  /** A context block in the second step saying what the paid amounts must add up to. */
  paidInfo: 'form_paid_info',
  /** The itemise step's inputs (each person's items use valuePrefix), and its preview. */
  itemShared: 'form_item_shared',
  itemTip: 'form_item_tip',
  itemTax: 'form_item_tax',
  itemActions: 'form_item_actions',
  /** The Preview button (an action id) and the section showing the total and shares. */
  itemPreview: 'form_item_preview',
  comment: 'form_comment',
} as const;
