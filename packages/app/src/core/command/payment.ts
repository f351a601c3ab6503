/**
 * `paid` and `remind`: a payment of part (or all) of a balance with one person, and a reminder
 * to someone who owes me. A payment is only ever the bare shape (who, how much, a few small
 * words): as soon as a description appears, `paid ...` is an expense as before, so that
 * `/split I paid 500 for lunch with @ann` still books lunch.
 */
import { amountAt } from './amounts.js';
import { fail, failWith } from './errors.js';
import { refuseNonPeople } from './people.js';
import { isWord } from './tokens.js';
import type { AmountCandidate, ParseContext, ParseResult, Token } from './types.js';
import { ANYWHERE } from './words.js';

export const PAY_EXAMPLE = '/split paid @ann 15';
export const REMIND_EXAMPLE = '/split remind @ann';

/** `@ann paid me 15`: English only, the one shape with the person first. */
const PAID = ['paid', 'payed', 'repaid'];

interface Shape {
  direction: 'to' | 'from';
  /** The tokens that hold the person, the amount and the small words. */
  rest: Token[];
  /** The small words a payment of this direction may hold. */
  small: (token: Token) => boolean;
  /** The person when the shape itself placed them (`@ann paid me 15`). */
  person?: string;
}

const paidMe = (token: Token) => isWord(token, 'me') || ANYWHERE.payFrom.has(token);

/**
 * The shape of a payment, in any language: a word for paying first (`paid`, `zurückgezahlt`,
 * `remboursé`, `devolví`, `paguei`), after `I` if written (`I`, `ich`, `j'ai`, `yo`, `eu`); a
 * word for receiving first (`received`, `erhalten`, `reçu`, `recibí`, `recebi`); or
 * `@ann paid me`.
 */
function shapeOf(tokens: Token[]): Shape | null {
  const first = tokens[0];
  // "@ann paid me 15": the person first, then `paid`, and `me` somewhere after.
  if (first?.t === 'mention' && isWord(tokens[1], ...PAID)) {
    const rest = tokens.slice(2);
    if (!rest.some((t) => isWord(t, 'me'))) return null;
    return { direction: 'from', rest, small: paidMe, person: first.id };
  }
  if (ANYWHERE.received.has(first)) {
    return { direction: 'from', rest: tokens.slice(1), small: paidMe };
  }
  const i = ANYWHERE.payI.has(first) ? 1 : 0;
  if (!ANYWHERE.pay.has(tokens[i])) return null;
  return {
    direction: 'to',
    rest: tokens.slice(i + 1),
    small: (token) => ANYWHERE.payTo.has(token),
  };
}

/** `/split paid @ann 15`, `paid 15 to @ann`, `@ann paid me 15`; null when it is no payment. */
export function parsePayment(tokens: Token[], ctx: ParseContext): ParseResult | null {
  const shape = shapeOf(tokens);
  if (!shape) return null;
  const { rest } = shape;
  const mentions = new Set<string>(shape.person ? [shape.person] : []);
  let amount: AmountCandidate | null = null;
  let amounts = 0;
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i]!;
    if (token.t === 'mention') {
      mentions.add(token.id);
      continue;
    }
    if (shape.small(token)) continue;
    const found = amountAt(rest, i, ctx.defaultCurrency);
    if (found) {
      amounts++;
      amount = found;
      i += found.length - 1;
      continue;
    }
    if (token.t === 'usergroup' || token.t === 'broadcast') continue;
    // Any other word is a description: this is an expense someone paid.
    return null;
  }
  // With neither a person nor a usergroup, `paid 15` is an expense missing its people.
  if (mentions.size === 0 && !rest.some((t) => t.t === 'usergroup' || t.t === 'broadcast')) {
    return null;
  }
  const group = tokens.find((t) => t.t === 'usergroup' || t.t === 'broadcast');
  if (group) {
    return fail(
      'payment_usergroup',
      { group: group.t === 'usergroup' ? group.label : `@${group.name}` },
      PAY_EXAMPLE,
    );
  }
  if (mentions.size > 1) return fail('payment_one_person', {}, PAY_EXAMPLE);
  const person = [...mentions][0]!;
  const example = shape.direction === 'to' ? PAY_EXAMPLE : '/split @ann paid me 15';
  if (amounts === 0 || !amount) {
    return fail('payment_amount', { direction: shape.direction }, example);
  }
  if (amounts > 1) return fail('payment_one_amount', {}, example);
  if ('problem' in amount.reading) return failWith(amount.reading.problem, example);
  if (amount.negative) return fail('amount_negative', { typed: amount.raw }, example);
  if (/^0*(\.0*)?$/.test(amount.reading.decimal)) {
    return fail('payment_zero', { typed: amount.raw }, example);
  }
  return {
    kind: 'paid',
    payment: {
      direction: shape.direction,
      person,
      amountText: amount.raw,
      currency: amount.mark?.code ?? null,
    },
  };
}

/** `/split remind @ann`, `erinnern @ann`, `rappel @ann`... */
export function parseRemind(tokens: Token[]): ParseResult {
  const nonPerson = refuseNonPeople(tokens);
  if (nonPerson) return nonPerson;
  const mentions = [...new Set(tokens.flatMap((t) => (t.t === 'mention' ? [t.id] : [])))];
  if (mentions.length === 0) {
    return fail('remind_who', {}, REMIND_EXAMPLE);
  }
  if (mentions.length > 1) return fail('one_person', {}, REMIND_EXAMPLE);
  const extra = tokens.find((t) => t.t !== 'mention' && !ANYWHERE.remindWords.has(t));
  if (extra) {
    return fail('remind_extra', { typed: extra.raw }, REMIND_EXAMPLE);
  }
  return { kind: 'remind', mention: mentions[0]! };
}
