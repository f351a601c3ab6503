/**
 * Who paid: one payer (`paid by @bob`), or several with what each paid (`paid by me 40 @bob 20`,
 * `I paid 400, @bob paid 200`). A list of payers is read only when the amounts say so; `paid by
 * @bob` followed by the cost alone stays one payer.
 */
import { amountAt } from './amounts.js';
import { EX, fail, failWith, refused } from './errors.js';
import { malformed } from './malformed.js';
import { isWord, word, wordIn } from './tokens.js';
import {
  type ErrorResult,
  ME,
  type ParseContext,
  type Scan,
  type Token,
  type Value,
} from './types.js';
import { ANYWHERE } from './words.js';

type AmountValue = Extract<Value, { kind: 'amount' }>;

/** One of several payers, with the amount as typed (turned into minor units once the currency is known). */
interface PaidBy {
  id: string;
  amount: AmountValue;
}

interface Payers {
  /** The one payer, or the first of several. Slack user id or ME. */
  payer: string;
  /** Two or more payers with what each paid; null when one person paid it all. */
  paid: PaidBy[] | null;
}

const PAID_BY = new Set(['paid_by', 'paidby', 'payer', 'paid:', 'paid_by:', 'payer:', 'paid-by']);
/** Between two payers of a list: `me 40, @bob 20`, `me 40 and @bob 20`, `mir 40 und @bob 20`. */
function isJoin(token: Token | undefined): boolean {
  return isWord(token, ',', '&', '+') || ANYWHERE.and.has(token);
}

/**
 * A payer: a mention, or me in any language (`me`, `I`, `mir`, `moi`, `mí`, `mim`...). Read only
 * after `paid by` and its kin, where no word of a description stands.
 */
function personAt(token: Token | undefined): string | null {
  if (token?.t === 'mention') return token.id;
  if (ANYWHERE.payerMe.has(token)) return ME;
  return null;
}

/** An amount at `k` (`40`, `$40`, `=40`, `40 EUR`), with how many tokens it takes. */
function paidAmountAt(
  tokens: Token[],
  used: boolean[],
  k: number,
  ctx: ParseContext,
): { value: AmountValue; length: number } | ErrorResult | null {
  let start = k;
  if (isWord(tokens[start], '=', ':') && !used[start]) start++;
  const token = tokens[start];
  if (token?.t !== 'word' || used[start]) return null;
  const raw = token.raw.replace(/^[=:]/, '').replace(/[,;]$/, '');
  if (malformed(raw)) return null;
  const amount = amountAt(tokens, start, ctx.defaultCurrency, word(raw));
  if (!amount) return null;
  if ('problem' in amount.reading) return failWith(amount.reading.problem, EX.payers);
  return {
    value: {
      kind: 'amount',
      decimal: amount.reading.decimal,
      negative: amount.negative,
      mark: amount.mark,
      raw: amount.raw,
    },
    length: start - k + amount.length,
  };
}

/**
 * True when a person with an amount comes at `at`, or after people without one (and joins);
 * refused when that amount is.
 */
function payerAhead({ tokens, used, ctx }: Scan, at: number): boolean | ErrorResult {
  for (let k = at; ; k++) {
    if (isJoin(tokens[k]) && !used[k]) k++;
    if (used[k] || personAt(tokens[k]) === null) return false;
    const amount = paidAmountAt(tokens, used, k + 1, ctx);
    if (amount) return refused(amount) ? amount : true;
  }
}

/** True when a word with a digit outside tokens `from` to `to` is not taken yet: a cost may be there. */
function numberElsewhere({ tokens, used }: Scan, from: number, to: number): boolean {
  return tokens.some(
    (t, k) => (k < from || k >= to) && !used[k] && t.t === 'word' && /\d/.test(t.raw),
  );
}

/**
 * The people and amounts from `at` on: `me 40 @bob 20`, `@ann 50, @bob 50`. A list needs an
 * amount after its first person and another person after that. The list ends at the last amount:
 * people named after it share the cost without paying (`me 40 @bob 20 @ann`), while a person
 * without an amount before another payer is asked about (`me 40 @bob @cho 20`), as is the second
 * person of `me 40 @bob` beside another number, which is no list yet. Returns the tokens it
 * covers, or null when there is no list (one payer).
 */
