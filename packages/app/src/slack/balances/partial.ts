/**
 * A payment of part of a balance with one friend, decided from the friend's balance as the
 * service reports it (no I/O here): which currency an amount without one is in, whether the
 * amount fits what is owed, and where it is recorded.
 *
 * A payment never exceeds what is owed in its direction: a larger one would turn the debt around
 * (Ann would then owe me), which is almost always a typo or the wrong person, so it is refused
 * with the figure that would settle it.
 *
 * Where: one payment, in the place (a shared group, or outside groups) that holds the largest
 * debt in that direction when that debt covers the amount, so that the group's own balance moves
 * too; otherwise outside groups, where it still changes the total with that person by exactly the
 * amount.
 */
import { minorOf } from '../../core/balances.js';
import type { Balance, Friend } from '../../service/index.js';
import type { Voice } from '../../voice/index.js';
import { mrkdwn } from '../kit/text.js';
import { sentences } from '../shared/balance-blocks.js';

/** `to`: I pay them; `from`: they pay me. */
export type Direction = 'to' | 'from';

/** Minor units owed in `direction`, per currency: positive, zero and opposite left out. */
export function owedIn(balance: readonly Balance[], direction: Direction): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of balance) {
    const code = entry.currency_code.toUpperCase();
    out.set(code, (out.get(code) ?? 0) + minorOf(entry));
  }
  for (const [code, signed] of out) {
    const owed = direction === 'from' ? signed : -signed;
    if (owed > 0) out.set(code, owed);
    else out.delete(code);
  }
  return out;
}

/**
 * The currency a payment is in: the one typed; else the only currency owed in that direction;
 * else the person's default. Null with several currencies owed and the default not among them:
 * the person has to say which.
 */
export function paymentCurrency(
  friend: Friend,
  direction: Direction,
  typed: string | null,
  defaultCurrency: string,
): string | null {
  if (typed) return typed;
  const owed = [...owedIn(friend.balance, direction).keys()];
  if (owed.length === 1) return owed[0]!;
  if (owed.length === 0 || owed.includes(defaultCurrency)) return defaultCurrency;
  return null;
}

/** Why a payment can't be recorded: mrkdwn, already written. */
type PartialPlan = { ok: true; group_id: number } | { ok: false; reason: string };

/** "€10.00 and $5.00": what is owed in each currency. */
export function amountsText(owed: Map<string, number>, voice: Voice): string {
  return voice.list([...owed].map(([code, minor]) => voice.money(minor, code)));
}

/** Where a payment of `amount` goes, or why it can't be recorded. */
export function planPartial(
  input: {
    friend: Friend;
    /** As the person knows them: escaped here. */
    name: string;
    direction: Direction;
    amount: number;
    currency: string;
  },
  voice: Voice,
): PartialPlan {
  const { friend, direction, amount, currency } = input;
  const name = mrkdwn(input.name);
  const owedAll = owedIn(friend.balance, direction);
  const owed = owedAll.get(currency) ?? 0;
  if (owed === 0) {
    const values = { name, currency, amounts: amountsText(owedAll, voice) };
    if (owedAll.size > 0) {
      return {
        ok: false,
        reason:
          direction === 'to'
            ? voice.t('settle.none_in_currency_you_owe', values)
            : voice.t('settle.none_in_currency_owes_you', values),
      };
    }
    return {
      ok: false,
      reason:
        direction === 'to'
          ? voice.t('settle.nothing_to_pay_you', values)
          : voice.t('settle.nothing_to_pay_them', values),
    };
  }
  if (amount > owed) {
    const values = {
      name,
      owed: voice.money(owed, currency),
      amount: voice.money(amount, currency),
    };
    return {
      ok: false,
      reason:
        direction === 'to'
          ? voice.t('settle.too_much_you_owe', values)
          : voice.t('settle.too_much_owes_you', values),
    };
  }
  let best = { group_id: 0, owed: 0 };
  for (const group of friend.groups ?? []) {
    const here = owedIn(group.balance, direction).get(currency) ?? 0;
    if (here > best.owed) best = { group_id: group.group_id, owed: here };
  }
  return { ok: true, group_id: best.owed >= amount ? best.group_id : 0 };
}

/** "Recorded: you paid Ann €15.00." with what is left, in mrkdwn. */
export function paymentRecordedText(
  input: {
    name: string;
    direction: Direction;
    amount: number;
    currency: string;
    /** What is owed in that direction afterwards, when it could be read. */
    left: number | undefined;
    group: string | null;
  },
  voice: Voice,
): string {
  const { direction, currency } = input;
  const name = mrkdwn(input.name);
  const paid = voice.money(input.amount, currency);
  const head = input.group
    ? voice.t(direction === 'to' ? 'settle.recorded_you_paid_in' : 'settle.recorded_they_paid_in', {
        name,
        amount: paid,
        group: mrkdwn(input.group),
      })
    : voice.t(direction === 'to' ? 'settle.recorded_you_paid' : 'settle.recorded_they_paid', {
        name,
        amount: paid,
      });
  if (input.left === undefined) return head;
  if (input.left === 0) {
    return sentences(voice, head, voice.t('settle.left_settled', { name, currency }));
  }
  const left = voice.money(input.left, currency);
  return sentences(
    voice,
    head,
    direction === 'to'
      ? voice.t('settle.left_you_owe', { name, amount: left })
      : voice.t('settle.left_owes_you', { name, amount: left }),
  );
}
