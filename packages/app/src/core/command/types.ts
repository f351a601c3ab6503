/** The vocabulary the parser's modules share: its public result types and the internal ones. */
import type { BillSummary } from '../itemise.js';
import type { Split } from '../split.js';

/** Stands for the person who typed the command until the caller swaps in a real id. */
export const ME = '@me';
/** How often the expense service can repeat an expense (its `repeat_interval`, besides never). */
export type Repeat = 'weekly' | 'fortnightly' | 'monthly' | 'yearly';

/** Largest cost accepted, in major units: beyond it an amount is far more likely a typo. */
export const MAX_AMOUNT_MAJOR = 1_000_000_000;

/**
 * Longest amount read on its own (a form's field): a sum of a few dozen items fits. A longer text
 * is refused before anything reads it, however it was sent.
 */
export const MAX_AMOUNT_CHARS = 500;

export interface ParseContext {
  /** Today, yyyy-MM-dd, in the caller's time zone. */
  today: string;
  /** The caller's default currency code (the service's `default_currency`). */
  defaultCurrency: string;
  /**
   * The caller's Slack locale (e.g. `en-US`, `de-DE`): decides `01/02/2026` (without it, such
   * dates are refused), and which language's words are read beside English's (lexicon/).
   */
  locale?: string;
  /** True when the channel is bound to a group, so that naming nobody means "the whole group". */
  channelHasGroup?: boolean;
}

export interface ParsedExpense {
  /** Total cost in the currency's minor unit. */
  cost: number;
  currency: string;
  /** Which text gave the currency: a symbol (`$`), a code (`EUR`), a word (`euros`) or nothing. */
  currencySource: 'symbol' | 'code' | 'word' | 'default';
  /** The currency marker as typed, null when the default currency applied. */
  currencyToken: string | null;
  /** The amount as typed (`€12,50`, `1 000,50`, `$7 each`). */
  amountText: string;
  /** For `$7 each`: the per-person amount (minor units); the cost is this times the participants. */
  each: number | null;
  /**
   * What is left of the text once everything with a meaning is taken out; empty when nothing is:
   * the caller names the expense then, in the words of the person who booked it.
   */
  description: string;
  /**
   * Who shares the cost: Slack user ids and `ME`, in the order that decides who gets a leftover
   * minor unit first. The caller (ME) comes first unless typed elsewhere or left out.
   */
  participants: string[];
  /**
   * True when nobody was mentioned: every member of `group` (or the channel's group) shares it.
   * `participants` then holds only ME (or nothing after `except me`).
   */
  wholeGroup: boolean;
  /** Slack user id or ME; the first of several payers. */
  payer: string;
  /**
   * Set only when several people paid: what each paid (minor units), adding up to `cost`. Each
   * payer is also one of the participants, as a single payer is.
   */
  payers?: Array<{ id: string; amount: number }>;
  /** Set only when the expense repeats. */
  repeat?: Repeat;
  /** A group named with `in <group>`, as typed. */
  group: string | null;
  /**
   * `no group` (`ohne Gruppe`...): booked outside any group, even in a channel bound to one or
   * with a default group. Set only when typed.
   */
  noGroup?: true;
  /** yyyy-MM-dd; today when no date was given. */
  date: string;
  split: Split;
  /** With a tip or tax (`+tip 15%`): the subtotal, tip, tax and total; `cost` is the total. */
  itemised?: BillSummary;
}

/** A group's saved split: ids are Slack user ids and ME, as in an expense. */
export type DefaultSplit = Extract<Split, { kind: 'percent' } | { kind: 'shares' }>;
/** A payment typed as `/split paid @ann 15`; its amount is read once its currency is known. */
export interface ParsedPayment {
  /** `to`: I paid them; `from`: they paid me. */
  direction: 'to' | 'from';
  /** Slack user id. */
  person: string;
  /** The amount as typed, with its currency marker if it had one (`€15`, `15 EUR`). */
  amountText: string;
  /** The currency the text named; null when it named none. */
  currency: string | null;
}

export interface DateRange {
  /** Inclusive, yyyy-MM-dd; null = open. */
  from: string | null;
  to: string | null;
}

