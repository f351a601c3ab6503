import { describe, expect, it } from 'vitest';
import { computeShares } from '../../src/core/split.js';

describe('computeShares with several payers', () => {
  it('gives each payer their paid amount and a row, sharer or not', () => {
    expect(
      computeShares({
        cost: 6000,
        payer: 'A',
        participants: ['A', 'C'],
        split: { kind: 'equal' },
        payers: [
          { id: 'A', amount: 4000 },
          { id: 'B', amount: 2000 },
        ],
      }),
    ).toEqual({
      shares: [
        { id: 'A', paid: 4000, owed: 3000 },
        { id: 'C', paid: 0, owed: 3000 },
        { id: 'B', paid: 2000, owed: 0 },
      ],
    });
  });

  it('combines with an unequal owed split, both columns adding up to the cost', () => {
    const result = computeShares({
      cost: 10001,
      payer: 'A',
      participants: ['A', 'B', 'C'],
      split: { kind: 'shares', shares: [{ id: 'A', shares: 2 }] },
      payers: [
        { id: 'B', amount: 5001 },
        { id: 'C', amount: 5000 },
      ],
    });
    if ('error' in result) throw new Error(result.error);
    const sum = (k: 'paid' | 'owed') => result.shares.reduce((s, r) => s + r[k], 0);
    expect(sum('paid')).toBe(10001);
    expect(sum('owed')).toBe(10001);
    expect(result.shares.map((r) => r.paid)).toEqual([0, 5001, 5000]);
  });

  it.each([
    [
      [
        { id: 'A', amount: 4000 },
        { id: 'B', amount: 1000 },
      ],
      'the paid amounts add up to less than the cost',
    ],
    [
      [
        { id: 'A', amount: 4000 },
        { id: 'B', amount: 3000 },
      ],
      'the paid amounts add up to more than the cost',
    ],
    [
      [
        { id: 'A', amount: 6000 },
        { id: 'B', amount: 0 },
      ],
      'each payer must have paid more than zero',
    ],
    [
      [
        { id: 'A', amount: 3000 },
        { id: 'A', amount: 3000 },
      ],
      'someone is listed twice among the payers',
    ],
  ])('refuses %j', (payers, error) => {
    expect(
      computeShares({
        cost: 6000,
        payer: 'A',
        participants: ['A', 'B'],
        split: { kind: 'equal' },
        payers,
      }),
    ).toEqual({ error });
  });
});
