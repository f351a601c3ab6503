/** Dates as typed: `yesterday`, `2026-11-20`, `Nov 3`, `3rd of November`, `last friday`. */
import { EX, stop } from './errors.js';
import { isWord } from './tokens.js';
import type { DateMatch, ParseContext, Token } from './types.js';

// Maps, because typed text is looked up in them: a plain object answers `constructor` or
// `__proto__` with what every object inherits, which is no month and no day of the week.
const MONTHS = new Map<string, number>(
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
  ].flatMap((name, i) => [
    [name, i + 1],
    [name.slice(0, 3), i + 1],
  ]),
);
MONTHS.set('sept', 9);

const WEEKDAYS = new Map<string, number>(
  ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].flatMap(
    (name, i) => [
      [name, i],
      [name.slice(0, 3), i],
    ],
  ),
);
WEEKDAYS.set('tues', 2);
WEEKDAYS.set('thurs', 4);

export function parseToday(today: string): Date {
  const [y, m, d] = today.split('-').map(Number);
  return new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
}

/**
 * Calendar arithmetic on local dates, by their year, month and day fields: a day is a day across
 * a change of the clock. Three small functions instead of date-fns, whose modules took about
 * 80 ms of the app's start to load on Node 24 (bench/README.md, "Footprint").
 */
export function daysBefore(date: Date, days: number): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() - days);
}

/** The Monday that starts `date`'s week. */
export function mondayOf(date: Date): Date {
  return daysBefore(date, (date.getDay() + 6) % 7);
}

/** The first day of the month `back` months before `date`'s own. */
export function monthStart(date: Date, back = 0): Date {
  return new Date(date.getFullYear(), date.getMonth() - back, 1);
}

export function ymd(date: Date): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}`;
}

/**
 * What a date is for: an expense's day must be past, while a list's bounds may reach ahead
 * ("until 2026-12-31"); each refusal shows an example of its own kind.
 */
interface DateUse {
  future: boolean;
  example: string;
}

const EXPENSE_DATE: DateUse = { future: false, example: EX.date };

/** A calendar date, refused when it does not exist, is before 2000, or (for an expense) ahead. */
function makeDate(
  year: number | null,
  month: number,
  day: number,
  today: Date,
  typed: string,
  use: DateUse,
): Date {
  const y = year ?? today.getFullYear();
  const date = new Date(y, month - 1, day);
  if (
    Number.isNaN(date.getTime()) ||
    month < 1 ||
    month > 12 ||
    date.getMonth() !== month - 1 ||
    date.getDate() !== day
  ) {
    if (month < 1 || month > 12) stop('no_such_month', { month, typed }, use.example);
    if (year === null) stop('no_such_date', { date: { month, day }, typed }, use.example);
    stop('no_such_date_in_year', { date: { month, day }, year, typed }, use.example);
  }
  if (year === null && date > today) {
    // A date without a year means its latest occurrence: "Dec 28" typed on Jan 2 is last year's.
    return makeDate(y - 1, month, day, today, typed, use);
  }
  if (date > today && !use.future) stop('date_future', { date: { date: ymd(date) } }, use.example);
  if (y < 2000) stop('date_too_old', { date: { date: ymd(date) } }, use.example);
  return date;
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
  return MONTHS.get((raw ?? '').toLowerCase().replace(/[.,]$/, '')) ?? null;
}

function numericDate(
  raw: string,
  ctx: ParseContext,
  today: Date,
  withOn: boolean,
  use: DateUse,
): Date | null {
  const text = raw.replace(/[,.]$/, '');
  let match =
    /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text) ?? /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/.exec(text);
  if (match) return makeDate(Number(match[1]), Number(match[2]), Number(match[3]), today, raw, use);
  match = withOn ? /^(\d{4})(\d{2})(\d{2})$/.exec(text) : null;
  if (match) return makeDate(Number(match[1]), Number(match[2]), Number(match[3]), today, raw, use);
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
      'date_ambiguous',
      { typed: raw, first: { month: a, day: b }, second: { month: b, day: a } },
      use.example,
    );
  }
  return monthFirst ? makeDate(year, a, b, today, raw, use) : makeDate(year, b, a, today, raw, use);
}

/** A date expression starting at `tokens[i]`, or null. `withOn`: after "on", more forms count. */
export function dateAt(
  tokens: Token[],
  i: number,
  ctx: ParseContext,
  withOn: boolean,
  use: DateUse = EXPENSE_DATE,
  /** `ctx.today` as a date, read once by a caller that asks about every token. */
  today: Date = parseToday(ctx.today),
): DateMatch | null {
  const first = tokens[i];
  if (first?.t !== 'word') return null;
  const lower = first.lower.replace(/[,.]$/, '');
  if (lower === 'today' || lower === 'tonight' || lower === 'now')
    return { date: today, length: 1 };
  if (lower === 'yesterday') return { date: daysBefore(today, 1), length: 1 };
  const next = tokens[i + 1];
  const nextRaw = next?.t === 'word' ? next.raw : undefined;
  const afterRaw = tokens[i + 2]?.t === 'word' ? (tokens[i + 2] as { raw: string }).raw : undefined;
  const weekday =
    lower === 'last' ? WEEKDAYS.get((nextRaw ?? '').toLowerCase().replace(/[,.]$/, '')) : undefined;
  if (weekday !== undefined) {
    let date = daysBefore(today, 1);
    while (date.getDay() !== weekday) date = daysBefore(date, 1);
    return { date, length: 2 };
  }
  const onWeekday = withOn ? WEEKDAYS.get(lower) : undefined;
  if (onWeekday !== undefined) {
    let date = today;
    while (date.getDay() !== onWeekday) date = daysBefore(date, 1);
    return { date, length: 1 };
  }
  // Every numeric form has digits; most words have none.
  const numeric = /\d/.test(first.raw) ? numericDate(first.raw, ctx, today, withOn, use) : null;
  if (numeric) return { date: numeric, length: 1 };
  // "Nov 3", "November 3, 2026", "3 Nov", "20 Jan 2026", "3rd of November"
  const month = monthNumber(first.raw);
  const dayAfter = month === null ? null : dayNumber(nextRaw);
  if (month !== null && dayAfter !== null) {
    const year = yearNumber(afterRaw);
    return {
      date: makeDate(year, month, dayAfter, today, `${first.raw} ${nextRaw}`, use),
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
        date: makeDate(
          year,
          m,
          day,
          today,
          `${first.raw} ${(monthRaw as { raw: string }).raw}`,
          use,
        ),
        length: (year === null ? 2 : 3) + skipOf,
      };
    }
  }
  return null;
}

/** Finds date expressions in `tokens`, marking them used; at most one is allowed. */
export function takeDate(tokens: Token[], used: boolean[], ctx: ParseContext): Date | null {
  let found: Date | null = null;
  const today = parseToday(ctx.today);
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const withOn = isWord(tokens[i], 'on', 'dated');
    const match = dateAt(tokens, withOn ? i + 1 : i, ctx, withOn, EXPENSE_DATE, today);
    if (!match) continue;
    if (found) stop('two_dates', {}, EX.date);
    found = match.date;
    const length = match.length + (withOn ? 1 : 0);
    for (let k = i; k < i + length; k++) used[k] = true;
    i += length - 1;
  }
  return found;
}
