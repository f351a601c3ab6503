/**
 * How the app writes values, in one place for every message, view and file: amounts, calendar
 * dates, times of day and lists. Each takes the reader's locale (and time zone, for instants), so
 * that one person sees one amount and one date written the same way on every path. Intl formats
 * cost far more to build than to use, so each is built once per locale and kept.
 */
import { Lru } from '../core/lru.js';
import { formatMoney } from '../core/money.js';

/**
 * Formats kept per locale and zone of each kind. Both are already reduced to ones the runtime knows
 * (see voiceFor); the cap keeps a long tail of rare pairs from piling up all the same.
 */
const FORMATS_KEPT = 128;

function cached<T>(name: string, build: (locale: string, zone: string) => T) {
  const made = new Lru<string, T>(FORMATS_KEPT, `formats.${name}`);
  return (locale: string, zone = 'UTC'): T =>
    made.getOrMake(`${locale}\u0000${zone}`, () => build(locale, zone));
}

const shortDate = cached(
  'shortDate',
  (locale) =>
    new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    }),
);
const longDay = cached(
  'longDay',
  (locale) =>
    new Intl.DateTimeFormat(locale, {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    }),
);
const timeOfDay = cached(
  'timeOfDay',
  (locale, zone) =>
    new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: zone }),
);
const dateAndTime = cached(
  'dateAndTime',
  (locale, zone) =>
    new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: zone,
    }),
);
const numbers = cached('numbers', (locale) => new Intl.NumberFormat(locale));
const lists = cached(
  'lists',
  (locale) => new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }),
);
const choices = cached(
  'choices',
  (locale) => new Intl.ListFormat(locale, { style: 'long', type: 'disjunction' }),
);
const percents = cached(
  'percents',
  (locale) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }),
);

/** Noon UTC of a yyyy-MM-dd calendar date: formatted in UTC, no zone can move it to another day. */
function calendarDay(date: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!match) return undefined;
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12));
}

export interface Formats {
  /** "$20.50", "20,50 €", "￥1,200": an amount in minor units of `currency`. */
  money(minor: number, currency: string): string;
  /** "Fri, Nov 27, 2026", "Fr., 27. Nov. 2026": a calendar date (yyyy-MM-dd, or the start of an ISO timestamp). */
  date(date: string): string;
  /** "Friday, November 27": a day named in a heading. */
  day(date: string): string;
  /** "2:05 PM", "14:05": the time of an instant in the reader's zone. */
  time(instant: Date): string;
  /** "Nov 27, 2026, 2:05 PM": an instant in the reader's zone. */
  dateTime(instant: Date): string;
  /** "1,234": a count. */
  number(value: number): string;
  /** "Ann, Bob and Cho", "Ann, Bob und Cho": items already written for where they go. */
  list(items: readonly string[]): string;
  /** "Ann, Bob or Cho", "Ann, Bob oder Cho": items one of which is meant. */
  alternatives(items: readonly string[]): string;
  /** "33.33%", "33,33 %": a share of a whole in basis points (hundredths of a percent). */
  percent(basisPoints: number): string;
}

export function formatsFor(locale: string, timeZone: string): Formats {
  return {
    money: (minor, currency) => formatMoney(minor, currency, locale),
    date: (date) => {
      const day = calendarDay(date);
      return day ? shortDate(locale).format(day) : date;
    },
    day: (date) => {
      const day = calendarDay(date);
      return day ? longDay(locale).format(day) : date;
    },
    time: (instant) => timeOfDay(locale, timeZone).format(instant),
    dateTime: (instant) => dateAndTime(locale, timeZone).format(instant),
    number: (value) => numbers(locale).format(value),
    list: (items) => lists(locale).format(items),
    alternatives: (items) => choices(locale).format(items),
    percent: (basisPoints) => percents(locale).format(basisPoints / 10_000),
  };
}
