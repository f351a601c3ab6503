/**
 * Amounts typed as a sum of items: `12.50+7.25`, `€12+3,50`, `12 + 3 EUR`. Only `+`: a `-` would
 * turn `rent 2026-11` or `10-12 people` into a subtraction, and `x` already writes shares. Each
 * item obeys the rules of a single amount and is checked on its own (decimals, sign), and the sum
 * is exact: decimal strings while reading, integer minor units once the currency is known.
 */
import { currencyExponent } from '../money.js';
import {
  amountAt,
  amountMinor,
  amountTooLong,
  numberParts,
  readNumber,
  tooLarge,
  troubleOf,
} from './amounts.js';
import { currencyOf } from './currencies.js';
import { EX, fail, refused, trouble } from './errors.js';
import { tokenize, trimEnd, word } from './tokens.js';
import {
  type AmountCandidate,
  type CurrencyMark,
  type ErrorResult,
  MAX_AMOUNT_CHARS,
  MAX_AMOUNT_MAJOR,
  type SumTerm,
  type Token,
  type Trouble,
} from './types.js';

/** Punctuation after a sum, left out of it (one character of it; see trimEnd). */
const TRAILING = /[,;:!?.)]/;

/** A single amount as typed, with nothing but a currency stuck to it (`12,50`, `€12`, `3EUR`). */
function amountLike(text: string): boolean {
  const parts = numberParts(text);
  if (!parts) return false;
  const mark = (m: string) => m === '' || currencyOf(m, 'USD') !== null;
  return mark(parts.before) && mark(parts.after);
}

/**
 * The items of a token written as a sum, or null when it is not one: it must start with an amount
 * and hold a `+` (`C++11` starts with a letter and stays a word; `+5` is refused elsewhere).
 */
function itemsOf(raw: string): string[] | null {
  const text = trimEnd(raw, TRAILING);
  if (!text.includes('+')) return null;
  const items = text.split('+');
  if (items[0] === '' || !amountLike(items[0]!)) return null;
  return items;
}

/**
 * What is wrong with a token written as a sum, or null (also for tokens that are not sums). Such a
 * token is refused with EX.sum.
 */
export function sumProblem(raw: string): Trouble | null {
  const items = itemsOf(raw);
  if (!items) return null;
  // The first empty item is the last one: a single + at the end.
  const empty = items.indexOf('');
  if (empty === items.length - 1) return trouble('sum_trailing_plus', { typed: raw });
  if (empty !== -1) return trouble('sum_double_plus', { typed: raw });
  for (const item of items) {
    const parts = numberParts(item);
    if (parts?.negative) return trouble('sum_minus', { typed: raw });
    if (!parts || !amountLike(item)) return trouble('sum_item_unreadable', { item, typed: raw });
    const reading = readNumber(parts.number);
    if ('problem' in reading) {
      const { id, values } = reading.problem;
      return trouble(
        id === 'amount_unclear' ? 'amount_unclear_in_sum' : 'amount_unreadable_in_sum',
        {
          ...values,
          sum: raw,
        },
      );
    }
  }
  return null;
}

/** Exact sum of plain decimal strings. */
function addDecimals(decimals: readonly string[]): string {
  const scale = Math.max(0, ...decimals.map((d) => (d.split('.')[1] ?? '').length));
  const total = decimals.reduce((sum, d) => {
    const [whole = '0', fraction = ''] = d.split('.');
    return sum + BigInt(`${whole}${fraction.padEnd(scale, '0')}`);
  }, 0n);
  const digits = total.toString().padStart(scale + 1, '0');
  return scale === 0
    ? digits
    : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
}

/**
 * A sum of items at `i`, with a currency on any item or in the next token; null if not a sum, and
 * refused when its items name two currencies.
 */
function sumAt(
  tokens: Token[],
  i: number,
  defaultCurrency: string,
  own: Token | undefined = tokens[i],
): AmountCandidate | ErrorResult | null {
  if (own?.t !== 'word') return null;
  const items = itemsOf(own.raw);
  if (!items || sumProblem(own.raw)) return null;
  const raw = trimEnd(own.raw, TRAILING);
  const terms: SumTerm[] = [];
  const marks: CurrencyMark[] = [];
  for (const item of items) {
    const parts = numberParts(item)!;
    const reading = readNumber(parts.number) as { decimal: string };
    terms.push({ decimal: reading.decimal, raw: item });
    for (const side of [parts.before, parts.after]) {
      const mark = side ? currencyOf(side, defaultCurrency) : null;
      if (mark) marks.push(mark);
    }
  }
  const codes = [...new Set(marks.map((m) => m.code))];
  if (codes.length > 1) {
    return fail('sum_two_currencies', { typed: raw, codes: { and: codes } }, EX.sum);
  }
  let mark = marks[0] ?? null;
  let length = 1;
  let typed = raw;
  const next = tokens[i + 1];
  if (!mark && next?.t === 'word') {
    mark = currencyOf(next.raw.replace(/[,.;:!?]$/, ''), defaultCurrency);
    if (mark) {
      length = 2;
      typed = `${raw} ${next.raw}`;
    }
  }
  return {
    index: i,
    length,
    reading: { decimal: addDecimals(terms.map((t) => t.decimal)) },
    negative: false,
    mark,
    raw: typed,
    terms,
  };
}

