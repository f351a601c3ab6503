/**
 * Amounts in the form, written and read the person's way. The form's fields show amounts with the
 * person's decimal mark ("12,50" in German), and what they type is read first as their locale
 * writes numbers ("1.500" is fifteen hundred in German, "12,500" twelve and a half), then by the
 * same rules as `/split`, which take either mark when it is unambiguous. Every refusal is written
 * in the person's language.
 */
import {
  MAX_AMOUNT_CHARS,
  MAX_AMOUNT_MAJOR,
  parseAmount,
  parseSum,
} from '../../core/command/index.js';
import { Lru } from '../../core/lru.js';
import { currencyExponent, toDecimal, withoutTrailingZeros } from '../../core/money.js';
import { LOCALES_KEPT } from '../../voice/index.js';
import type { Voice } from '../shared/voice.js';

interface Marks {
  decimal: string;
  group: string;
}

const marks = new Lru<string, Marks>(LOCALES_KEPT, 'amount.marks');

/** The decimal and grouping marks of a locale: "," and "." in German, "." and "," in English. */
export function numberMarks(locale: string): Marks {
  return marks.getOrMake(locale, () => {
    const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(12345.5);
    return {
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
    };
  });
}

/** An amount as a field shows it for the person to change: "40.00", "40,00", "1200" (no grouping). */
export function amountInput(minor: number, currency: string, voice: Pick<Voice, 'locale'>): string {
  return toDecimal(minor, currencyExponent(currency)).replace(
    '.',
    numberMarks(voice.locale).decimal,
  );
}

/** A decimal typed elsewhere ("33.33", from a saved default) written with the person's mark. */
export function decimalInput(decimal: string, voice: Pick<Voice, 'locale'>): string {
  return decimal.replace('.', numberMarks(voice.locale).decimal);
}

/** "12.50", "12,50": the example a placeholder or an error gives. */
export function amountExample(voice: Pick<Voice, 'locale'>): string {
  return amountInput(1250, 'EUR', voice);
}

