/**
 * Wire shapes of expenses, comments and notifications. Expense shapes are cached in State between
 * requests (a listing of 10,000 expenses then costs little more than its serialization); State
 * drops a cached shape whenever what it shows changes.
 */

import { repayments } from './debts.js';
import type {
  Comment,
  CommentRecord,
  Expense,
  ExpenseRecord,
  Notification,
  NotificationRecord,
} from './model.js';
import { currencyExponent, toWireAmount } from './money.js';
import { stamp } from './params.js';
import { GENERAL_CATEGORY, subcategoryNames } from './reference.js';
import { reducedUser, reducedWithCustom, SYSTEM_USER } from './shapes.js';
import type { State } from './state.js';

const NOTIFICATION_IMAGE = 'https://s3.amazonaws.com/splitwise/uploads/notifications/v2021';

export function expenseShape(state: State, expense: ExpenseRecord, withComments: boolean): Expense {
  if (withComments) {
    return {
      ...expenseShape(state, expense, false),
      comments: state.liveComments(expense).map((c) => commentShape(state, c)),
    };
  }
  const cached = state.expenseShapes.get(expense.id);
  if (cached) return cached;
  const shape = buildExpense(state, expense);
  state.expenseShapes.set(expense.id, shape);
  return shape;
}

function receiptUrls(state: State, expense: ExpenseRecord): Expense['receipt'] {
  const receipt = expense.receipt_id === null ? undefined : state.receipts.get(expense.receipt_id);
  if (!receipt) return { large: null, original: null };
  const url = `${state.baseUrl}/__emulator/receipts/${receipt.key}/${encodeURIComponent(receipt.filename)}`;
  return { large: url, original: url };
}

function buildExpense(state: State, expense: ExpenseRecord): Expense {
  const exponent = currencyExponent(expense.currency_code);
  const live = state.liveComments(expense);
  const users: Expense['users'] = [];
  for (const s of expense.shares) {
    users.push({
      user: reducedUser(state, s.user_id),
      user_id: s.user_id,
      paid_share: toWireAmount(s.paid, exponent),
      owed_share: toWireAmount(s.owed, exponent),
      net_balance: toWireAmount(s.paid - s.owed, exponent),
    });
  }
  const paybacks: Expense['repayments'] = [];
  for (const t of repayments(expense)) {
    paybacks.push({ from: t.from, to: t.to, amount: toWireAmount(t.amount, exponent) });
  }
  return {
    id: expense.id,
    group_id: expense.group_id === 0 ? null : expense.group_id,
    ...(expense.group_id === 0 ? { friendship_id: null } : {}),
    expense_bundle_id: null,
    description: expense.description,
    repeats: expense.repeat_interval !== null,
    repeat_interval: expense.repeat_interval,
    email_reminder: false,
    email_reminder_in_advance: -1,
    next_repeat: expense.repeat_interval === null ? null : stamp(nextRepeat(expense)),
    details: expense.details,
    comments_count: live.length,
    payment: expense.payment,
    creation_method: expense.creation_method,
    transaction_method: 'offline',
    transaction_confirmed: false,
    transaction_id: null,
    transaction_status: null,
    cost: toWireAmount(expense.cost, exponent),
    currency_code: expense.currency_code,
    repayments: paybacks,
    date: stamp(expense.date),
    created_at: stamp(expense.created_at),
    created_by: reducedWithCustom(state, expense.created_by)!,
    updated_at: stamp(expense.updated_at),
    updated_by: reducedWithCustom(state, expense.updated_by),
    deleted_at: expense.deleted_at === null ? null : stamp(expense.deleted_at),
    deleted_by: reducedWithCustom(state, expense.deleted_by),
    category: {
      id: expense.category_id,
      name: subcategoryNames.get(expense.category_id) ?? subcategoryNames.get(GENERAL_CATEGORY)!,
    },
    receipt: receiptUrls(state, expense),
    users,
  };
}

function nextRepeat(expense: ExpenseRecord): number {
  const d = new Date(expense.date);
  switch (expense.repeat_interval) {
    case 'weekly':
      d.setUTCDate(d.getUTCDate() + 7);
      break;
    case 'fortnightly':
      d.setUTCDate(d.getUTCDate() + 14);
      break;
    case 'monthly':
      d.setUTCMonth(d.getUTCMonth() + 1);
      break;
    case 'yearly':
      d.setUTCFullYear(d.getUTCFullYear() + 1);
      break;
    default:
      break;
  }
  return d.getTime();
}

export function commentShape(state: State, comment: CommentRecord): Comment {
  return {
    id: comment.id,
    content: comment.content,
    comment_type: comment.comment_type,
    relation_type: 'ExpenseComment',
    relation_id: comment.expense_id,
    created_at: stamp(comment.created_at),
    deleted_at: comment.deleted_at === null ? null : stamp(comment.deleted_at),
    user:
      comment.comment_type === 'System'
        ? { ...SYSTEM_USER, picture: { medium: null } }
        : reducedUser(state, comment.user_id),
  };
}

export function notificationShape(n: NotificationRecord): Notification {
  return {
    id: n.id,
    type: n.type,
    created_at: stamp(n.created_at),
    created_by: n.created_by,
    source: { type: n.source.type, id: n.source.id, url: null },
    image_url: `${NOTIFICATION_IMAGE}/${n.type}.png`,
    image_shape: n.image_shape,
    content: n.content,
  };
}