/** A sum of items, else a single amount, at `i`; refused as sumAt refuses. */
export function amountOrSumAt(
  tokens: Token[],
  i: number,
  defaultCurrency: string,
  own: Token | undefined = tokens[i],
): AmountCandidate | ErrorResult | null {
  // A refusal is no null: it ends the chain, as the first sum found does.
  return (
    sumAt(tokens, i, defaultCurrency, own) ??
    prefixedSumAt(tokens, i, defaultCurrency, own) ??
    amountAt(tokens, i, defaultCurrency, own)
  );
}

/** A currency on its own, then a sum: `EUR 12+3`, `$ 12 + 3`, as `EUR 12` is for one amount. */
function prefixedSumAt(
  tokens: Token[],
  i: number,
  defaultCurrency: string,
  own: Token | undefined,
): AmountCandidate | ErrorResult | null {
  if (own?.t !== 'word' || tokens[i + 1]?.t !== 'word') return null;
  const mark = currencyOf(own.raw, defaultCurrency);
  // A currency word goes after the number ("12 euros"): before one, it is part of the text.
  if (!mark || mark.source === 'word') return null;
  const sum = sumAt(tokens, i + 1, defaultCurrency);
  if (!sum || refused(sum)) return sum;
  if (sum.mark && sum.mark.code !== mark.code) {
    return fail(
      'sum_two_currencies',
      { typed: `${own.raw} ${sum.raw}`, codes: { and: [mark.code, sum.mark.code] } },
      EX.sum,
    );
  }
  return { ...sum, index: i, length: sum.length + 1, mark, raw: `${own.raw} ${sum.raw}` };
}

/**
 * minorOf for an amount read from the text, at the decimal its reading gave. A literal of the
 * four fields rather than `{ ...amount, decimal }`: on Node 20 a property added after a spread,
 * and every later read of the copy, goes through V8's runtime.
 */
export function candidateMinor(
  amount: AmountCandidate,
  decimal: string,
  currency: string,
  example: string,
): number | ErrorResult {
  const { negative, raw, terms } = amount;
  return minorOf({ decimal, negative, raw, terms }, currency, example);
}

/** Minor units of an amount or a sum: each item is held to the currency's decimals on its own. */
export function minorOf(
  value: { decimal: string; negative: boolean; raw: string; terms?: SumTerm[] | undefined },
  currency: string,
  example: string,
): number | ErrorResult {
  if (!value.terms) return amountMinor(value.decimal, value.negative, currency, value.raw, example);
  let total = 0;
  for (const term of value.terms) {
    const minor = amountMinor(term.decimal, false, currency, term.raw, EX.sum);
    if (refused(minor)) return minor;
    total += minor;
  }
  if (total > MAX_AMOUNT_MAJOR * 10 ** currencyExponent(currency)) {
    return tooLarge(value.raw, currency, example);
  }
  return total;
}

/**
 * `12 + 3`, `12 +3` and `12+ 3` read as `12+3`: people put spaces around a plus. Only amounts
 * are joined, so `+tip` and a `+` between words stay as typed.
 */
export function joinSpacedSums(tokens: Token[]): Token[] {
  const out: Token[] = [];
  const summable = (raw: string) => amountLike(raw) || (itemsOf(raw) !== null && !/\+$/.test(raw));
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const prev = out[out.length - 1];
    const joined = joinAcrossCurrency(out, tokens, i, summable);
    if (joined > 0) {
      i += joined - 1;
      continue;
    }
    if (prev?.t === 'word' && token.t === 'word') {
      const next = tokens[i + 1];
      if (token.raw === '+' && summable(prev.raw) && next?.t === 'word' && amountLike(next.raw)) {
        out[out.length - 1] = word(`${prev.raw}+${next.raw}`);
        i++;
        continue;
      }
      const joinsBefore = /^\+[^+]/.test(token.raw) && amountLike(token.raw.slice(1));
      const joinsAfter =
        /[^+]\+$/.test(prev.raw) && summable(prev.raw.slice(0, -1)) && amountLike(token.raw);
      if ((joinsBefore && summable(prev.raw)) || joinsAfter) {
        out[out.length - 1] = word(`${prev.raw}${token.raw}`);
        continue;
      }
    }
    out.push(token);
  }
  return out;
}

