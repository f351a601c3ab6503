/**
 * The emulator's own money arithmetic. It shares no code with the app on purpose: the app's money
 * rules are what the emulator checks, and a bug shared by both would pass unseen. Amounts are
 * integer counts of a currency's minor unit; the wire carries decimal strings with at most two
 * decimal places, as the service does.
 */

/** Currencies the service books without decimals (their ISO 4217 minor unit is 0). */
const NO_DECIMALS = new Set(
  'BIF BYR CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF'.split(' '),
);

export class MoneyError extends Error {
  override name = 'MoneyError';
}

/** Decimal places the service keeps for a currency: 0 or 2 (three-decimal ones are cut to 2). */
export function currencyExponent(code: string): number {
  return NO_DECIMALS.has(code.toUpperCase()) ? 0 : 2;
}

/**
 * "12.5" with exponent 2 -> 1250. More decimals than the currency has are refused, never rounded:
 * the service answers such a request with an error, not with a different amount.
 */
export function parseMinor(text: string, exponent: number): number {
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) throw new MoneyError(`"${text}" is not a decimal amount`);
  const negative = match[1] === '-';
  const whole = match[2] ?? '';
  let fraction = match[3] ?? '';
  while (fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  if (fraction.length > exponent) {
    throw new MoneyError(
      exponent === 0
        ? `"${text}" has decimals, but this currency has no minor unit`
        : `"${text}" has more than ${exponent} decimal places`,
    );
  }
  const minor = Number(whole + fraction + '0'.repeat(exponent - fraction.length));
  if (!Number.isSafeInteger(minor)) throw new MoneyError(`"${text}" is too large`);
  return negative && minor !== 0 ? -minor : minor;
}

/** 2050 -> "20.50"; 7 with exponent 0 -> "7". */
function toFixedDecimal(minor: number, exponent: number): string {
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const cut = digits.length - exponent;
  const body = exponent === 0 ? digits : `${digits.slice(0, cut)}.${digits.slice(cut)}`;
  return minor < 0 ? `-${body}` : body;
}

/**
 * The service's way of writing an amount in its answers: the fewest digits, but always one
 * decimal ("20.0", "0.3", "-14.25").
 */
export function toWireAmount(minor: number, exponent: number): string {
  if (exponent === 0) return `${minor}.0`;
  const fixed = toFixedDecimal(minor, exponent);
  const trimmed = fixed.replace(/0$/, '');
  return trimmed.endsWith('.') ? `${trimmed}0` : trimmed;
}

/**
 * `total` cut into `count` parts as the service does it for an equal split: each part the same,
 * and the cents that do not divide go one each to the first parts.
 */
export function splitEqually(total: number, count: number): number[] {
  if (!Number.isSafeInteger(count) || count < 1) throw new MoneyError('nobody to split with');
  const sign = total < 0 ? -1 : 1;
  const magnitude = Math.abs(total);
  const base = Math.floor(magnitude / count);
  const extra = magnitude - base * count;
  return Array.from({ length: count }, (_, i) => sign * (base + (i < extra ? 1 : 0)));
}

const formats = new Map<string, Intl.NumberFormat | null>();

/** "$20.50", as the service's notifications write amounts (in English). */
export function formatMoney(minor: number, code: string): string {
  const currency = code.toUpperCase();
  const exponent = currencyExponent(currency);
  let format = formats.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        minimumFractionDigits: exponent,
        maximumFractionDigits: exponent,
      });
    } catch {
      format = null;
    }
    formats.set(currency, format);
  }
  const decimal = toFixedDecimal(minor, exponent);
  // Intl formats a decimal string exactly, without passing through a float.
  return format ? format.format(decimal as unknown as number) : `${currency} ${decimal}`;
}
