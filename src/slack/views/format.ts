/**
 * Money and dates for messages, with their Intl formatters built once per currency/locale: building
 * one costs far more than using it, and a message formats a dozen amounts.
 */
import { currencyExponent, formatMoney, toDecimal } from '../../core/money.js';

const moneyFormats = new Map<string, Intl.NumberFormat | null>();

/** The same text as core's formatMoney ("$20.50", "¥1,200", "BTC 0.50"), with a cached formatter. */
export function money(minor: number, currency: string, locale = 'en-US'): string {
  const key = `${currency}|${locale}`;
  let format = moneyFormats.get(key);
  const exponent = currencyExponent(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: exponent,
        maximumFractionDigits: exponent,
      });
    } catch {
      format = null;
    }
    moneyFormats.set(key, format);
  }
  if (format === null) return formatMoney(minor, currency, locale);
  // Intl accepts a decimal string and formats it without passing through a float.
  return format.format(toDecimal(minor, exponent) as unknown as number);
}

const dateFormats = new Map<string, Intl.DateTimeFormat | null>();

/** "Fri, Nov 20, 2026" for a calendar date, without a time zone shifting it. */
export function formatDate(date: string, locale = 'en-US'): string {
  let format = dateFormats.get(locale);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat(locale, {
        weekday: 'short',
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      });
    } catch {
      format = null;
    }
    dateFormats.set(locale, format);
  }
  const [y, m, d] = date.split('-').map(Number);
  if (format === null || !y || !m || !d) return date;
  return format.format(new Date(Date.UTC(y, m - 1, d, 12)));
}