/**
 * `12 EUR + 3`, `12 EUR +3`, `12 EUR+ 3`, `12 EUR+3`: a currency written as a word of its own
 * between the items of a sum belongs to the whole sum, so the items are joined and the currency
 * follows them (`12+3 EUR`), as if it had been typed last. Rewrites the end of `out` and returns
 * how many of `tokens` from `i` it took (0 when the pattern is not there).
 */
function joinAcrossCurrency(
  out: Token[],
  tokens: Token[],
  i: number,
  summable: (raw: string) => boolean,
): number {
  const token = tokens[i]!;
  const last = out[out.length - 1];
  const before = out[out.length - 2];
  // Both forms put a plus in this token.
  if (token.t !== 'word' || last?.t !== 'word' || !token.raw.includes('+')) return 0;
  const isCurrency = (raw: string | undefined) =>
    raw !== undefined && raw !== '' && currencyOf(raw, 'USD') !== null;
  // Only a bare number is added: `12 EUR + $3` or `12 EUR + 3 USD` name a second currency, and
  // are left for the cost's own checks to refuse.
  const bare = (raw: string) => {
    const parts = numberParts(raw);
    return parts !== null && !parts.before && !parts.after && !parts.negative;
  };
  const join = (currency: string, items: Token[], added: string, taken: number): number => {
    const after = tokens[i + taken];
    const repeated = after?.t === 'word' && after.raw.toUpperCase() === currency.toUpperCase();
    if (after?.t === 'word' && isCurrency(after.raw) && !repeated) return 0;
    out.splice(-items.length, items.length, word(`${items[0]!.raw}+${added}`), word(currency));
    return repeated ? taken + 1 : taken;
  };
  // `12` then `EUR+3`, or `12` then `EUR+` and `3`.
  const glued = /^([^\d+]+)\+(.*)$/.exec(token.raw);
  if (glued && isCurrency(glued[1]) && summable(last.raw)) {
    const rest = glued[2] ?? '';
    const next = tokens[i + 1];
    if (rest !== '' && bare(rest)) return join(glued[1]!, [last], rest, 1);
    if (rest === '' && next?.t === 'word' && bare(next.raw)) {
      return join(glued[1]!, [last], next.raw, 2);
    }
    return 0;
  }
  // `12 EUR` then `+3`, or `+` and `3`.
  if (before?.t !== 'word' || !isCurrency(last.raw) || !summable(before.raw)) return 0;
  if (/^\+[^+]/.test(token.raw) && bare(token.raw.slice(1))) {
    return join(last.raw, [before, last], token.raw.slice(1), 1);
  }
  const next = tokens[i + 1];
  if (token.raw === '+' && next?.t === 'word' && bare(next.raw)) {
    return join(last.raw, [before, last], next.raw, 2);
  }
  return 0;
}

/**
 * Reads one amount or sum of items typed on its own (a form field): `12.50+7.25`, `€12 + 3`, by
 * the rules of the `/split` amount, in `currency` unless the text names another (the result says
 * which). Zero reads as 0; anything else that is not exactly one amount or sum is a `problem`
 * (written by the Slack layer in the person's language), marked `unreadable` when the text is no
 * amount at all (so a field that also takes other forms can give its own advice). Never throws
 * for typed text.
 */
export function parseSum(
  text: string,
  currency: string,
): { minor: number; currency: string } | { problem: Trouble; unreadable?: true } {
  if (text.length > MAX_AMOUNT_CHARS) return { problem: amountTooLong(text) };
  const defaultCurrency = currency.toUpperCase();
  const typed = text.trim();
  const tokens = joinSpacedSums(tokenize(typed));
  if (tokens.length === 0) return { problem: trouble('sum_missing') };
  const first = tokens[0]!;
  const problem = first.t === 'word' ? malformedSum(first.raw) : null;
  if (problem) return { problem };
  const amount = amountOrSumAt(tokens, 0, defaultCurrency);
  if (refused(amount)) return { problem: troubleOf(amount) };
  if (!amount || amount.length !== tokens.length) {
    return { problem: trouble('sum_not_one', { typed }), unreadable: true };
  }
  if ('problem' in amount.reading) return { problem: amount.reading.problem };
  const code = amount.mark?.code ?? defaultCurrency;
  const minor = candidateMinor(amount, amount.reading.decimal, code, EX.sum);
  if (refused(minor)) return { problem: troubleOf(minor) };
  return { minor, currency: code };
}

/** A sum's own problem, or a leading plus (`+5`), for a field that holds only an amount. */
function malformedSum(raw: string): Trouble | null {
  if (/^\+/.test(raw)) return trouble('sum_leading_plus', { typed: raw });
  return sumProblem(raw);
}
