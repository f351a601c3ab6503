/**
 * Turning a split (equal, exact amounts, percentages, shares) into exact owed shares in minor
 * units that add up to the cost. Ids are opaque strings, so the `/split` parser (which uses a
 * placeholder for the caller), the modal and the service layer can all use it.
 *
 * Rules, stated once (also in docs/split-syntax.md):
 * - Whatever is divided goes through `allocate`/`splitEqually` from money.ts: floors, then one unit
 *   each to the largest remainders, earlier participants first on ties.
 * - Participants without a value in an exact or percent split share what is left equally; in a
 *   shares split they count as 1 share. With nobody left to take the rest, the values must cover
 *   the cost (or 100%) exactly.
 * - Percentages are basis points (hundredths of a percent, 33.33% = 3333): percentages with up to
 *   two decimals are exact, and they must make exactly 100%.
 * - The payer gets a row even when they owe nothing; so does each of several payers.
 * - Several payers: each one's paid amount is given, and together they pay exactly the cost.
 */
import { allocate, splitEqually } from './money.js';

export interface ExactSplitValue {
  id: string;
  /** Minor units owed by this participant. */
  amount: number;
}
interface PercentSplitValue {
  id: string;
  /** Basis points: 1% = 100, so 33.33% = 3333. */
  basisPoints: number;
}
interface SharesSplitValue {
  id: string;
  /** A positive whole number of shares. */
  shares: number;
}

export type Split =
  | { kind: 'equal' }
  | { kind: 'exact'; amounts: ExactSplitValue[] }
  | { kind: 'percent'; percents: PercentSplitValue[] }
  | { kind: 'shares'; shares: SharesSplitValue[] };

export interface ShareRow {
  id: string;
  /** Minor units paid: the cost for the payer, 0 for everyone else. */
  paid: number;
  /** Minor units owed; the owed column adds up to the cost. */
  owed: number;
}

interface ComputeSharesInput {
  /** Minor units, > 0. */
  cost: number;
  payer: string;
  /** Who shares the cost, in order (the order decides who gets a leftover unit first). */
  participants: string[];
  split: Split;
  /**
   * When several people paid: what each paid, in minor units, adding up to the cost. Without it
   * (or with one entry for `payer`) `payer` paid everything.
   */
  payers?: readonly ExactSplitValue[] | undefined;
}

type ComputeSharesResult = { shares: ShareRow[] } | { error: string };

/** 100% in basis points. */
export const FULL_PERCENT = 10_000;

/** "33.33%" style text for basis points, for messages. */
export function formatPercent(basisPoints: number): string {
  const whole = Math.trunc(basisPoints / 100);
  const rest = Math.abs(basisPoints % 100);
  if (rest === 0) return `${whole}%`;
  return `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}%`;
}

function valuesById<T extends { id: string }>(
  values: readonly T[],
  participants: ReadonlySet<string>,
): Map<string, T> | { error: string } {
  const map = new Map<string, T>();
  for (const value of values) {
    if (!participants.has(value.id)) {
      return { error: `${value.id} has a value but is not one of the participants` };
    }
    if (map.has(value.id)) return { error: `${value.id} has two values` };
    map.set(value.id, value);
  }
  return map;
}

function owedExact(
  cost: number,
  participants: string[],
  amounts: readonly ExactSplitValue[],
): number[] | { error: string } {
  const byId = valuesById(amounts, new Set(participants));
  if ('error' in byId) return byId;
  let given = 0;
  for (const { amount } of byId.values()) {
    if (!Number.isSafeInteger(amount) || amount < 0) {
      return { error: 'each amount must be zero or more' };
    }
    given += amount;
  }
  const rest = cost - given;
  if (rest < 0) return { error: 'the amounts add up to more than the cost' };
  const open = participants.filter((id) => !byId.has(id));
  if (open.length === 0) {
    if (rest !== 0) return { error: 'the amounts add up to less than the cost' };
    return participants.map((id) => byId.get(id)?.amount ?? 0);
  }
  const restParts = splitEqually(rest, open.length);
  let next = 0;
  return participants.map((id) => byId.get(id)?.amount ?? restParts[next++] ?? 0);
}

