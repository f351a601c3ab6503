/**
 * Expenses: create, update, delete and undelete (with the friendships, System comments and
 * notifications they cause), and the two reads, get_expense and get_expenses.
 */

import type { ApiResult, UploadedFile } from '../types.js';
import { type Ctx, ok } from './ctx.js';
import {
  CREATE_FIELDS,
  checkDraft,
  type Draft,
  failed,
  type PersonRef,
  parseCost,
  parseShares,
  readCommonFields,
  rescale,
  SHARE_FIELDS,
  UPDATE_FIELDS,
} from './expense-input.js';
import { notifyExpense } from './expense-notices.js';
import { expenseShape } from './expense-shapes.js';
import type { CommentRecord, ExpenseRecord, GroupRecord, ShareRecord } from './model.js';
import { currencyExponent, formatMoney, splitEqually } from './money.js';
import { memberGroup } from './ops-groups.js';
import {
  badRequest,
  boolParam,
  dateParam,
  forbidden,
  has,
  intParam,
  isFlatKey,
  notFound,
  pathIdOf,
  rejectUnknown,
  stamp,
} from './params.js';
import { currencyUnits, GENERAL_CATEGORY, subcategoryNames } from './reference.js';
import { mergeIndexes, type SortedIndex } from './sorted-index.js';
import type { State } from './state.js';

function receiptFile(files: UploadedFile[]): UploadedFile | undefined {
  return files.find((f) => f.field === 'receipt');
}

function materialize(state: State, ref: PersonRef): number {
  if (ref.kind === 'user') return ref.id;
  const existing = state.userByEmail(ref.email);
  return (existing ?? state.addUser({ ...ref, status: 'dummy' })).id;
}

/** People on an expense become friends when it is outside a group; their friendships are touched. */
function relate(state: State, expense: ExpenseRecord, at: number): void {
  const ids = expense.shares.map((s) => s.user_id);
  for (let i = 0; i < ids.length; i++) {
    for (let j = 0; j < i; j++) {
      if (expense.group_id === 0) state.befriend(ids[i]!, ids[j]!, at);
      state.touchFriendship(ids[i]!, ids[j]!, at);
    }
  }
}

function storeReceipt(state: State, file: UploadedFile, expenseId: number): number {
  const id = state.next('receipt');
  state.addReceipt({
    id,
    key: state.randomToken(16),
    expense_id: expenseId,
    filename: file.filename || 'receipt',
    contentType: file.contentType || 'application/octet-stream',
    data: file.data,
  });
  return id;
}

export function createExpense({ state, actor, params, files }: Ctx): ApiResult {
  rejectUnknown(params, (key) => CREATE_FIELDS.has(key) || isFlatKey(key, 'users', SHARE_FIELDS));
  const groupId = intParam(params, 'group_id') ?? 0;
  const equally = boolParam(params, 'split_equally') ?? false;
  // Values of the wrong type are a 400 before any lookup (read again by readCommonFields).
  intParam(params, 'category_id');
  boolParam(params, 'payment');
  const group = groupId === 0 ? undefined : memberGroup(state, actor, groupId);

  const errors: string[] = [];
  const currency = (params.currency_code?.trim() || actor.default_currency).toUpperCase();
  const knownCurrency = currencyUnits.has(currency);
  if (!knownCurrency) errors.push(`Currency code "${currency}" is not a supported currency`);
  const cost = knownCurrency ? parseCost(params.cost, currency, errors) : undefined;
  const hasShares = Object.keys(params).some((k) => k.startsWith('users__'));
  const draft: Draft = {
    group_id: groupId,
    description: '',
    details: null,
    cost: cost ?? 0,
    currency_code: currency,
    date: state.now(),
    repeat_interval: null,
    payment: false,
    creation_method: null,
    category_id: GENERAL_CATEGORY,
    shares: [],
  };
  readCommonFields(params, draft, errors);
  if (equally) {
    if (hasShares) errors.push('Use either split_equally or users__N__ shares, not both');
    else if (!group) errors.push('split_equally needs a group_id of a group (not 0)');
    else if (cost !== undefined) {
      const parts = splitEqually(cost, group.members.length);
      draft.shares = group.members.map((id, i) => ({
        person: { kind: 'user', id },
        paid: id === actor.id ? cost : 0,
        owed: parts[i]!,
      }));
      draft.creation_method ??= 'equal';
    }
  } else if (knownCurrency) {
    draft.shares = parseShares(state, actor, params, currency, errors);
  }
  if (errors.length === 0) checkDraft(state, actor, draft, errors);
  if (errors.length > 0) return failed(errors);

  const now = state.now();
  const file = receiptFile(files);
  const id = state.next('expense');
  const expense: ExpenseRecord = {
    id,
    group_id: draft.group_id,
    description: draft.description,
    details: draft.details,
    cost: draft.cost,
    currency_code: draft.currency_code,
    date: draft.date,
    repeat_interval: draft.repeat_interval,
    payment: draft.payment,
    creation_method: draft.creation_method,
    category_id: draft.category_id,
    shares: draft.shares.map((s) => ({
      user_id: materialize(state, s.person),
      paid: s.paid,
      owed: s.owed,
    })),
    receipt_id: file ? storeReceipt(state, file, id) : null,
    created_at: now,
    created_by: actor.id,
    updated_at: now,
    updated_by: null,
    deleted_at: null,
    deleted_by: null,
    comments: [],
  };
  state.expenses.set(expense.id, expense);
  state.indexExpense(expense);
  state.applyToLedger(expense, 1);
  relate(state, expense, now);
  if (group) group.updated_at = now;
  notifyExpense(state, actor, expense, 0, 'added');
  return ok({ expenses: [expenseShape(state, expense, false)], errors: {} });
}

