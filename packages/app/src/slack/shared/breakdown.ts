/**
 * How an itemised bill reads for people: subtotal, tip, tax and total on one line, in the answer
 * to a booking, in the form's preview, and in the expense's notes (where it stays readable from
 * the service and from Details). The line is written in the voice of the person who booked it;
 * whoever edits it later, in whichever language, still finds it in the notes.
 */
import type { AppliedExtra, BillSummary } from '../../core/itemise.js';
import { Lru } from '../../core/lru.js';
import { escapeRegex } from '../../core/regex.js';
import { LANGUAGES, LOCALES_KEPT, voiceFor } from '../../voice/index.js';
import type { Voice } from './voice.js';

const percents = new Lru<string, Intl.NumberFormat>(LOCALES_KEPT, 'breakdown.percents');

/** "15%", "12,5 %": a tip or tax rate (basis points) as the reader writes a percentage. */
export function percentText(basisPoints: number, voice: Pick<Voice, 'locale'>): string {
  const format = percents.getOrMake(
    voice.locale,
    (locale) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }),
  );
  // Basis points are whole numbers up to 10,000: a ratio of them is exact to the two decimals shown.
  return format.format(basisPoints / 10_000);
}

function extraText(extra: AppliedExtra | null | undefined, currency: string, voice: Voice) {
  if (!extra) return 'none';
  const amount = voice.money(extra.minor, currency);
  return extra.basisPoints === null ? amount : `${percentText(extra.basisPoints, voice)} ${amount}`;
}

/** "Subtotal $80.00 + tip 15% $12.00 + tax 8% $6.40 = total $98.40" */
export function breakdownText(summary: BillSummary, currency: string, voice: Voice): string {
  return voice.t('expense.breakdown', {
    addends: addendsText(summary, currency, voice),
    total: voice.money(summary.total, currency),
  });
}

/** "Subtotal $80.00 + tip 15% $12.00 + tax 8% $6.40": what the total is made of. */
export function addendsText(summary: BillSummary, currency: string, voice: Voice): string {
  return voice.t('expense.breakdown_addends', {
    subtotal: voice.money(summary.subtotal, currency),
    tip: extraText(summary.tip, currency, voice),
    tax: extraText(summary.tax, currency, voice),
  });
}

/**
 * The breakdown line as breakdownText writes it in one language, whatever the amounts: the words
 * around them, found by writing the line with markers in place of the amounts.
 */
function lineShape(voice: Voice): RegExp {
  const ADDENDS = '\u0000a\u0000';
  const TOTAL = '\u0000t\u0000';
  const SUBTOTAL = '\u0000s\u0000';
  const line = voice.t('expense.breakdown', { addends: ADDENDS, total: TOTAL });
  const addends = voice.t('expense.breakdown_addends', {
    subtotal: SUBTOTAL,
    tip: 'none',
    tax: 'none',
  });
  const lead = addends.slice(0, addends.indexOf(SUBTOTAL));
  const pattern = escapeRegex(line)
    .replace(escapeRegex(ADDENDS), `${escapeRegex(lead)}[^\\n]+`)
    .replace(escapeRegex(TOTAL), '[^\\n]+');
  return new RegExp(`^${pattern}$`);
}

let shapes: Promise<RegExp[]> | undefined;

/** The breakdown line's shape in every language the app writes. */
function breakdownShapes(): Promise<RegExp[]> {
  shapes ??= Promise.all(
    LANGUAGES.map(async (language) => lineShape(await voiceFor({ locale: language }))),
  );
  // A catalogue that failed to load is asked for again next time.
  shapes.catch(() => {
    shapes = undefined;
  });
  return shapes;
}

/**
 * An itemised booking's notes, split into what the person wrote and the breakdown line this app
 * added after it (the last paragraph, in any of the app's languages), when there is one.
 */
export async function splitBreakdown(
  notes: string,
): Promise<{ notes: string; breakdown?: string }> {
  const cut = notes.lastIndexOf('\n\n');
  const last = cut === -1 ? notes : notes.slice(cut + 2);
  const known = await breakdownShapes();
  if (!known.some((shape) => shape.test(last))) return { notes };
  return { notes: cut === -1 ? '' : notes.slice(0, cut), breakdown: last };
}

/** The person's notes, then the breakdown when it still applies, as the service keeps them. */
export function joinBreakdown(notes: string, breakdown: string | undefined): string {
  return [notes, breakdown ?? ''].filter((part) => part !== '').join('\n\n');
}
