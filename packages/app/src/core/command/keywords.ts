/** Words with a role in an expense; compared with the lower-cased word a person typed. */

export const ME_WORDS = ['me', 'myself', 'self', '@me', 'i'];
export const EXCLUDE_ME = ['except', 'not', 'without', 'excluding', 'minus', 'but'];
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

export const DEBT_WORDS = [
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
];
