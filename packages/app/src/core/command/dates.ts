/**
 * Dates as typed: `yesterday`, `2026-11-20`, `Nov 3`, `3rd of November`, `last friday`, and
 * their forms in the person's language (`gestern`, `vendredi dernier`, `3 de diciembre`,
 * `am 3.12.`): the words are in lexicon/, read through words.ts.
 */
import { EX, fail, refused } from './errors.js';
import type { DateMatch, ErrorResult, ParseContext, Token } from './types.js';
import { type Grammar, grammarOf } from './words.js';

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
): Date | ErrorResult {
  const y = year ?? today.getFullYear();
  const date = new Date(y, month - 1, day);
  if (
    Number.isNaN(date.getTime()) ||
    month < 1 ||
    month > 12 ||
    date.getMonth() !== month - 1 ||
    date.getDate() !== day
  ) {
    if (month < 1 || month > 12) return fail('no_such_month', { month, typed }, use.example);
    if (year === null) return fail('no_such_date', { date: { month, day }, typed }, use.example);
    return fail('no_such_date_in_year', { date: { month, day }, year, typed }, use.example);
  }
  if (year === null && date > today) {
    // A date without a year means its latest occurrence: "Dec 28" typed on Jan 2 is last year's.
    return makeDate(y - 1, month, day, today, typed, use);
  }
  if (date > today && !use.future) {
    return fail('date_future', { date: { date: ymd(date) } }, use.example);
  }
  if (y < 2000) return fail('date_too_old', { date: { date: ymd(date) } }, use.example);
  return date;
}

/** A day of the month before or after a month's name: `3`, `3rd`, `3.` (German), `1er` (French). */
function dayNumber(raw: string | undefined): number | null {
  const match = /^(\d{1,2})(?:st|nd|rd|th|er|\.)?,?$/.exec(raw ?? '');
  return match ? Number(match[1]) : null;
}

function yearNumber(raw: string | undefined): number | null {
  const match = /^(\d{4}),?$/.exec(raw ?? '');
  return match ? Number(match[1]) : null;
}

function numericDate(
  raw: string,
  ctx: ParseContext,
  today: Date,
  withOn: boolean,
  use: DateUse,
): Date | ErrorResult | null {
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
    return fail(
      'date_ambiguous',
      { typed: raw, first: { month: a, day: b }, second: { month: b, day: a } },
      use.example,
    );
  }
  return monthFirst ? makeDate(year, a, b, today, raw, use) : makeDate(year, b, a, today, raw, use);
}

/** The tokens from `from` to `to`, as typed. */
export function rawOf(tokens: Token[], from: number, to: number): string {
  return tokens
    .slice(from, to)
    .map((t) => t.raw)
    .join(' ');
}

/** German writes a day and month with a closing point (`3.12.`): no amount ends so. */
const DOTTED_DAY_MONTH = /^\d{1,2}\.\d{1,2}\.$/;

/**
 * A weekday at `i`: `last friday`, `letzten Freitag`, `vendredi dernier`, `el viernes pasado`
 * are its latest before today; after `on` (`am Freitag`, `na sexta`), or alone where the
 * language names it so (`dîner vendredi`), its latest with today included.
 */
function weekdayAt(
  tokens: Token[],
  i: number,
  withOn: boolean,
  today: Date,
  words: Grammar,
): DateMatch | null {
  const before = words.lastBefore.at(tokens, i);
  const at = i + (before?.length ?? 0);
  const named = words.weekdays.at(tokens, at);
  if (!named) return null;
  const after = before ? null : words.lastAfter.at(tokens, at + named.length);
  const length = at - i + named.length + (after?.length ?? 0);
  const { day, alone } = named.value;
  if (before || after) {
    let date = daysBefore(today, 1);
    while (date.getDay() !== day) date = daysBefore(date, 1);
    return { date, length };
  }
  if (!withOn && !alone) return null;
  let date = today;
  while (date.getDay() !== day) date = daysBefore(date, 1);
  return { date, length };
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
  words: Grammar = grammarOf(ctx),
): DateMatch | ErrorResult | null {
  const first = tokens[i];
  if (first?.t !== 'word') return null;
  const back = words.days.at(tokens, i);
  if (back) return { date: daysBefore(today, back.value), length: back.length };
  const weekday = weekdayAt(tokens, i, withOn, today, words);
  if (weekday) return weekday;
  const next = tokens[i + 1];
  const nextRaw = next?.t === 'word' ? next.raw : undefined;
  // Every numeric form has digits; most words have none.
  const onHere = withOn || (words.language === 'de' && DOTTED_DAY_MONTH.test(first.raw));
  const numeric = /\d/.test(first.raw) ? numericDate(first.raw, ctx, today, onHere, use) : null;
  if (numeric) return refused(numeric) ? numeric : { date: numeric, length: 1 };
  // "Nov 3", "November 3, 2026", "3 Nov", "20 Jan 2026", "3rd of November", "3. Dezember",
  // "3 de diciembre de 2026"
  const month = words.months.one(first);
  const dayAfter = month === undefined ? null : dayNumber(nextRaw);
  if (month !== undefined && dayAfter !== null) {
    const year = yearAt(tokens, i + 2, words);
    const date = makeDate(year.year, month, dayAfter, today, `${first.raw} ${nextRaw}`, use);
    return refused(date) ? date : { date, length: 2 + year.length };
  }
  const day = dayNumber(first.raw);
  if (day !== null) {
    const skipOf = words.dayOfMonth.at(tokens, i + 1)?.length ?? 0;
    const monthRaw = tokens[i + 1 + skipOf];
    const m = words.months.one(monthRaw);
    if (m !== undefined) {
      const year = yearAt(tokens, i + 2 + skipOf, words);
      const typed = `${first.raw} ${(monthRaw as { raw: string }).raw}`;
      const date = makeDate(year.year, m, day, today, typed, use);
      return refused(date) ? date : { date, length: 2 + skipOf + year.length };
    }
  }
  return null;
}

/** A year at `i`, written after a day and month: `2026`, or `de 2026` in Spanish and Portuguese. */
function yearAt(
  tokens: Token[],
  i: number,
  words: Grammar,
): { year: number | null; length: number } {
  const skip = words.dayOfMonth.at(tokens, i)?.length ?? 0;
  const token = tokens[i + skip];
  const year = yearNumber(token?.t === 'word' ? token.raw : undefined);
  if (year === null) return { year: null, length: 0 };
  return { year, length: skip + 1 };
}

/**
 * Finds date expressions in `tokens`, marking them used; at most one is allowed. A word for "on"
 * (`on`, `am`, `le`, `el`, `no dia`) goes with the date after it.
 */
export function takeDate(
  tokens: Token[],
  used: boolean[],
  ctx: ParseContext,
): { date: Date; typed: string } | ErrorResult | null {
  let found: { date: Date; typed: string } | null = null;
  const today = parseToday(ctx.today);
  const words = grammarOf(ctx);
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const on = words.on.at(tokens, i)?.length ?? 0;
    const withOn = on > 0;
    const match = dateAt(tokens, i + on, ctx, withOn, EXPENSE_DATE, today, words);
    if (!match) continue;
    if (refused(match)) return match;
    if (found) return fail('two_dates', {}, EX.date);
    const length = match.length + on;
    found = { date: match.date, typed: rawOf(tokens, i, i + length) };
    for (let k = i; k < i + length; k++) used[k] = true;
    i += length - 1;
  }
  return found;
}
