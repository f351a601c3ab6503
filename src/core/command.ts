/**
 * Parsing of everything typed after `/split`, deterministic and without I/O. The grammar and the
 * rules chosen for ambiguous text are written for people in docs/split-syntax.md; this file is
 * the one place that implements them. User input never makes it throw: anything it cannot read
 * becomes an `error` result with a short message and an example that works.
 */
import { format, isValid, startOfMonth, startOfWeek, subDays, subMonths, subWeeks } from 'date-fns';
import { currencyExponent, MoneyError, parseMinor, toDecimal } from './money.js';
import { computeShares, type Split } from './split.js';

/** Stands for the person who typed the command until the caller swaps in a real id. */
export const ME = '@me';
/** Description used when the text has none. */
export const DEFAULT_DESCRIPTION = 'Expense';
/** Largest cost accepted, in major units: beyond it an amount is far more likely a typo. */
export const MAX_AMOUNT_MAJOR = 1_000_000_000;

export interface ParseContext {
  /** Today, yyyy-MM-dd, in the caller's time zone. */
  today: string;
  /** The caller's default currency code (the service's `default_currency`). */
  defaultCurrency: string;
  /** The caller's Slack locale (e.g. `en-US`); decides `01/02/2026`. Without it, such dates are refused. */
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
  /** Slack user id or ME. */
  payer: string;
  /** A group named with `in <group>`, as typed. */
  group: string | null;
  /** yyyy-MM-dd; today when no date was given. */
  date: string;
  split: Split;
}

export interface DateRange {
  /** Inclusive, yyyy-MM-dd; null = open. */
  from: string | null;
  to: string | null;
}

export type ParseResult =
  | { kind: 'expense'; expense: ParsedExpense }
  | { kind: 'open_modal' }
  | { kind: 'help' }
  | { kind: 'connect' }
  | { kind: 'disconnect' }
  | { kind: 'whoami' }
  | { kind: 'list'; mentions: string[]; group: string | null; range: DateRange }
  | { kind: 'undo' }
  | { kind: 'balance'; mention: string | null; group: string | null; currency: string | null }
  | { kind: 'groups' }
  | { kind: 'group_create'; name: string; mentions: string[] }
  | { kind: 'group_add'; mentions: string[]; group: string }
  | { kind: 'group_delete'; name: string }
  | { kind: 'group_use'; name: string }
  | { kind: 'error'; message: string; example: string };

type ErrorResult = Extract<ParseResult, { kind: 'error' }>;

const EX = {
  basic: '/split 40 lunch @ann',
  exact: '/split 40 lunch @ann 25 @bob 15',
  percent: '/split 40 lunch @ann 60% @bob 40%',
  shares: '/split 40 lunch @ann 2x @bob 1x',
  date: '/split 40 lunch @ann on 2026-11-20',
  payer: '/split 40 lunch @ann paid by @bob',
  group: '/split 40 lunch in Roommates',
};

function fail(message: string, example: string = EX.basic): ErrorResult {
  return { kind: 'error', message, example };
}

class ParseFailure extends Error {
  constructor(readonly result: ErrorResult) {
    super(result.message);
  }
}

function stop(message: string, example: string = EX.basic): never {
  throw new ParseFailure(fail(message, example));
}

// ---------------------------------------------------------------------------------------------
// Tokens

type Token =
  | { t: 'mention'; id: string; label: string | null; raw: string }
  | { t: 'usergroup'; label: string; raw: string }
  | { t: 'broadcast'; name: string; raw: string }
  | { t: 'channel'; label: string; raw: string }
  | { t: 'link'; label: string; raw: string }
  | { t: 'quoted'; text: string; raw: string }
  | { t: 'word'; raw: string; lower: string };

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function angleToken(inner: string, raw: string): Token {
  const [target = '', label] = inner.split('|', 2);
  if (target.startsWith('@'))
    return { t: 'mention', id: target.slice(1), label: label ?? null, raw };
  if (target.startsWith('!subteam^')) {
    return { t: 'usergroup', label: label ?? 'a user group', raw };
  }
  if (/^!(here|channel|everyone)\b/.test(target)) {
    return { t: 'broadcast', name: target.slice(1).replace(/\W.*$/, ''), raw };
  }
  if (target.startsWith('#')) return { t: 'channel', label: label ?? target.slice(1), raw };
  if (target.startsWith('!date^')) return word(decodeEntities(label ?? ''));
  const shown = decodeEntities(label ?? target.replace(/^mailto:/, ''));
  return { t: 'link', label: shown, raw };
}

function word(raw: string): Token {
  return { t: 'word', raw, lower: raw.toLowerCase() };
}

function tokenize(text: string): Token[] {
  const normalized = text.replace(/[\u00a0\u2007\u202f]/g, ' ');
  const tokens: Token[] = [];
  for (const match of normalized.matchAll(/<([^<>]*)>|"([^"]*)"|“([^”]*)”|[^\s<"“]+/g)) {
    const [raw, angle, quoted, curly] = match;
    if (angle !== undefined) tokens.push(angleToken(angle, raw));
    else if (quoted !== undefined || curly !== undefined) {
      tokens.push({ t: 'quoted', text: decodeEntities(quoted ?? curly ?? '').trim(), raw });
    } else {
      // `<@U1>=25`, `=25`: a leading `=` or `:` only joins a value to the mention before it.
      tokens.push(word(decodeEntities(raw)));
    }
  }
  return mergeSpacedThousands(tokens);
}

/** "1 000" and "1 000,50" are one number: a 1-3 digit group followed by groups of exactly 3. */
function mergeSpacedThousands(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const token of tokens) {
    const prev = out[out.length - 1];
    if (
      token.t === 'word' &&
      prev?.t === 'word' &&
      /^[-+−]?[^\d\s]*(?:\d{1,3}')*\d{1,3}$/.test(prev.raw) &&
      !/^\d{4}$/.test(token.raw) &&
      /^\d{3}(?:[.,]\d{1,2})?[^\d\s]*$/.test(token.raw)
    ) {
      out[out.length - 1] = word(`${prev.raw}'${token.raw}`);
      continue;
    }
    out.push(token);
  }
  return out;
}

function isWord(token: Token | undefined, ...values: string[]): boolean {
  return token?.t === 'word' && values.includes(token.lower);
}

// ---------------------------------------------------------------------------------------------
// Currencies

/** The service's currency list (`get_currencies`), so that a code is only taken when it exists. */
const CODES = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BND BOB BRL BTC BTN BWP BYN ' +
    'BYR BZD CAD CDF CHF CLP CMG CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ETB EUR FJD GBP ' +
    'GEL GHS GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR ' +
    'KMF KRW KWD KYD KZT LAK LBP LKR LTL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR ' +
    'MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR ' +
    'SDG SEK SGD SLE SLL SRD STD STN SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU ' +
    'UZS VEF VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL'
  ).split(' '),
);

/** Codes that are also English words: typed in lower case they are words, not currencies. */
const WORDLIKE_CODES = new Set([
  'all',
  'top',
  'cup',
  'mad',
  'try',
  'bob',
  'mop',
  'pen',
  'gel',
  'bam',
  'ron',
]);

/** Currencies whose own symbol is a bare `$`: there `$` means the default currency. */
const DOLLAR_CURRENCIES = new Set(
  'ARS AUD BBD CAD CLP COP CUP CVE DOP FJD HKD MXN NAD NZD SGD SRD USD UYU'.split(' '),
);

