/**
 * Money as integer minor units. Nothing in this project holds an amount in a float: the wire
 * carries decimal strings, everything inside carries an integer count of the currency's minor
 * unit, and the conversion between the two is exact string arithmetic.
 */
import { Lru } from './lru.js';

/**
 * ISO 4217 currencies whose minor unit is not 2 decimal places. The expense service accepts at
 * most two decimal places on the wire, so three-decimal currencies (BHD, KWD, ...) are capped at 2:
 * an amount with a third decimal could not be sent at all.
 */
const ZERO_DECIMAL = new Set([
  'BIF',
  'BYR',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** The service's wire limit: at most two decimal places in any amount it accepts. */
export const WIRE_MAX_DECIMALS = 2;

/** Number of decimal places of a currency's minor unit (0 for JPY, 2 for USD and unknown codes). */
export function currencyExponent(currencyCode: string): number {
  return ZERO_DECIMAL.has(currencyCode.toUpperCase()) ? 0 : WIRE_MAX_DECIMALS;
}

export class MoneyError extends Error {
  override name = 'MoneyError';
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d*))?$/;

/**
 * Digits without the zeros they end with ("500" -> "5"), found by walking back from the end: a
 * pattern anchored at the end (`0+$`) starts again at every zero of a long run that something
 * else ends, and takes time in the square of its length.
 */
export function withoutTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  return digits.slice(0, end);
}

/** Why a decimal string has no minor units: not a decimal, more decimals than allowed, too big. */
export type MinorFault = 'not_decimal' | 'too_many_decimals' | 'too_large';

/**
 * Reads a plain decimal string ("20", "20.5", "-0.30") into minor units with `exponent` decimals,
 * or says why it cannot: for a reader of typed text (the `/split` grammar), to whom a bad number
 * is an answer to give rather than an error. Refuses more decimals than the exponent allows
 * rather than rounding: a silently rounded amount is a wrong amount.
 */
export function readMinor(text: string, exponent: number): number | MinorFault {
  const match = DECIMAL.exec(text.trim());
  if (!match) return 'not_decimal';
  const [, sign, whole = '', rawFraction = ''] = match;
  const fraction = withoutTrailingZeros(rawFraction);
  if (fraction.length > exponent) return 'too_many_decimals';
  const digits = `${whole}${fraction.padEnd(exponent, '0')}`;
  const value = Number(digits);
  if (!Number.isSafeInteger(value)) return 'too_large';
  return sign && value !== 0 ? -value : value;
}

/** readMinor for a number that should be one: what it cannot read is a MoneyError. */
export function parseMinor(text: string, exponent: number): number {
  const minor = readMinor(text, exponent);
  if (typeof minor === 'number') return minor;
  if (minor === 'not_decimal') throw new MoneyError(`"${text}" is not a decimal amount`);
  if (minor === 'too_large') throw new MoneyError(`"${text}" is too large`);
  throw new MoneyError(
    exponent === 0
      ? `"${text}" has decimals, but this currency has no minor unit`
      : `"${text}" has more than ${exponent} decimal places`,
  );
}

function splitDigits(
  minor: number,
  exponent: number,
): { sign: string; whole: string; fraction: string } {
  if (!Number.isSafeInteger(minor)) throw new MoneyError(`${minor} is not an integer amount`);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  return {
    sign,
    whole: digits.slice(0, digits.length - exponent),
    fraction: digits.slice(digits.length - exponent),
  };
}

/** Minor units to a fixed decimal string: 2050 -> "20.50" (exponent 2), 7 -> "7" (exponent 0). */
export function toDecimal(minor: number, exponent: number): string {
  const { sign, whole, fraction } = splitDigits(minor, exponent);
  return exponent === 0 ? `${sign}${whole}` : `${sign}${whole}.${fraction}`;
}

/**
 * Minor units to the service's response format: minimal digits but at least one decimal
 * ("20.0", "0.3", "-14.2", "2162.82"), which is how the real service writes every amount.
 */
export function toWireAmount(minor: number, exponent: number): string {
  const { sign, whole, fraction } = splitDigits(minor, exponent);
  const trimmed = withoutTrailingZeros(fraction);
  return `${minor === 0 ? '' : sign}${whole}.${trimmed === '' ? '0' : trimmed}`;
}

/**
 * Splits `total` minor units in proportion to integer `weights`, exactly: every part is the floor
 * of its exact share, and the few units left over go one each to the largest fractional
 * remainders, ties broken by position (earlier first). The parts always add up to `total`.
 */
export function allocate(total: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(total)) throw new MoneyError(`${total} is not an integer amount`);
  if (weights.length === 0) throw new MoneyError('nothing to allocate to');
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0)) {
    throw new MoneyError('weights must be non-negative integers');
  }
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) throw new MoneyError('weights add up to zero');
  const negative = total < 0;
  const abs = BigInt(Math.abs(total));
  const bigSum = BigInt(sum);
  const parts = weights.map((w) => (abs * BigInt(w)) / bigSum);
  const remainders = weights.map((w, i) => ({ i, r: (abs * BigInt(w)) % bigSum }));
  let left = abs - parts.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    parts[i] = (parts[i] ?? 0n) + 1n;
    left -= 1n;
  }
  return parts.map((p) => (negative ? -Number(p) : Number(p)));
}

/** Splits `total` into `count` parts that differ by at most one unit, extra units first. */
export function splitEqually(total: number, count: number): number[] {
  if (!Number.isSafeInteger(count) || count < 1) throw new MoneyError('nobody to split with');
  return allocate(
    total,
    Array.from({ length: count }, () => 1),
  );
}

/**
 * Building an Intl.NumberFormat costs far more than using one (it dominated the cost of rendering
 * a booked expense), so one is kept per locale and currency; null marks a pair Intl refuses.
 * Currency codes come from the service and from what people type, so the pairs kept are capped.
 */
const formatters = new Lru<string, Intl.NumberFormat | null>(512, 'money.formats');

function formatterFor(locale: string, currencyCode: string, exponent: number) {
  // Intl takes three letters and nothing else: anything longer is refused before it is a key.
  if (!/^[A-Z]{3}$/.test(currencyCode)) return null;
  return formatters.getOrMake(`${locale}|${currencyCode}`, () => {
    try {
      return new Intl.NumberFormat(locale, {
        style: 'currency',
        currency: currencyCode,
        minimumFractionDigits: exponent,
        maximumFractionDigits: exponent,
      });
    } catch {
      return null;
    }
  });
}

/** A human-readable amount for people: "$20.50", "¥1,200", "BTC 0.50". */
export function formatMoney(minor: number, currencyCode: string, locale = 'en-US'): string {
  const exponent = currencyExponent(currencyCode);
  const decimal = toDecimal(minor, exponent);
  const formatter = formatterFor(locale, currencyCode.toUpperCase(), exponent);
  // Intl accepts a decimal string and formats it without passing through a float.
  return formatter ? formatter.format(decimal as unknown as number) : `${currencyCode} ${decimal}`;
}
