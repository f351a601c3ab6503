/**
 * The parser's refusals (core/command), written for the person who typed the command: each id's
 * sentence from their catalogue, each value written their way (amounts, dates, months, lists),
 * text they typed escaped for mrkdwn, and every `/split` form with people they can mention in
 * place of `@ann`. Pure.
 */
import {
  ME,
  type ProblemId,
  type ProblemValue,
  type Repeat,
  type Trouble,
} from '../../core/command/index.js';
import { Lru } from '../../core/lru.js';
import type { MessageKey, MessageValues } from '../../voice/index.js';
import { LOCALES_KEPT } from '../../voice/index.js';
import { mention, mrkdwn } from '../kit/text.js';
import { exampleText } from './examples.js';
import type { Voice } from './voice.js';

/** Each refusal's sentence. */
const PROBLEM_KEYS: Record<ProblemId, MessageKey> = {
  too_long: 'parse.too_long',
  amount_too_long: 'parse.amount_too_long',
  amount_unreadable: 'parse.amount_unreadable',
  amount_unclear: 'parse.amount_unclear',
  amount_unreadable_in_sum: 'parse.amount_unreadable_in_sum',
  amount_unclear_in_sum: 'parse.amount_unclear_in_sum',
  amount_negative: 'parse.amount_negative',
  amount_signed: 'parse.amount_signed',
  no_cents: 'parse.no_cents',
  too_many_decimals: 'parse.too_many_decimals',
  too_large: 'parse.too_large',
  amount_missing: 'parse.amount_missing',
  amount_not_one: 'parse.amount_not_one',
  sum_missing: 'parse.sum_missing',
  sum_not_one: 'parse.sum_not_one',
  sum_leading_plus: 'parse.sum_leading_plus',
  sum_trailing_plus: 'parse.sum_trailing_plus',
  sum_double_plus: 'parse.sum_double_plus',
  sum_minus: 'parse.sum_minus',
  sum_item_unreadable: 'parse.sum_item_unreadable',
  sum_two_currencies: 'parse.sum_two_currencies',
  plain_digits: 'parse.plain_digits',
  percent_whose: 'parse.percent_whose',
  several_amounts: 'parse.several_amounts',
  which_cost: 'parse.which_cost',
  shares_whole: 'parse.shares_whole',
  shares_many_x: 'parse.shares_many_x',
  percent_needs_number: 'parse.percent_needs_number',
  percent_negative: 'parse.percent_negative',
  percent_unreadable: 'parse.percent_unreadable',
  percent_decimals: 'parse.percent_decimals',
  date_unreadable: 'parse.date_unreadable',
  no_such_date: 'parse.no_such_date',
  no_such_date_in_year: 'parse.no_such_date_in_year',
  no_such_month: 'parse.no_such_month',
  date_future: 'parse.date_future',
  date_too_old: 'parse.date_too_old',
  date_ambiguous: 'parse.date_ambiguous',
  two_dates: 'parse.two_dates',
  debts: 'parse.debts',
  me_and_except_me: 'parse.me_and_except_me',
  one_currency: 'parse.one_currency',
  headcount: 'parse.headcount',
  not_understood: 'parse.not_understood',
  who_shared: 'parse.who_shared',
  one_kind: 'parse.one_kind',
  own_part_alone: 'parse.own_part_alone',
  payers_with_extras: 'parse.payers_with_extras',
  payer_paid_nothing: 'parse.payer_paid_nothing',
  each_needs_people: 'parse.each_needs_people',
  each_equal_only: 'parse.each_equal_only',
  total_or_part: 'parse.total_or_part',
  no_amount: 'parse.no_amount',
  zero: 'parse.zero',
  payers_dont_add_up: 'parse.payers_dont_add_up',
  parts_over: 'parse.parts_over',
  parts_short: 'parse.parts_short',
  percents_over: 'parse.percents_over',
  percents_not_100: 'parse.percents_not_100',
  does_not_add_up: 'parse.does_not_add_up',
  extra_negative: 'parse.extra_negative',
  extra_needs_value: 'parse.extra_needs_value',
  extra_twice: 'parse.extra_twice',
  extra_over_100: 'parse.extra_over_100',
  default_clear_and_set: 'parse.default_clear_and_set',
  default_needs_value: 'parse.default_needs_value',
  default_no_amounts: 'parse.default_no_amounts',
  default_one_kind: 'parse.default_one_kind',
  default_percents_total: 'parse.default_percents_total',
  default_two_currencies: 'parse.default_two_currencies',
  feed_unknown: 'parse.feed_unknown',
  one_group: 'parse.one_group',
  how_much_paid: 'parse.how_much_paid',
  who_paid: 'parse.who_paid',
  several_payers_amounts: 'parse.several_payers_amounts',
  payers_once: 'parse.payers_once',
  payer_twice: 'parse.payer_twice',
  payment_usergroup: 'parse.payment_usergroup',
  payment_one_person: 'parse.payment_one_person',
  payment_amount: 'parse.payment_amount',
  payment_one_amount: 'parse.payment_one_amount',
  payment_zero: 'parse.payment_zero',
  remind_who: 'parse.remind_who',
  one_person: 'parse.one_person',
  remind_extra: 'parse.remind_extra',
  usergroup: 'parse.usergroup',
  broadcast: 'parse.broadcast',
  unknown_person: 'parse.unknown_person',
  email_not_mention: 'parse.email_not_mention',
  two_values: 'parse.two_values',
  repeat_unsupported: 'parse.repeat_unsupported',
  repeat_how_often: 'parse.repeat_how_often',
  repeat_two: 'parse.repeat_two',
  search_which_words: 'parse.search_which_words',
  list_which_group: 'parse.list_which_group',
  search_too_long: 'parse.search_too_long',
  date_after_unreadable: 'parse.date_after_unreadable',
  range_backwards: 'parse.range_backwards',
  person_or_group: 'parse.person_or_group',
  group_name_missing: 'parse.group_name_missing',
  group_who_joins: 'parse.group_who_joins',
  group_which_join: 'parse.group_which_join',
  group_which_delete: 'parse.group_which_delete',
  group_which_use: 'parse.group_which_use',
  group_unknown_sub: 'parse.group_unknown_sub',
};

