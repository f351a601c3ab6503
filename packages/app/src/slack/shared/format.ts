/**
 * Money and dates for messages. Date formatters are built once per locale: building one costs far
 * more than using it, and a message formats many dates (core's formatMoney caches the same way).
 */
import { formatMoney } from '../../core/money.js';

/** "$20.50", "¥1,200", "BTC 0.50": the views' name for core's formatMoney. */
export const money = formatMoney;

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
