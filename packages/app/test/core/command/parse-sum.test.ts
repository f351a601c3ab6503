import { describe, expect, it } from 'vitest';
import { parseSum } from '../../../src/core/command/index.js';
import { readAmount } from './helpers.js';

describe('parseSum (a form field holding an amount or a sum of items)', () => {
  it.each([
    ['12.50', 'USD', { minor: 1250, currency: 'USD' }],
    ['12.50+7.25', 'USD', { minor: 1975, currency: 'USD' }],
    ['12,50 + 7,25', 'EUR', { minor: 1975, currency: 'EUR' }],
    ['€12+3', 'USD', { minor: 1500, currency: 'EUR' }],
    ['12+3 JPY', 'USD', { minor: 15, currency: 'JPY' }],
    ['12 EUR + 3', 'USD', { minor: 1500, currency: 'EUR' }],
    ['EUR 12 + 3', 'USD', { minor: 1500, currency: 'EUR' }],
    ['0', 'USD', { minor: 0, currency: 'USD' }],
  ])('reads %s in %s', (text, currency, expected) => {
    expect(readAmount(parseSum(text, currency))).toEqual(expected);
  });

  it.each([
    ['', 'Type an amount, like 12.50 or 12.50+7.25.'],
    ['12++3', '"12++3" has two + in a row: put one + between items.'],
    ['12+', '"12+" ends with a +: add the next item after it, or take the + off.'],
    ['+5', '"+5" starts with a +: an amount has no sign.'],
    ['-5', 'The amount can\'t be negative ("-5").'],
    ['12 lunch', 'I can\'t read "12 lunch" as an amount: type numbers, like 12.50+7.25.'],
    ['0.001+1', 'USD has at most 2 decimals: "0.001" has more.'],
    ['€12+$3', 'One currency per amount, please: "€12+$3" has EUR and USD.'],
  ])('refuses %j', (text, error) => {
    const unreadable = text === '12 lunch' ? { unreadable: true } : {};
    expect(readAmount(parseSum(text, 'USD'))).toEqual({ error, ...unreadable });
  });
});
