/** Which number is the cost: candidates, head counts, and `each`. */
import { amountOrSumAt } from './arithmetic.js';
import { EX, fail, failWith, refused } from './errors.js';
import { malformed } from './malformed.js';
import { isWord, trimEnd } from './tokens.js';
import type { AmountCandidate, ErrorResult, Scan } from './types.js';
import { ANYWHERE } from './words.js';

/** Numbers left in the text that could be the cost, and a head count ("among 4", "3 ways"). */
export function takeNumbers({ tokens, used, ctx }: Scan):
  | {
      candidates: AmountCandidate[];
      headcount: number | null;
    }
  | ErrorResult {
  const candidates: AmountCandidate[] = [];
  let headcount: number | null = null;
  const stray: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const token = tokens[i]!;
    if (token.t !== 'word') continue;
    if (/^[-+]?(nan|inf|infinity)$/i.test(token.lower)) {
      return fail('plain_digits', { typed: token.raw });
    }
    // What follows reads digits, or a `%`, in this token or (after a currency) in the next one:
    // most words have neither, and are passed over at once.
    const next = tokens[i + 1];
    if (!/[\d%]/.test(token.raw) && !(next?.t === 'word' && /\d/.test(next.raw))) continue;
    const junk = malformed(token.raw);
    if (junk) return failWith(junk.trouble, junk.example);
    const percent = trimEnd(token.raw, /[,;:!?.]/);
    if (/^\d+(?:[.,]\d+)?%$/.test(percent)) {
      stray.push(percent);
      continue;
    }
    if (/^\d+(?:[.,]\d+)?$/.test(token.raw) && !used[i + 1] && isWord(tokens[i + 1], '%')) {
      stray.push(`${token.raw} %`);
      i++;
      continue;
    }
    if (/^\d+(?:\.\d+)?e\d+$/i.test(token.raw)) {
      return fail('plain_digits', { typed: token.raw });
    }
    // "split among 4", "3 ways", "4 people" count heads, they are not the cost.
    if (/^\d+$/.test(token.raw)) {
      if (isWord(tokens[i - 1], 'among', 'between', 'amongst') && !used[i - 1]) {
        headcount = Number(token.raw);
        used[i - 1] = used[i] = true;
        continue;
      }
      if (isWord(tokens[i + 1], 'ways', 'people', 'persons', 'pax') && !used[i + 1]) {
        headcount = Number(token.raw);
        used[i] = used[i + 1] = true;
        continue;
      }
    }
    const candidate = amountOrSumAt(tokens, i, ctx.defaultCurrency);
    if (!candidate) continue;
    if (refused(candidate)) return candidate;
    // Refused here rather than when the cost is chosen: a number that is not the cost would
    // otherwise end up in the description as typed.
    if ('problem' in candidate.reading) return failWith(candidate.reading.problem);
    if (candidate.negative) return fail('amount_negative', { typed: candidate.raw });
    candidates.push(candidate);
    i += candidate.length - 1;
  }
  if (stray.length > 0) {
    return fail('percent_whose', { typed: stray[0]! }, EX.percent);
  }
  return { candidates, headcount };
}

/** The cost among the candidates, by the rules of docs/split-syntax.md; asks rather than guesses. */
export function chooseCost(
  { tokens, used, ctx }: Scan,
  candidates: AmountCandidate[],
): AmountCandidate | ErrorResult | null {
  const marked = candidates.filter((c) => c.mark);
  let cost: AmountCandidate | null = null;
  if (marked.length > 1) {
    return fail(
      'several_amounts',
      { count: marked.length, amounts: { list: marked.map((c) => c.raw) } },
      EX.exact,
    );
  } else if (marked.length === 1) cost = marked[0]!;
  else if (candidates.length === 1) cost = candidates[0]!;
  else if (candidates.length > 1) {
    // Taking the first or the last number is wrong for "3 coffees 45" or "40 lunch 3 coffees",
    // so ask; the example marks the largest one, the likeliest cost.
    const value = (c: AmountCandidate) => ('decimal' in c.reading ? Number(c.reading.decimal) : 0);
    const guess = candidates.reduce((a, b) => (value(b) > value(a) ? b : a));
    const words: string[] = [];
    tokens.forEach((t, i) => {
      // A person typed is one the reader can mention: the example keeps them as they are.
      if (t.t === 'mention') words.push(`<@${t.id}>`);
      else if (!used[i] && t.t === 'word') {
        words.push(i === guess.index ? `${t.raw} ${ctx.defaultCurrency}` : t.raw);
      }
    });
    return fail(
      'which_cost',
      { amounts: { or: candidates.map((c) => c.raw) } },
      `/split ${words.join(' ')}`,
    );
  }
  if (cost && 'problem' in cost.reading) return failWith(cost.reading.problem);
  if (cost) for (let k = cost.index; k < cost.index + cost.length; k++) used[k] = true;
  return cost;
}

/**
 * `each`, `pp`, `per person` and their words in every language (`je Person`, `chacun`, `cada
 * uno`), right after the cost. A per-person word of another language followed by a period says
 * how often, not for whom (`cada mes`, `je Monat`) and is left alone.
 */
export function takeEach({ tokens, used }: Scan, cost: AmountCandidate | null): boolean {
  if (!cost) return false;
  const after = cost.index + cost.length;
  const found = ANYWHERE.each.at(tokens, after, used);
  if (!found) return false;
  if (
    found.length === 1 &&
    !ANYWHERE.eachEnglish.has(tokens[after]) &&
    !used[after + 1] &&
    ANYWHERE.periodsAbroad.has(tokens[after + 1])
  ) {
    return false;
  }
  for (let k = after; k < after + found.length; k++) used[k] = true;
  return true;
}
