import { describe, expect, it } from 'vitest';
import { computeShares, formatPercent, type Split } from '../../src/core/split.js';

describe('computeShares: exact rows', () => {
  const cases: Array<{
    name: string;
    cost: number;
    payer: string;
    participants: string[];
    split: Split;
    owed: number[];
    extraPayerRow?: boolean;
  }> = [
    {
      name: '100.00 three ways: the earliest participant takes the extra cent',
      cost: 10000,
      payer: 'me',
      participants: ['me', 'ann', 'bob'],
      split: { kind: 'equal' },
      owed: [3334, 3333, 3333],
    },
    {
      name: '89.00 three ways',
      cost: 8900,
      payer: 'me',
      participants: ['me', 'ann', 'bob'],
      split: { kind: 'equal' },
      owed: [2967, 2967, 2966],
    },
    {
      name: '10.01 two ways (the case the service rejects when shares do not add up)',
      cost: 1001,
      payer: 'me',
      participants: ['me', 'ann'],
      split: { kind: 'equal' },
      owed: [501, 500],
    },
    {
      name: '0.01 among three',
      cost: 1,
      payer: 'me',
      participants: ['me', 'ann', 'bob'],
      split: { kind: 'equal' },
      owed: [1, 0, 0],
    },
    {
      name: '¥1000 three ways (zero-decimal currency, minor unit = 1 yen)',
      cost: 1000,
      payer: 'me',
      participants: ['me', 'ann', 'bob'],
      split: { kind: 'equal' },
      owed: [334, 333, 333],
    },
    {
      name: 'exact amounts that cover the cost',
      cost: 4000,
      payer: 'me',
      participants: ['ann', 'bob'],
      split: {
        kind: 'exact',
        amounts: [
          { id: 'ann', amount: 2500 },
          { id: 'bob', amount: 1500 },
        ],
      },
      owed: [2500, 1500],
      extraPayerRow: true,
    },
    {
      name: 'exact amounts: people without one share the rest equally',
      cost: 6000,
      payer: 'me',
      participants: ['me', 'ann', 'bob'],
      split: { kind: 'exact', amounts: [{ id: 'ann', amount: 3000 }] },
      owed: [1500, 3000, 1500],
    },
    {
      name: 'exact amounts: an odd rest goes to the earlier open participant',
      cost: 1001,
      payer: 'me',
      participants: ['me', 'ann', 'bob'],
      split: { kind: 'exact', amounts: [{ id: 'ann', amount: 0 }] },
      owed: [501, 0, 500],
    },
    {
      name: 'percentages 60/40',
      cost: 4000,
      payer: 'me',
      participants: ['me', 'ann', 'bob'],
      split: {
        kind: 'percent',
        percents: [
          { id: 'me', basisPoints: 0 },
          { id: 'ann', basisPoints: 6000 },
          { id: 'bob', basisPoints: 4000 },
        ],
      },
      owed: [0, 2400, 1600],
    },
    {
      name: 'percentages with decimals: 33.33/33.33/33.34 of 100.00',
      cost: 10000,
      payer: 'me',
      participants: ['ann', 'bob', 'me'],
      split: {
        kind: 'percent',
        percents: [
          { id: 'ann', basisPoints: 3333 },
          { id: 'bob', basisPoints: 3333 },
          { id: 'me', basisPoints: 3334 },
        ],
      },
      owed: [3333, 3333, 3334],
    },
    {
      name: 'percentages: the rest of 100% is shared by those without one',
      cost: 1000,
      payer: 'me',
      participants: ['me', 'ann', 'bob'],
      split: { kind: 'percent', percents: [{ id: 'ann', basisPoints: 5000 }] },
      owed: [250, 500, 250],
    },
    {
      name: 'shares 2:1',
      cost: 4000,
      payer: 'me',
      participants: ['ann', 'bob'],
      split: {
        kind: 'shares',
        shares: [
          { id: 'ann', shares: 2 },
          { id: 'bob', shares: 1 },
        ],
      },
      owed: [2667, 1333],
      extraPayerRow: true,
    },
    {
      name: 'shares: people without a count have 1 share',
      cost: 4000,
      payer: 'me',
      participants: ['me', 'ann'],
      split: { kind: 'shares', shares: [{ id: 'ann', shares: 3 }] },
      owed: [1000, 3000],
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const rows = c.participants.map((id, i) => ({
        id,
        paid: id === c.payer ? c.cost : 0,
        owed: c.owed[i],
      }));
      if (c.extraPayerRow) rows.push({ id: c.payer, paid: c.cost, owed: 0 });
      expect(
        computeShares({
          cost: c.cost,
          payer: c.payer,
          participants: c.participants,
          split: c.split,
        }),
      ).toEqual({ shares: rows });
    });
  }

  it('gives the payer a row when they owe nothing, paid by someone else', () => {
    expect(
      computeShares({
        cost: 3000,
        payer: 'bob',
        participants: ['me', 'ann'],
        split: { kind: 'equal' },
      }),
    ).toEqual({
      shares: [
        { id: 'me', paid: 0, owed: 1500 },
        { id: 'ann', paid: 0, owed: 1500 },
        { id: 'bob', paid: 3000, owed: 0 },
      ],
    });
  });
});

