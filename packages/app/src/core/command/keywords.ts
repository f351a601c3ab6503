/** Words with a role in an expense; compared with the lower-cased word a person typed. */

export const ME_WORDS = ['me', 'myself', 'self', '@me', 'i'];
export const EXCLUDE_ME = new Set(['except', 'not', 'without', 'excluding', 'minus', 'but']);
export const CONNECTORS = new Set([
  'and',
  '&',
  '+',
  ',',
  'with',
  'between',
  'among',
  'amongst',
  'for',
  'to',
  'by',
  'from',
  '-',
  '–',
  '—',
  ':',
  '=',
  'split',
  'equally',
  'evenly',
  'in',
  'on',
  '.',
  ';',
  '!',
  '?',
  '/',
]);
export const LEADING_FILLERS = new Set(['i', 'paid', 'spent', 'split', 'add', 'note']);
export const GROUP_STOPS = new Set([
  'paid',
  'paid_by',
  'paidby',
  'payer',
  'on',
  'for',
  'except',
  'only',
  'each',
  'yesterday',
  'today',
  'with',
  'split',
]);

/*
 * Besides the English keywords, the words of German, French, Spanish and Brazilian Portuguese for
 * the common ones (docs/split-syntax.md has them as a table). Typed text is compared in lower
 * case and without accents (`payé par` and `paye par` alike; see fold). Each was chosen to be no
 * English word a description is likely to hold, and no word the grammar reads otherwise.
 */

/** Two words that name who paid, as `paid by` does. */
export const PAID_BY_PHRASES: ReadonlyArray<readonly [string, string]> = [
  ['paid', 'by'],
  ['payed', 'by'],
  ['bezahlt', 'von'],
  ['paye', 'par'],
  ['pagado', 'por'],
  ['pago', 'por'],
];

/**
 * Words for a price per person, right after the cost, each with the words that may follow it
 * and belong to it (`per person`, `je Person`, `cada uno`).
 */
export const EACH_WORDS = new Map<string, readonly string[]>([
  ['each', []],
  ['pp', []],
  ['a-head', []],
  ['apiece', []],
  ['/person', []],
  ['per', ['person', 'head']],
  ['je', ['person', 'kopf']],
  ['chacun', []],
  ['chacune', []],
  ['cada', ['uno', 'una', 'um', 'uma', 'persona', 'pessoa']],
]);
/** The English words of EACH_WORDS: only the others are guarded by PERIODS_ABROAD. */
export const EACH_ENGLISH = new Set(['each', 'pp', 'a-head', 'apiece', '/person', 'per']);
/**
 * Periods after a per-person word of another language: `cada mes`, `je Monat` say how often, not
 * for whom, and are not read as a price per person.
 */
export const PERIODS_ABROAD = new Set([
  'tag',
  'woche',
  'monat',
  'jahr',
  'jour',
  'semaine',
  'mois',
  'annee',
  'dia',
  'semana',
  'quincena',
  'mes',
  'ano',
]);

/** First words of the other languages for `balance`, `list` and `help`. */
export const COMMANDS_ABROAD = new Map<string, 'balance' | 'list' | 'help'>([
  ['saldo', 'balance'],
  ['kontostand', 'balance'],
  ['solde', 'balance'],
  ['liste', 'list'],
  ['lista', 'list'],
  ['hilfe', 'help'],
  ['aide', 'help'],
  ['ayuda', 'help'],
  ['ajuda', 'help'],
]);

export const DEBT_WORDS = new Set([
  'owe',
  'owes',
  'owed',
  'borrowed',
  'lent',
  'lend',
  'settle',
  'settled',
  'repay',
  'repaid',
]);
