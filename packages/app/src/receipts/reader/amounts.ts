/**
 * Amounts as receipts print them: "12.50", "12,50", "1,234.56", "1.234,56", "1 234,56",
 * "£45.91", "45,91 €", "EUR 12,50", "-3.00", "3.00-", "(3.00)". Parsed by hand, character by
 * character, so that the cost is linear in the text and no pattern can backtrack; the text is
 * capped before anything looks at it.
 */

/** The longest piece of text taken as one amount: "EUR -1.234.567,89" and a little more. */
const MAX_AMOUNT_TEXT = 32;
/** More digits than this is a card or phone number, not a price. */
const MAX_DIGITS = 11;

/** A currency symbol or code as printed, to an ISO 4217 code. */
const SYMBOLS = new Map<string, string>([
  ['$', 'USD'],
  ['US$', 'USD'],
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['¥', 'JPY'],
  ['R$', 'BRL'],
  ['FR.', 'CHF'],
]);

/** Codes a receipt may print beside an amount or at its top. */
const CODES = new Set([
  'USD',
  'EUR',
  'GBP',
  'CHF',
  'JPY',
  'CAD',
  'AUD',
  'NZD',
  'BRL',
  'MXN',
  'ARS',
  'CLP',
  'COP',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'HUF',
  'INR',
  'CNY',
  'ZAR',
]);

/** The currency a symbol or code names, or null. `EUR`, `eur`, `€`, `£` ... */
export function currencyOf(text: string): string | null {
  const upper = text.toUpperCase();
  return SYMBOLS.get(upper) ?? (CODES.has(upper) ? upper : null);
}

/** Currency symbols that stick to a number ("£45.91", "12,50€"). */
const STUCK_SYMBOLS = ['R$', 'US$', '$', '€', '£', '¥'];

export interface Amount {
  /** Every digit printed, as an integer: "1.234,56" -> 123456. */
  digits: number;
  /** Digits after the decimal separator: 2 for "12,50", 0 for "1,200". */
  decimals: number;
  /** The decimal separator printed, or null for a whole number. */
  separator: '.' | ',' | null;
  /** A thousands separator was printed ("1,234.56"). */
  grouped: boolean;
  negative: boolean;
  /** From a symbol or code printed with the amount. */
  currency: string | null;
  /**
   * Read as a price although its decimal separator was lost ("1050" for "10,50", "1.00775" for
   * "1.007,75"): the last two digits taken as the decimals. Only trusted in the amount column.
   */
  repaired: boolean;
}

/**
 * Letters an OCR engine reads in place of digits inside a number ("1O,5O", "l2.00", "S.50").
 * Only applied to a piece that is already mostly digits.
 */
const DIGIT_LOOKALIKES = new Map([
  ['O', '0'],
  ['o', '0'],
  ['D', '0'],
  ['l', '1'],
  ['I', '1'],
  ['|', '1'],
  ['S', '5'],
  ['B', '8'],
]);

function repairDigits(core: string): string {
  let digits = 0;
  let numeric = 0;
  for (const c of core) {
    if (c >= '0' && c <= '9') digits++;
    if ((c >= '0' && c <= '9') || c === '.' || c === ',') numeric++;
  }
  if (digits < 2 || numeric < core.length / 2) return core;
  let out = '';
  for (const c of core) out += DIGIT_LOOKALIKES.get(c) ?? c;
  return out;
}

/**
 * The digits and separators of a number ("1.234,56") to its value, or null when it is not shaped
 * like an amount: a last separator followed by two digits is the decimal one; others must split
 * the whole part into groups of three ("1,200" is a whole number).
 */
