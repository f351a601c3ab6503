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
import { money } from '../shared/format.js';

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

type PartialPlan = { ok: true; group_id: number } | { ok: false; reason: string };

/** Where a payment of `amount` goes, or why it can't be recorded. */
export function planPartial(input: {
  friend: Friend;
  name: string;
  direction: Direction;
  amount: number;
  currency: string;
  locale?: string | undefined;
}): PartialPlan {
  const { friend, name, direction, amount, currency, locale } = input;
  const owed = owedIn(friend.balance, direction).get(currency) ?? 0;
  const shown = (minor: number) => money(minor, currency, locale);
  if (owed === 0) {
    const others = [...owedIn(friend.balance, direction)]
      .map(([code, minor]) => money(minor, code, locale))
      .join(' and ');
    const what =
      direction === 'to'
        ? `You don't owe ${name} anything in ${currency}`
        : `${name} doesn't owe you anything in ${currency}`;
    return {
      ok: false,
      reason: others
        ? `${what} (${direction === 'to' ? 'you owe them' : 'they owe you'} ${others}): name that currency with the amount.`
        : `${what}, so there is nothing to pay back.`,
    };
  }
  if (amount > owed) {
    return {
      ok: false,
      reason:
        direction === 'to'
          ? `You owe ${name} ${shown(owed)}: a payment of ${shown(amount)} would leave them owing you. Pay at most ${shown(owed)}.`
          : `${name} owes you ${shown(owed)}: a payment of ${shown(amount)} would leave you owing them. Record at most ${shown(owed)}.`,
    };
  }
  let best = { group_id: 0, owed: 0 };
  for (const group of friend.groups ?? []) {
    const here = owedIn(group.balance, direction).get(currency) ?? 0;
    if (here > best.owed) best = { group_id: group.group_id, owed: here };
  }
  return { ok: true, group_id: best.owed >= amount ? best.group_id : 0 };
}

/** "Recorded: you paid Ann €15.00." with what is left. */
export function paymentRecordedText(input: {
  name: string;
  direction: Direction;
  amount: number;
  currency: string;
  /** What is owed in that direction afterwards, when it could be read. */
  left: number | undefined;
  group: string | null;
  locale?: string | undefined;
}): string {
  const { name, direction, currency, locale } = input;
  const paid = money(input.amount, currency, locale);
  const where = input.group ? ` in ${input.group}` : '';
  const head =
    direction === 'to'
      ? `Recorded: you paid ${name} ${paid}${where}.`
      : `Recorded: ${name} paid you ${paid}${where}.`;
  if (input.left === undefined) return head;
  if (input.left === 0) return `${head} You and ${name} are settled up in ${currency}.`;
  const left = money(input.left, currency, locale);
  return direction === 'to'
    ? `${head} You still owe ${name} ${left}.`
    : `${head} ${name} still owes you ${left}.`;
}
