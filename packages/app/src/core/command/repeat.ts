/**
 * How often an expense repeats: `monthly`, `every month`, `each week`, `every two weeks`,
 * `repeat yearly`. The expense service repeats weekly, fortnightly, monthly or yearly only, so
 * any other period written as a repeat (`every day`, `repeat quarterly`) is refused rather than
 * booked once with the wish hidden in the description.
 */
import { EX, stop } from './errors.js';
import { isWord } from './tokens.js';
import type { Repeat, Scan, Token } from './types.js';

const INTERVALS = new Map<string, Repeat>([
  ['weekly', 'weekly'],
  ['fortnightly', 'fortnightly'],
  ['monthly', 'monthly'],
  ['yearly', 'yearly'],
  ['annually', 'yearly'],
]);
/** After `every`, `each` or `per`. */
const PERIODS = new Map<string, Repeat>([
  ['week', 'weekly'],
  ['fortnight', 'fortnightly'],
  ['month', 'monthly'],
  ['year', 'yearly'],
]);
const REPEAT_WORDS = ['repeat', 'repeats', 'repeating', 'recurring', 'recurs'];
/** Periods a person may mean that the service cannot repeat. */
const OTHER_PERIODS = new Set([
  'day',
  'days',
  'daily',
  'night',
  'weekday',
  'weekend',
  'hour',
  'hourly',
  'quarter',
  'quarterly',
  'semester',
  'biweekly',
  'bimonthly',
  'weeks',
  'months',
  'years',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
]);

function unsupported(typed: string): never {
  return stop('repeat_unsupported', { typed }, EX.repeat);
}

/** The interval written at `i` (`monthly`, `every month`, `every 2 weeks`), with its length. */
function intervalAt(tokens: Token[], i: number): { repeat: Repeat; length: number } | null {
  const token = tokens[i];
  if (token?.t !== 'word') return null;
  const own = INTERVALS.get(token.lower.replace(/[,;.!]$/, ''));
  if (own) return { repeat: own, length: 1 };
  if (!isWord(token, 'every', 'each', 'per')) return null;
  const next = tokens[i + 1];
  if (next?.t !== 'word') return null;
  const unit = next.lower.replace(/[,;.!]$/, '');
  const period = PERIODS.get(unit);
  if (period) return { repeat: period, length: 2 };
  // "30 per day" can be a rate for a one-off; only "every" and "each" announce a repeat.
  if (isWord(token, 'per')) return null;
  const after = tokens[i + 2]?.t === 'word' ? (tokens[i + 2] as { lower: string }).lower : '';
  const afterUnit = after.replace(/[,;.!]$/, '');
  if (['two', '2', 'other'].includes(unit) && ['weeks', 'week'].includes(afterUnit)) {
    return { repeat: 'fortnightly', length: 3 };
  }
  if (
    /^\d+$|^(two|three|four|six|other)$/.test(unit) &&
    /^(day|week|month|year)s?$/.test(afterUnit)
  ) {
    unsupported(`${token.raw} ${next.raw} ${tokens[i + 2]!.raw}`);
  }
  if (OTHER_PERIODS.has(unit)) unsupported(`${token.raw} ${next.raw}`);
  return null;
}

/** The repeat written anywhere in the text, taken out of it; null when there is none. */
export function takeRepeat({ tokens, used }: Scan): Repeat | null {
  let repeat: Repeat | null = null;
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const here = tokens[i];
    const keyword = here?.t === 'word' && REPEAT_WORDS.includes(here.lower.replace(/:$/, ''));
    let start = keyword ? i + 1 : i;
    if (keyword && isWord(tokens[start], ':')) start++;
    const found = used[start] ? null : intervalAt(tokens, start);
    if (!found) {
      if (!keyword) continue;
      const next = tokens[start];
      const typed = next?.t === 'word' ? next.raw : '';
      if (typed !== '' && OTHER_PERIODS.has(typed.toLowerCase())) unsupported(typed);
      stop('repeat_how_often', { typed: tokens[i]!.raw.replace(/:$/, '') }, EX.repeat);
    }
    if (repeat !== null && repeat !== found.repeat) {
      stop('repeat_two', { first: { repeat }, second: { repeat: found.repeat } }, EX.repeat);
    }
    repeat = found.repeat;
    for (let k = i; k < start + found.length; k++) used[k] = true;
    i = start + found.length - 1;
  }
  return repeat;
}