export function parseNumber(
  core: string,
): { digits: number; decimals: number; separator: '.' | ',' | null; grouped: boolean } | null {
  if (core.length === 0 || core.length > MAX_AMOUNT_TEXT) return null;
  let last = -1;
  for (let i = 0; i < core.length; i++) {
    const c = core[i]!;
    if (c === '.' || c === ',' || c === "'" || c === ' ') last = i;
    else if (c < '0' || c > '9') return null;
  }
  if (last === core.length - 1 || core[0] === '.' || core[0] === ',') return null;
  let whole = core;
  let fraction = '';
  let separator: '.' | ',' | null = null;
  if (last !== -1 && core.length - last - 1 === 2 && (core[last] === '.' || core[last] === ',')) {
    separator = core[last] as '.' | ',';
    whole = core.slice(0, last);
    fraction = core.slice(last + 1);
  }
  // The whole part: digits, or groups of three after a first group of one to three.
  let grouped = false;
  let run = 0;
  let groups = 0;
  let wholeDigits = '';
  for (let i = 0; i < whole.length; i++) {
    const c = whole[i]!;
    if (c >= '0' && c <= '9') {
      run++;
      wholeDigits += c;
    } else {
      if ((groups === 0 && (run < 1 || run > 3)) || (groups > 0 && run !== 3)) return null;
      groups++;
      grouped = true;
      run = 0;
    }
  }
  if (wholeDigits.length === 0 || (groups > 0 && run !== 3)) return null;
  const all = wholeDigits + fraction;
  if (all.length > MAX_DIGITS) return null;
  return { digits: Number(all), decimals: fraction.length, separator, grouped };
}

/**
 * One printed amount, with its sign and currency ("-£3.00", "12,50 €", "(3.00)", "3.00-",
 * "EUR12,50"), or null. The text is what the OCR gave for one or a few adjacent words, joined
 * without spaces.
 */
export function parseAmount(text: string, loose = false): Amount | null {
  if (text.length === 0 || text.length > MAX_AMOUNT_TEXT) return null;
  let rest = text;
  let negative = false;
  let currency: string | null = null;
  if (rest.startsWith('(') && rest.endsWith(')')) {
    negative = true;
    rest = rest.slice(1, -1);
  }
  if (rest.endsWith('-')) {
    negative = true;
    rest = rest.slice(0, -1);
  }
  if (rest.startsWith('-') || rest.startsWith('–')) {
    negative = true;
    rest = rest.slice(1);
  }
  const takeCurrency = (fromEnd: boolean) => {
    for (const symbol of STUCK_SYMBOLS) {
      if (fromEnd ? rest.endsWith(symbol) : rest.startsWith(symbol)) {
        currency = currencyOf(symbol);
        rest = fromEnd ? rest.slice(0, -symbol.length) : rest.slice(symbol.length);
        return;
      }
    }
    const code = fromEnd ? rest.slice(-3) : rest.slice(0, 3);
    if (rest.length > 3 && CODES.has(code.toUpperCase())) {
      currency = code.toUpperCase();
      rest = fromEnd ? rest.slice(0, -3) : rest.slice(3);
    }
  };
  takeCurrency(false);
  if (rest.startsWith('-')) {
    negative = true;
    rest = rest.slice(1);
  }
  if (currency === null) takeCurrency(true);
  // "¢" is how the OCR often reads a "€" it does not recognise ("5,75¢€", "300¢"): no currency
  // is taken from it, but it is no part of the number.
  let cents = false;
  while (rest.endsWith('¢')) {
    rest = rest.slice(0, -1);
    cents = true;
  }
  if (currency === null && cents) takeCurrency(true);
  const core = repairDigits(rest);
  const parsed = parseNumber(core);
  if (parsed && (parsed.decimals > 0 || !loose))
    return { ...parsed, negative, currency, repaired: false };
  if (!loose) return null;
  // The separator an OCR engine drops most: the digits alone, the last two the decimals. One
  // digit after a separator ("4150.7") is a digit lost, not a separator: no amount.
  const lastSeparator = Math.max(core.lastIndexOf('.'), core.lastIndexOf(','));
  if (lastSeparator !== -1 && core.length - lastSeparator === 2) return null;
  let digits = '';
  for (const c of core) {
    if (c >= '0' && c <= '9') digits += c;
    else if (c !== '.' && c !== ',' && c !== "'" && c !== ' ') return null;
  }
  if (digits.length < 3 || digits.length > 9) return null;
  return {
    digits: Number(digits),
    decimals: 2,
    separator: null,
    grouped: false,
    negative,
    currency,
    repaired: true,
  };
}

/**
 * An amount in minor units of a currency with `exponent` decimals, or null when its decimals do not
 * fit: "12" is not read as a price in a two-decimal currency (it is a quantity, a table, a time).
 */
export function toMinor(amount: Amount, exponent: number): number | null {
  if (amount.decimals !== exponent) return null;
  return (amount.negative ? -1 : 1) * amount.digits;
}
