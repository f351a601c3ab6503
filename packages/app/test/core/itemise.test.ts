import { describe, expect, it } from 'vitest';
import { applyExtra, computeItemised, withExtras } from '../../src/core/itemise.js';

describe('applyExtra', () => {
  it.each([
    [8000, 1500, 1200],
    [1001, 1250, 125], // 125.125 rounds down
    [5, 1000, 1], // half a unit rounds up
    [15, 1000, 2], // 1.5 rounds up
    [14, 1000, 1], // 1.4 rounds down
    [0, 2000, 0],
    [999_999_999_99, 10_000, 999_999_999_99],
  ])('%i at %i basis points is %i', (subtotal, basisPoints, minor) => {
    expect(applyExtra(subtotal, { basisPoints })).toEqual({ minor, basisPoints });
  });

  it('takes an amount as it is', () => {
    expect(applyExtra(8000, { minor: 1000 })).toEqual({ minor: 1000, basisPoints: null });
  });
});

describe('withExtras', () => {
  it('spreads tip and tax in proportion, earlier parts first on ties', () => {
    expect(withExtras([2500, 3000, 2500], { basisPoints: 1500 }, { basisPoints: 800 })).toEqual({
      owed: [3075, 3690, 3075],
      summary: {
        subtotal: 8000,
        tip: { minor: 1200, basisPoints: 1500 },
        tax: { minor: 640, basisPoints: 800 },
        total: 9840,
      },
    });
    expect(withExtras([1, 1, 1], { minor: 1 }, null).owed).toEqual([2, 1, 1]);
  });

  it('leaves the parts alone without tip and tax', () => {
    expect(withExtras([100, 0], null, null)).toEqual({
      owed: [100, 0],
      summary: { subtotal: 100, tip: null, tax: null, total: 100 },
    });
  });

  it('always adds up to the total, at random', () => {
    let seed = 3;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 3000; round++) {
      const parts: number[] = Array.from({ length: 1 + next(8) }, () => next(100_000));
      if (!parts.some((p) => p > 0)) parts[0] = 1;
      const tip = next(2) === 0 ? { basisPoints: next(10_001) } : { minor: next(5000) };
      const tax = next(2) === 0 ? null : { basisPoints: next(3000) };
      const { owed, summary } = withExtras(parts, tip, tax);
      expect(owed.reduce((a, b) => a + b, 0)).toBe(summary.total);
      for (const [i, o] of owed.entries()) expect(o).toBeGreaterThanOrEqual(parts[i]!);
    }
  });
});

describe('computeItemised', () => {
  const people = ['me', 'ann', 'bob'];

  it('gives people without items what the items leave of the subtotal', () => {
    expect(
      computeItemised({
        participants: people,
        items: new Map([
          ['ann', 3000],
          ['bob', 2500],
        ]),
        shared: 0,
        subtotal: 8000,
        tip: { basisPoints: 1500 },
        tax: { basisPoints: 800 },
      }),
    ).toMatchObject({
      owed: [
        { id: 'me', amount: 3075 },
        { id: 'ann', amount: 3690 },
        { id: 'bob', amount: 3075 },
      ],
      summary: { total: 9840 },
    });
  });

  it('splits shared items among everyone, and takes the items as the subtotal when none is given', () => {
    const result = computeItemised({
      participants: people,
      items: new Map([['ann', 500]]),
      shared: 1000,
      subtotal: null,
      tip: null,
      tax: null,
    });
    expect(result).toEqual({
      owed: [
        { id: 'me', amount: 334 },
        { id: 'ann', amount: 833 },
        { id: 'bob', amount: 333 },
      ],
      summary: { subtotal: 1500, tip: null, tax: null, total: 1500 },
    });
  });

  it.each([
    [new Map([['ann', 9000]]), 8000, 'the items come to more than the amount', 'subtotal'],
    [
      new Map([
        ['me', 1],
        ['ann', 1],
        ['bob', 1],
      ]),
      8000,
      'the items come to less than the amount',
      'subtotal',
    ],
    [new Map<string, number>(), null, 'enter at least one item', 'items'],
  ])('refuses %o against %s', (items, subtotal, error, on) => {
    expect(
      computeItemised({ participants: people, items, shared: 0, subtotal, tip: null, tax: null }),
    ).toEqual({ error, on });
  });
});
