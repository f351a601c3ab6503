/**
 * How often an expense repeats: `monthly`, `every month`, `each week`, `every two weeks`,
 * `repeat yearly`, and the same in the person's language (`monatlich`, `toutes les deux
 * semaines`, `cada mes`, `a cada duas semanas`; lexicon/ has the words). The expense service
 * repeats weekly, fortnightly, monthly or yearly only, so any other period written as a repeat
 * (`every day`, `jeden Tag`, `repeat quarterly`) is refused rather than booked once with the
 * wish hidden in the description.
 */
import { rawOf } from './dates.js';
import { EX, fail, refused } from './errors.js';
import { isWord } from './tokens.js';
import type { ErrorResult, Repeat, Scan, Token } from './types.js';
import { type Grammar, grammarOf } from './words.js';

const REPEAT_WORDS = ['repeat', 'repeats', 'repeating', 'recurring', 'recurs'];

function unsupported(tokens: Token[], from: number, to: number): ErrorResult {
  return fail('repeat_unsupported', { typed: rawOf(tokens, from, to) }, EX.repeat);
}

function isCount(token: Token | undefined, words: Grammar): boolean {
  return (
    token?.t === 'word' &&
    (/^\d+$/.test(token.lower) || words.counts.has(token) || words.two.has(token))
  );
}

/**
 * The interval written at `i` (`monthly`, `every month`, `alle zwei Wochen`), with its length.
 * After `every` (`jeden`, `chaque`, `cada`...) a period repeats; after `per` (`pro`, `par`,
 * `por`...) too, while before another period it is a rate (`30 per day`) and stays a word.
 */
function intervalAt(
  tokens: Token[],
  i: number,
  used: boolean[],
  words: Grammar,
): { repeat: Repeat; length: number } | ErrorResult | null {
  const fixed = words.repeats.at(tokens, i, used);
  if (fixed) return { repeat: fixed.value, length: fixed.length };
  const every = words.every.at(tokens, i, used);
  const per = every ? null : words.per.at(tokens, i, used);
  const lead = every ?? per;
  if (!lead) return null;
  const k = i + lead.length;
  const period = words.periods.at(tokens, k, used);
  if (period) return { repeat: period.value, length: lead.length + period.length };
  if (per) return null;
  const two = words.two.at(tokens, k, used);
  const weeks = two ? words.weeks.at(tokens, k + two.length, used) : null;
  if (two && weeks) {
    return { repeat: 'fortnightly', length: lead.length + two.length + weeks.length };
  }
  const after = tokens[k + 1];
  if (
    isCount(tokens[k], words) &&
    (words.periods.has(after) || words.otherPeriods.has(after) || words.weeks.has(after))
  ) {
    return unsupported(tokens, i, k + 2);
  }
  const other = words.otherPeriods.at(tokens, k, used);
  if (other) return unsupported(tokens, i, k + other.length);
  return null;
}

/**
 * The repeat written anywhere in the text, taken out of it, with the words as typed; null when
 * there is none.
 */
export function takeRepeat({
  tokens,
  used,
  ctx,
}: Scan): { repeat: Repeat; typed: string } | ErrorResult | null {
  const words = grammarOf(ctx);
  let repeat: Repeat | null = null;
  let typed = '';
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const here = tokens[i];
    const keyword = here?.t === 'word' && REPEAT_WORDS.includes(here.lower.replace(/:$/, ''));
    let start = keyword ? i + 1 : i;
    if (keyword && isWord(tokens[start], ':')) start++;
    const found = used[start] ? null : intervalAt(tokens, start, used, words);
    if (refused(found)) return found;
    if (!found) {
      if (!keyword) continue;
      if (words.otherPeriods.has(tokens[start])) return unsupported(tokens, start, start + 1);
      return fail('repeat_how_often', { typed: tokens[i]!.raw.replace(/:$/, '') }, EX.repeat);
    }
    if (repeat !== null && repeat !== found.repeat) {
      const values = { first: { repeat }, second: { repeat: found.repeat } };
      return fail('repeat_two', values, EX.repeat);
    }
    repeat = found.repeat;
    typed = rawOf(tokens, i, start + found.length);
    for (let k = i; k < start + found.length; k++) used[k] = true;
    i = start + found.length - 1;
  }
  return repeat === null ? null : { repeat, typed };
}
