/**
 * Tokens that look like a share, a percentage, an amount or a date, but are not a valid one:
 * `-1x`, `0x`, `1e2%`, `40%%`, `%`, `--3`, `+5`, `2026-1-1-1`. Such a token is a typo far more
 * often than a word of the description, and taking it as one would book the expense with the
 * mistake hidden in its name, so it is refused with the form that works.
 */
import { numberParts } from './amounts.js';
import { sumProblem } from './arithmetic.js';
import { EX, trouble } from './errors.js';
import { trimEnd } from './tokens.js';
import type { Trouble } from './types.js';

interface Malformed {
  trouble: Trouble;
  example: string;
}

/** Digits with an `x` at one end, as a share count is written, whatever the digits are. */
const SHARE_LIKE = /^(?:[-+−=:]*\d[\d.,]*[-+−]*[x×]|[x×][-+−=:]*\d[\d.,]*)$/i;
const SHARE = /^=?(?:[x×]0*[1-9]\d*|0*[1-9]\d*[x×])$/i;
/** Only digits and x's (after an `=` or `:`), with a digit among them. */
const DIGITS_AND_XS = /^[=:]?[\d.,x×]+$/i;

/**
 * A share with more than one x, one of them at an end: `2x3x`, `x2x`, `2xx`, a share typed twice
 * or with a slip of the finger. Sizes (`2x4`, `1920x1080`) end in digits and stay words.
 */
function manyXs(text: string): boolean {
  if (!/[x×]/i.test(text) || !DIGITS_AND_XS.test(text) || !/\d/.test(text)) return false;
  const bare = text.replace(/^[=:]/, '');
  const xs = bare.length - bare.replace(/[x×]/gi, '').length;
  return xs > 1 && (/^[x×]/i.test(bare) || /[x×]$/i.test(bare));
}
/** Only characters a percentage is made of, with a `%` among them. */
const PERCENT_LIKE = /^(?=.*%)[-+−=:\d.,e%]+$/i;
const PERCENT = /^[=:]?\d+(?:[.,]\d+)?%$/;
/** The start of a full date (`2026-11-20`, `20/11/2026`): any token like it was meant as one. */
const DATE_LIKE = /^(?:\d{4}[-/.]\d{1,2}[-/.]\d|\d{1,2}\/\d{1,2}\/\d)/;

/**
 * What is wrong with `raw` when it looks like a share, percentage, amount or date without being a
 * valid one; null for anything else, valid values and plain words included. Dates are read before
 * this is asked, so a date-like token that reaches it is one no date form accepts.
 */
export function malformed(raw: string): Malformed | null {
  // Digits alone, the commonest word with a digit, are a well-formed number.
  if (/^\d+$/.test(raw)) return null;
  const text = trimEnd(raw, /[,;:!?.]/);
  if (SHARE_LIKE.test(text) && !SHARE.test(text)) {
    return { trouble: trouble('shares_whole', { typed: raw }), example: EX.shares };
  }
  if (manyXs(text)) {
    return { trouble: trouble('shares_many_x', { typed: raw }), example: EX.shares };
  }
  if (PERCENT_LIKE.test(text) && !PERCENT.test(text)) {
    if (/^%+$/.test(text)) {
      return { trouble: trouble('percent_needs_number', { typed: raw }), example: EX.percent };
    }
    return {
      trouble: trouble(/^[-−]\d/.test(text) ? 'percent_negative' : 'percent_unreadable', {
        typed: raw,
      }),
      example: EX.percent,
    };
  }
  if (DATE_LIKE.test(text)) {
    return { trouble: trouble('date_unreadable', { typed: raw }), example: EX.date };
  }
  const sum = sumProblem(raw);
  if (sum) return { trouble: sum, example: EX.sum };
  // One leading minus is a negative amount, refused with its own message; more signs, or a plus,
  // are noise. A letter before the digits makes it a word (`C++11`), not an amount.
  const lead = text.slice(0, text.search(/\d|$/));
  const signs = lead.replace(/[^-+−]/g, '');
  if (numberParts(text) && !/\p{L}/u.test(lead) && (signs.includes('+') || signs.length > 1)) {
    return {
      trouble: trouble(signs === '+' ? 'amount_signed' : 'amount_unreadable', { typed: raw }),
      example: signs === '+' ? EX.sum : EX.basic,
    };
  }
  return null;
}
