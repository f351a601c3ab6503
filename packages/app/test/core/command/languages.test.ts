/**
 * The keywords of German, French, Spanish and Brazilian Portuguese, beside the English ones:
 * who paid, a price per person, and balance, list and help. Accents may be typed or left out.
 */
import { describe, expect, it } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { ANN, BOB, CHO, ctx, errors, expense, parse, table } from './helpers.js';

/** `40 <description> @ann <payer phrase> @bob`, booked with Bob as the payer. */
function paidByBob(description: string) {
  return expense({ description, participants: [ME, 'U0ANN', 'U0BOB'], payer: 'U0BOB' });
}

/** `7 <per person> coffee @ann @bob`: 7 each for three people. */
const sevenEach = expense({
  cost: 2100,
  amountText: '7 each',
  each: 700,
  description: 'coffee',
  participants: [ME, 'U0ANN', 'U0BOB'],
});

describe('who paid, in each language', () => {
  table([
    [`40 Mittagessen ${ANN} bezahlt von ${BOB}`, paidByBob('Mittagessen')],
    [`40 déjeuner ${ANN} payé par ${BOB}`, paidByBob('déjeuner')],
    [`40 dejeuner ${ANN} paye par ${BOB}`, paidByBob('dejeuner')],
    [`40 déjeuner ${ANN} PAYÉ PAR ${BOB}`, paidByBob('déjeuner')],
    // The accent typed as a letter and a combining mark, as some keyboards send it.
    [`40 déjeuner ${ANN} paye\u0301 par ${BOB}`, paidByBob('déjeuner')],
    [`40 almuerzo ${ANN} pagado por ${BOB}`, paidByBob('almuerzo')],
    [`40 almoço ${ANN} pago por ${BOB}`, paidByBob('almoço')],
    [`40 almoço ${ANN} pago por: ${BOB}`, paidByBob('almoço')],
    [`40 lunch ${ANN} paid by: ${BOB}`, paidByBob('lunch')],
    [
      `60 Abendessen ${CHO} bezahlt von me 40 ${BOB} 20`,
      expense({
        cost: 6000,
        amountText: '60',
        description: 'Abendessen',
        participants: [ME, 'U0CHO', 'U0BOB'],
        payers: [
          { id: ME, amount: 4000 },
          { id: 'U0BOB', amount: 2000 },
        ],
      }),
    ],
    // Each word alone is no payer phrase: it stays in the description.
    [`40 pago ${ANN}`, expense({ description: 'pago' })],
    [`40 bezahlt ${ANN}`, expense({ description: 'bezahlt' })],
  ]);
  errors([
    [
      '40 Essen bezahlt von Yonatan',
      'Who paid? After "bezahlt von", mention the person with @.',
      '/split 40 lunch @ann paid by @bob',
    ],
    [
      '40 lunch payé par yonatan',
      'Who paid? After "payé par", mention the person with @.',
      '/split 40 lunch @ann paid by @bob',
    ],
  ]);
});

describe('a price per person, in each language', () => {
  table([
    [`7 je coffee ${ANN} ${BOB}`, sevenEach],
    [`7 je Person coffee ${ANN} ${BOB}`, sevenEach],
    [`7 chacun coffee ${ANN} ${BOB}`, sevenEach],
    [`7 chacune coffee ${ANN} ${BOB}`, sevenEach],
    [`7 cada coffee ${ANN} ${BOB}`, sevenEach],
    [`7 cada uno coffee ${ANN} ${BOB}`, sevenEach],
    [`7 cada um coffee ${ANN} ${BOB}`, sevenEach],
    [`7 CADA coffee ${ANN} ${BOB}`, sevenEach],
    // Only right after the cost, as `each` is.
    [
      `7 coffee cada ${ANN} ${BOB}`,
      expense({
        cost: 700,
        amountText: '7',
        description: 'coffee cada',
        participants: [ME, 'U0ANN', 'U0BOB'],
      }),
    ],
    // A period after the word says how often, not for whom.
    [
      `1200 cada mes alquiler ${ANN}`,
      expense({ cost: 120000, amountText: '1200', description: 'cada mes alquiler' }),
    ],
    [
      `1200 je Monat Miete ${ANN}`,
      expense({ cost: 120000, amountText: '1200', description: 'je Monat Miete' }),
    ],
    [
      `1200 cada mês aluguel ${ANN}`,
      expense({ cost: 120000, amountText: '1200', description: 'cada mês aluguel' }),
    ],
  ]);
});

describe('balance, list and help, in each language', () => {
  const balance = { kind: 'balance', mention: null, group: null, currency: null };
  const list = {
    kind: 'list',
    mentions: [],
    group: null,
    loose: null,
    range: { from: null, to: null },
    words: [],
  };
  for (const [text, result] of [
    ['saldo', balance],
    ['Kontostand', balance],
    ['solde', balance],
    [`saldo ${ANN}`, { ...balance, mention: 'U0ANN' }],
    ['solde Roommates', { ...balance, group: 'Roommates' }],
    ['liste', list],
    ['lista', list],
    [`liste ${ANN}`, { ...list, mentions: ['U0ANN'] }],
    ['lista in Roommates', { ...list, group: 'Roommates' }],
    ['hilfe', { kind: 'help', topic: null, asked: null }],
    ['aide', { kind: 'help', topic: null, asked: null }],
    ['ayuda', { kind: 'help', topic: null, asked: null }],
    ['ajuda', { kind: 'help', topic: null, asked: null }],
    ['Ajuda?', { kind: 'help', topic: null, asked: null }],
  ] as const) {
    it(text, () => expect(parse(text, ctx)).toEqual(result));
  }

  // `aide` is also an English word: a word for help counts only on its own.
  table([[`aide 40 ${ANN}`, expense({ description: 'aide' })]]);
});
