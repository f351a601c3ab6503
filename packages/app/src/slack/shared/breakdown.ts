/**
 * How an itemised bill reads for people: subtotal, tip, tax and total on one line, in the answer
 * to a booking, in the form's preview, and in the expense's notes (where it stays readable from
 * the service and from Details).
 */
import type { AppliedExtra, BillSummary } from '../../core/itemise.js';
import { formatPercent } from '../../core/split.js';
import { money } from './format.js';

function extraText(label: string, extra: AppliedExtra, amount: (minor: number) => string) {
  const percent = extra.basisPoints === null ? '' : ` ${formatPercent(extra.basisPoints)}`;
  return `${label}${percent} ${amount(extra.minor)}`;
}

/** "Subtotal $80.00 + tip 15% $12.00 + tax 8% $6.40 = total $98.40" */
export function breakdownText(
  summary: BillSummary,
  currency: string,
  locale?: string | undefined,
): string {
  const total = money(summary.total, currency, locale);
  return `${addendsText(summary, currency, locale)} = total ${total}`;
}

/** "Subtotal $80.00 + tip 15% $12.00 + tax 8% $6.40": what the total is made of. */
export function addendsText(
  summary: BillSummary,
  currency: string,
  locale?: string | undefined,
): string {
  const amount = (minor: number) => money(minor, currency, locale);
  const parts = [`Subtotal ${amount(summary.subtotal)}`];
  if (summary.tip) parts.push(extraText('tip', summary.tip, amount));
  if (summary.tax) parts.push(extraText('tax', summary.tax, amount));
  return parts.join(' + ');
}

/** The breakdown line as breakdownText writes it, whatever the locale's money looks like. */
const BREAKDOWN_LINE = /^Subtotal [^\n]+ = total [^\n]+$/;

/**
 * An itemised booking's notes, split into what the person wrote and the breakdown line this app
 * added after it (the last paragraph), when there is one.
 */
export function splitBreakdown(notes: string): { notes: string; breakdown?: string } {
  const cut = notes.lastIndexOf('\n\n');
  const last = cut === -1 ? notes : notes.slice(cut + 2);
  if (!BREAKDOWN_LINE.test(last)) return { notes };
  return { notes: cut === -1 ? '' : notes.slice(0, cut), breakdown: last };
}

/** The person's notes, then the breakdown when it still applies, as the service keeps them. */
export function joinBreakdown(notes: string, breakdown: string | undefined): string {
  return [notes, breakdown ?? ''].filter((part) => part !== '').join('\n\n');
}