describe('computeShares: refusals', () => {
  const base = { cost: 4000, payer: 'me', participants: ['me', 'ann', 'bob'] };
  const cases: Array<[string, Parameters<typeof computeShares>[0], string]> = [
    [
      'zero cost',
      { ...base, cost: 0, split: { kind: 'equal' } },
      'the cost must be more than zero',
    ],
    [
      'negative cost',
      { ...base, cost: -5, split: { kind: 'equal' } },
      'the cost must be more than zero',
    ],
    [
      'fractional cost',
      { ...base, cost: 10.5, split: { kind: 'equal' } },
      'the cost must be more than zero',
    ],
    ['nobody', { ...base, participants: [], split: { kind: 'equal' } }, 'nobody to split with'],
    [
      'duplicate participant',
      { ...base, participants: ['ann', 'ann'], split: { kind: 'equal' } },
      'someone is listed twice among the participants',
    ],
    [
      'exact over the cost',
      { ...base, split: { kind: 'exact', amounts: [{ id: 'ann', amount: 4001 }] } },
      'the amounts add up to more than the cost',
    ],
    [
      'exact short with nobody to take the rest',
      {
        ...base,
        participants: ['ann', 'bob'],
        split: {
          kind: 'exact',
          amounts: [
            { id: 'ann', amount: 2500 },
            { id: 'bob', amount: 1000 },
          ],
        },
      },
      'the amounts add up to less than the cost',
    ],
    [
      'negative exact amount',
      { ...base, split: { kind: 'exact', amounts: [{ id: 'ann', amount: -1 }] } },
      'each amount must be zero or more',
    ],
    [
      'a value for someone not taking part',
      { ...base, split: { kind: 'exact', amounts: [{ id: 'zed', amount: 1 }] } },
      'zed has a value but is not one of the participants',
    ],
    [
      'two values for one person',
      {
        ...base,
        split: {
          kind: 'shares',
          shares: [
            { id: 'ann', shares: 1 },
            { id: 'ann', shares: 2 },
          ],
        },
      },
      'ann has two values',
    ],
    [
      'percent over 100',
      { ...base, split: { kind: 'percent', percents: [{ id: 'ann', basisPoints: 10001 }] } },
      'the percentages add up to 100.01%, over 100%',
    ],
    [
      'percent under 100 with nobody open',
      {
        ...base,
        participants: ['ann', 'bob'],
        split: {
          kind: 'percent',
          percents: [
            { id: 'ann', basisPoints: 3333 },
            { id: 'bob', basisPoints: 3333 },
          ],
        },
      },
      'the percentages add up to 66.66%, not 100%',
    ],
    [
      'zero shares',
      { ...base, split: { kind: 'shares', shares: [{ id: 'ann', shares: 0 }] } },
      'shares must be whole numbers of 1 or more',
    ],
    [
      'fractional shares',
      { ...base, split: { kind: 'shares', shares: [{ id: 'ann', shares: 1.5 }] } },
      'shares must be whole numbers of 1 or more',
    ],
  ];
  for (const [name, input, error] of cases) {
    it(name, () => expect(computeShares(input)).toEqual({ error }));
  }
});

describe('computeShares: the owed column always adds up to the cost', () => {
  // A small deterministic generator, so that a failure names a reproducible case.
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };

  it('for equal, exact, percent and shares splits over thousands of random inputs', () => {
    for (let round = 0; round < 4000; round++) {
      const count = 1 + random(9);
      const participants = Array.from({ length: count }, (_, i) => `U${i}`);
      const cost = 1 + random(random(2) === 0 ? 100 : 10_000_000);
      const payer = random(3) === 0 ? 'OUTSIDER' : participants[random(count)]!;
      const valued = participants.filter(() => random(2) === 0);
      const kind = (['equal', 'exact', 'percent', 'shares'] as const)[round % 4]!;
      let split: Split;
      if (kind === 'equal') split = { kind };
      else if (kind === 'exact') {
        let left = cost;
        split = {
          kind,
          amounts: valued.map((id) => {
            const amount = random(left + 1);
            left -= amount;
            return { id, amount };
          }),
        };
      } else if (kind === 'percent') {
        let left = 10_000;
        split = {
          kind,
          percents: valued.map((id) => {
            const basisPoints = random(left + 1);
            left -= basisPoints;
            return { id, basisPoints };
          }),
        };
      } else split = { kind, shares: valued.map((id) => ({ id, shares: 1 + random(7) })) };
      const result = computeShares({ cost, payer, participants, split });
      if ('error' in result) {
        // Only a fully valued split that misses the cost (or 100%) may be refused.
        expect(valued.length).toBe(count);
        expect(['exact', 'percent']).toContain(kind);
        continue;
      }
      const owed = result.shares.reduce((sum, r) => sum + r.owed, 0);
      const paid = result.shares.reduce((sum, r) => sum + r.paid, 0);
      expect(owed).toBe(cost);
      expect(paid).toBe(cost);
      expect(result.shares.every((r) => Number.isSafeInteger(r.owed) && r.owed >= 0)).toBe(true);
      expect(result.shares.filter((r) => r.paid > 0).map((r) => r.id)).toEqual([payer]);
      if (kind === 'equal') {
        const values = result.shares.filter((r) => participants.includes(r.id)).map((r) => r.owed);
        expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
      }
      if (kind === 'exact' && split.kind === 'exact') {
        for (const { id, amount } of split.amounts) {
          expect(result.shares.find((r) => r.id === id)?.owed).toBe(amount);
        }
      }
    }
  });
});

describe('formatPercent', () => {
  it('writes basis points as people read percentages', () => {
    expect([10_000, 3333, 6000, 3350, 5].map(formatPercent)).toEqual([
      '100%',
      '33.33%',
      '60%',
      '33.5%',
      '0.05%',
    ]);
  });
});
