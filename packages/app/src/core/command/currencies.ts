/** Currency markers as typed: symbols (`€`), codes (`EUR`, `eur`) and words (`euros`). */
import type { CurrencyMark } from './types.js';

/** The service's currency list (`get_currencies`), so that a code is only taken when it exists. */
const CODES = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BND BOB BRL BTC BTN BWP BYN ' +
    'BYR BZD CAD CDF CHF CLP CMG CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ETB EUR FJD GBP ' +
    'GEL GHS GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR ' +
    'KMF KRW KWD KYD KZT LAK LBP LKR LTL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR ' +
    'MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR ' +
    'SDG SEK SGD SLE SLL SRD STD STN SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU ' +
    'UZS VEF VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG ZWL'
  ).split(' '),
);

/** Codes that are also English words: typed in lower case they are words, not currencies. */
const WORDLIKE_CODES = new Set([
  'all',
  'top',
  'cup',
  'mad',
  'try',
  'bob',
  'mop',
  'pen',
  'gel',
  'bam',
  'ron',
]);

/** Currencies whose own symbol is a bare `$`: there `$` means the default currency. */
const DOLLAR_CURRENCIES = new Set(
  'ARS AUD BBD CAD CLP COP CUP CVE DOP FJD HKD MXN NAD NZD SGD SRD USD UYU'.split(' '),
);

/** A currency code, or how to choose one from the person's default currency. */
type Resolver = string | ((defaultCurrency: string) => string);

// Maps, because typed text is looked up in them: a plain object answers `constructor`,
// `toString` or `__proto__` with what every object inherits.
const SYMBOLS = new Map<string, Resolver>(
  Object.entries({
    $: (d) => (DOLLAR_CURRENCIES.has(d) ? d : 'USD'),
    US$: 'USD',
    A$: 'AUD',
    AU$: 'AUD',
    C$: 'CAD',
    CA$: 'CAD',
    NZ$: 'NZD',
    HK$: 'HKD',
    S$: 'SGD',
    R$: 'BRL',
    MX$: 'MXN',
    '€': 'EUR',
    '£': 'GBP',
    '¥': (d) => (d === 'CNY' ? 'CNY' : 'JPY'),
    '￥': (d) => (d === 'CNY' ? 'CNY' : 'JPY'),
    円: 'JPY',
    元: 'CNY',
    '₹': 'INR',
    '₪': 'ILS',
    '₩': 'KRW',
    '₽': 'RUB',
    '₺': 'TRY',
    '₱': 'PHP',
    '₫': 'VND',
    '₦': 'NGN',
    '₴': 'UAH',
    '₸': 'KZT',
    '₡': 'CRC',
    '฿': 'THB',
    zł: 'PLN',
    Kč: 'CZK',
    kr: (d) => (['SEK', 'NOK', 'DKK', 'ISK'].includes(d) ? d : 'SEK'),
  } satisfies Record<string, Resolver>),
);

const WORDS = new Map<string, Resolver>(
  Object.entries({
    dollar: (d) => (DOLLAR_CURRENCIES.has(d) ? d : 'USD'),
    euro: 'EUR',
    pound: 'GBP',
    quid: 'GBP',
    yen: 'JPY',
    yuan: 'CNY',
    rmb: 'CNY',
    rupee: 'INR',
    shekel: 'ILS',
    nis: 'ILS',
    won: 'KRW',
    ruble: 'RUB',
    rouble: 'RUB',
    baht: 'THB',
    zloty: 'PLN',
    franc: 'CHF',
    peso: (d) => (['MXN', 'ARS', 'CLP', 'COP', 'PHP', 'UYU', 'DOP', 'CUP'].includes(d) ? d : 'MXN'),
    reais: 'BRL',
    krona: 'SEK',
    kronor: 'SEK',
  } satisfies Record<string, Resolver>),
);

export function currencyOf(marker: string, defaultCurrency: string): CurrencyMark | null {
  // No symbol, code or word starts with a digit; amounts, asked about at every token, all do.
  const first = marker.charCodeAt(0);
  if (first >= 48 && first <= 57) return null;
  const symbol = SYMBOLS.get(marker);
  if (symbol !== undefined) {
    return {
      code: typeof symbol === 'string' ? symbol : symbol(defaultCurrency),
      source: 'symbol',
      token: marker,
    };
  }
  const upper = marker.toUpperCase();
  if (CODES.has(upper) && !(marker === marker.toLowerCase() && WORDLIKE_CODES.has(marker))) {
    return { code: upper, source: 'code', token: marker };
  }
  const lower = marker.toLowerCase();
  const singular = lower.endsWith('s') && lower !== 'reais' ? lower.slice(0, -1) : lower;
  const named = WORDS.get(lower) ?? WORDS.get(singular);
  if (named !== undefined) {
    return {
      code: typeof named === 'string' ? named : named(defaultCurrency),
      source: 'word',
      token: marker,
    };
  }
  return null;
}
