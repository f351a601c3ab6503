/**
 * Random itemised bills, typed as a person would (items added with +, tip and tax as percentages
 * or amounts), always book shares that add up to the total, and the total is the subtotal plus
 * tip and tax worked out here independently, in BigInt.
 */
import { describe, expect, it } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { computeShares } from '../../../src/core/split.js';
import { ctx, parse } from './helpers.js';

const PEOPLE = ['U0ANN', 'U0BOB', 'U0CHO', 'U0DAN'];

function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

function decimal(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** A percentage of `subtotal` in basis points, to the nearest cent, halves up. */
function percentOf(subtotal: number, basisPoints: number): number {
  return Number((BigInt(subtotal) * BigInt(basisPoints) * 2n + 10_000n) / 20_000n);
}

describe('itemised bills, at random', () => {
  it('always book shares that add up to subtotal + tip + tax', () => {
    const pick = random(11);
    for (let round = 0; round < 2000; round++) {
      const people = PEOPLE.slice(0, 1 + pick(PEOPLE.length));
      const parts: string[] = [];
      let given = 0;
      for (const id of people) {
        const items = Array.from({ length: 1 + pick(4) }, () => 1 + pick(5000));
        given += items.reduce((a, b) => a + b, 0);
        parts.push(`<@${id}> ${items.map(decimal).join('+')}`);
      }
      const mine = pick(3) === 0 ? 0 : 1 + pick(9000);
      const subtotal = given + mine;
      const tipBp = pick(3) === 0 ? null : pick(3001);
      const taxBp = pick(2) === 0 ? null : pick(2500);
      const tipAmount = tipBp === null && pick(2) === 0 ? 1 + pick(2000) : null;
      const extras = [
        tipBp !== null ? `+tip ${decimal(tipBp)}%` : '',
        tipAmount !== null ? `+tip ${decimal(tipAmount)}` : '',
        taxBp !== null ? `+tax ${decimal(taxBp)}%` : '',
      ];
      const text = [decimal(subtotal), 'dinner', ...parts, ...extras].join(' ');
      const result = parse(text, ctx);
      expect(result.kind, text).toBe('expense');
      if (result.kind !== 'expense') continue;
      const e = result.expense;
      const tip = tipBp !== null ? percentOf(subtotal, tipBp) : (tipAmount ?? 0);
      const tax = taxBp !== null ? percentOf(subtotal, taxBp) : 0;
      expect(e.cost, text).toBe(subtotal + tip + tax);
      const shares = computeShares({
        cost: e.cost,
        payer: e.payer,
        participants: e.participants,
        split: e.split,
      });
      if ('error' in shares) throw new Error(`${text}: ${shares.error}`);
      const owed = shares.shares.reduce((sum, row) => sum + row.owed, 0);
      expect(owed, text).toBe(e.cost);
      // Nobody pays less than their own items.
      for (const row of shares.shares) {
        if (row.id === ME) expect(row.owed, text).toBeGreaterThanOrEqual(mine);
      }
    }
  });
});
