/**
 * Expenses: the expense as the service sends it, what creating and updating one takes, and
 * get_expenses (and a paginating walk over it), get_expense, create_expense, update_expense,
 * delete_expense, undelete_expense.
 */
import { amount, type PersonRef, put, putPerson } from '../encode.js';
import { type ServiceErrors, ServiceInputException } from '../errors.js';
import {
  count,
  type Encoder,
  money,
  type Operation,
  oneOf,
  type Param,
  type Reader,
} from '../operation.js';
import {
  asRecord,
  isObjectWithId,
  outcome,
  resource,
  type SuccessResult,
  succeeded,
} from '../results.js';
import type { Comment } from './comments.js';
import type { UserSummary } from './users.js';

export interface Receipt {
  large: string | null;
  original: string | null;
}

export interface ExpenseUser {
  user?: UserSummary;
  user_id: number;
  paid_share: string;
  owed_share: string;
  net_balance: string;
}

export interface Repayment {
  from: number;
  to: number;
  amount: string;
}

export interface CategoryRef {
  id: number;
  name: string;
}

export type RepeatInterval = 'never' | 'weekly' | 'fortnightly' | 'monthly' | 'yearly';

/** How many days before a recurring expense comes round its reminder goes out; -1 for none. */
export type ReminderDays = -1 | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 14;

export interface Expense {
  id: number;
  group_id: number | null;
  friendship_id?: number | null;
  expense_bundle_id?: number | null;
  description: string;
  repeats?: boolean;
  repeat_interval?: RepeatInterval | null;
  email_reminder?: boolean;
  email_reminder_in_advance?: number | null;
  next_repeat?: string | null;
  details?: string | null;
  comments_count?: number;
  payment: boolean;
  creation_method?: string | null;
  transaction_method?: string;
  transaction_confirmed?: boolean;
  transaction_id?: string | number | null;
  transaction_status?: string | null;
  cost: string;
  currency_code: string;
  repayments: Repayment[];
  date: string;
  created_at: string;
  created_by?: UserSummary | null;
  updated_at: string;
  updated_by?: UserSummary | null;
  deleted_at?: string | null;
  deleted_by?: UserSummary | null;
  category?: CategoryRef;
  receipt?: Receipt;
  users: ExpenseUser[];
  /** Only from getExpense, and only from edition 2 on. */
  comments?: Comment[];
}

/** A share of an expense. Amounts are decimal strings with at most two decimals ("12.50"). */
export type ExpenseShare = PersonRef & { paid_share: string; owed_share: string };

export interface ExpenseFields {
  description?: string;
  /** Decimal string, at most two decimals: "20", "20.5", "20.50". */
  cost?: string;
  currency_code?: string;
  /** ISO 8601 timestamp or a Date. */
  date?: string | Date;
  /** A subcategory id (18 = General). */
  category_id?: number;
  group_id?: number;
  details?: string;
  /** How often the expense recurs; 'never' stops it. */
  repeat_interval?: RepeatInterval;
  /** Whether the people involved get an e-mail before the next occurrence of a recurring expense. */
  email_reminder?: boolean;
  /** How many days before the next occurrence that e-mail goes out. */
  email_reminder_in_advance?: ReminderDays;
  payment?: boolean;
  /** Shares per person; the service replaces all shares with this set. */
  users?: ExpenseShare[];
  /** Path of a file to attach as the receipt (sent as multipart part `receipt`). */
  receipt?: string;
}

export interface NewExpense extends ExpenseFields {
  description: string;
  cost: string;
  /**
   * Split the cost equally over all current members of `group_id`, the caller paying. Defaults
   * to true when no `users` are given, and is false when they are. Requires a non-zero group_id.
   */
  split_equally?: boolean;
}

/** Only the fields set are sent; `split_equally` is not accepted by update_expense. */
export interface ExpenseUpdate extends ExpenseFields {
  id: number;
}

export interface ExpenseFilters {
  /** Number of expenses to skip. */
  offset?: number;
  /** Page size; 0 asks for all (the service caps it). The service's default is 20. */
  limit?: number;
  group_id?: number;
  /** Expenses between the caller and this user (sent as friendship_id in edition 1). */
  friend_id?: number;
  dated_after?: string | Date;
  dated_before?: string | Date;
  updated_after?: string | Date;
  updated_before?: string | Date;
  /** true hides deleted expenses (not in edition 1). */
  visible?: boolean;
}

/** The expense when the service applied the change; else `errors` says why. */
export type ExpenseResult = { expense?: Expense; errors: ServiceErrors };

export const getExpenses: Operation<ExpenseFilters, Expense[]> = {
  name: 'getExpenses',
  method: 'GET',
  path: 'get_expenses',
  params: [
    { field: 'offset', encode: count },
    { field: 'limit', encode: count },
    { field: 'group_id' },
    // Edition 1 named the friend filter after the friendship.
    { field: 'friend_id', wire: (edition) => (edition === 1 ? 'friendship_id' : 'friend_id') },
    { field: 'dated_after' },
    { field: 'dated_before' },
    { field: 'updated_after' },
    { field: 'updated_before' },
    { field: 'visible', since: 2 },
  ],
  read: resource('expenses'),
};

const withoutCommentsBefore2: Reader<Expense> = (body, ctx) => {
  const expense = resource<Expense>('expense')(body, ctx);
  if (ctx.edition > 1) return expense;
  // Edition 1 has no Comment resource.
  const { comments: _omitted, ...rest } = expense;
  return rest as Expense;
};

