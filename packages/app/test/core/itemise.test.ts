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

  it('rounds each exact part of the total once, so no cent moves between people', () => {
    // Ada 12 + 4.50, Grace 9, Alan nothing, 14.50 shared, of 50: Alan's part is the 10 left.
    // Exact parts of 60: Ada (16.50 + 14.50/3) × 1.2 = 25.60, Grace 16.60, Alan 17.80.
    const result = computeItemised({
      participants: ['ada', 'grace', 'alan'],
      items: new Map([
        ['ada', 1650],
        ['grace', 900],
      ]),
      shared: 1450,
      subtotal: 5000,
      tip: { basisPoints: 1000 },
      tax: { minor: 500 },
    });
    expect(result).toMatchObject({
      owed: [
        { id: 'ada', amount: 2560 },
        { id: 'grace', amount: 1660 },
        { id: 'alan', amount: 1780 },
      ],
      summary: { subtotal: 5000, total: 6000 },
    });
  });

  it('adds up to the total and keeps each share within a unit of its exact part, at random', () => {
    let seed = 11;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 3000; round++) {
      const ids = Array.from({ length: 1 + next(6) }, (_, i) => `p${i}`);
      const items = new Map<string, number>();
      for (const id of ids) if (next(3) > 0) items.set(id, next(20_000));
      const shared = next(2) === 0 ? 0 : next(10_000);
      const itemised = [...items.values()].reduce((a, b) => a + b, 0) + shared;
      const open = ids.filter((id) => !items.has(id));
      const subtotal = open.length > 0 && next(2) === 0 ? itemised + next(10_000) : null;
      const tip = next(2) === 0 ? { basisPoints: next(3001) } : null;
      const tax = next(2) === 0 ? { minor: next(2000) } : null;
      const result = computeItemised({ participants: ids, items, shared, subtotal, tip, tax });
      if ('error' in result) {
        expect(itemised).toBe(0);
        continue;
      }
      const owed = result.owed.map((o) => o.amount);
      expect(owed.reduce((a, b) => a + b, 0)).toBe(result.summary.total);
      // The exact part, as a fraction over the denominator n × m × subtotal.
      const n = BigInt(ids.length);
      const m = BigInt(Math.max(open.length, 1));
      const sub = BigInt(result.summary.subtotal);
      const rest = sub - BigInt(itemised);
      const denominator = n * m * sub;
      for (const [i, id] of ids.entries()) {
        const part =
          BigInt(items.get(id) ?? 0) * n * m + BigInt(shared) * m + (items.has(id) ? 0n : rest * n);
        const exact = part * BigInt(result.summary.total);
        const scaled = BigInt(owed[i]!) * denominator;
        expect(scaled > exact - denominator && scaled < exact + denominator).toBe(true);
        expect(owed[i]!).toBeGreaterThanOrEqual(items.get(id) ?? 0);
      }
    }
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