function groupName(state: State, id: number): string {
  return id === 0 ? 'Non-group expenses' : (state.groups.get(id)?.name ?? 'a deleted group');
}

export function updateExpense({ state, actor, params, files, pathId }: Ctx): ApiResult {
  rejectUnknown(params, (key) => UPDATE_FIELDS.has(key) || isFlatKey(key, 'users', SHARE_FIELDS));
  const expense = state.expenses.get(pathIdOf(pathId));
  if (!expense) throw notFound();
  if (!state.canEditExpense(actor.id, expense)) throw forbidden();
  const groupParam = intParam(params, 'group_id');
  // Values of the wrong type are a 400 before any lookup (read again by readCommonFields).
  intParam(params, 'category_id');
  boolParam(params, 'payment');
  const groupId = has(params, 'group_id') ? (groupParam ?? 0) : expense.group_id;
  let group: GroupRecord | undefined;
  if (groupId !== 0) group = memberGroup(state, actor, groupId);
  if (expense.deleted_at !== null)
    return failed(['This expense has been deleted; undelete it before editing']);

  const errors: string[] = [];
  const currency = (params.currency_code?.trim() || expense.currency_code).toUpperCase();
  const knownCurrency = currencyUnits.has(currency);
  if (!knownCurrency) errors.push(`Currency code "${currency}" is not a supported currency`);
  const fromExp = currencyExponent(expense.currency_code);
  const toExp = currencyExponent(currency);
  let cost: number | undefined = expense.cost;
  if (has(params, 'cost'))
    cost = knownCurrency ? parseCost(params.cost, currency, errors) : undefined;
  else if (knownCurrency) {
    cost = rescale(expense.cost, fromExp, toExp);
    if (cost === undefined)
      errors.push(`The cost cannot be expressed in ${currency}; send a new cost and shares`);
  }
  const draft: Draft = {
    group_id: groupId,
    description: expense.description,
    details: expense.details,
    cost: cost ?? 0,
    currency_code: currency,
    date: expense.date,
    repeat_interval: expense.repeat_interval,
    payment: expense.payment,
    creation_method: expense.creation_method,
    category_id: expense.category_id,
    shares: [],
  };
  readCommonFields(params, draft, errors);
  const sharesGiven = Object.keys(params).some((k) => k.startsWith('users__'));
  if (sharesGiven) {
    if (knownCurrency) draft.shares = parseShares(state, actor, params, currency, errors);
  } else if (knownCurrency) {
    for (const s of expense.shares) {
      const paid = rescale(s.paid, fromExp, toExp);
      const owed = rescale(s.owed, fromExp, toExp);
      if (paid === undefined || owed === undefined) {
        errors.push(`The shares cannot be expressed in ${currency}; send new shares`);
        break;
      }
      draft.shares.push({ person: { kind: 'user', id: s.user_id }, paid, owed });
    }
  }
  if (errors.length === 0) checkDraft(state, actor, draft, errors);
  if (errors.length > 0) return failed(errors);

  const file = receiptFile(files);
  const changes = describeChanges(state, expense, draft);
  if (file) changes.push('The receipt was updated');
  if (changes.length === 0)
    return ok({ expenses: [expenseShape(state, expense, false)], errors: {} });

  const now = state.now();
  state.invalidate(expense.id);
  const before = new Set(expense.shares.map((s) => s.user_id));
  state.applyToLedger(expense, -1);
  state.unindexExpense(expense);
  expense.group_id = draft.group_id;
  expense.description = draft.description;
  expense.details = draft.details;
  expense.cost = draft.cost;
  expense.currency_code = draft.currency_code;
  expense.date = draft.date;
  expense.repeat_interval = draft.repeat_interval;
  expense.payment = draft.payment;
  expense.creation_method = draft.creation_method;
  expense.category_id = draft.category_id;
  expense.shares = draft.shares.map(
    (s): ShareRecord => ({ user_id: materialize(state, s.person), paid: s.paid, owed: s.owed }),
  );
  if (file) expense.receipt_id = storeReceipt(state, file, expense.id);
  expense.updated_at = now;
  expense.updated_by = actor.id;
  state.indexExpense(expense);
  state.applyToLedger(expense, 1);
  relate(state, expense, now);
  if (group) group.updated_at = now;
  const comment: CommentRecord = {
    id: state.next('comment'),
    expense_id: expense.id,
    content: `${actor.first_name} updated this transaction:\n${changes.map((c) => `- ${c}`).join('\n')}`,
    comment_type: 'System',
    user_id: 0,
    created_at: now,
    deleted_at: null,
  };
  state.comments.set(comment.id, comment);
  expense.comments.push(comment.id);
  notifyExpense(state, actor, expense, 1, 'updated', before);
  return ok({ expenses: [expenseShape(state, expense, false)], errors: {} });
}