/** What `/split list` and `/split export` look for; every filter given must hold. */
export interface ListFilters {
  /** Slack user ids: each must be on the expense. */
  mentions: string[];
  /** A group's name as typed after `in` or `group` (`in Roommates`). */
  group: string | null;
  /**
   * Words that are nothing else, with no `in` or `about` before them (`list Trip to Rome`,
   * `list taxi`): a group's name when the person has a group so called, else words the
   * description must have. Null when there are none, or when a group is named with `in` (the
   * words are then search words).
   */
  loose: string | null;
  range: DateRange;
  /**
   * Words (`about taxi`) and quoted phrases (`"pizza night"`), as typed: each must appear in the
   * description, ignoring case.
   */
  words: string[];
}

export type ParseResult =
  | { kind: 'expense'; expense: ParsedExpense }
  | { kind: 'open_modal' }
  | { kind: 'help'; topic: HelpTopic | null; asked: string | null }
  | { kind: 'connect' }
  | { kind: 'disconnect' }
  | { kind: 'whoami' }
  | ({ kind: 'list' } & ListFilters)
  | ({ kind: 'export' } & ListFilters)
  | { kind: 'undo' }
  | { kind: 'balance'; mention: string | null; group: string | null; currency: string | null }
  | { kind: 'groups' }
  | { kind: 'group_create'; name: string; mentions: string[] }
  | { kind: 'group_add'; mentions: string[]; group: string }
  | { kind: 'group_delete'; name: string }
  | { kind: 'group_use'; name: string }
  | { kind: 'group_default'; group: string | null; action: 'show' }
  | { kind: 'group_default'; group: string | null; action: 'clear' }
  | {
      kind: 'group_default';
      group: string | null;
      action: 'set';
      split: DefaultSplit;
      /** A currency saved with the split (`... me 60% @ann 40% EUR`), null when none was typed. */
      currency: string | null;
    }
  | { kind: 'group_default'; group: string | null; action: 'currency'; currency: string }
  | { kind: 'feed'; action: 'on' | 'off' | 'status' }
  | { kind: 'paid'; payment: ParsedPayment }
  | { kind: 'remind'; mention: string }
  | { kind: 'error'; problem: ParseProblem };

export type ErrorResult = Extract<ParseResult, { kind: 'error' }>;

export type Token =
  | { t: 'mention'; id: string; label: string | null; raw: string }
  | { t: 'usergroup'; label: string; raw: string }
  | { t: 'broadcast'; name: string; raw: string }
  | { t: 'channel'; label: string; raw: string }
  | { t: 'link'; label: string; raw: string }
  | { t: 'quoted'; text: string; raw: string }
  | {
      t: 'word';
      raw: string;
      lower: string;
      /** As keywords are compared: lower case, no closing punctuation, accents folded (words.ts). */
      key: string;
    };

export interface CurrencyMark {
  code: string;
  source: 'symbol' | 'code' | 'word';
  token: string;
}

export type NumberReading = { decimal: string } | { problem: Trouble };

export interface NumberParts {
  negative: boolean;
  before: string;
  number: string;
  after: string;
}

export interface DateMatch {
  date: Date;
  length: number;
}

export type Value =
  | {
      kind: 'amount';
      decimal: string;
      negative: boolean;
      mark: CurrencyMark | null;
      raw: string;
      terms?: SumTerm[];
    }
  | { kind: 'percent'; decimal: string; raw: string }
  | { kind: 'shares'; count: string; raw: string };

export interface Person {
  id: string;
  value: Value | null;
}

export interface AmountCandidate {
  index: number;
  length: number;
  reading: NumberReading;
  negative: boolean;
  mark: CurrencyMark | null;
  raw: string;
  /** For a sum of items (`12.50+7.25`): each item, checked on its own; `reading` is their sum. */
  terms?: SumTerm[];
}

/** One item of a sum, as a plain decimal and as typed. */
export interface SumTerm {
  decimal: string;
  raw: string;
}

export interface Scan {
  tokens: Token[];
  /** Tokens already given a meaning; what is left becomes the description. */
  used: boolean[];
  ctx: ParseContext;
}

/** What `/split help <topic>` explains; the overview names them all. */
export const HELP_TOPICS = [
  'payers',
  'shares',
  'list',
  'groups',
  'reminders',
  'recurring',
  'itemise',
  'export',
  'feed',
  'account',
] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];

/*
 * What the parser refuses and why, as data: an id, the values the sentence needs, and a form
 * that works. The words are the reader's, written where the answer is built (the Slack layer
 * reads each id's sentence from the person's catalogue); nothing here is written for a person.
 */

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
  'amount_too_long',
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
