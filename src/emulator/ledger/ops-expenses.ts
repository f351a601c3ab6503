/** Expenses, comments and notifications. */
import { currencyExponent, MoneyError, parseMinor, splitEqually } from '../../core/money.js';
import type { ApiResult, UploadedFile } from '../types.js';
import type {
  CommentRecord,
  ExpenseFields,
  ExpenseRecord,
  GroupRecord,
  RepeatInterval,
  ShareRecord,
  UserRecord,
} from './model.js';
import { memberGroup } from './ops-groups.js';
import { addUser, type Ctx } from './ops-users.js';
import {
  badRequest,
  boolParam,
  dateParam,
  flattened,
  forbidden,
  has,
  intParam,
  isEmail,
  isFlatKey,
  notFound,
  parseDate,
  pathIdOf,
  rejectUnknown,
  stamp,
} from './params.js';
import { currencyUnits, GENERAL_CATEGORY, subcategoryNames } from './reference.js';
import { mergeIndexes, type SortedIndex } from './sorted-index.js';
import { escapeHtml, type State } from './state.js';

const ok = (body: unknown): ApiResult => ({ status: 200, body });

/** The largest cost accepted, in minor units: beyond it an amount is a typo, not a bill. */
export const MAX_COST_MINOR = 1_000_000_000_000;

const SHARE_FIELDS = new Set([
  'user_id',
  'email',
  'first_name',
  'last_name',
  'paid_share',
  'owed_share',
]);
const EXPENSE_FIELDS = [
  'cost',
  'description',
  'details',
  'date',
  'repeat_interval',
  'currency_code',
  'category_id',
  'group_id',
  'payment',
  'creation_method',
  'receipt',
];
const CREATE_FIELDS = new Set([...EXPENSE_FIELDS, 'split_equally']);
const UPDATE_FIELDS = new Set(EXPENSE_FIELDS);
const REPEAT_INTERVALS = new Set(['never', 'weekly', 'fortnightly', 'monthly', 'yearly']);

type PersonRef =
  | { kind: 'user'; id: number }
  | { kind: 'new'; email: string; first_name: string; last_name: string | null };

interface DraftShare {
  person: PersonRef;
  paid: number;
  owed: number;
}

interface Draft extends ExpenseFields {
  shares: DraftShare[];
}

function failed(errors: string[]): ApiResult {
  return ok({ expenses: [], errors: { base: [...new Set(errors)] } });
}

function parseAmount(
  text: string,
  exponent: number,
  currency: string,
  label: string,
  errors: string[],
): number | undefined {
  try {
    return parseMinor(text, exponent);
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    if (/too large/.test(error.message)) {
      errors.push(`${label} is too large`);
      return undefined;
    }
    if (exponent === 0 && /^\s*-?\d+\.\d*[1-9]\d*\s*$/.test(text)) {
      errors.push(`${label} "${text}" has decimals, but ${currency} has no minor unit`);
    } else {
      errors.push(
        `${label} "${text}" is not a valid amount: use digits with at most 2 decimal places, like 20 or 20.50`,
      );
    }
    return undefined;
  }
}

function parseCost(
  text: string | undefined,
  currency: string,
  errors: string[],
): number | undefined {
  if (text === undefined || text.trim() === '') {
    errors.push('You must enter an amount');
    return undefined;
  }
  const cost = parseAmount(text, currencyExponent(currency), currency, 'The cost', errors);
  if (cost === undefined) return undefined;
  if (cost <= 0) {
    errors.push('The cost must be greater than zero');
    return undefined;
  }
  if (cost > MAX_COST_MINOR) {
    errors.push('The cost is too large');
    return undefined;
  }
  return cost;
}

/** Reads users__N__* rows into draft shares; problems go to `errors`. */
function parseShares(
  state: State,
  actor: UserRecord,
  params: Record<string, string>,
  currency: string,
  errors: string[],
): DraftShare[] {
  const exponent = currencyExponent(currency);
  const out: DraftShare[] = [];
  for (const [index, row] of flattened(params, 'users')) {
    let person: PersonRef | undefined;
    if (row.user_id !== undefined && row.user_id.trim() !== '') {
      const key = `users__${index}__user_id`;
      const id = intParam({ [key]: row.user_id }, key)!;
      const user = state.users.get(id);
      if (!user || !state.acquainted(actor.id, id)) {
        errors.push('You cannot add unknown users to an expense by user_id');
      } else person = { kind: 'user', id };
    } else if (row.email !== undefined && row.email.trim() !== '') {
      const email = row.email.trim();
      const existing = state.userByEmail(email);
      if (!isEmail(email)) errors.push(`"${email}" is not a valid email address`);
      else if (existing) person = { kind: 'user', id: existing.id };
      else if (!row.first_name?.trim()) errors.push(`Please supply a first name for ${email}`);
      else {
        person = {
          kind: 'new',
          email,
          first_name: row.first_name.trim(),
          last_name: row.last_name?.trim() || null,
        };
      }
    } else {
      errors.push('Each person on an expense needs a user_id, or an email and a first_name');
    }
    const amount = (field: 'paid_share' | 'owed_share') => {
      const text = row[field];
      if (text === undefined || text.trim() === '') return 0;
      const value = parseAmount(text, exponent, currency, `users__${index}__${field}`, errors);
      if (value !== undefined && value < 0) {
        errors.push(`users__${index}__${field} "${text}" is invalid: shares cannot be negative`);
        return undefined;
      }
      return value;
    };
    const paid = amount('paid_share');
    const owed = amount('owed_share');
    if (person && paid !== undefined && owed !== undefined) out.push({ person, paid, owed });
  }
  return out;
}

