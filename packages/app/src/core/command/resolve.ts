import type { Split } from '../split.js';
import { trouble } from './errors.js';
import type { Trouble } from './types.js';
import { ME, type ParsedExpense } from './types.js';

/**
 * Swaps the ME placeholder for the caller's real id (in participants, payers and split values),
 * merging it with a mention of the caller themselves. Returns a problem when both carried a value.
 */
export function resolveMe(
  expense: ParsedExpense,
  callerId: string,
): ParsedExpense | { problem: Trouble } {
  const swap = (id: string) => (id === ME ? callerId : id);
  const participants: string[] = [];
  for (const id of expense.participants.map(swap))
    if (!participants.includes(id)) participants.push(id);
  const split = expense.split;
  const twice = trouble('two_values', { who: 'me', person: { person: callerId } });
  const dedupe = <T extends { id: string }>(values: T[]): T[] | { problem: Trouble } => {
    const out: T[] = [];
    for (const value of values) {
      const swapped = { ...value, id: swap(value.id) };
      if (out.some((v) => v.id === swapped.id)) return { problem: twice };
      out.push(swapped);
    }
    return out;
  };
  let resolved: Split = split;
  if (split.kind === 'exact') {
    const amounts = dedupe(split.amounts);
    if ('problem' in amounts) return amounts;
    resolved = { kind: 'exact', amounts };
  } else if (split.kind === 'percent') {
    const percents = dedupe(split.percents);
    if ('problem' in percents) return percents;
    resolved = { kind: 'percent', percents };
  } else if (split.kind === 'shares') {
    const shares = dedupe(split.shares);
    if ('problem' in shares) return shares;
    resolved = { kind: 'shares', shares };
  }
  let payers = expense.payers;
  if (payers) {
    const swapped = dedupe(payers);
    if ('problem' in swapped) {
      return { problem: trouble('payer_twice', { who: 'me', person: { person: callerId } }) };
    }
    payers = swapped;
  }
  // Only myself named (`@me` with my own mention, or `only me`): an expense I paid and owe alone
  // records nothing, so the question is the one `/split 40` gets.
  if (!expense.wholeGroup && participants.length === 1 && participants[0] === callerId) {
    return { problem: trouble('who_shared') };
  }
  return {
    ...expense,
    participants,
    payer: swap(expense.payer),
    ...(payers ? { payers } : {}),
    split: resolved,
  };
}
