/**
 * Who paid: one payer (`paid by @bob`), or several with what each paid (`paid by me 40 @bob 20`,
 * `I paid 400, @bob paid 200`). A list of payers is read only when the amounts say so; `paid by
 * @bob` followed by the cost alone stays one payer.
 */
import { amountAt } from './amounts.js';
import { EX, stop } from './errors.js';
import { ME_WORDS } from './keywords.js';
import { malformed } from './malformed.js';
import { isWord, word } from './tokens.js';
import { ME, type ParseContext, type Scan, type Token, type Value } from './types.js';

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

const PAID_BY = ['paid_by', 'paidby', 'payer', 'paid:', 'paid_by:', 'payer:', 'paid-by'];
/** Between two payers of a list: `me 40, @bob 20`, `me 40 and @bob 20`. */
const LIST_JOINS = [',', 'and', '&', '+'];

function personAt(token: Token | undefined): string | null {
  if (token?.t === 'mention') return token.id;
  if (isWord(token, ...ME_WORDS)) return ME;
  return null;
}

function label(id: string): string {
  return id === ME ? 'you' : `<@${id}>`;
}

/** An amount at `k` (`40`, `$40`, `=40`, `40 EUR`), with how many tokens it takes. */
function paidAmountAt(
  tokens: Token[],
  used: boolean[],
  k: number,
  ctx: ParseContext,
): { value: AmountValue; length: number } | null {
  let start = k;
  if (isWord(tokens[start], '=', ':') && !used[start]) start++;
  const token = tokens[start];
  if (token?.t !== 'word' || used[start]) return null;
  const raw = token.raw.replace(/^[=:]/, '').replace(/[,;]$/, '');
  if (malformed(raw)) return null;
  const amount = amountAt(tokens, start, ctx.defaultCurrency, word(raw));
  if (!amount) return null;
  if ('problem' in amount.reading) stop(`${amount.reading.problem}.`, EX.payers);
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
 * The people and amounts from `at` on: `me 40 @bob 20`, `@ann 50, @bob 50`. A list needs an
 * amount after its first person and another person after that; then every person in it needs an
 * amount. Returns the tokens it covers, or null when there is no list (one payer).
 */
function payerList(scan: Scan, at: number): { entries: PaidBy[]; end: number } | null {
  const { tokens, used, ctx } = scan;
  const first = personAt(tokens[at]);
  if (first === null) return null;
  const firstAmount = paidAmountAt(tokens, used, at + 1, ctx);
  if (!firstAmount) return null;
  const entries: PaidBy[] = [{ id: first, amount: firstAmount.value }];
  let k = at + 1 + firstAmount.length;
  for (;;) {
    let next = k;
    const joined = isWord(tokens[next], ...LIST_JOINS) && !used[next];
    if (joined) next++;
    const id = used[next] ? null : personAt(tokens[next]);
    if (id === null) break;
    const amount = paidAmountAt(tokens, used, next + 1, ctx);
    if (!amount) {
      // "me 40 and @ann" can be a payer followed by a sharer; "me 40 @ann" can only be a list.
      if (isWord(tokens[k], 'and', '&')) break;
      stop(
        `How much did ${label(id)} pay? With several payers, put each one's amount right after them.`,
        EX.payers,
      );
    }
    entries.push({ id, amount: amount.value });
    k = next + 1 + amount.length;
  }
  return entries.length >= 2 ? { entries, end: k } : null;
}

/** `I paid 400, @bob paid 200`: a person, `paid`, an amount. */
function paidPairs(scan: Scan): Array<{ entry: PaidBy; from: number; to: number }> {
  const { tokens, used, ctx } = scan;
  const pairs: Array<{ entry: PaidBy; from: number; to: number }> = [];
  for (let i = 1; i < tokens.length; i++) {
    if (used[i] || used[i - 1] || !isWord(tokens[i], 'paid', 'payed')) continue;
    if (isWord(tokens[i + 1], 'by')) continue;
    const id = personAt(tokens[i - 1]);
    if (id === null) continue;
    const amount = paidAmountAt(tokens, used, i + 1, ctx);
    if (!amount) continue;
    pairs.push({ entry: { id, amount: amount.value }, from: i - 1, to: i + amount.length });
  }
  return pairs;
}

/** `paid by @bob` and its spellings, or several payers with their amounts; ME when nobody is named. */
export function takePayers(scan: Scan): Payers {
  const { tokens, used } = scan;
  let payer: string = ME;
  let payerNamed = false;
  const paid: PaidBy[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    let length = 0;
    if (isWord(tokens[i], 'paid', 'payed') && isWord(tokens[i + 1], 'by')) length = 2;
    else if (isWord(tokens[i], ...PAID_BY)) length = 1;
    if (length === 0) continue;
    if (isWord(tokens[i + length], ':', '=')) length++;
    if (payerNamed) stop(ONE_LIST, EX.payers);
    payerNamed = true;
    const who = personAt(tokens[i + length]);
    if (who === null) stop('Who paid? After "paid by", mention the person with @.', EX.payer);
    const list = payerList(scan, i + length);
    const end = list ? list.end : i + length + 1;
    for (let k = i; k < end; k++) used[k] = true;
    if (list) paid.push(...list.entries);
    else payer = who;
  }
  const pairs = paidPairs(scan);
  // One "@bob paid 40" alone says no more than the cost; two or more say who paid what.
  if (pairs.length >= 2 || (pairs.length >= 1 && paid.length > 0)) {
    for (const pair of pairs) {
      for (let k = pair.from; k <= pair.to; k++) used[k] = true;
      paid.push(pair.entry);
    }
  }
  if (tokens.filter((t, i) => !used[i] && isWord(t, 'paid', 'payed')).length > 1) {
    stop('With several payers, say what each one paid: a person, then their amount.', EX.payers);
  }
  if (paid.length === 0) return { payer, paid: null };
  if (payerNamed && paid.length > 0 && !paid.some((p) => p.id === payer) && payer !== ME) {
    stop(ONE_LIST, EX.payers);
  }
  const seen = new Set<string>();
  for (const entry of paid) {
    if (seen.has(entry.id)) {
      stop(
        `${entry.id === ME ? 'You are' : `<@${entry.id}> is`} among the payers twice: give each payer once, with what they paid.`,
        EX.payers,
      );
    }
    seen.add(entry.id);
  }
  return { payer: paid[0]!.id, paid };
}

const ONE_LIST = 'Name who paid once: all the payers in one list, each with their amount.';
