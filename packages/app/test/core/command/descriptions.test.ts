import { describe, expect, it } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { ANN, BOB, CHO, ctx, expense, parse, table } from './helpers.js';

describe('descriptions and groups', () => {
  it('keeps a very long description whole', () => {
    const long = 'dinner '.repeat(300).trim();
    expect(parse(`40 ${long} ${ANN}`, ctx)).toEqual(expense({ description: long }));
  });

  table([
    [`40 Dan's dinner, drinks ${ANN}`, expense({ description: "Dan's dinner, drinks" })],
    [`40 post-dinner ${ANN}`, expense({ description: 'post-dinner' })],
    [`40 Café 🍕 ${ANN}`, expense({ description: 'Café 🍕' })],
    [`40 ארוחת ערב ${ANN}`, expense({ description: 'ארוחת ערב' })],
    [`40 x'; DROP TABLE users; -- ${ANN}`, expense({ description: "x'; DROP TABLE users; --" })],
    [`40 "lunch in Paris" ${ANN}`, expense({ description: 'lunch in Paris' })],
    [`40 for dinner with John ${ANN}`, expense({ description: 'dinner with John' })],
    [`40 fish &amp; chips ${ANN}`, expense({ description: 'fish & chips' })],
    [`40 lunch <!date^1392734382^{date}|Feb 18> ${ANN}`, expense({ description: 'lunch Feb 18' })],
    [`40 lunch with ${ANN}.`, expense({})],
    [
      `40 lunch at Joe's with ${ANN}, ${BOB} and ${CHO}!`,
      expense({ description: "lunch at Joe's", participants: [ME, 'U0ANN', 'U0BOB', 'U0CHO'] }),
    ],
    [`40 ${ANN}`, expense({ description: '' })],
    [`KAI ADD DINNER 40 ${ANN}`, expense({ description: 'KAI ADD DINNER' })],
    [`   40    lunch    ${ANN}   `, expense({})],
    [`40 lunch in Roommates ${ANN}`, expense({ group: 'Roommates' })],
    [`40 lunch in group Trip to Rome ${ANN}`, expense({ group: 'Trip to Rome' })],
    [`40 lunch in "Trip for Two" ${ANN}`, expense({ group: 'Trip for Two' })],
    [`40 lunch ${ANN} in Roommates yesterday`, expense({ group: 'Roommates', date: '2026-11-20' })],
    [
      `40 lunch <https://example.com/menu|the menu> ${ANN}`,
      expense({ description: 'lunch the menu' }),
    ],
  ]);
});
