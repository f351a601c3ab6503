import type { Split } from '../split.js';
import { ME, type ParsedExpense } from './types.js';

/**
 * Swaps the ME placeholder for the caller's real id (in participants, payers and split values),
 * merging it with a mention of the caller themselves. Returns an error when both carried a value.
 */
export function resolveMe(
  expense: ParsedExpense,
  callerId: string,
): ParsedExpense | { error: string } {
  const swap = (id: string) => (id === ME ? callerId : id);
  const participants: string[] = [];
  for (const id of expense.participants.map(swap))
    if (!participants.includes(id)) participants.push(id);
  const split = expense.split;
  const dedupe = <T extends { id: string }>(values: T[]): T[] | { error: string } => {
    const out: T[] = [];
    for (const value of values) {
      const swapped = { ...value, id: swap(value.id) };
      if (out.some((v) => v.id === swapped.id)) return { error: 'You gave yourself two values.' };
      out.push(swapped);
    }
    return out;
  };
  let resolved: Split = split;
  if (split.kind === 'exact') {
    const amounts = dedupe(split.amounts);
    if ('error' in amounts) return amounts;
    resolved = { kind: 'exact', amounts };
  } else if (split.kind === 'percent') {
    const percents = dedupe(split.percents);
    if ('error' in percents) return percents;
    resolved = { kind: 'percent', percents };
  } else if (split.kind === 'shares') {
    const shares = dedupe(split.shares);
    if ('error' in shares) return shares;
    resolved = { kind: 'shares', shares };
  }
  let payers = expense.payers;
  if (payers) {
    const swapped = dedupe(payers);
    if ('error' in swapped) return { error: 'You are among the payers twice.' };
    payers = swapped;
  }
  return {
    ...expense,
    participants,
    payer: swap(expense.payer),
    ...(payers ? { payers } : {}),
    split: resolved,
  };
}