function owedPercent(
  cost: number,
  participants: string[],
  percents: readonly PercentSplitValue[],
): number[] | { error: string } {
  const byId = valuesById(percents, new Set(participants));
  if ('error' in byId) return byId;
  let given = 0;
  for (const { basisPoints } of byId.values()) {
    if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) {
      return { error: 'each percentage must be zero or more, with at most two decimals' };
    }
    given += basisPoints;
  }
  const rest = FULL_PERCENT - given;
  if (rest < 0) return { error: `the percentages add up to ${formatPercent(given)}, over 100%` };
  const open = participants.filter((id) => !byId.has(id));
  if (open.length === 0 && rest !== 0) {
    return { error: `the percentages add up to ${formatPercent(given)}, not 100%` };
  }
  // The rest of the percentage is one bucket, divided equally afterwards, so that percentages
  // like 100/3 never need to be written as a fraction of a basis point.
  const weights = participants.filter((id) => byId.has(id)).map((id) => byId.get(id)!.basisPoints);
  if (open.length > 0) weights.push(rest);
  if (weights.every((w) => w === 0)) return { error: 'the percentages add up to 0%' };
  const parts = allocate(cost, weights);
  const restParts = open.length > 0 ? splitEqually(parts[parts.length - 1] ?? 0, open.length) : [];
  let valued = 0;
  let next = 0;
  return participants.map((id) =>
    byId.has(id) ? (parts[valued++] ?? 0) : (restParts[next++] ?? 0),
  );
}

function owedShares(
  cost: number,
  participants: string[],
  shares: readonly SharesSplitValue[],
): number[] | { error: string } {
  const byId = valuesById(shares, new Set(participants));
  if ('error' in byId) return byId;
  for (const { shares: count } of byId.values()) {
    if (!Number.isSafeInteger(count) || count < 1) {
      return { error: 'shares must be whole numbers of 1 or more' };
    }
  }
  return allocate(
    cost,
    participants.map((id) => byId.get(id)?.shares ?? 1),
  );
}

/**
 * Exact owed shares for an expense: one row per participant in the given order, then the payer if
 * they are not a participant. Never throws; anything that cannot be split is an `error` phrased for
 * a person.
 */
export function computeShares(input: ComputeSharesInput): ComputeSharesResult {
  const { cost, payer, participants, split } = input;
  if (!Number.isSafeInteger(cost) || cost <= 0) return { error: 'the cost must be more than zero' };
  if (participants.length === 0) return { error: 'nobody to split with' };
  if (new Set(participants).size !== participants.length) {
    return { error: 'someone is listed twice among the participants' };
  }
  let owed: number[] | { error: string };
  switch (split.kind) {
    case 'equal':
      owed = splitEqually(cost, participants.length);
      break;
    case 'exact':
      owed = owedExact(cost, participants, split.amounts);
      break;
    case 'percent':
      owed = owedPercent(cost, participants, split.percents);
      break;
    case 'shares':
      owed = owedShares(cost, participants, split.shares);
      break;
  }
  if (!Array.isArray(owed)) return owed;
  const paid = paidById(cost, payer, input.payers);
  if ('error' in paid) return paid;
  const rows = participants.map((id, i) => ({ id, paid: paid.get(id) ?? 0, owed: owed[i] ?? 0 }));
  for (const [id, amount] of paid) {
    if (!participants.includes(id)) rows.push({ id, paid: amount, owed: 0 });
  }
  return { shares: rows };
}

/** Who paid how much: `payer` the whole cost, or each of several payers their amount. */
function paidById(
  cost: number,
  payer: string,
  payers: readonly ExactSplitValue[] | undefined,
): Map<string, number> | { error: string } {
  if (!payers || payers.length === 0) return new Map([[payer, cost]]);
  const paid = new Map<string, number>();
  let total = 0;
  for (const { id, amount } of payers) {
    if (paid.has(id)) return { error: 'someone is listed twice among the payers' };
    if (!Number.isSafeInteger(amount) || amount <= 0) {
      return { error: 'each payer must have paid more than zero' };
    }
    paid.set(id, amount);
    total += amount;
  }
  if (total !== cost) {
    return {
      error: `the paid amounts add up to ${total > cost ? 'more' : 'less'} than the cost`,
    };
  }
  return paid;
}