function describeChanges(state: State, expense: ExpenseRecord, draft: Draft): string[] {
  const out: string[] = [];
  const day = (ms: number) => stamp(ms).slice(0, 10);
  if (draft.description !== expense.description) {
    out.push(`Description changed from '${expense.description}' to '${draft.description}'`);
  }
  if (draft.currency_code !== expense.currency_code) {
    out.push(`The currency changed from ${expense.currency_code} to ${draft.currency_code}`);
  }
  if (draft.cost !== expense.cost || draft.currency_code !== expense.currency_code) {
    out.push(
      `The cost changed from ${formatMoney(expense.cost, expense.currency_code)} to ${formatMoney(draft.cost, draft.currency_code)}`,
    );
  }
  if (draft.date !== expense.date)
    out.push(`The date changed from ${day(expense.date)} to ${day(draft.date)}`);
  if (draft.details !== expense.details) out.push('The notes changed');
  if (draft.category_id !== expense.category_id) {
    out.push(
      `The category changed from ${subcategoryNames.get(expense.category_id)} to ${subcategoryNames.get(draft.category_id)}`,
    );
  }
  if (draft.group_id !== expense.group_id) {
    out.push(
      `The group changed from ${groupName(state, expense.group_id)} to ${groupName(state, draft.group_id)}`,
    );
  }
  if (draft.repeat_interval !== expense.repeat_interval) {
    out.push(
      `The repeat interval changed from ${expense.repeat_interval ?? 'never'} to ${draft.repeat_interval ?? 'never'}`,
    );
  }
  if (draft.payment !== expense.payment)
    out.push(draft.payment ? 'Marked as a payment' : 'No longer a payment');
  const sameShares =
    draft.shares.length === expense.shares.length &&
    draft.shares.every((s, i) => {
      const old = expense.shares[i]!;
      return (
        s.person.kind === 'user' &&
        s.person.id === old.user_id &&
        s.paid === old.paid &&
        s.owed === old.owed
      );
    });
  if (!sameShares) out.push('The shares changed');
  return out;
}

