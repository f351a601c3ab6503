/** Amounts as typed: thousands separators, a decimal point or comma, a currency or none. */
import { currencyExponent, readMinor } from '../money.js';
import { currencyOf } from './currencies.js';
import { EX, fail, refused, trouble } from './errors.js';
import { tokenize, trimEnd } from './tokens.js';
import {
  type AmountCandidate,
  type ErrorResult,
  MAX_AMOUNT_CHARS,
  MAX_AMOUNT_MAJOR,
  type NumberParts,
  type NumberReading,
  type Token,
  type Trouble,
} from './types.js';

/**
 * Reads a number typed with thousands separators and a decimal point or comma into a plain decimal
 * string. `,dd` or `.dd` at the end are decimals, `,ddd` is thousands; `.ddd` alone is refused as
 * ambiguous (1.500 is 1500 in Germany and 1.5 in the US).
 */
export function readNumber(raw: string): NumberReading {
  if (/^\d+$/.test(raw)) return { decimal: raw };
  const text = raw.replace(/[’']/g, "'");
  if (/^[.,]\d+$/.test(text)) return { decimal: `0.${text.slice(1)}` };
  if (/^\d+$/.test(text)) return { decimal: text };
  const unreadable = { problem: trouble('amount_unreadable', { typed: raw }) };
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
        problem: trouble('amount_unclear', {
          typed: raw,
          thousands: `${whole}${fraction}`,
          decimal: `${whole}.${fraction}`,
        }),
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

export function numberParts(raw: string): NumberParts | null {
  const match = NUMBER_TOKEN.exec(raw);
  if (!match) return null;
  const [, sign1 = '', before = '', sign2 = '', number = '', afterRaw = ''] = match;
  const after = trimEnd(afterRaw, /[,;:!?.)]/);
  return {
    negative: sign1 !== '' || sign2 !== '',
    before: before.replace(/^\(/, ''),
    number,
    after,
  };
}

export function isBareNumber(raw: string): boolean {
  return /^[.,]?\d(?:[\d.,'’]*\d)?[,;:!?.]?$/.test(raw);
}

/** `2x` or `x2` are shares, not amounts. */
function isShareMark(side: string): boolean {
  return side !== '' && /^(x|×)$/i.test(side);
}

/** An amount, with or without a currency, spread over one or two tokens at `i`. */
export function amountAt(
  tokens: Token[],
  i: number,
  defaultCurrency: string,
  /** The token at `i` as it reads once a leading `=` or `:` is taken off. */
  own: Token | undefined = tokens[i],
): AmountCandidate | null {
  const token = own;
  if (token?.t !== 'word') return null;
  const parts = numberParts(token.raw);
  if (parts) {
    if (parts.after === '%' || isShareMark(parts.before) || isShareMark(parts.after)) return null;
    const markBefore = parts.before ? currencyOf(parts.before, defaultCurrency) : null;
    const markAfter = parts.after ? currencyOf(parts.after, defaultCurrency) : null;
    if ((parts.before && !markBefore) || (parts.after && !markAfter)) return null;
    if (markBefore && markAfter) return null;
    let mark = markBefore ?? markAfter;
    let length = 1;
    let raw = trimEnd(token.raw, /[,;:!?.)]/);
    if (!mark) {
      const next = tokens[i + 1];
      const nextMark =
        next?.t === 'word' ? currencyOf(next.raw.replace(/[,.;:!?]$/, ''), defaultCurrency) : null;
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
  const mark = currencyOf(token.raw, defaultCurrency);
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

/** An amount's minor units in `currency`; refuses negatives, extra decimals and absurd sizes. */
export function amountMinor(
  decimal: string,
  negative: boolean,
  currency: string,
  typed: string,
  example: string,
): number | ErrorResult {
  if (negative) return fail('amount_negative', { typed }, example);
  const exponent = currencyExponent(currency);
  const minor = readMinor(decimal, exponent);
  if (minor === 'too_large') return tooLarge(typed, currency, example);
  if (typeof minor !== 'number') {
    if (exponent === 0) return fail('no_cents', { currency, typed }, example);
    return fail('too_many_decimals', { currency, count: exponent, typed }, example);
  }
  if (minor > MAX_AMOUNT_MAJOR * 10 ** exponent) return tooLarge(typed, currency, example);
  return minor;
}

/** What a refusal says, without its example: for a field, where the form itself shows how. */
export function troubleOf(refusal: ErrorResult): Trouble {
  const { id, values } = refusal.problem;
  return { id, values };
}

export function tooLarge(typed: string, currency: string, example: string): ErrorResult {
  return fail('too_large', { typed, max: MAX_AMOUNT_MAJOR, currency }, example);
}

/** Too long a text to be an amount, refused unread. */
export function amountTooLong(text: string): Trouble {
  return trouble('amount_too_long', { count: text.length, max: MAX_AMOUNT_CHARS });
}

/** What `parseAmount` read: minor units in `currency`, or what to tell the person who typed it. */
export type AmountReading =
  | { minor: number; currency: string; currencyToken: string | null }
  | { problem: Trouble };

/**
 * Reads one amount as a person types it, by the same rules as the amount in a `/split` command:
 * `12,50`, `€12.50`, `1 000,50`, `1.234,56`, `EUR 12.50`, `12.50 eur`. `currency` applies when the
 * text names none; a symbol, code or currency word in the text wins, and the result says which
 * currency applied (`currencyToken` is the marker as typed, null when there was none). Zero reads
 * as 0, so that the caller decides whether it is allowed (a part can be zero, a cost cannot).
 * Anything else that is not exactly one amount (a negative or ambiguous number, more decimals than
 * the currency has, more than MAX_AMOUNT_MAJOR, extra words) is a `problem`, which the Slack layer
 * writes in the person's language. Never throws for typed text.
 */
export function parseAmount(text: string, currency: string): AmountReading {
  if (text.length > MAX_AMOUNT_CHARS) return { problem: amountTooLong(text) };
  const defaultCurrency = currency.toUpperCase();
  const typed = text.trim();
  const tokens = tokenize(typed);
  if (tokens.length === 0) return { problem: trouble('amount_missing') };
  const amount = amountAt(tokens, 0, defaultCurrency);
  if (!amount || amount.length !== tokens.length) {
    return { problem: trouble('amount_not_one', { typed }) };
  }
  if ('problem' in amount.reading) return { problem: amount.reading.problem };
  const code = amount.mark?.code ?? defaultCurrency;
  const minor = amountMinor(amount.reading.decimal, amount.negative, code, amount.raw, EX.basic);
  if (refused(minor)) return { problem: troubleOf(minor) };
  return { minor, currency: code, currencyToken: amount.mark?.token ?? null };
}