const REPEAT_KEYS: Record<Repeat, MessageKey> = {
  weekly: 'parse.repeat_weekly',
  fortnightly: 'parse.repeat_fortnightly',
  monthly: 'parse.repeat_monthly',
  yearly: 'parse.repeat_yearly',
};

const unitLists = new Lru<string, Intl.ListFormat>(LOCALES_KEPT, 'parse-problem.lists');
/** "USD, EUR, GBP": a plain enumeration, as the grammar's lists of codes read. */
function unitList(locale: string): Intl.ListFormat {
  return unitLists.getOrMake(
    locale,
    () => new Intl.ListFormat(locale, { type: 'unit', style: 'short' }),
  );
}

/** "February 30", "30. Februar": a month and day, even one that does not exist. */
function monthDay(voice: Voice, month: number, day: number | undefined): string {
  const format = new Intl.DateTimeFormat(voice.locale, {
    month: 'long',
    ...(day === undefined ? {} : { day: 'numeric' }),
    timeZone: 'UTC',
  });
  return format
    .formatToParts(Date.UTC(2000, month - 1, 1, 12))
    .map((part) => (part.type === 'day' && day !== undefined ? String(day) : part.value))
    .join('');
}

function valueText(voice: Voice, value: ProblemValue, people: readonly string[]): string | number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return mrkdwn(value);
  if ('person' in value) return value.person === ME ? '' : mention(value.person);
  if ('month' in value) return monthDay(voice, value.month, value.day);
  if ('date' in value) return voice.date(value.date);
  if ('money' in value) return voice.money(value.money, value.currency);
  if ('percent' in value) return voice.percent(value.percent);
  if ('repeat' in value) return voice.t(REPEAT_KEYS[value.repeat]);
  if ('example' in value) return exampleText(voice, value.example, people);
  if ('and' in value) return voice.list(value.and.map(mrkdwn));
  if ('or' in value) return voice.alternatives(value.or.map(mrkdwn));
  return unitList(voice.locale).format(value.list.map(mrkdwn));
}

/** The refusals that offer two readings of an amount, the thousands and the decimal one. */
const UNCLEAR: ReadonlySet<ProblemId> = new Set(['amount_unclear', 'amount_unclear_in_sum']);

/**
 * What is wrong, as a sentence for mrkdwn in the reader's language; forms in it name `people`
 * (Slack ids the reader can mention) where they can.
 */
export function troubleText(
  voice: Voice,
  trouble: Trouble,
  people: readonly string[] = [],
): string {
  const values: MessageValues = {};
  for (const [name, value] of Object.entries(trouble.values)) {
    values[name] = valueText(voice, value, people);
  }
  const decimal = trouble.values.decimal;
  if (typeof decimal === 'string' && UNCLEAR.has(trouble.id)) {
    // "1.500" read as a decimal, written the reader's way ("1.5", "1,5"): a German reader would
    // take "1.500" for the thousands the other reading offers.
    values.decimal = voice.number(Number(decimal));
  }
  return voice.t(PROBLEM_KEYS[trouble.id], values);
}
