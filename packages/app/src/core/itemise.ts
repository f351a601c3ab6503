/**
 * Itemised bills: items per person, items everyone shares, and a tip and a tax added on top in
 * proportion to what each person had. Everything is in integer minor units and every division
 * goes through `allocate`/`splitEqually`, so the owed amounts add up to the total exactly.
 *
 * Rules, stated once (also in docs/split-syntax.md):
 * - Tip and tax are both computed on the subtotal (the items before tip and tax), as restaurants
 *   do: the tip is not taxed and the tax is not tipped. total = subtotal + tip + tax.
 * - A percentage of the subtotal is rounded to the nearest minor unit, halves up.
 * - Tip and tax together are spread over the people in proportion to their part of the subtotal
 *   (largest remainders, earlier people first on ties).
 * - Rounded once: each person owes their exact part of the total (their items, their exact
 *   fraction of the shared items and of what the items leave, scaled by total / subtotal), rounded
 *   by `allocate` in one go. Rounding the shared items first and then the tip and tax would round
 *   twice, and a cent could move from one person to another.
 */
import { allocate } from './money.js';

/** A tip or tax as typed: a percentage of the subtotal, or an amount. */
export type Extra = { basisPoints: number } | { minor: number };

/** A tip or tax once applied to a subtotal. */
export interface AppliedExtra {
  minor: number;
  /** The percentage typed, in basis points; null when an amount was typed. */
  basisPoints: number | null;
}

/** What an itemised bill came to, for the answer and the expense's notes. */
export interface BillSummary {
  subtotal: number;
  tip: AppliedExtra | null;
  tax: AppliedExtra | null;
  total: number;
}

/** A tip or tax on `subtotal`; a percentage rounds to the nearest minor unit, halves up. */
export function applyExtra(subtotal: number, extra: Extra): AppliedExtra {
  if ('minor' in extra) return { minor: extra.minor, basisPoints: null };
  const scaled = BigInt(subtotal) * BigInt(extra.basisPoints);
  return { minor: Number((scaled * 2n + 10_000n) / 20_000n), basisPoints: extra.basisPoints };
}

/**
 * Adds tip and tax to owed parts of a subtotal, in proportion to each part. `parts` add up to the
 * subtotal; the result adds up to subtotal + tip + tax.
 */
export function withExtras(
  parts: readonly number[],
  tip: Extra | null,
  tax: Extra | null,
): { owed: number[]; summary: BillSummary } {
  const subtotal = parts.reduce((a, b) => a + b, 0);
  const appliedTip = tip ? applyExtra(subtotal, tip) : null;
  const appliedTax = tax ? applyExtra(subtotal, tax) : null;
  const extras = (appliedTip?.minor ?? 0) + (appliedTax?.minor ?? 0);
  const spread = subtotal > 0 && extras > 0 ? allocate(extras, parts) : parts.map(() => 0);
  return {
    owed: parts.map((part, i) => part + (spread[i] ?? 0)),
    summary: { subtotal, tip: appliedTip, tax: appliedTax, total: subtotal + extras },
  };
}

interface ItemisedBill {
  /** Who shares it, in the order that gives leftover units first. */
  participants: readonly string[];
  /** The sum of each person's own items, by id; people without items are left out. */
  items: ReadonlyMap<string, number>;
  /** Items everyone shares equally. */
  shared: number;
  /** The bill before tip and tax when it was given; what the items leave goes to people without items. */
  subtotal: number | null;
  tip: Extra | null;
  tax: Extra | null;
}

type ItemisedResult =
  | { owed: Array<{ id: string; amount: number }>; summary: BillSummary }
  | { error: string; on: 'items' | 'subtotal' };

/**
 * Each person's part of an itemised bill: their items, an equal part of the shared items and of
 * whatever the items leave of a given subtotal (among people without items), then tip and tax.
 */
export function computeItemised(bill: ItemisedBill): ItemisedResult {
  const { participants } = bill;
  if (participants.length === 0) return { error: 'nobody shares it', on: 'items' };
  const own = participants.map((id) => bill.items.get(id) ?? 0);
  const itemised = own.reduce((a, b) => a + b, 0) + bill.shared;
  const subtotal = bill.subtotal ?? itemised;
  if (subtotal <= 0) return { error: 'enter at least one item', on: 'items' };
  if (itemised > subtotal) {
    return { error: `the items come to more than the amount`, on: 'subtotal' };
  }
  const open = participants.filter((id) => !bill.items.has(id));
  const rest = subtotal - itemised;
  if (rest > 0 && open.length === 0) {
    return { error: 'the items come to less than the amount', on: 'subtotal' };
  }
  // Each exact part, over the common denominator n × m (n people share the shared items, m people
  // without items share the rest), so that the parts stay integers and are rounded only once.
  const n = participants.length;
  const m = Math.max(open.length, 1);
  const exact = participants.map(
    (id, i) =>
      (own[i] ?? 0) * n * m + bill.shared * m + (bill.items.has(id) || rest === 0 ? 0 : rest * n),
  );
  const { summary } = withExtras([subtotal], bill.tip, bill.tax);
  const owed = allocate(summary.total, exact);
  return { owed: participants.map((id, i) => ({ id, amount: owed[i] ?? 0 })), summary };
}