/** A number as typed: digits, with marks between them (no sign, no currency). */
const NUMBER_RUN = /\d(?:[\d.,'’\u00a0\u202f ]*\d)?/g;
/** Spaces a locale groups thousands with (French writes a narrow no-break space). */
const SPACES = /[ \u00a0\u202f]/g;

/** A number read: its whole part's digits and its fraction's, as a plain decimal reads. */
interface Reading {
  whole: string;
  fraction: string;
}

/**
 * A number as the person's locale writes it, when it is written that way: digits grouped by
 * threes with one kind of mark, then the decimal mark and the decimals.
 */
function localReading(run: string, m: Marks): Reading | undefined {
  const decimal = m.decimal === ',' ? ',' : '\\.';
  const groups = m.decimal === ',' ? "[. \\u00a0\\u202f'’]" : "[, \\u00a0\\u202f'’]";
  const shape = new RegExp(
    `^(\\d{1,3}(?:(${groups})\\d{3})?(?:\\2\\d{3})*|\\d+)(?:${decimal}(\\d+))?$`,
  );
  const match = shape.exec(run);
  if (!match) return undefined;
  return { whole: (match[1] ?? '').replace(/\D/g, ''), fraction: match[3] ?? '' };
}

/** A number by the rules any locale shares: one mark before the last digits is the decimal mark. */
function anyReading(run: string): Reading | undefined {
  const plain = run.replace(SPACES, '');
  const match = /^(\d+)(?:[.,](\d+))?$/.exec(plain);
  return match ? { whole: match[1] ?? '', fraction: match[2] ?? '' } : undefined;
}

/** The decimal as `/split`'s rules read it without doubt: "1500", "12.5". */
function plainDecimal(r: Reading): string {
  // Trailing zeros change nothing, and three decimals would read as thousands ("1.500").
  const fraction = withoutTrailingZeros(r.fraction);
  return fraction === '' ? r.whole : `${r.whole}.${fraction}`;
}

/**
 * "1.500" with a decimal point: fifteen hundred in much of the world, one and a half in the rest.
 * Where the point is the person's decimal mark, it is still asked about rather than guessed.
 */
function unclear(run: string, m: Marks): boolean {
  return m.decimal === '.' && /^[1-9]\d{0,2}\.\d{3}$/.test(run);
}

/** The text with each number written the person's way rewritten as a plain decimal. */
function inLocale(text: string, m: Marks): string {
  return text.replace(NUMBER_RUN, (run) => {
    const local = unclear(run, m) ? undefined : localReading(run, m);
    return local ? plainDecimal(local) : run;
  });
}

/**
 * Why a typed amount was refused, said with what was typed; `unreadable` when it is no amount at
 * all (so that a field taking other forms too can give its own advice).
 */
function explain(typed: string, currency: string, voice: Voice): AmountRefused {
  const m = numberMarks(voice.locale);
  const exponent = currencyExponent(currency);
  const example = amountExample(voice);
  const quoted = typed.length > 40 ? `${typed.slice(0, 39)}…` : typed;
  if (/^\+|\+\s*$|\+\s*\+/.test(typed)) {
    return { error: voice.t('form.amount_sum_broken', { typed: quoted, example: `${example}+7` }) };
  }
  for (const run of typed.match(NUMBER_RUN) ?? []) {
    if (unclear(run, m)) {
      const [whole, fraction] = run.split('.') as [string, string];
      return {
        error: voice.t('form.amount_unclear', {
          typed: run,
          thousands: `${whole}${fraction}`,
          decimal: `${whole}.${withoutTrailingZeros(fraction) || '0'}`,
        }),
      };
    }
    const reading = localReading(run, m) ?? anyReading(run);
    if (!reading) continue;
    const whole = reading.whole.replace(/^0+(?=\d)/, '');
    if (whole.length > String(MAX_AMOUNT_MAJOR).length || Number(whole) > MAX_AMOUNT_MAJOR) {
      return {
        error: voice.t('form.amount_too_large', {
          typed: quoted,
          max: voice.money(MAX_AMOUNT_MAJOR * 10 ** exponent, currency),
        }),
      };
    }
    if (withoutTrailingZeros(reading.fraction).length > exponent) {
      return { error: voice.t('form.amount_decimals', { typed: quoted, currency, exponent }) };
    }
  }
  return { error: voice.t('form.amount_unreadable', { typed: quoted, example }), unreadable: true };
}

type AmountRefused = { error: string; unreadable?: true };

export type AmountRead = { minor: number; currency: string } | AmountRefused;

/**
 * One amount or a sum of items (`12,50+7,25`) as typed in a field, in `currency` unless the text
 * names another (the result says which). Zero reads as 0, for the caller to allow or refuse.
 */
export function readTyped(text: string, currency: string, voice: Voice): AmountRead {
  // Before any pattern: a field's text is whatever the submission carries.
  if (text.length > MAX_AMOUNT_CHARS)
    return {
      error: voice.t('parse.amount_too_long', { count: text.length, max: MAX_AMOUNT_CHARS }),
    };
  const typed = text.trim();
  if (typed === '')
    return { error: voice.t('form.amount_missing', { example: amountExample(voice) }) };
  if (/^[-−]/.test(typed)) return { error: voice.t('form.amount_negative') };
  const plain = inLocale(typed, numberMarks(voice.locale));
  const read = plain.includes('+') ? parseSum(plain, currency) : parseAmount(plain, currency);
  if ('problem' in read) return explain(typed, currency, voice);
  return { minor: read.minor, currency: read.currency };
}

/**
 * An amount as a person types it ("12.50", "12,50", "1.234,50", "€12"), in `currency`: more
 * than zero, and in the currency the form has chosen.
 */
export function readAmount(
  text: string,
  currency: string,
  voice: Voice,
): { minor: number } | { error: string } {
  const read = readTyped(text, currency, voice);
  if ('error' in read) return { error: read.error };
  if (read.currency !== currency) {
    return { error: voice.t('form.amount_other_currency', { currency: read.currency }) };
  }
  if (read.minor <= 0) return { error: voice.t('form.amount_zero') };
  return { minor: read.minor };
}