const SYMBOLS: Record<string, string | ((defaultCurrency: string) => string)> = {
  $: (d) => (DOLLAR_CURRENCIES.has(d) ? d : 'USD'),
  US$: 'USD',
  A$: 'AUD',
  AU$: 'AUD',
  C$: 'CAD',
  CA$: 'CAD',
  NZ$: 'NZD',
  HK$: 'HKD',
  S$: 'SGD',
  R$: 'BRL',
  MX$: 'MXN',
  '€': 'EUR',
  '£': 'GBP',
  '¥': (d) => (d === 'CNY' ? 'CNY' : 'JPY'),
  '￥': (d) => (d === 'CNY' ? 'CNY' : 'JPY'),
  円: 'JPY',
  元: 'CNY',
  '₹': 'INR',
  '₪': 'ILS',
  '₩': 'KRW',
  '₽': 'RUB',
  '₺': 'TRY',
  '₱': 'PHP',
  '₫': 'VND',
  '₦': 'NGN',
  '₴': 'UAH',
  '₸': 'KZT',
  '₡': 'CRC',
  '฿': 'THB',
  zł: 'PLN',
  Kč: 'CZK',
  kr: (d) => (['SEK', 'NOK', 'DKK', 'ISK'].includes(d) ? d : 'SEK'),
};

const WORDS: Record<string, string | ((defaultCurrency: string) => string)> = {
  dollar: (d) => (DOLLAR_CURRENCIES.has(d) ? d : 'USD'),
  euro: 'EUR',
  pound: 'GBP',
  quid: 'GBP',
  yen: 'JPY',
  yuan: 'CNY',
  rmb: 'CNY',
  rupee: 'INR',
  shekel: 'ILS',
  nis: 'ILS',
  won: 'KRW',
  ruble: 'RUB',
  rouble: 'RUB',
  baht: 'THB',
  zloty: 'PLN',
  franc: 'CHF',
  peso: (d) => (['MXN', 'ARS', 'CLP', 'COP', 'PHP', 'UYU', 'DOP', 'CUP'].includes(d) ? d : 'MXN'),
  reais: 'BRL',
  krona: 'SEK',
  kronor: 'SEK',
};

interface CurrencyMark {
  code: string;
  source: 'symbol' | 'code' | 'word';
  token: string;
}

