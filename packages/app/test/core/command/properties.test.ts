import { describe, expect, it } from 'vitest';
import { resolveMe } from '../../../src/core/command/index.js';
import { computeShares } from '../../../src/core/split.js';
import { ANN, BOB, ctx, parse } from './helpers.js';

describe('never throws', () => {
  it('answers every mix of fragments with a result', () => {
    const fragments = [
      '40',
      '$',
      '€12,50',
      '1.234,56',
      ANN,
      BOB,
      '<!here>',
      '<#C1|x>',
      'paid',
      'by',
      'in',
      'on',
      'yesterday',
      'Nov',
      '3',
      '%',
      '2x',
      'me',
      'except',
      '"',
      '<',
      '>',
      '&amp;',
      '=',
      ':',
      'each',
      '0',
      '-5',
      '1e3',
      'group',
      'list',
      'balance',
      '2026-02-30',
      'only',
      'shares',
      '¥',
      '円',
      '+',
      '12+3',
      '+tip',
      'tax',
      '7++',
    ];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 3000; round++) {
      const words = Array.from(
        { length: 1 + random(8) },
        () => fragments[random(fragments.length)],
      );
      const text = words.join(random(2) === 0 ? ' ' : '');
      const result = parse(text, ctx);
      expect(typeof result.kind).toBe('string');
      if (result.kind === 'expense') {
        expect(Number.isSafeInteger(result.expense.cost) && result.expense.cost > 0).toBe(true);
        if (result.expense.wholeGroup) continue;
        // What the parser accepts, the allocation books exactly.
        const resolved = resolveMe(result.expense, 'U0ME');
        if ('problem' in resolved) continue;
        const shares = computeShares({ ...resolved, cost: resolved.cost });
        if (!('shares' in shares)) throw new Error(`${text}: ${shares.error}`);
        expect(shares.shares.reduce((sum, r) => sum + r.owed, 0)).toBe(resolved.cost);
      }
    }
  });
});

describe('parsed expenses always book exactly', () => {
  it('turns thousands of generated commands into shares that add up to the cost', () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const decimal = (minor: number) =>
      `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
    const people = ['<@U0A|a>', '<@U0B>', '<@U0C|c>', '<@U0D>', '<@U0E|e>'];
    let booked = 0;
    for (let round = 0; round < 2000; round++) {
      const cost = 1 + random(random(2) === 0 ? 1000 : 10_000_000);
      const amount = decimal(cost);
      const mentioned = people.slice(0, 1 + random(people.length));
      const kind = random(4);
      const parts = mentioned.map((m) => {
        if (kind === 0 || random(3) === 0) return m;
        if (kind === 1) return `${m} ${decimal(random(Math.floor(cost / mentioned.length) + 1))}`;
        if (kind === 2) return `${m} ${random(100 / mentioned.length)}%`;
        return `${m} ${1 + random(5)}x`;
      });
      const extras = [random(4) === 0 ? 'except me' : '', random(4) === 0 ? 'paid by <@U0P>' : ''];
      const text = `${amount} lunch ${parts.join(' ')} ${extras.join(' ')}`;
      const result = parse(text, ctx);
      if (result.kind === 'error') {
        // Only parts that cannot make the cost may be refused.
        expect(result.message).toMatch(/add up|short of|more than the cost|percentages/);
        continue;
      }
      if (result.kind !== 'expense') throw new Error(`${text}: ${result.kind}`);
      expect(result.expense.cost).toBe(cost);
      const resolved = resolveMe(result.expense, 'U0ME');
      if ('problem' in resolved) throw new Error(`${text}: ${resolved.problem.id}`);
      const shares = computeShares(resolved);
      if (!('shares' in shares)) throw new Error(`${text}: ${shares.error}`);
      expect(shares.shares.reduce((sum, r) => sum + r.owed, 0)).toBe(cost);
      expect(shares.shares.reduce((sum, r) => sum + r.paid, 0)).toBe(cost);
      booked++;
    }
    expect(booked).toBeGreaterThan(1000);
  });
});
