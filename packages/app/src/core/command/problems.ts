/**
 * What the parser refuses and why, as data: an id, the values the sentence needs, and a form
 * that works. The words are the reader's, written where the answer is built (the Slack layer
 * reads each id's sentence from the person's catalogue); nothing here is written for a person.
 */
import type { Repeat } from './types.js';

/**
 * A value of a refusal. A string is text the person typed (or a code such as `EUR`, or a choice a
 * sentence selects on, such as `me`); the objects say what kind of value the reader is shown.
 */
export type ProblemValue =
  | string
  | number
  /** A Slack user id, or ME. */
  | { person: string }
  /** A month of the year, 1 to 12, named in the reader's language. */
  | { month: number; day?: number }
  /** A calendar date, yyyy-MM-dd. */
  | { date: string }
  /** An amount in minor units of a currency. */
  | { money: number; currency: string }
  /** Basis points: 6000 is 60%. */
  | { percent: number }
  /** How often an expense repeats. */
  | { repeat: Repeat }
  /** A `/split` form, written with the example people (`@ann`) a reader can stand in for. */
  | { example: string }
  /** Texts joined as a list: `and` (all of them), `or` (one of them), or a plain `list`. */
  | { and: readonly string[] }
  | { or: readonly string[] }
  | { list: readonly string[] };

export type ProblemValues = Readonly<Record<string, ProblemValue>>;

/** Every kind of refusal. The Slack layer maps each to its sentence; the type checker sees all. */
export const PROBLEM_IDS = [
  'too_long',
  'amount_unreadable',
  'amount_unclear',
  'amount_unreadable_in_sum',
  'amount_unclear_in_sum',
  'amount_negative',
  'amount_signed',
  'no_cents',
  'too_many_decimals',
  'too_large',
  'amount_missing',
  'amount_not_one',
  'sum_missing',
  'sum_not_one',
  'sum_leading_plus',
  'sum_trailing_plus',
  'sum_double_plus',
  'sum_minus',
  'sum_item_unreadable',
  'sum_two_currencies',
  'plain_digits',
  'percent_whose',
  'several_amounts',
  'which_cost',
  'shares_whole',
  'shares_many_x',
  'percent_needs_number',
  'percent_negative',
  'percent_unreadable',
  'percent_decimals',
  'date_unreadable',
  'no_such_date',
  'no_such_date_in_year',
  'no_such_month',
  'date_future',
  'date_too_old',
  'date_ambiguous',
  'two_dates',
  'debts',
  'me_and_except_me',
  'one_currency',
  'headcount',
  'not_understood',
  'who_shared',
  'one_kind',
  'own_part_alone',
  'payers_with_extras',
  'payer_paid_nothing',
  'each_needs_people',
  'each_equal_only',
  'total_or_part',
  'no_amount',
  'zero',
  'payers_dont_add_up',
  'parts_over',
  'parts_short',
  'percents_over',
  'percents_not_100',
  'does_not_add_up',
  'extra_negative',
  'extra_needs_value',
  'extra_twice',
  'extra_over_100',
  'default_clear_and_set',
  'default_needs_value',
  'default_no_amounts',
  'default_one_kind',
  'default_percents_total',
  'default_two_currencies',
  'feed_unknown',
  'one_group',
  'how_much_paid',
  'who_paid',
  'several_payers_amounts',
  'payers_once',
  'payer_twice',
  'payment_usergroup',
  'payment_one_person',
  'payment_amount',
  'payment_one_amount',
  'payment_zero',
  'remind_who',
  'one_person',
  'remind_extra',
  'usergroup',
  'broadcast',
  'unknown_person',
  'email_not_mention',
  'two_values',
  'repeat_unsupported',
  'repeat_how_often',
  'repeat_two',
  'search_which_words',
  'list_which_group',
  'search_too_long',
  'date_after_unreadable',
  'range_backwards',
  'person_or_group',
  'group_name_missing',
  'group_who_joins',
  'group_which_join',
  'group_which_delete',
  'group_which_use',
  'group_unknown_sub',
] as const;

export type ProblemId = (typeof PROBLEM_IDS)[number];

/** What is wrong, before the form that works is chosen. */
export interface Trouble {
  id: ProblemId;
  values: ProblemValues;
}

/** A refusal: what is wrong, and a `/split` form that works (with `@ann` for a person). */
export interface ParseProblem extends Trouble {
  example: string;
}

/** A trouble and its values, written compactly where the parser refuses. */
export function trouble(id: ProblemId, values: ProblemValues = {}): Trouble {
  return { id, values };
}
