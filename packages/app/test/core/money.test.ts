import { describe, expect, it } from 'vitest';
import {
  allocate,
  currencyExponent,
  formatMoney,
  MoneyError,
  parseMinor,
  readMinor,
  splitEqually,
  toDecimal,
  toWireAmount,
} from '../../src/core/money.js';

describe('parseMinor', () => {
  it('reads decimal strings exactly into minor units', () => {
    expect(parseMinor('20', 2)).toBe(2000);
    expect(parseMinor('20.5', 2)).toBe(2050);
    expect(parseMinor('0.01', 2)).toBe(1);
    expect(parseMinor('-14.20', 2)).toBe(-1420);
    expect(parseMinor('1200', 0)).toBe(1200);
    expect(parseMinor('1200.00', 0)).toBe(1200);
    expect(parseMinor('-0.00', 2)).toBe(0);
  });

  it('refuses what it would have to round or cannot read', () => {
    expect(() => parseMinor('0.001', 2)).toThrow(MoneyError);
    expect(() => parseMinor('12.5', 0)).toThrow(/no minor unit/);
    expect(() => parseMinor('1,34', 2)).toThrow(/not a decimal/);
    expect(() => parseMinor('abc', 2)).toThrow(MoneyError);
    expect(() => parseMinor('', 2)).toThrow(MoneyError);
    expect(() => parseMinor('99999999999999999999', 2)).toThrow(/too large/);
  });
});

describe('readMinor', () => {
  it('reads as parseMinor does', () => {
    expect(readMinor('20.5', 2)).toBe(2050);
    expect(readMinor('1200.00', 0)).toBe(1200);
    expect(readMinor('-0.00', 2)).toBe(0);
  });

  it('says why it cannot read, without throwing', () => {
    expect(readMinor('0.001', 2)).toBe('too_many_decimals');
    expect(readMinor('12.5', 0)).toBe('too_many_decimals');
    expect(readMinor('1,34', 2)).toBe('not_decimal');
    expect(readMinor('', 2)).toBe('not_decimal');
    expect(readMinor('99999999999999999999', 2)).toBe('too_large');
  });
});

describe('formatting', () => {
  it('writes the service wire format: minimal digits, at least one decimal', () => {
    expect(toWireAmount(2000, 2)).toBe('20.0');
    expect(toWireAmount(30, 2)).toBe('0.3');
    expect(toWireAmount(-1420, 2)).toBe('-14.2');
    expect(toWireAmount(216282, 2)).toBe('2162.82');
    expect(toWireAmount(0, 2)).toBe('0.0');
    expect(toWireAmount(1200, 0)).toBe('1200.0');
  });

  it('writes fixed decimals for requests', () => {
    expect(toDecimal(2050, 2)).toBe('20.50');
    expect(toDecimal(-5, 2)).toBe('-0.05');
    expect(toDecimal(7, 0)).toBe('7');
  });

  it('formats for people with the currency exponent', () => {
    expect(formatMoney(2050, 'USD')).toBe('$20.50');
    expect(formatMoney(120000, 'JPY')).toBe('¥120,000');
    expect(formatMoney(12345678901234, 'EUR')).toBe('€123,456,789,012.34');
  });

  it('knows which currencies have no minor unit, and caps at the wire limit', () => {
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('usd')).toBe(2);
    expect(currencyExponent('KWD')).toBe(2);
    expect(currencyExponent('BTC')).toBe(2);
  });
});

describe('allocate', () => {
  it('gives remainder units to the largest remainders, earlier first on ties', () => {
    expect(splitEqually(1000, 3)).toEqual([334, 333, 333]);
    expect(splitEqually(1, 3)).toEqual([1, 0, 0]);
    expect(splitEqually(100, 3)).toEqual([34, 33, 33]);
    expect(allocate(1000, [1, 2])).toEqual([333, 667]);
    expect(allocate(-1000, [1, 1, 1])).toEqual([-334, -333, -333]);
  });

  it('always adds up to the total', () => {
    for (let total = 0; total < 500; total += 7) {
      for (const weights of [
        [1],
        [1, 1, 1],
        [3, 5, 7],
        [0, 1],
        [33, 33, 34],
        [1, 1, 1, 1, 1, 1, 1],
      ]) {
        const parts = allocate(total, weights);
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
      }
    }
  });

  it('refuses nonsense weights', () => {
    expect(() => allocate(100, [])).toThrow(MoneyError);
    expect(() => allocate(100, [0, 0])).toThrow(/zero/);
    expect(() => allocate(100, [1.5])).toThrow(MoneyError);
    expect(() => splitEqually(100, 0)).toThrow(/nobody/);
  });
});
