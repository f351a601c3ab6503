/**
 * English words with a role in an expense, compared with the lower-cased word a person typed; the
 * words of every language, English's included, are in lexicon/.
 */

/** Words that end a group's name after `in` (`in Roommates paid by @bob`). */
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

/** Words of a debt rather than an expense: such text is pointed to `/split paid`. */
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
