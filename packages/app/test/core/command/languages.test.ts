/**
 * Which words of German, French, Spanish and Brazilian Portuguese are read for whom. Words in a
 * fixed place (who paid, a price per person, a command's first word, a help topic) are read
 * whatever the reader's language; words that may stand anywhere (dates, repeats, me) only for a
 * reader of their language, so that they never take a word of another language's description.
 * Accents may be typed or left out. The grammar-<language>.test.ts files hold each language's
 * words.
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

describe('words that may stand anywhere are read only in the reader’s language', () => {
  const inLocale = (locale: string) => ({ ...ctx, locale });
  table([
    // An English reader, or one whose locale is unknown: German, French, Spanish words stay.
    [`40 Mittagessen ${ANN} gestern`, expense({ description: 'Mittagessen gestern' })],
    [`40 Mittagessen ${ANN} monatlich`, expense({ description: 'Mittagessen monatlich' })],
    [`40 lunch ${ANN} hier`, expense({ description: 'lunch hier' })],
    [`40 flights EU ${ANN}`, expense({ description: 'flights EU' })],
    [`40 lunch ${ANN} außer mir`, expense({ description: 'lunch außer mir' })],
    [
      `40 Mittagessen ${ANN} gestern`,
      expense({ description: 'Mittagessen gestern' }),
      inLocale('en-GB'),
    ],
    [`40 lunch ${ANN} yo`, expense({ description: 'lunch yo' }), inLocale('en-US')],
    // A French reader: German words stay, English ones are read.
    [`40 Essen ${ANN} gestern`, expense({ description: 'Essen gestern' }), inLocale('fr-FR')],
    [
      `40 déjeuner ${ANN} yesterday`,
      expense({ description: 'déjeuner', date: '2026-11-20' }),
      inLocale('fr-FR'),
    ],
    // A German reader: `hier` is "here"; a Portuguese one: `hoje` is today, `ayer` a word.
    [`40 Essen ${ANN} hier`, expense({ description: 'Essen hier' }), inLocale('de-AT')],
    [`40 almoço ${ANN} ayer`, expense({ description: 'almoço ayer' }), inLocale('pt-PT')],
    [`40 almoço ${ANN} hoje`, expense({ description: 'almoço' }), inLocale('pt-PT')],
  ]);
});

describe('words in a fixed place are read whatever the reader’s language', () => {
  // The context has no locale: as for a reader whose Slack profile could not be read.
  table([
    [`bezahlt von mir 40 ${BOB}`, expense({ description: '', participants: [ME, 'U0BOB'] })],
    [`40 Essen ${ANN} payé par moi`, expense({ description: 'Essen' })],
    [`7 pro Person coffee ${ANN} ${BOB}`, sevenEach],
    [`7 por persona coffee ${ANN} ${BOB}`, sevenEach],
  ]);
  for (const [text, result] of [
    ['hilfe zahler', { kind: 'help', topic: 'payers', asked: null }],
    ['ajuda lembretes', { kind: 'help', topic: 'reminders', asked: null }],
    ['help payeurs', { kind: 'help', topic: 'payers', asked: null }],
    [`rappel ${ANN}`, { kind: 'remind', mention: 'U0ANN' }],
    [
      `paguei ${ANN} 15`,
      {
        kind: 'paid',
        payment: { direction: 'to', person: 'U0ANN', amountText: '15', currency: null },
      },
    ],
  ] as const) {
    it(text, () => expect(parse(text, ctx)).toEqual(result));
  }
  it('exportieren', () => expect(parse('exportieren', ctx).kind).toBe('export'));
});
