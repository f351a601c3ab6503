import { describe, expect, it } from 'vitest';
import { Lru } from '../../src/core/lru.js';

describe('Lru', () => {
  it('never holds more than its capacity, however many distinct keys come', () => {
    const lru = new Lru<string, number>(100);
    for (let i = 0; i < 20_000; i++) lru.set(`de-x-${i}`, i);
    expect(lru.size).toBe(100);
    expect(lru.get('de-x-19999')).toBe(19_999);
    expect(lru.get('de-x-19899')).toBeUndefined();
  });

  it('forgets the least recently used entry, counting reads as uses', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1).set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.has('a')).toBe(true);
    expect(lru.has('b')).toBe(false);
    expect(lru.has('c')).toBe(true);
  });

  it('keeps a key read between every insert of a stream of new ones', () => {
    for (const capacity of [2, 3, 10, 101]) {
      const lru = new Lru<string, number>(capacity);
      lru.set('hot', 0);
      for (let i = 0; i < 5_000; i++) {
        lru.set(`cold-${i}`, i);
        expect(lru.get('hot')).toBe(0);
      }
      expect(lru.size).toBe(capacity);
    }
  });

  it('evicts entries in the order they were last used, once a use is half the capacity old', () => {
    const lru = new Lru<string, number>(4);
    lru.set('a', 1).set('b', 2).set('c', 3).set('d', 4);
    expect(lru.get('a')).toBe(1);
    expect(lru.get('b')).toBe(2);
    lru.set('e', 5).set('f', 6);
    expect([...['a', 'b', 'c', 'd', 'e', 'f']].filter((k) => lru.has(k))).toEqual([
      'a',
      'b',
      'e',
      'f',
    ]);
  });

  it('replaces a key in place without evicting another', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1).set('b', 2).set('a', 3);
    expect(lru.size).toBe(2);
    expect(lru.get('a')).toBe(3);
    expect(lru.get('b')).toBe(2);
  });

  it('makes a missing value once, and keeps a null as an answer', () => {
    const lru = new Lru<string, string | null>(4);
    let made = 0;
    const make = (key: string) => {
      made++;
      return key === 'bad' ? null : key.toUpperCase();
    };
    expect(lru.getOrMake('eur', make)).toBe('EUR');
    expect(lru.getOrMake('eur', make)).toBe('EUR');
    expect(lru.getOrMake('bad', make)).toBeNull();
    expect(lru.getOrMake('bad', make)).toBeNull();
    expect(made).toBe(2);
    expect(lru.delete('eur')).toBe(true);
    expect(lru.getOrMake('eur', make)).toBe('EUR');
    expect(made).toBe(3);
  });

  it('refuses a capacity that could not hold an entry', () => {
    expect(() => new Lru(0)).toThrow(RangeError);
    expect(() => new Lru(1.5)).toThrow(RangeError);
  });
});