function sameRef(a: PersonRef, b: PersonRef): boolean {
  if (a.kind === 'user' && b.kind === 'user') return a.id === b.id;
  if (a.kind === 'new' && b.kind === 'new') return a.email.toLowerCase() === b.email.toLowerCase();
  return false;
}

/** The rules every saved expense obeys; checked on the complete draft. */
function checkDraft(state: State, actor: UserRecord, draft: Draft, errors: string[]): void {
  if (draft.shares.length === 0) {
    errors.push(
      'There are zero people involved in this expense! Make sure to add some before saving.',
    );
    return;
  }
  for (let i = 0; i < draft.shares.length; i++) {
    for (let j = 0; j < i; j++) {
      if (sameRef(draft.shares[i]!.person, draft.shares[j]!.person)) {
        errors.push('A person was included on this expense multiple times');
      }
    }
  }
  const unit = currencyUnits.get(draft.currency_code) ?? draft.currency_code;
  const exponent = currencyExponent(draft.currency_code);
  const show = (minor: number) => `${unit}${(minor / 10 ** exponent).toFixed(exponent)}`;
  const owed = draft.shares.reduce((sum, s) => sum + s.owed, 0);
  const paid = draft.shares.reduce((sum, s) => sum + s.paid, 0);
  if (owed !== draft.cost) {
    errors.push(
      `The total of everyone's owed shares (${show(owed)}) is different than the total cost (${show(draft.cost)})`,
    );
  }
  if (paid !== draft.cost) {
    errors.push(
      `The total of everyone's paid shares (${show(paid)}) is different than the total cost (${show(draft.cost)})`,
    );
  }
  if (draft.group_id === 0) {
    if (!draft.shares.some((s) => s.person.kind === 'user' && s.person.id === actor.id)) {
      errors.push(
        'You cannot add an expense that does not involve yourself, unless that expense is in a group',
      );
    }
  } else {
    const group = state.groups.get(draft.group_id)!;
    const outsider = draft.shares.some(
      (s) => s.person.kind === 'new' || !state.isMember(s.person.id, group),
    );
    if (outsider) errors.push('Everyone on a group expense must be a member of the group');
  }
}

/** Optional fields shared by create and update; only those present are read. */
function readCommonFields(params: Record<string, string>, draft: Draft, errors: string[]): void {
  if (has(params, 'description')) {
    draft.description = (params.description ?? '').trim();
  }
  if (draft.description === '') errors.push("Description can't be blank");
  if (has(params, 'details')) draft.details = params.details ?? null;
  if (has(params, 'date') && params.date?.trim()) {
    const ms = parseDate(params.date);
    if (ms === undefined) errors.push(`Date "${params.date}" is not a valid ISO 8601 date`);
    else draft.date = Math.floor(ms / 1000) * 1000;
  }
  if (has(params, 'repeat_interval')) {
    const interval = (params.repeat_interval ?? '').trim().toLowerCase() || 'never';
    if (!REPEAT_INTERVALS.has(interval)) {
      errors.push('Repeat interval must be one of never, weekly, fortnightly, monthly, yearly');
    } else draft.repeat_interval = interval === 'never' ? null : (interval as RepeatInterval);
  }
  const category = intParam(params, 'category_id');
  if (category !== undefined) {
    if (!subcategoryNames.has(category)) {
      errors.push(`Category ${category} is not a subcategory id from get_categories`);
    } else draft.category_id = category;
  }
  const payment = boolParam(params, 'payment');
  if (payment !== undefined) draft.payment = payment;
  if (has(params, 'creation_method'))
    draft.creation_method = params.creation_method?.trim() || null;
}

function receiptFile(files: UploadedFile[]): UploadedFile | undefined {
  return files.find((f) => f.field === 'receipt');
}