function payerList(
  scan: Scan,
  at: number,
): { entries: PaidBy[]; end: number } | ErrorResult | null {
  const { tokens, used, ctx } = scan;
  const first = personAt(tokens[at]);
  if (first === null) return null;
  const firstAmount = paidAmountAt(tokens, used, at + 1, ctx);
  if (!firstAmount || refused(firstAmount)) return firstAmount;
  const entries: PaidBy[] = [{ id: first, amount: firstAmount.value }];
  let k = at + 1 + firstAmount.length;
  for (;;) {
    let next = k;
    const joined = isJoin(tokens[next]) && !used[next];
    if (joined) next++;
    const id = used[next] ? null : personAt(tokens[next]);
    if (id === null) break;
    const amount = paidAmountAt(tokens, used, next + 1, ctx);
    if (refused(amount)) return amount;
    if (!amount) {
      // "me 40 and @ann" can be a payer followed by a sharer; "me 40 @ann" can only be a list.
      if (isWord(tokens[k], '&') || ANYWHERE.and.has(tokens[k])) break;
      const ahead = payerAhead(scan, next + 1);
      if (refused(ahead)) return ahead;
      if (entries.length >= 2 && !ahead) break;
      // `paid by me 40 @bob` with no other number in the text: 40 can only be the cost, so it
      // is one payer, as `paid by @bob 40` is. Beside a cost (`60 dinner paid by me 40 @bob`)
      // Bob's part of the paying is missing, and is asked for.
      if (!ahead && !numberElsewhere(scan, at, k)) break;
      const who = id === ME ? 'me' : 'other';
      return fail('how_much_paid', { who, person: { person: id } }, EX.payers);
    }
    entries.push({ id, amount: amount.value });
    k = next + 1 + amount.length;
  }
  return entries.length >= 2 ? { entries, end: k } : null;
}

/** `I paid 400, @bob paid 200`: a person, `paid`, an amount. */
function paidPairs(scan: Scan): Array<{ entry: PaidBy; from: number; to: number }> | ErrorResult {
  const { tokens, used, ctx } = scan;
  const pairs: Array<{ entry: PaidBy; from: number; to: number }> = [];
  for (let i = 1; i < tokens.length; i++) {
    if (used[i] || used[i - 1] || !isWord(tokens[i], 'paid', 'payed')) continue;
    if (isWord(tokens[i + 1], 'by')) continue;
    const id = personAt(tokens[i - 1]);
    if (id === null) continue;
    const amount = paidAmountAt(tokens, used, i + 1, ctx);
    if (!amount) continue;
    if (refused(amount)) return amount;
    pairs.push({ entry: { id, amount: amount.value }, from: i - 1, to: i + amount.length });
  }
  return pairs;
}

/** How many words at `i` name who paid (`paid by`, `payé par`, `payer`), or 0. */
function paidByAt(tokens: Token[], i: number): number {
  const token = tokens[i];
  if (token?.t !== 'word') return 0;
  if (wordIn(token, PAID_BY)) return 1;
  // `paid by: @bob` as `paid: @bob`: a closing colon is read past.
  return ANYWHERE.paidBy.at(tokens, i)?.length ?? 0;
}

/** `paid by @bob` and its spellings, or several payers with their amounts; ME when nobody is named. */
export function takePayers(scan: Scan): Payers | ErrorResult {
  const { tokens, used } = scan;
  let payer: string = ME;
  let payerNamed = false;
  const paid: PaidBy[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    let length = paidByAt(tokens, i);
    if (length === 0) continue;
    const typed = tokens
      .slice(i, i + length)
      .map((t) => (t as { raw: string }).raw)
      .join(' ');
    if (isWord(tokens[i + length], ':', '=')) length++;
    if (payerNamed) return fail('payers_once', {}, EX.payers);
    payerNamed = true;
    const who = personAt(tokens[i + length]);
    if (who === null) return fail('who_paid', { typed }, EX.payer);
    const list = payerList(scan, i + length);
    if (refused(list)) return list;
    const end = list ? list.end : i + length + 1;
    for (let k = i; k < end; k++) used[k] = true;
    if (list) paid.push(...list.entries);
    else payer = who;
  }
  const pairs = paidPairs(scan);
  if (refused(pairs)) return pairs;
  // One "@bob paid 40" alone says no more than the cost; two or more say who paid what.
  if (pairs.length >= 2 || (pairs.length >= 1 && paid.length > 0)) {
    for (const pair of pairs) {
      for (let k = pair.from; k <= pair.to; k++) used[k] = true;
      paid.push(pair.entry);
    }
  }
  if (tokens.filter((t, i) => !used[i] && isWord(t, 'paid', 'payed')).length > 1) {
    return fail('several_payers_amounts', {}, EX.payers);
  }
  if (paid.length === 0) return { payer, paid: null };
  if (payerNamed && paid.length > 0 && !paid.some((p) => p.id === payer) && payer !== ME) {
    return fail('payers_once', {}, EX.payers);
  }
  const seen = new Set<string>();
  for (const entry of paid) {
    if (seen.has(entry.id)) {
      return fail(
        'payer_twice',
        { who: entry.id === ME ? 'me' : 'other', person: { person: entry.id } },
        EX.payers,
      );
    }
    seen.add(entry.id);
  }
  return { payer: paid[0]!.id, paid };
}