export const getExpense: Operation<{ id: number }, Expense> = {
  name: 'getExpense',
  method: 'GET',
  path: 'get_expense/{id}',
  read: withoutCommentsBefore2,
};

/** Each person's paid and owed shares, flattened as `users__N__*` in the order given. */
const shares: Encoder = (pairs, name, value, ctx) => {
  if (value === undefined) return;
  const users = value as ExpenseShare[];
  if (users.length === 0) {
    throw new ServiceInputException(
      `${ctx.operation}: ${name} is empty (there would be nobody involved)`,
    );
  }
  users.forEach((share, i) => {
    const prefix = `${name}__${i}`;
    putPerson(pairs, prefix, share);
    for (const key of ['paid_share', 'owed_share'] as const) {
      put(pairs, `${prefix}__${key}`, amount(`${ctx.operation}: ${prefix}__${key}`, share[key]));
    }
  });
};

/** The days in advance a recurring expense's reminder may be sent; -1 sends none. */
const REMINDER_DAYS: ReadonlyArray<ReminderDays> = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 14];

/** What create_expense and update_expense both take, in wire order. */
const EXPENSE_FIELDS: ReadonlyArray<Param<ExpenseFields>> = [
  { field: 'description' },
  { field: 'cost', encode: money },
  { field: 'currency_code' },
  { field: 'date' },
  { field: 'category_id' },
  { field: 'group_id' },
  { field: 'details' },
  { field: 'repeat_interval' },
  { field: 'email_reminder' },
  { field: 'email_reminder_in_advance', encode: oneOf(REMINDER_DAYS) },
  { field: 'payment' },
  { field: 'users', encode: shares },
];

const expenseResult: Reader<ExpenseResult> = (body, ctx) => {
  const record = asRecord(body);
  // The service answers a single expense inside a list.
  const list = Array.isArray(record.expenses) ? record.expenses : [];
  const expense = list[0] ?? record.expense;
  const { ok, errors } = outcome(body, ctx, isObjectWithId(expense));
  return ok ? { expense: expense as Expense, errors } : { errors };
};

function checkNewExpense(expense: NewExpense): void {
  if (!expense.description) {
    throw new ServiceInputException('createExpense: description is required');
  }
  if (expense.cost === undefined)
    throw new ServiceInputException('createExpense: cost is required');
  const byShares = expense.users !== undefined;
  if (byShares && expense.split_equally === true) {
    throw new ServiceInputException(
      'createExpense: split_equally cannot be combined with users (give one or the other)',
    );
  }
  if (byShares) return;
  if (expense.split_equally === false) {
    throw new ServiceInputException(
      'createExpense: without split_equally, give users with their paid and owed shares',
    );
  }
  if (!expense.group_id) {
    throw new ServiceInputException(
      'createExpense: split_equally needs a group_id (the cost is split over its members; ' +
        'group 0 is refused) — or give users with their shares',
    );
  }
}

/**
 * Either `users` with everyone's shares, or none and an equal split over every member of a
 * non-zero `group_id`, the caller paying.
 */
export const createExpense: Operation<NewExpense, ExpenseResult> = {
  name: 'createExpense',
  method: 'POST',
  path: 'create_expense',
  params: [
    ...EXPENSE_FIELDS,
    { wire: 'split_equally', value: (e) => (e.users === undefined ? true : undefined) },
  ],
  check: checkNewExpense,
  file: 'receipt',
  read: expenseResult,
};

/** Sends only the fields set besides `id`; giving `users` replaces every share. */
export const updateExpense: Operation<ExpenseUpdate, ExpenseResult> = {
  name: 'updateExpense',
  method: 'POST',
  path: 'update_expense/{id}',
  since: 2,
  params: EXPENSE_FIELDS,
  check: (expense) => {
    if ('split_equally' in expense) {
      throw new ServiceInputException(
        'updateExpense: the service does not accept split_equally on update; give users with shares',
      );
    }
  },
  requireChange: true,
  file: 'receipt',
  read: expenseResult,
};

export const deleteExpense: Operation<{ id: number }, SuccessResult> = {
  name: 'deleteExpense',
  method: 'POST',
  path: 'delete_expense/{id}',
  since: 2,
  read: succeeded,
};

export const undeleteExpense: Operation<{ id: number }, SuccessResult> = {
  name: 'undeleteExpense',
  method: 'POST',
  path: 'undelete_expense/{id}',
  since: 2,
  read: succeeded,
};

/**
 * Every expense matching `filters`, one page of `pageSize` at a time (offset pagination): stops
 * at the first short page, and never yields an expense twice even when new expenses shift the
 * pages mid-walk. `filters.offset` is where it starts; `filters.limit`, when positive, caps the
 * total.
 */
export async function* walkExpenses(
  page: (filters: ExpenseFilters) => Promise<Expense[]>,
  filters: ExpenseFilters,
  options: { pageSize?: number },
): AsyncGenerator<Expense, void, undefined> {
  const pageSize = options.pageSize ?? 100;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new ServiceInputException('iterateExpenses: pageSize must be a positive integer');
  }
  const cap = filters.limit && filters.limit > 0 ? filters.limit : Number.POSITIVE_INFINITY;
  const seen = new Set<number>();
  let offset = filters.offset ?? 0;
  for (;;) {
    const found = await page({ ...filters, offset, limit: pageSize });
    for (const expense of found) {
      if (seen.has(expense.id)) continue;
      seen.add(expense.id);
      yield expense;
      if (seen.size >= cap) return;
    }
    if (found.length < pageSize) return;
    offset += found.length;
  }
}