function materialize(state: State, ref: PersonRef): number {
  if (ref.kind === 'user') return ref.id;
  const existing = state.userByEmail(ref.email);
  return (existing ?? addUser(state, { ...ref, status: 'dummy' })).id;
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

function storeReceipt(state: State, file: UploadedFile): number {
  const id = state.next('receipt');
  state.receipts.set(id, {
    id,
    filename: file.filename || 'receipt',
    contentType: file.contentType || 'application/octet-stream',
    data: file.data,
  });
  return id;
}

function expenseTitle(expense: ExpenseRecord): string {
  return `“${escapeHtml(expense.description)}”`;
}

function notifyExpense(
  state: State,
  actor: UserRecord,
  expense: ExpenseRecord,
  type: number,
  verb: string,
  extraRecipients: Iterable<number> = [],
): void {
  const recipients = new Set([
    actor.id,
    ...expense.shares.map((s) => s.user_id),
    ...extraRecipients,
  ]);
  state.notify(
    recipients,
    {
      type,
      created_by: actor.id,
      source: { type: 'Expense', id: expense.id },
      image_shape: 'square',
    },
    (reader) => {
      const title =
        type === 2
          ? `<strike>${expenseTitle(expense)}</strike>`
          : `<strong>${expenseTitle(expense)}</strong>`;
      let text = `<strong>${state.nameFor(reader, actor.id)}</strong> ${verb} ${title}.`;
      const share = expense.shares.find((s) => s.user_id === reader);
      if (share && type !== 2) {
        const net = share.paid - share.owed;
        if (net > 0)
          text += `<br><font color="#5bc5a7">You get back ${state.money(net, expense.currency_code)}</font>`;
        if (net < 0)
          text += `<br><font color="#ff652f">You owe ${state.money(-net, expense.currency_code)}</font>`;
      }
      return text;
    },
  );
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
  const expense: ExpenseRecord = {
    id: state.next('expense'),
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
    receipt_id: file ? storeReceipt(state, file) : null,
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
  return ok({ expenses: [state.expense(expense, false)], errors: {} });
}

/** Re-expresses minor units when the currency's exponent changes; undefined if not exact. */
function rescale(minor: number, from: number, to: number): number | undefined {
  if (from === to) return minor;
  if (to > from) return minor * 10 ** (to - from);
  const factor = 10 ** (from - to);
  return minor % factor === 0 ? minor / factor : undefined;
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
  if (changes.length === 0) return ok({ expenses: [state.expense(expense, false)], errors: {} });

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
  if (file) expense.receipt_id = storeReceipt(state, file);
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
  return ok({ expenses: [state.expense(expense, false)], errors: {} });
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
      `The cost changed from ${state.money(expense.cost, expense.currency_code)} to ${state.money(draft.cost, draft.currency_code)}`,
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
  return ok({ expense: state.expense(expense, true) });
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
    out.push(state.expense(e, false));
    if (limit !== 0 && out.length >= limit) break;
  }
  return ok({ expenses: out });
}

// ---- Comments ----

function visibleExpense(state: State, actor: UserRecord, id: number | undefined): ExpenseRecord {
  const expense = id === undefined ? undefined : state.expenses.get(id);
  if (!expense) throw notFound();
  if (!state.canSeeExpense(actor.id, expense)) throw forbidden();
  return expense;
}

export function getComments({ state, actor, params }: Ctx): ApiResult {
  const expense = visibleExpense(state, actor, intParam(params, 'expense_id'));
  return ok({ comments: state.liveComments(expense).map((c) => state.comment(c)) });
}

export function createComment({ state, actor, params }: Ctx): ApiResult {
  rejectUnknown(params, (k) => k === 'expense_id' || k === 'content');
  const expense = visibleExpense(state, actor, intParam(params, 'expense_id'));
  const content = params.content?.trim() ?? '';
  if (content === '') return ok({ comment: {}, errors: { base: ["Content can't be blank"] } });
  const comment: CommentRecord = {
    id: state.next('comment'),
    expense_id: expense.id,
    content,
    comment_type: 'User',
    user_id: actor.id,
    created_at: state.now(),
    deleted_at: null,
  };
  state.comments.set(comment.id, comment);
  expense.comments.push(comment.id);
  state.invalidate(expense.id);
  const recipients = new Set([actor.id, ...expense.shares.map((s) => s.user_id)]);
  state.notify(
    recipients,
    {
      type: 3,
      created_by: actor.id,
      source: { type: 'Expense', id: expense.id },
      image_shape: 'square',
    },
    (reader) =>
      `<strong>${state.nameFor(reader, actor.id)}</strong> commented on <strong>${expenseTitle(expense)}</strong>: “${escapeHtml(content)}”`,
  );
  return ok({ comment: state.comment(comment) });
}

export function deleteComment({ state, actor, pathId }: Ctx): ApiResult {
  const comment = state.comments.get(pathIdOf(pathId));
  if (!comment || comment.deleted_at !== null) throw notFound();
  const expense = state.expenses.get(comment.expense_id);
  if (!expense || !state.canSeeExpense(actor.id, expense)) throw forbidden();
  if (comment.comment_type !== 'User' || comment.user_id !== actor.id) throw forbidden();
  comment.deleted_at = state.now();
  state.invalidate(expense.id);
  return ok({ comment: state.comment(comment) });
}

// ---- Notifications ----

export function getNotifications({ state, actor, params }: Ctx): ApiResult {
  const after = dateParam(params, 'updated_after');
  const limit = intParam(params, 'limit') ?? 0;
  if (limit < 0) throw badRequest('Invalid value for `limit`: must be 0 or more');
  const list = state.notifications.get(actor.id) ?? [];
  const out = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const n = list[i]!;
    if (after !== undefined && n.created_at < after) break;
    out.push(state.notification(n));
    if (limit !== 0 && out.length >= limit) break;
  }
  return ok({ notifications: out });
}
