/**
 * Reading create_expense and update_expense input into a draft and checking it: amounts in the
 * currency's minor unit, shares by user id or e-mail, the optional fields, and the rules every
 * saved expense obeys. Problems are collected, not thrown: the service answers all of them at once
 * (200 with `errors.base`), and nothing is changed.
 */

import type { ApiResult, Params } from '../types.js';
import { ok } from './ctx.js';
import type { ExpenseFields, RepeatInterval, UserRecord } from './model.js';
import { currencyExponent, MoneyError, parseMinor } from './money.js';
import { boolParam, flattened, has, intParam, isEmail, parseDate } from './params.js';
import { currencyUnits, subcategoryNames } from './reference.js';
import type { State } from './state.js';

/** The largest cost accepted, in minor units: beyond it an amount is a typo, not a bill. */
export const MAX_COST_MINOR = 1_000_000_000_000;

export const SHARE_FIELDS = new Set([
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
export const CREATE_FIELDS = new Set([...EXPENSE_FIELDS, 'split_equally']);
export const UPDATE_FIELDS = new Set(EXPENSE_FIELDS);
const REPEAT_INTERVALS = new Set(['never', 'weekly', 'fortnightly', 'monthly', 'yearly']);

export type PersonRef =
  | { kind: 'user'; id: number }
  | { kind: 'new'; email: string; first_name: string; last_name: string | null };

export interface DraftShare {
  person: PersonRef;
  paid: number;
  owed: number;
}

export interface Draft extends ExpenseFields {
  shares: DraftShare[];
}

export function failed(errors: string[]): ApiResult {
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

export function parseCost(
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
export function parseShares(
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
export function checkDraft(state: State, actor: UserRecord, draft: Draft, errors: string[]): void {
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
export function readCommonFields(params: Params, draft: Draft, errors: string[]): void {
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

/** Re-expresses minor units when the currency's exponent changes; undefined if not exact. */
export function rescale(minor: number, from: number, to: number): number | undefined {
  if (from === to) return minor;
  if (to > from) return minor * 10 ** (to - from);
  const factor = 10 ** (from - to);
  return minor % factor === 0 ? minor / factor : undefined;
}