export function deleteExpense({ state, actor, pathId }: Ctx): ApiResult {
  const expense = /^\d{1,15}$/.test(pathId ?? '') ? state.expenses.get(Number(pathId)) : undefined;
  if (expense && !state.canEditExpense(actor.id, expense)) throw forbidden();
  if (!expense || expense.deleted_at !== null) {
    return ok({
      success: false,
      errors: { expense: ['does not exist, or has already been deleted'] },
    });
  }
  const now = state.now();
  state.invalidate(expense.id);
  state.applyToLedger(expense, -1);
  expense.deleted_at = now;
  expense.deleted_by = actor.id;
  expense.updated_at = now;
  expense.updated_by = actor.id;
  relate(state, expense, now);
  notifyExpense(state, actor, expense, 2, 'deleted');
  return ok({ success: true, errors: {} });
}

export function undeleteExpense({ state, actor, pathId }: Ctx): ApiResult {
  const expense = /^\d{1,15}$/.test(pathId ?? '') ? state.expenses.get(Number(pathId)) : undefined;
  if (expense && !state.canEditExpense(actor.id, expense)) throw forbidden();
  if (!expense || expense.deleted_at === null) {
    return ok({ success: false, errors: { expense: ['does not exist, or is not deleted'] } });
  }
  const now = state.now();
  state.invalidate(expense.id);
  expense.deleted_at = null;
  expense.deleted_by = null;
  expense.updated_at = now;
  expense.updated_by = actor.id;
  state.applyToLedger(expense, 1);
  relate(state, expense, now);
  notifyExpense(state, actor, expense, 13, 'restored');
  return ok({ success: true });
}

export function getExpense({ state, actor, pathId }: Ctx): ApiResult {
  const expense = state.expenses.get(pathIdOf(pathId));
  if (!expense) throw notFound();
  if (!state.canSeeExpense(actor.id, expense)) throw forbidden();
  return ok({ expense: expenseShape(state, expense, true) });
}

export function getExpenses({ state, actor, params }: Ctx): ApiResult {
  const offset = intParam(params, 'offset') ?? 0;
  const limit = intParam(params, 'limit') ?? 20;
  if (offset < 0) throw badRequest('Invalid value for `offset`: must be 0 or more');
  if (limit < 0) throw badRequest('Invalid value for `limit`: must be 0 or more');
  const groupId = intParam(params, 'group_id');
  const friendId = intParam(params, 'friend_id') ?? intParam(params, 'friendship_id');
  const datedAfter = dateParam(params, 'dated_after');
  const datedBefore = dateParam(params, 'dated_before');
  const updatedAfter = dateParam(params, 'updated_after');
  const updatedBefore = dateParam(params, 'updated_before');
  const visible = boolParam(params, 'visible') ?? false;

  const mine = state.userIndex.get(actor.id);
  let sources: SortedIndex[];
  let keep: (e: ExpenseRecord) => boolean = () => true;
  if (groupId !== undefined) {
    if (groupId === 0) {
      sources = mine ? [mine] : [];
      keep = (e) => e.group_id === 0;
    } else {
      const group = state.groups.get(groupId);
      if (!group) throw notFound();
      if (!state.isMember(actor.id, group)) throw forbidden();
      const index = state.groupIndex.get(group.id);
      sources = index ? [index] : [];
    }
  } else if (friendId !== undefined) {
    if (!state.users.has(friendId)) throw notFound();
    sources = mine ? [mine] : [];
    keep = (e) => state.involved(e, friendId);
  } else {
    sources = mine ? [mine] : [];
    for (const id of state.groupsOf(actor.id)) {
      const index = state.groupIndex.get(id);
      if (index) sources.push(index);
    }
  }

  const out = [];
  let skipped = 0;
  for (const id of mergeIndexes(sources)) {
    const e = state.expenses.get(id)!;
    if (visible) {
      if (e.deleted_at !== null) continue;
      const group = e.group_id ? state.groups.get(e.group_id) : undefined;
      if (group && group.deleted_at !== null) continue;
    }
    if (datedAfter !== undefined && e.date < datedAfter) continue;
    if (datedBefore !== undefined && e.date > datedBefore) continue;
    if (updatedAfter !== undefined && e.updated_at < updatedAfter) continue;
    if (updatedBefore !== undefined && e.updated_at > updatedBefore) continue;
    if (!keep(e)) continue;
    if (skipped < offset) {
      skipped++;
      continue;
    }
    out.push(expenseShape(state, e, false));
    if (limit !== 0 && out.length >= limit) break;
  }
  return ok({ expenses: out });
}