function currencyOf(marker: string, defaultCurrency: string): CurrencyMark | null {
  const symbol = SYMBOLS[marker];
  if (symbol !== undefined) {
    return {
      code: typeof symbol === 'string' ? symbol : symbol(defaultCurrency),
      source: 'symbol',
      token: marker,
    };
  }
  const upper = marker.toUpperCase();
  if (CODES.has(upper) && !(marker === marker.toLowerCase() && WORDLIKE_CODES.has(marker))) {
    return { code: upper, source: 'code', token: marker };
  }
  const lower = marker.toLowerCase();
  const singular = lower.endsWith('s') && lower !== 'reais' ? lower.slice(0, -1) : lower;
  const named = WORDS[lower] ?? WORDS[singular];
  if (named !== undefined) {
    return {
      code: typeof named === 'string' ? named : named(defaultCurrency),
      source: 'word',
      token: marker,
    };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Numbers

type NumberReading = { decimal: string } | { problem: string };

/**
 * Reads a number typed with thousands separators and a decimal point or comma into a plain decimal
 * string. `,dd` or `.dd` at the end are decimals, `,ddd` is thousands; `.ddd` alone is refused as
 * ambiguous (1.500 is 1500 in Germany and 1.5 in the US).
 */
function readNumber(raw: string): NumberReading {
  const text = raw.replace(/[’']/g, "'");
  if (/^[.,]\d+$/.test(text)) return { decimal: `0.${text.slice(1)}` };
  if (/^\d+$/.test(text)) return { decimal: text };
  const unreadable = { problem: `I can't read "${raw}" as an amount` };
  if (!/^\d[\d.,']*\d$/.test(text) || /[.,']{2}/.test(text)) return unreadable;
  const dots = (text.match(/\./g) ?? []).length;
  const commas = (text.match(/,/g) ?? []).length;
  const quotes = (text.match(/'/g) ?? []).length;
  let decimalMark: string | null = null;
  if (dots > 0 && commas > 0) {
    decimalMark = text.lastIndexOf('.') > text.lastIndexOf(',') ? '.' : ',';
    if ((decimalMark === '.' ? dots : commas) !== 1) return unreadable;
  } else if (dots + commas === 1) {
    const mark = dots === 1 ? '.' : ',';
    const fraction = text.slice(text.indexOf(mark) + 1);
    const whole = text.slice(0, text.indexOf(mark));
    if (quotes > 0 || fraction.length !== 3 || whole === '0') decimalMark = mark;
    else if (mark === ',') decimalMark = null;
    else {
      return {
        problem: `"${raw}" is unclear: ${whole}${fraction} or ${whole}.${fraction}? Write ${whole}${fraction} for thousands, or at most two digits after the point`,
      };
    }
  }
  const cut = decimalMark === null ? -1 : text.lastIndexOf(decimalMark);
  const whole = cut === -1 ? text : text.slice(0, cut);
  const fraction = cut === -1 ? '' : text.slice(cut + 1);
  if (/[.,']/.test(fraction)) return unreadable;
  if (/[.,']/.test(whole)) {
    const groups = whole.split(/[.,']/);
    const western = /^\d{1,3}$/.test(groups[0]!) && groups.slice(1).every((g) => g.length === 3);
    const indian =
      /^\d{1,2}$/.test(groups[0]!) &&
      groups.slice(1, -1).every((g) => g.length === 2) &&
      groups[groups.length - 1]!.length === 3;
    if (!western && !indian) return unreadable;
    if (new Set(whole.replace(/\d/g, '')).size > 1) return unreadable;
  }
  const digits = whole.replace(/[.,']/g, '');
  return { decimal: fraction === '' ? digits : `${digits}.${fraction}` };
}

/** A token that holds a number, with what is stuck to it on either side. */
const NUMBER_TOKEN = /^([-+−]?)([^\d\s]*?)([-+−]?)([.,]?\d(?:[\d.,'’]*\d)?)([^\d]*)$/;

interface NumberParts {
  negative: boolean;
  before: string;
  number: string;
  after: string;
}

function numberParts(raw: string): NumberParts | null {
  const match = NUMBER_TOKEN.exec(raw);
  if (!match) return null;
  const [, sign1 = '', before = '', sign2 = '', number = '', afterRaw = ''] = match;
  const after = afterRaw.replace(/[,;:!?.)]+$/, '');
  return {
    negative: sign1 !== '' || sign2 !== '',
    before: before.replace(/^\(/, ''),
    number,
    after,
  };
}

function isBareNumber(raw: string): boolean {
  return /^[.,]?\d(?:[\d.,'’]*\d)?[,;:!?.]?$/.test(raw);
}

// ---------------------------------------------------------------------------------------------
// Dates

const MONTHS: Record<string, number> = {};
[
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
].forEach((name, i) => {
  MONTHS[name] = i + 1;
  MONTHS[name.slice(0, 3)] = i + 1;
});
MONTHS.sept = 9;

const WEEKDAYS: Record<string, number> = {};
['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].forEach(
  (name, i) => {
    WEEKDAYS[name] = i;
    WEEKDAYS[name.slice(0, 3)] = i;
  },
);
WEEKDAYS.tues = 2;
WEEKDAYS.thurs = 4;

function parseToday(today: string): Date {
  const [y, m, d] = today.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

function ymd(date: Date): string {
  return format(date, 'yyyy-MM-dd');
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A calendar date, refused when it does not exist, is in the future, or is before 2000. */
function makeDate(
  year: number | null,
  month: number,
  day: number,
  today: Date,
  typed: string,
): Date {
  const y = year ?? today.getFullYear();
  const date = new Date(y, month - 1, day);
  if (
    !isValid(date) ||
    month < 1 ||
    month > 12 ||
    date.getMonth() !== month - 1 ||
    date.getDate() !== day
  ) {
    stop(
      `There is no ${MONTH_NAMES[month - 1] ?? `month ${month}`} ${day}${year ? `, ${year}` : ''} ("${typed}").`,
      EX.date,
    );
  }
  if (year === null && date > today) {
    // A date without a year means its latest occurrence: "Dec 28" typed on Jan 2 is last year's.
    return makeDate(y - 1, month, day, today, typed);
  }
  if (date > today) stop(`${ymd(date)} is in the future: an expense needs a past date.`, EX.date);
  if (y < 2000) stop(`${ymd(date)} is too long ago: write a date from 2000 on.`, EX.date);
  return date;
}

interface DateMatch {
  date: Date;
  length: number;
}

function dayNumber(raw: string | undefined): number | null {
  const match = /^(\d{1,2})(?:st|nd|rd|th)?,?$/.exec(raw ?? '');
  return match ? Number(match[1]) : null;
}

function yearNumber(raw: string | undefined): number | null {
  const match = /^(\d{4}),?$/.exec(raw ?? '');
  return match ? Number(match[1]) : null;
}

function monthNumber(raw: string | undefined): number | null {
  return MONTHS[(raw ?? '').toLowerCase().replace(/[.,]$/, '')] ?? null;
}

function numericDate(raw: string, ctx: ParseContext, today: Date, withOn: boolean): Date | null {
  const text = raw.replace(/[,.]$/, '');
  let match =
    /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text) ?? /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(text);
  if (match) return makeDate(Number(match[1]), Number(match[2]), Number(match[3]), today, raw);
  match = withOn ? /^(\d{4})(\d{2})(\d{2})$/.exec(text) : null;
  if (match) return makeDate(Number(match[1]), Number(match[2]), Number(match[3]), today, raw);
  match = /^(\d{1,2})[/.](\d{1,2})(?:[/.](\d{4}|\d{2}))?$/.exec(text);
  if (!match || (!withOn && match[3] === undefined)) return null;
  const a = Number(match[1]);
  const b = Number(match[2]);
  const year = match[3] === undefined ? null : Number(match[3].padStart(4, '20'));
  let monthFirst: boolean;
  if (a > 12 && b <= 12) monthFirst = false;
  else if (b > 12 && a <= 12) monthFirst = true;
  else if (a === b) monthFirst = true;
  else if (ctx.locale) monthFirst = /^en[-_]US$/i.test(ctx.locale);
  else {
    return stop(
      `Is ${raw} ${MONTH_NAMES[a - 1]} ${b} or ${MONTH_NAMES[b - 1]} ${a}? Write the date as year-month-day.`,
      EX.date,
    );
  }
  return monthFirst ? makeDate(year, a, b, today, raw) : makeDate(year, b, a, today, raw);
}

/** A date expression starting at `tokens[i]`, or null. `withOn`: after "on", more forms count. */
function dateAt(tokens: Token[], i: number, ctx: ParseContext, withOn: boolean): DateMatch | null {
  const today = parseToday(ctx.today);
  const first = tokens[i];
  if (first?.t !== 'word') return null;
  const lower = first.lower.replace(/[,.]$/, '');
  if (lower === 'today' || lower === 'tonight' || lower === 'now')
    return { date: today, length: 1 };
  if (lower === 'yesterday') return { date: subDays(today, 1), length: 1 };
  const next = tokens[i + 1];
  const nextRaw = next?.t === 'word' ? next.raw : undefined;
  const afterRaw = tokens[i + 2]?.t === 'word' ? (tokens[i + 2] as { raw: string }).raw : undefined;
  const weekday = WEEKDAYS[(nextRaw ?? '').toLowerCase().replace(/[,.]$/, '')];
  if (lower === 'last' && weekday !== undefined) {
    let date = subDays(today, 1);
    while (date.getDay() !== weekday) date = subDays(date, 1);
    return { date, length: 2 };
  }
  if (withOn && WEEKDAYS[lower] !== undefined) {
    let date = today;
    while (date.getDay() !== WEEKDAYS[lower]) date = subDays(date, 1);
    return { date, length: 1 };
  }
  const numeric = numericDate(first.raw, ctx, today, withOn);
  if (numeric) return { date: numeric, length: 1 };
  // "Nov 3", "November 3, 2026", "3 Nov", "20 Jan 2026", "3rd of November"
  const month = monthNumber(first.raw);
  const dayAfter = dayNumber(nextRaw);
  if (month !== null && dayAfter !== null) {
    const year = yearNumber(afterRaw);
    return {
      date: makeDate(year, month, dayAfter, today, `${first.raw} ${nextRaw}`),
      length: year === null ? 2 : 3,
    };
  }
  const day = dayNumber(first.raw);
  if (day !== null) {
    const skipOf = isWord(next, 'of') ? 1 : 0;
    const monthRaw = tokens[i + 1 + skipOf];
    const m = monthRaw?.t === 'word' ? monthNumber(monthRaw.raw) : null;
    if (m !== null) {
      const yearToken = tokens[i + 2 + skipOf];
      const year = yearNumber(yearToken?.t === 'word' ? yearToken.raw : undefined);
      return {
        date: makeDate(year, m, day, today, `${first.raw} ${(monthRaw as { raw: string }).raw}`),
        length: (year === null ? 2 : 3) + skipOf,
      };
    }
  }
  return null;
}

/** Finds date expressions in `tokens`, marking them used; at most one is allowed. */
function takeDate(tokens: Token[], used: boolean[], ctx: ParseContext): Date | null {
  let found: Date | null = null;
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const withOn = isWord(tokens[i], 'on', 'dated');
    const match = dateAt(tokens, withOn ? i + 1 : i, ctx, withOn);
    if (!match) continue;
    if (found) stop('I found two dates: give one.', EX.date);
    found = match.date;
    const length = match.length + (withOn ? 1 : 0);
    for (let k = i; k < i + length; k++) used[k] = true;
    i += length - 1;
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// The expense itself

type Value =
  | { kind: 'amount'; decimal: string; negative: boolean; mark: CurrencyMark | null; raw: string }
  | { kind: 'percent'; decimal: string; raw: string }
  | { kind: 'shares'; count: string; raw: string };

interface Person {
  id: string;
  value: Value | null;
}

interface AmountCandidate {
  index: number;
  length: number;
  reading: NumberReading;
  negative: boolean;
  mark: CurrencyMark | null;
  raw: string;
}

/** An amount, with or without a currency, spread over one or two tokens at `i`. */
function amountAt(
  tokens: Token[],
  i: number,
  ctx: ParseContext,
  /** The token at `i` as it reads once a leading `=` or `:` is taken off. */
  own: Token | undefined = tokens[i],
): AmountCandidate | null {
  const token = own;
  if (token?.t !== 'word') return null;
  const parts = numberParts(token.raw);
  if (parts) {
    if (parts.after === '%' || /^(x|×)$/i.test(parts.before) || /^(x|×)$/i.test(parts.after)) {
      return null;
    }
    const markBefore = parts.before ? currencyOf(parts.before, ctx.defaultCurrency) : null;
    const markAfter = parts.after ? currencyOf(parts.after, ctx.defaultCurrency) : null;
    if ((parts.before && !markBefore) || (parts.after && !markAfter)) return null;
    if (markBefore && markAfter) return null;
    let mark = markBefore ?? markAfter;
    let length = 1;
    let raw = token.raw.replace(/[,;:!?.)]+$/, '');
    if (!mark) {
      const next = tokens[i + 1];
      const nextMark =
        next?.t === 'word'
          ? currencyOf(next.raw.replace(/[,.;:!?]$/, ''), ctx.defaultCurrency)
          : null;
      if (next?.t === 'word' && nextMark) {
        mark = nextMark;
        length = 2;
        raw = `${token.raw} ${next.raw}`;
      }
    }
    return {
      index: i,
      length,
      reading: readNumber(parts.number),
      negative: parts.negative,
      mark,
      raw,
    };
  }
  // A currency on its own, then the number: "$ 30", "EUR 12.50", "R$ 10,50".
  const mark = currencyOf(token.raw, ctx.defaultCurrency);
  const next = tokens[i + 1];
  if (mark && next?.t === 'word' && mark.source !== 'word') {
    const nextParts = numberParts(next.raw);
    if (nextParts && !nextParts.before && !nextParts.after) {
      return {
        index: i,
        length: 2,
        reading: readNumber(nextParts.number),
        negative: nextParts.negative,
        mark,
        raw: `${token.raw} ${next.raw}`,
      };
    }
  }
  return null;
}

/** The value typed right after a person: `25`, `$25`, `=25`, `60%`, `2x`, `x2`, `2 shares`. */
function valueAt(
  tokens: Token[],
  used: boolean[],
  i: number,
  ctx: ParseContext,
): { value: Value; length: number } | null {
  let k = i;
  let token = tokens[k];
  if (isWord(token, '=', ':') && !used[k]) token = tokens[++k];
  if (token?.t !== 'word' || used[k]) return null;
  const raw = token.raw.replace(/^[=:]/, '').replace(/[,;]$/, '');
  const taken = k - i + 1;
  let match = /^(\d+(?:[.,]\d+)?)\s*%$/.exec(raw);
  if (match)
    return { value: { kind: 'percent', decimal: match[1]!.replace(',', '.'), raw }, length: taken };
  match = /^(\d+(?:[.,]\d+)?)$/.exec(raw);
  const next = tokens[k + 1];
  if (match && isWord(next, '%')) {
    return {
      value: { kind: 'percent', decimal: match[1]!.replace(',', '.'), raw: `${raw}%` },
      length: taken + 1,
    };
  }
  match = /^(?:[x×](\d+(?:[.,]\d+)?)|(\d+(?:[.,]\d+)?)[x×])$/i.exec(raw);
  if (match) {
    return { value: { kind: 'shares', count: (match[1] ?? match[2])!, raw }, length: taken };
  }
  if (/^\d+(?:[.,]\d+)?$/.test(raw) && isWord(next, 'share', 'shares', 'part', 'parts')) {
    return {
      value: { kind: 'shares', count: raw, raw: `${raw} ${(next as { raw: string }).raw}` },
      length: taken + 1,
    };
  }
  const amount = amountAt(tokens, k, ctx, word(raw));
  // "@ann 25 @bob 15" gives Ann 25, but in "@ann 40 lunch" the 40 is the cost: an amount is a
  // person's part only when what follows it ends the part (another person, a connector, the end).
  const follower = amount ? tokens[k + amount.length] : undefined;
  const endsPart =
    follower === undefined ||
    used[k + (amount?.length ?? 0)] ||
    follower.t !== 'word' ||
    CONNECTORS.has(follower.lower) ||
    ME_WORDS.includes(follower.lower) ||
    /^\p{P}+$/u.test(follower.raw);
  if (amount && !endsPart) return null;
  if (amount && 'decimal' in amount.reading) {
    return {
      value: {
        kind: 'amount',
        decimal: amount.reading.decimal,
        negative: amount.negative,
        mark: amount.mark,
        raw: amount.raw,
      },
      length: taken - 1 + amount.length,
    };
  }
  if (amount && 'problem' in amount.reading) stop(`${amount.reading.problem}.`, EX.exact);
  return null;
}

const ME_WORDS = ['me', 'myself', 'self', '@me', 'i'];
const EXCLUDE_ME = ['except', 'not', 'without', 'excluding', 'minus', 'but'];
const CONNECTORS = new Set([
  'and',
  '&',
  '+',
  ',',
  'with',
  'between',
  'among',
  'amongst',
  'for',
  'to',
  'by',
  'from',
  '-',
  '–',
  '—',
  ':',
  '=',
  'split',
  'equally',
  'evenly',
  'in',
  'on',
  '.',
  ';',
  '!',
  '?',
  '/',
]);
const LEADING_FILLERS = new Set(['i', 'paid', 'spent', 'split', 'add', 'note']);
const GROUP_STOPS = new Set([
  'paid',
  'paid_by',
  'paidby',
  'payer',
  'on',
  'for',
  'except',
  'only',
  'each',
  'yesterday',
  'today',
  'with',
  'split',
]);

function amountMinor(
  decimal: string,
  negative: boolean,
  currency: string,
  typed: string,
  example: string,
): number {
  if (negative) stop(`The amount can't be negative ("${typed}").`, example);
  let minor: number;
  try {
    minor = parseMinor(decimal, currencyExponent(currency));
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    const exponent = currencyExponent(currency);
    if (/too large/.test(error.message)) tooLarge(typed, currency, example);
    stop(
      exponent === 0
        ? `${currency} has no cents: "${typed}" can't have decimals.`
        : `${currency} has at most ${exponent} decimals: "${typed}" has more.`,
      example,
    );
  }
  if (minor > MAX_AMOUNT_MAJOR * 10 ** currencyExponent(currency))
    tooLarge(typed, currency, example);
  return minor;
}

function tooLarge(typed: string, currency: string, example: string): never {
  return stop(
    `"${typed}" is more than ${MAX_AMOUNT_MAJOR.toLocaleString('en-US')} ${currency}, too large to be a real expense: check the amount.`,
    example,
  );
}

function descriptionOf(tokens: Token[], used: boolean[]): string {
  // Consumed tokens leave a gap; connectors next to a gap ("with @ann and @bob") go with it.
  const items: Array<string | null> = tokens.map((token, i) => {
    if (used[i]) return null;
    switch (token.t) {
      case 'quoted':
        return token.text;
      case 'channel':
        return `#${token.label}`;
      case 'link':
        return token.label;
      case 'word':
        return token.raw;
      default:
        return null;
    }
  });
  const isConnector = (s: string | null | undefined) =>
    typeof s === 'string' && CONNECTORS.has(s.toLowerCase());
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = 0; i < items.length; i++) {
      if (!isConnector(items[i])) continue;
      const before = i === 0 ? null : items[i - 1];
      const after = i + 1 < items.length ? items[i + 1] : null;
      if (before === null || after === null) {
        items[i] = null;
        changed = true;
      }
    }
    for (let i = items.length - 1; i > 0; i--) {
      if (items[i] === null && items[i - 1] === null) items.splice(i, 1);
    }
  }
  const words = items.filter((x): x is string => typeof x === 'string' && x !== '');
  while (words.length > 0 && LEADING_FILLERS.has(words[0]!.toLowerCase())) words.shift();
  while (words.length > 0 && isConnector(words[0])) words.shift();
  while (words.length > 0 && isConnector(words[words.length - 1])) words.pop();
  const text = words
    .join(' ')
    .replace(/[\s,;:]+$/, '')
    .trim();
  return text === '' ? DEFAULT_DESCRIPTION : text;
}

function refuseNonPeople(tokens: Token[]): void {
  for (const token of tokens) {
    if (token.t === 'usergroup') {
      stop(
        `I can't split with a user group (${token.label}): mention each person instead.`,
        '/split 60 team lunch @ann @bob @cho',
      );
    }
    if (token.t === 'broadcast') {
      stop(
        `I can't split with @${token.name}: mention each person instead.`,
        '/split 60 team lunch @ann @bob @cho',
      );
    }
    if (token.t === 'word' && /^@[^\s@]+$/.test(token.raw) && token.lower !== '@me') {
      stop(
        `I don't know who "${token.raw}" is: type @ and pick the person from the list, so that Slack sends me who they are.`,
      );
    }
    if (token.t === 'word' && /^[^\s@<]+@[^\s@]+\.[a-z]{2,}$/i.test(token.raw)) {
      stop(
        `Mention people rather than e-mail addresses ("${token.raw}"): type @ and pick them from the list.`,
      );
    }
    if (token.t === 'link' && /^[^\s@]+@[^\s@]+$/.test(token.label)) {
      stop(
        `Mention people rather than e-mail addresses ("${token.label}"): type @ and pick them from the list.`,
      );
    }
  }
}

const DEBT_WORDS = [
  'owe',
  'owes',
  'owed',
  'borrowed',
  'lent',
  'lend',
  'settle',
  'settled',
  'repay',
  'repaid',
];

interface Scan {
  tokens: Token[];
  /** Tokens already given a meaning; what is left becomes the description. */
  used: boolean[];
  ctx: ParseContext;
}

const SEVERAL_PAYERS =
  'Give one payer: for an expense several people paid, use the form (`/split` alone).';

/** `paid by @bob` and its spellings; ME when nobody is named. */
function takePayer({ tokens, used }: Scan): string {
  let payer: string = ME;
  let payerNamed = false;
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    let length = 0;
    if (isWord(tokens[i], 'paid', 'payed') && isWord(tokens[i + 1], 'by')) length = 2;
    else if (
      isWord(tokens[i], 'paid_by', 'paidby', 'payer', 'paid:', 'paid_by:', 'payer:', 'paid-by')
    )
      length = 1;
    if (length === 0) continue;
    if (isWord(tokens[i + length], ':', '=')) length++;
    const who = tokens[i + length];
    if (payerNamed) stop(SEVERAL_PAYERS, EX.payer);
    if (who?.t === 'mention') payer = who.id;
    else if (isWord(who, ...ME_WORDS)) payer = ME;
    else stop('Who paid? After "paid by", mention the person with @.', EX.payer);
    payerNamed = true;
    for (let k = i; k <= i + length; k++) used[k] = true;
    // "paid_by @u1 50000 @u2 50000": an amount right after the payer means several payers.
    const after = tokens[i + length + 1];
    if (after?.t === 'word' && numberParts(after.raw) && tokens[i + length + 2]?.t === 'mention') {
      stop(SEVERAL_PAYERS, EX.payer);
    }
  }
  // "I paid 400, @bob paid 200"
  if (tokens.filter((t, i) => !used[i] && isWord(t, 'paid', 'payed')).length > 1) {
    stop(SEVERAL_PAYERS, EX.payer);
  }
  return payer;
}

/** `except me`, `not me`, `-me`, and `only @ann` (which leaves me out unless I list myself). */
function takeExclusion({ tokens, used }: Scan): { excludeMe: boolean; only: boolean } {
  let excludeMe = false;
  let only = false;
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    if (isWord(tokens[i], ...EXCLUDE_ME) && isWord(tokens[i + 1], 'me', 'myself')) {
      excludeMe = true;
      used[i] = true;
      used[i + 1] = true;
    } else if (isWord(tokens[i], '-me')) {
      excludeMe = true;
      used[i] = true;
    } else if (isWord(tokens[i], 'only', 'just')) {
      const next = tokens[i + 1];
      if (next?.t === 'mention' || isWord(next, ...ME_WORDS)) {
        only = true;
        used[i] = true;
      }
    }
  }
  return { excludeMe, only };
}

/** `in <group>`, `in group <name>`, `in "<name>"`, or a currency written `in EUR`. */
function takeGroup({ tokens, used, ctx }: Scan): {
  group: string | null;
  currencyByIn: CurrencyMark | null;
} {
  let group: string | null = null;
  let currencyByIn: CurrencyMark | null = null;
  for (let i = 0; i < tokens.length; i++) {
    if (used[i] || !isWord(tokens[i], 'in')) continue;
    let k = i + 1;
    if (isWord(tokens[k], 'group', 'group:')) k++;
    const first = tokens[k];
    if (first?.t === 'quoted') {
      group = first.text;
      for (let j = i; j <= k; j++) used[j] = true;
      continue;
    }
    const code = first?.t === 'word' ? currencyOf(first.raw, ctx.defaultCurrency) : null;
    const afterCode = tokens[k + 1];
    const codeEnds =
      afterCode === undefined ||
      afterCode.t !== 'word' ||
      GROUP_STOPS.has(afterCode.lower) ||
      isBareNumber(afterCode.raw);
    if (code && k === i + 1 && code.source !== 'word' && codeEnds) {
      currencyByIn = code;
      used[i] = true;
      used[k] = true;
      continue;
    }
    const words: string[] = [];
    let j = k;
    for (; j < tokens.length; j++) {
      const token = tokens[j];
      if (used[j] || token?.t !== 'word' || GROUP_STOPS.has(token.lower)) break;
      if (amountAt(tokens, j, ctx) || isBareNumber(token.raw)) break;
      words.push(token.raw);
    }
    if (words.length === 0) continue;
    if (group !== null) stop('Name one group.', EX.group);
    group = words.join(' ').replace(/[,.;:]$/, '');
    for (let m = i; m < j; m++) used[m] = true;
  }
  return { group, currencyByIn };
}

/** Mentions and `me`, each with the value typed right after it; repeated people merged. */
function takePeople({ tokens, used, ctx }: Scan): { people: Person[]; meTyped: boolean } {
  const people: Person[] = [];
  let meTyped = false;
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const token = tokens[i]!;
    let id: string | null = null;
    if (token.t === 'mention') id = token.id;
    else if (isWord(token, 'me', 'myself', 'self', '@me')) id = ME;
    if (id === null) continue;
    used[i] = true;
    const value = valueAt(tokens, used, i + 1, ctx);
    if (value) {
      for (let k = i + 1; k <= i + value.length; k++) used[k] = true;
    }
    if (id === ME) meTyped = true;
    const existing = people.find((p) => p.id === id);
    if (existing) {
      if (existing.value && value) {
        stop(
          id === ME
            ? 'You gave yourself two values.'
            : `<@${id}> is there twice with a value each.`,
          EX.exact,
        );
      }
      existing.value ??= value?.value ?? null;
      continue;
    }
    people.push({ id, value: value?.value ?? null });
  }
  return { people, meTyped };
}

/** Numbers left in the text that could be the cost, and a head count ("among 4", "3 ways"). */
function takeNumbers({ tokens, used, ctx }: Scan): {
  candidates: AmountCandidate[];
  headcount: number | null;
} {
  const candidates: AmountCandidate[] = [];
  let headcount: number | null = null;
  const stray: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const token = tokens[i]!;
    if (token.t !== 'word') continue;
    if (/^[-+−]?\d+(?:[.,]\d+)?\s*%$/.test(token.raw)) {
      stray.push(token.raw);
      continue;
    }
    if (/^\d+(?:\.\d+)?e\d+$/i.test(token.raw) || /^[-+]?(nan|inf|infinity)$/i.test(token.lower)) {
      stop(`Write the amount in plain digits ("${token.raw}" is not one).`);
    }
    // "split among 4", "3 ways", "4 people" count heads, they are not the cost.
    if (/^\d+$/.test(token.raw)) {
      if (isWord(tokens[i - 1], 'among', 'between', 'amongst') && !used[i - 1]) {
        headcount = Number(token.raw);
        used[i - 1] = used[i] = true;
        continue;
      }
      if (isWord(tokens[i + 1], 'ways', 'people', 'persons', 'pax') && !used[i + 1]) {
        headcount = Number(token.raw);
        used[i] = used[i + 1] = true;
        continue;
      }
    }
    const candidate = amountAt(tokens, i, ctx);
    if (!candidate) continue;
    candidates.push(candidate);
    i += candidate.length - 1;
  }
  if (stray.length > 0) {
    stop(
      `Whose is ${stray[0]}? Put each percentage right after the person it belongs to.`,
      EX.percent,
    );
  }
  return { candidates, headcount };
}

/** The cost among the candidates, by the rules of docs/split-syntax.md; asks rather than guesses. */
function chooseCost(
  { tokens, used, ctx }: Scan,
  candidates: AmountCandidate[],
): AmountCandidate | null {
  const marked = candidates.filter((c) => c.mark);
  let cost: AmountCandidate | null = null;
  if (marked.length > 1) {
    stop(
      `I found ${marked.length} amounts (${marked.map((c) => c.raw).join(', ')}): give the cost once, or put each person's part right after them.`,
      EX.exact,
    );
  } else if (marked.length === 1) cost = marked[0]!;
  else if (candidates.length === 1) cost = candidates[0]!;
  else if (candidates.length > 1) {
    // Taking the first or the last number is wrong for "3 coffees 45" or "40 lunch 3 coffees",
    // so ask; the example marks the largest one, the likeliest cost.
    const value = (c: AmountCandidate) => ('decimal' in c.reading ? Number(c.reading.decimal) : 0);
    const guess = candidates.reduce((a, b) => (value(b) > value(a) ? b : a));
    const words = tokens.flatMap((t, i) => {
      if (t.t === 'mention') return [t.label ? `@${t.label.replace(/^@/, '')}` : t.raw];
      if (used[i] || t.t !== 'word') return [];
      return i === guess.index ? [`${t.raw} ${ctx.defaultCurrency}`] : [t.raw];
    });
    stop(
      `Which is the cost: ${candidates.map((c) => c.raw).join(' or ')}? Write the currency with it.`,
      `/split ${words.join(' ')}`,
    );
  }
  if (cost && 'problem' in cost.reading) {
    stop(`${cost.reading.problem}.`);
  }
  if (cost) for (let k = cost.index; k < cost.index + cost.length; k++) used[k] = true;
  return cost;
}

/** `each`, `pp`, `per person` right after the cost. */
function takeEach({ tokens, used }: Scan, cost: AmountCandidate | null): boolean {
  let each = false;
  if (cost) {
    const after = cost.index + cost.length;
    if (!used[after] && isWord(tokens[after], 'each', 'pp', 'a-head', 'apiece', '/person', 'per')) {
      each = true;
      used[after] = true;
      if (isWord(tokens[after], 'per') && isWord(tokens[after + 1], 'person', 'head'))
        used[after + 1] = true;
    }
  }
  return each;
}

function parseExpense(tokens: Token[], ctx: ParseContext): ParseResult {
  refuseNonPeople(tokens);
  if (tokens.some((t) => isWord(t, ...DEBT_WORDS))) {
    return fail(
      'I book shared expenses. To record a debt or a payment back, use Settle up in `/split balance`.',
      '/split balance @ann',
    );
  }
  const scan: Scan = { tokens, used: tokens.map(() => false), ctx };
  const { used } = scan;
  // Dates first, so that "Nov 3" or "2026-11-20" never look like an amount.
  const date = takeDate(tokens, used, ctx);
  const payer = takePayer(scan);
  const { excludeMe, only } = takeExclusion(scan);
  const { group, currencyByIn } = takeGroup(scan);
  const { people, meTyped } = takePeople(scan);
  if (payer !== ME && !people.some((p) => p.id === payer)) {
    people.push({ id: payer, value: null });
  }
  if (meTyped && excludeMe) stop('You wrote both "me" and "except me": which is it?');
  const { candidates, headcount } = takeNumbers(scan);
  const cost = chooseCost(scan, candidates);
  const each = takeEach(scan, cost);

  // The currency: the cost's, else the one the per-person values agree on, else the default.
  const marks = people.flatMap((p) =>
    p.value?.kind === 'amount' && p.value.mark ? [p.value.mark] : [],
  );
  if (cost?.mark) marks.unshift(cost.mark);
  if (currencyByIn) marks.unshift(currencyByIn);
  const codes = [...new Set(marks.map((m) => m.code))];
  if (codes.length > 1) {
    stop(
      `One currency per expense, please: I see ${codes.join(' and ')}.`,
      '/split €40 dinner @ann €25 @bob €15',
    );
  }
  const mark = marks[0] ?? null;
  const currency = mark?.code ?? ctx.defaultCurrency.toUpperCase();

  // Participants: everyone named, the payer too; me unless left out.
  const includeMe = !excludeMe && !(only && !meTyped);
  const participants = people.map((p) => p.id);
  if (includeMe && !participants.includes(ME)) participants.unshift(ME);
  const mentioned = people.some((p) => p.id !== ME);
  if (headcount !== null && mentioned && headcount !== participants.length) {
    stop(
      `You said ${headcount} people, but I count ${participants.length}${includeMe ? ' (you included)' : ''}: mention each of them.`,
      '/split 40 lunch @ann @bob @cho',
    );
  }
  const wholeGroup = !mentioned;
  if (wholeGroup && group === null && !ctx.channelHasGroup) {
    if (!cost && candidates.length === 0) {
      const typed = tokens.map((t) => t.raw).join(' ');
      return fail(
        `I didn't understand "${typed.length > 60 ? `${typed.slice(0, 60)}…` : typed}". To book an expense, give the amount and mention people; \`/split help\` shows everything.`,
      );
    }
    return fail('Who shared it? Mention them with @ (type @ and pick from the list).');
  }

  // The split kind follows the values given.
  const valued = people.filter((p) => p.value !== null);
  const kinds = new Set(valued.map((p) => p.value!.kind));
  if (kinds.size > 1) {
    stop(
      'Use one kind of split: amounts for everyone, percentages for everyone, or shares (2x) for everyone.',
      EX.exact,
    );
  }
  if (wholeGroup && valued.length > 0) {
    stop('To give yourself a part, mention the others too.', EX.exact);
  }
  const kind = valued[0]?.value?.kind ?? null;
  const example = kind === 'percent' ? EX.percent : kind === 'shares' ? EX.shares : EX.exact;
  let split: Split = { kind: 'equal' };
  if (kind === 'amount') {
    split = {
      kind: 'exact',
      amounts: valued.map((p) => {
        const v = p.value as Extract<Value, { kind: 'amount' }>;
        return { id: p.id, amount: amountMinor(v.decimal, v.negative, currency, v.raw, example) };
      }),
    };
  } else if (kind === 'percent') {
    split = {
      kind: 'percent',
      percents: valued.map((p) => {
        const v = p.value as Extract<Value, { kind: 'percent' }>;
        let basisPoints: number;
        try {
          basisPoints = parseMinor(v.decimal, 2);
        } catch {
          return stop(`Percentages take at most two decimals ("${v.raw}").`, example);
        }
        return { id: p.id, basisPoints };
      }),
    };
  } else if (kind === 'shares') {
    split = {
      kind: 'shares',
      shares: valued.map((p) => {
        const v = p.value as Extract<Value, { kind: 'shares' }>;
        const count = Number(v.count);
        if (!/^\d+$/.test(v.count) || count < 1) {
          stop(`Shares are whole numbers from 1 ("${v.raw}" is not).`, example);
        }
        return { id: p.id, shares: count };
      }),
    };
  }

  let costMinor: number;
  let amountText: string;
  let eachMinor: number | null = null;
  if (cost) {
    const reading = cost.reading as { decimal: string };
    costMinor = amountMinor(reading.decimal, cost.negative, currency, cost.raw, EX.basic);
    amountText = cost.raw;
    if (each) {
      if (wholeGroup)
        stop(
          '"each" needs the people mentioned, so that I can count them.',
          '/split $7 each coffee @ann @bob',
        );
      if (split.kind !== 'equal')
        stop('"each" is for equal splits only.', '/split $7 each coffee @ann @bob');
      eachMinor = costMinor;
      costMinor *= participants.length;
      amountText = `${cost.raw} each`;
      if (costMinor > MAX_AMOUNT_MAJOR * 10 ** currencyExponent(currency))
        tooLarge(amountText, currency, EX.basic);
    }
  } else if (split.kind === 'exact' && split.amounts.length >= 2) {
    // No total but an amount for each person: the total is their sum.
    costMinor = split.amounts.reduce((sum, a) => sum + a.amount, 0);
    amountText = valued.map((p) => (p.value as { raw: string }).raw).join(' + ');
  } else if (split.kind === 'exact' && split.amounts.length === 1) {
    const only1 = valued[0]!;
    const who = only1.id === ME ? 'your part' : `<@${only1.id}>'s part`;
    const raw = (only1.value as { raw: string }).raw;
    return fail(
      `Is ${raw} the total or ${who}? Put the total first: \`/split ${raw} lunch @ann\` splits it, \`/split ${raw} lunch @ann ${raw}\` gives it all to Ann.`,
      `/split ${raw} lunch @ann`,
    );
  } else {
    return fail('How much was it? I found no amount.');
  }
  if (costMinor === 0) return fail('The amount is zero: nothing to split.');

  if (split.kind === 'exact') {
    const exponent = currencyExponent(currency);
    const given = split.amounts.reduce((sum, a) => sum + a.amount, 0);
    const open = participants.filter((id) => !split.amounts.some((a) => a.id === id));
    const total = `${toDecimal(costMinor, exponent)} ${currency}`;
    if (given > costMinor) {
      return fail(
        `The parts add up to ${toDecimal(given, exponent)}, more than the cost (${total}).`,
        example,
      );
    }
    if (given < costMinor && open.length === 0) {
      return fail(
        `The parts add up to ${toDecimal(given, exponent)}, ${toDecimal(costMinor - given, exponent)} short of the cost (${total}): give the rest to someone.`,
        example,
      );
    }
  }
  const check = wholeGroup
    ? { shares: [] }
    : computeShares({ cost: costMinor, payer, participants, split });
  if ('error' in check) {
    return fail(`That doesn't add up: ${check.error}.`, example);
  }

  const description = descriptionOf(tokens, used);
  return {
    kind: 'expense',
    expense: {
      cost: costMinor,
      currency,
      currencySource: mark?.source ?? 'default',
      currencyToken: mark?.token ?? null,
      amountText,
      each: eachMinor,
      description,
      participants,
      wholeGroup,
      payer,
      group,
      date: date ? ymd(date) : ctx.today,
      split,
    },
  };
}

/**
 * Swaps the ME placeholder for the caller's real id (in participants, payer and split values),
 * merging it with a mention of the caller themselves. Returns an error when both carried a value.
 */
export function resolveMe(
  expense: ParsedExpense,
  callerId: string,
): ParsedExpense | { error: string } {
  const swap = (id: string) => (id === ME ? callerId : id);
  const participants: string[] = [];
  for (const id of expense.participants.map(swap))
    if (!participants.includes(id)) participants.push(id);
  const split = expense.split;
  const dedupe = <T extends { id: string }>(values: T[]): T[] | { error: string } => {
    const out: T[] = [];
    for (const value of values) {
      const swapped = { ...value, id: swap(value.id) };
      if (out.some((v) => v.id === swapped.id)) return { error: 'You gave yourself two values.' };
      out.push(swapped);
    }
    return out;
  };
  let resolved: Split = split;
  if (split.kind === 'exact') {
    const amounts = dedupe(split.amounts);
    if ('error' in amounts) return amounts;
    resolved = { kind: 'exact', amounts };
  } else if (split.kind === 'percent') {
    const percents = dedupe(split.percents);
    if ('error' in percents) return percents;
    resolved = { kind: 'percent', percents };
  } else if (split.kind === 'shares') {
    const shares = dedupe(split.shares);
    if ('error' in shares) return shares;
    resolved = { kind: 'shares', shares };
  }
  return { ...expense, participants, payer: swap(expense.payer), split: resolved };
}

// ---------------------------------------------------------------------------------------------
// Other subcommands

function mentionsIn(tokens: Token[]): string[] {
  const ids: string[] = [];
  for (const token of tokens)
    if (token.t === 'mention' && !ids.includes(token.id)) ids.push(token.id);
  return ids;
}

/** A name from the remaining words; `skip` words are dropped at either end ("to Roommates"). */
function nameFrom(tokens: Token[], skip: readonly string[] = []): string {
  const words = tokens
    .filter((t) => t.t === 'quoted' || t.t === 'word' || t.t === 'channel')
    .map((t) =>
      t.t === 'quoted' ? t.text : t.t === 'channel' ? t.label : (t as { raw: string }).raw,
    );
  const skipped = (w: string | undefined) => w !== undefined && skip.includes(w.toLowerCase());
  while (skipped(words[0])) words.shift();
  while (skipped(words[words.length - 1])) words.pop();
  return words
    .join(' ')
    .replace(/^[,:;\s]+|[,:;\s]+$/g, '')
    .trim();
}

function parseList(tokens: Token[], ctx: ParseContext): ParseResult {
  refuseNonPeople(tokens);
  const today = parseToday(ctx.today);
  const used = tokens.map((t) => t.t === 'mention');
  let from: string | null = null;
  let to: string | null = null;
  const example = '/split list @ann in Roommates from 2026-11-01 to 2026-11-20';
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const lower = tokens[i]?.t === 'word' ? (tokens[i] as { lower: string }).lower : '';
    const nextLower = tokens[i + 1]?.t === 'word' ? (tokens[i + 1] as { lower: string }).lower : '';
    if ((lower === 'this' || lower === 'last') && ['week', 'month'].includes(nextLower)) {
      const unit = nextLower;
      if (lower === 'this') {
        from = ymd(unit === 'week' ? startOfWeek(today, { weekStartsOn: 1 }) : startOfMonth(today));
        to = ctx.today;
      } else if (unit === 'week') {
        const start = startOfWeek(subWeeks(today, 1), { weekStartsOn: 1 });
        from = ymd(start);
        to = ymd(subDays(startOfWeek(today, { weekStartsOn: 1 }), 1));
      } else {
        from = ymd(startOfMonth(subMonths(today, 1)));
        to = ymd(subDays(startOfMonth(today), 1));
      }
      used[i] = used[i + 1] = true;
      continue;
    }
    const daysMatch = lower === 'last' && /^\d+$/.test(nextLower) && tokens[i + 2]?.t === 'word';
    if (daysMatch && /^days?$/.test((tokens[i + 2] as { lower: string }).lower)) {
      from = ymd(subDays(today, Math.max(Number(nextLower) - 1, 0)));
      to = ctx.today;
      used[i] = used[i + 1] = used[i + 2] = true;
      continue;
    }
    const bound = ['from', 'since', 'after', 'to', 'until', 'till', 'before', 'on'].includes(lower)
      ? lower
      : null;
    const at = bound ? i + 1 : i;
    const match = dateAt(tokens, at, ctx, true);
    if (!match) {
      if (bound && bound !== 'to' && bound !== 'on')
        stop(`I could not read the date after "${lower}".`, example);
      continue;
    }
    const day = ymd(match.date);
    if (bound === 'from' || bound === 'since' || bound === 'after') from = day;
    else if (bound === 'to' || bound === 'until' || bound === 'till' || bound === 'before')
      to = day;
    else {
      from = day;
      to = day;
    }
    for (let k = i; k < at + match.length; k++) used[k] = true;
    i = at + match.length - 1;
  }
  if (from && to && from > to) stop(`The range starts (${from}) after it ends (${to}).`, example);
  const rest = tokens.filter((_, i) => !used[i]);
  const group = nameFrom(rest, ['in', 'group', 'for', 'with', 'of']);
  return {
    kind: 'list',
    mentions: mentionsIn(tokens),
    group: group === '' ? null : group,
    range: { from, to },
  };
}

function parseBalance(tokens: Token[], ctx: ParseContext): ParseResult {
  refuseNonPeople(tokens);
  const mentions = mentionsIn(tokens);
  if (mentions.length > 1) {
    return fail('One person at a time, please.', '/split balance @ann');
  }
  const rest = tokens.filter((t) => t.t !== 'mention');
  const words = rest.filter((t) => !isWord(t, 'with', 'in', 'for', 'of', 'group', 'and'));
  let currency: string | null = null;
  const last = words[words.length - 1];
  const mark = last?.t === 'word' ? currencyOf(last.raw, ctx.defaultCurrency) : null;
  if (mark && mark.source !== 'word') {
    currency = mark.code;
    words.pop();
  }
  const group = nameFrom(words);
  if (mentions.length === 1 && group !== '') {
    return fail('Ask for a person or a group, not both.', '/split balance @ann');
  }
  return {
    kind: 'balance',
    mention: mentions[0] ?? null,
    group: group === '' ? null : group,
    currency,
  };
}

function parseGroup(tokens: Token[]): ParseResult {
  refuseNonPeople(tokens);
  const sub = tokens[0]?.t === 'word' ? (tokens[0] as { lower: string }).lower : '';
  const rest = tokens.slice(1);
  const mentions = mentionsIn(rest);
  const name = nameFrom(
    rest.filter((t) => t.t !== 'mention'),
    sub === 'add' ? ['to', 'into', 'and', ','] : ['with', 'and', ','],
  );
  switch (sub) {
    case '':
    case 'list':
    case 'ls':
      return { kind: 'groups' };
    case 'create':
    case 'new':
    case 'make':
      if (name === '')
        return fail('Give the new group a name.', '/split group create Roommates @ann @bob');
      return { kind: 'group_create', name, mentions };
    case 'add':
      if (mentions.length === 0)
        return fail('Who should join? Mention them with @.', '/split group add @cho Roommates');
      if (name === '')
        return fail('Which group should they join?', '/split group add @cho Roommates');
      return { kind: 'group_add', mentions, group: name };
    case 'delete':
    case 'remove':
    case 'rm':
      if (name === '') return fail('Which group should I delete?', '/split group delete Roommates');
      return { kind: 'group_delete', name };
    case 'use':
    case 'bind':
      if (name === '')
        return fail('Which group should this channel use?', '/split group use Roommates');
      return { kind: 'group_use', name };
    default:
      return fail(
        `I don't know "group ${sub}". Try group create, add, delete or use.`,
        '/split group create Roommates @ann @bob',
      );
  }
}

function parseInner(text: string, ctx: ParseContext): ParseResult {
  const tokens = tokenize(text);
  if (tokens.length === 0) return { kind: 'open_modal' };
  const first = tokens[0]!;
  const head = first.t === 'word' ? first.lower.replace(/[?!.]+$/, '') : '';
  const rest = tokens.slice(1);
  const phrase = tokens
    .map((t) => (t.t === 'word' ? t.lower : '\u0000'))
    .join(' ')
    .replace(/[?!.]+$/, '');
  switch (head) {
    case 'help':
    case 'h':
    case '?':
    case 'ヘルプ':
    case 'commands':
      return { kind: 'help' };
    case 'connect':
    case 'login':
    case 'link':
      return { kind: 'connect' };
    case 'disconnect':
    case 'logout':
    case 'unlink':
      return { kind: 'disconnect' };
    case 'whoami':
      return { kind: 'whoami' };
    case 'list':
    case 'history':
    case 'expenses':
    case 'recent':
      return parseList(rest, ctx);
    case 'undo':
      return { kind: 'undo' };
    case 'balance':
    case 'balances':
    case 'status':
    case 'debts':
      return parseBalance(rest, ctx);
    case 'groups':
      return { kind: 'groups' };
    case 'group':
      return parseGroup(rest);
  }
  if (phrase === 'who am i') return { kind: 'whoami' };
  if (head === 'show') {
    return parseList(
      rest.filter((t) => !isWord(t, 'me', 'my', 'history', 'expenses', 'all')),
      ctx,
    );
  }
  if (/^delete (my )?last( expense)?$/.test(phrase)) return { kind: 'undo' };
  if (/^who (should|do) i pay$|^how much do i owe$/.test(phrase)) {
    return { kind: 'balance', mention: null, group: null, currency: null };
  }
  if (/^how much do i owe\b/.test(phrase) || /^how much does\b.*\bowe me$/.test(phrase)) {
    return parseBalance(
      tokens.filter((t) => t.t !== 'word'),
      ctx,
    );
  }
  return parseExpense(tokens, ctx);
}

/** Parses the text typed after `/split`. Never throws for anything a person can type. */
export function parseCommand(text: string, ctx: ParseContext): ParseResult {
  try {
    return parseInner(text, { ...ctx, defaultCurrency: ctx.defaultCurrency.toUpperCase() });
  } catch (error) {
    if (error instanceof ParseFailure) return error.result;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Help: the forms of docs/split-syntax.md as data, for `/split help` (every example is tested to
// parse as described).

export interface HelpSection {
  title: string;
  lines: ReadonlyArray<{ example: string; means: string }>;
}

export const HELP_SECTIONS: readonly HelpSection[] = [
  {
    title: 'Book an expense',
    lines: [
      {
        example: '/split 40 lunch @ann',
        means: 'I paid 40 (my default currency); Ann and I share it equally',
      },
      {
        example: '/split €12,50 taxi @ann @bob',
        means: 'a currency symbol or code, before or after; decimal comma or point',
      },
      { example: '/split 40 lunch @ann paid by @bob', means: 'Bob paid; Ann, Bob and I share it' },
      {
        example: '/split 40 lunch @ann except me',
        means: 'I paid, but only Ann owes (also: `only @ann`)',
      },
      {
        example: '/split 40 lunch @ann yesterday',
        means: 'a date: yesterday, on 2026-11-20, Nov 3, last friday',
      },
      {
        example: '/split 40 lunch in Roommates',
        means: 'in a group; naming nobody means the whole group',
      },
      {
        example: '/split $7 each coffee @ann @bob',
        means: 'a price per person: the cost is 7 times the people',
      },
      { example: '/split', means: 'open the form with every option' },
    ],
  },
  {
    title: 'Split unequally',
    lines: [
      {
        example: '/split 40 lunch @ann 25 @bob 15',
        means: 'exact amounts; people without one share the rest',
      },
      {
        example: '/split 40 lunch @ann 60% @bob 40%',
        means: 'percentages; those without one share what is left of 100%',
      },
      {
        example: '/split 40 lunch @ann 2x @bob 1x',
        means: 'shares (also `2 shares`); those without one have 1 share',
      },
    ],
  },
  {
    title: 'Look back',
    lines: [
      { example: '/split balance', means: 'what I owe and am owed, per currency' },
      { example: '/split balance @ann', means: 'with one person' },
      { example: '/split balance Roommates', means: 'in one group' },
      { example: '/split list @ann in Roommates last week', means: 'recent expenses, filtered' },
      { example: '/split undo', means: 'delete my last expense booked from Slack' },
    ],
  },
  {
    title: 'Groups',
    lines: [
      { example: '/split groups', means: 'my groups' },
      { example: '/split group create Roommates @ann @bob', means: 'a new group' },
      { example: '/split group add @cho Roommates', means: 'add people to a group' },
      {
        example: '/split group use Roommates',
        means: 'book expenses in this channel into the group',
      },
      { example: '/split group delete Roommates', means: 'delete a group (after a confirmation)' },
    ],
  },
  {
    title: 'Account',
    lines: [
      { example: '/split connect', means: 'link my account' },
      { example: '/split whoami', means: 'which account is linked' },
      { example: '/split disconnect', means: 'unlink it' },
    ],
  },
];
