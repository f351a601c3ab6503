/**
 * The grammar as a German reader (de-DE) types it: every word of lexicon/de.ts in a row, and what
 * the row parses to. English words keep working beside them (the English tables hold those).
 * Today is Saturday 2026-11-21.
 */
import { describe } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { grammarTables } from './grammar-tables.js';
import { ANN, BOB } from './helpers.js';

const ANN_ID = 'U0ANN';
const BOB_ID = 'U0BOB';
const de = grammarTables('de-DE', 'de');
const lunch = (extra: string) => `40 Mittagessen ${ANN} ${extra}`;

describe('German: days', () => {
  de.expenses([
    [lunch('heute'), { date: '2026-11-21', description: 'Mittagessen' }],
    [lunch('gestern'), { date: '2026-11-20', description: 'Mittagessen' }],
    [`gestern 40 Mittagessen ${ANN}`, { date: '2026-11-20', description: 'Mittagessen' }],
    [lunch('gestern.'), { date: '2026-11-20', description: 'Mittagessen' }],
    // The latest such day, today included, after `am`.
    [lunch('am Sonntag'), { date: '2026-11-15', description: 'Mittagessen' }],
    [lunch('am Montag'), { date: '2026-11-16' }],
    [lunch('am Dienstag'), { date: '2026-11-17' }],
    [lunch('am Mittwoch'), { date: '2026-11-18' }],
    [lunch('am Donnerstag'), { date: '2026-11-19' }],
    [lunch('am Freitag'), { date: '2026-11-20', description: 'Mittagessen' }],
    [lunch('am Samstag'), { date: '2026-11-21' }],
    [lunch('am Sonnabend'), { date: '2026-11-21' }],
    // The latest before today.
    [lunch('letzten Samstag'), { date: '2026-11-14', description: 'Mittagessen' }],
    [lunch('letzter Freitag'), { date: '2026-11-20' }],
    [lunch('vergangenen Montag'), { date: '2026-11-16' }],
    [lunch('vergangener Sonntag'), { date: '2026-11-15' }],
    [lunch('am letzten Freitag'), { date: '2026-11-20', description: 'Mittagessen' }],
    // A weekday alone is a word: German says `am`.
    [`40 Freitagsbier ${ANN}`, { description: 'Freitagsbier' }],
    [lunch('Freitag'), { description: 'Mittagessen Freitag' }],
  ]);
});

describe('German: day and month, day first', () => {
  de.expenses([
    [lunch('am 3.11.'), { date: '2026-11-03', description: 'Mittagessen' }],
    [lunch('am 3.11'), { date: '2026-11-03' }],
    // With its closing point it is a date anywhere; no amount is written so.
    [lunch('3.11.'), { date: '2026-11-03', description: 'Mittagessen' }],
    [lunch('am 1.2.'), { date: '2026-02-01' }],
    [lunch('3.11.2026'), { date: '2026-11-03' }],
    [lunch('3. Januar'), { date: '2026-01-03' }],
    [lunch('3. Jänner'), { date: '2026-01-03' }],
    [lunch('3. Februar'), { date: '2026-02-03' }],
    [lunch('3. März'), { date: '2026-03-03' }],
    [lunch('3 Marz'), { date: '2026-03-03' }],
    [lunch('3. April'), { date: '2026-04-03' }],
    [lunch('3. Mai'), { date: '2026-05-03' }],
    [lunch('3. Juni'), { date: '2026-06-03' }],
    [lunch('3. Juli'), { date: '2026-07-03' }],
    [lunch('3. August'), { date: '2026-08-03' }],
    [lunch('3. September'), { date: '2026-09-03' }],
    [lunch('3. Oktober'), { date: '2026-10-03' }],
    [lunch('3. November 2026'), { date: '2026-11-03', description: 'Mittagessen' }],
    // A day and month without a year is its latest: last December.
    [lunch('am 3. Dezember'), { date: '2025-12-03', description: 'Mittagessen' }],
  ]);
  // Without the point or `am`, 3.11 is an amount as anywhere.
  de.expenses([[`3.11 Kaffee ${ANN}`, { cost: 311, description: 'Kaffee' }]]);
  de.refusals([[lunch('am 31.2.'), 'no_such_date']]);
});

describe('German: repeats', () => {
  de.expenses([
    [lunch('wöchentlich'), { repeat: 'weekly', description: 'Mittagessen' }],
    [lunch('jede Woche'), { repeat: 'weekly', description: 'Mittagessen' }],
    [lunch('pro Woche'), { repeat: 'weekly' }],
    [lunch('alle zwei Wochen'), { repeat: 'fortnightly', description: 'Mittagessen' }],
    [lunch('alle 2 Wochen'), { repeat: 'fortnightly' }],
    [lunch('jede zweite Woche'), { repeat: 'fortnightly' }],
    [lunch('zweiwöchentlich'), { repeat: 'fortnightly' }],
    [lunch('vierzehntägig'), { repeat: 'fortnightly' }],
    [lunch('14-tägig'), { repeat: 'fortnightly' }],
    [lunch('alle 14 Tage'), { repeat: 'fortnightly' }],
    [lunch('alle vierzehn Tage'), { repeat: 'fortnightly' }],
    [lunch('monatlich'), { repeat: 'monthly', description: 'Mittagessen' }],
    [`1200 Miete ${ANN} jeden Monat`, { repeat: 'monthly', description: 'Miete' }],
    [`1200 je Monat Miete ${ANN}`, { repeat: 'monthly', description: 'Miete', each: null }],
    [lunch('jährlich'), { repeat: 'yearly' }],
    [lunch('jedes Jahr'), { repeat: 'yearly' }],
    [lunch('je Jahr'), { repeat: 'yearly' }],
    [
      lunch('gestern monatlich'),
      { repeat: 'monthly', date: '2026-11-20', description: 'Mittagessen' },
    ],
    // `alle` before no period is a word.
    [`40 Pizza für alle ${ANN}`, { description: 'Pizza für alle' }],
  ]);
  de.refusals([
    [lunch('jeden Tag'), 'repeat_unsupported'],
    [lunch('alle drei Tage'), 'repeat_unsupported'],
    [lunch('alle vier Wochen'), 'repeat_unsupported'],
    [lunch('alle sechs Monate'), 'repeat_unsupported'],
    [lunch('alle zwei Jahre'), 'repeat_unsupported'],
    [lunch('jedes Quartal'), 'repeat_unsupported'],
    [lunch('jede Stunde'), 'repeat_unsupported'],
    [lunch('jedes Wochenende'), 'repeat_unsupported'],
    [lunch('monatlich jährlich'), 'repeat_two'],
  ]);
});

describe('German: me, who paid and who shares', () => {
  de.expenses([
    [`40 Mittagessen ${ANN} und ich`, { participants: [ANN_ID, ME], description: 'Mittagessen' }],
    [
      `40 Mittagessen ${ANN} mir 10`,
      { split: { kind: 'exact', amounts: [{ id: ME, amount: 1000 }] } },
    ],
    [`40 Mittagessen mit mich ${ANN}`, { participants: [ME, ANN_ID] }],
    [lunch('außer mir'), { participants: [ANN_ID], description: 'Mittagessen' }],
    [lunch('ausser mir'), { participants: [ANN_ID] }],
    [lunch('ohne mich'), { participants: [ANN_ID] }],
    [lunch(`bezahlt von ${BOB}`), { payer: BOB_ID, description: 'Mittagessen' }],
    // Once refused with "Who paid?": `mir` after `bezahlt von` is me.
    [`bezahlt von mir 40 ${BOB}`, { payer: ME, cost: 4000, participants: [ME, BOB_ID] }],
    [
      `60 Abendessen ${ANN} bezahlt von mir 40 und ${BOB} 20`,
      {
        description: 'Abendessen',
        payers: [
          { id: ME, amount: 4000 },
          { id: BOB_ID, amount: 2000 },
        ],
      },
    ],
    [`7 je Kaffee ${ANN} ${BOB}`, { cost: 2100, each: 700, description: 'Kaffee' }],
    [`7 je Person Kaffee ${ANN} ${BOB}`, { cost: 2100, each: 700, description: 'Kaffee' }],
    [`7 je Kopf Kaffee ${ANN} ${BOB}`, { each: 700 }],
    [`7 pro Person Kaffee ${ANN} ${BOB}`, { each: 700, description: 'Kaffee' }],
    [`7 € pro Kopf Kaffee ${ANN} ${BOB}`, { each: 700, description: 'Kaffee' }],
    // Connecting words next to people go with them; between words they stay.
    [`40 Essen für ${ANN}`, { description: 'Essen' }],
    [`40 Essen von ${ANN}`, { description: 'Essen' }],
    [`40 Essen zwischen ${ANN} und ${BOB}`, { description: 'Essen' }],
    [`40 Fisch und Chips ${ANN}`, { description: 'Fisch und Chips' }],
    [`ich habe 40 Essen ${ANN}`, { description: 'Essen' }],
    [`bezahlt 40 Essen ${ANN}`, { description: 'Essen' }],
    [`40 Essen in WG mit ${ANN}`, { group: 'WG', description: 'Essen' }],
    // Tip and tax with a plus, or before a percentage.
    [`80 Essen ${ANN} + Trinkgeld 10%`, { cost: 8800 }],
    [`80 Essen ${ANN} MwSt 19%`, { cost: 9520 }],
    [`80 Essen ${ANN} USt 10%`, { cost: 8800 }],
    [`80 Essen ${ANN} +steuer 5`, { cost: 8500 }],
    [`80 Essen ${ANN} Steuer 5%`, { cost: 8400 }],
  ]);
  de.refusals([[`40 Essen bezahlt von Yonatan`, 'who_paid']]);
});

describe('German: commands', () => {
  de.results([
    ['saldo', { kind: 'balance' }],
    [`Kontostand ${ANN}`, { kind: 'balance', mention: ANN_ID }],
    ['liste', { kind: 'list' }],
    ['verlauf diese Woche', { kind: 'list', range: { from: '2026-11-16', to: '2026-11-21' } }],
    ['liste letzte Woche', { kind: 'list', range: { from: '2026-11-09', to: '2026-11-15' } }],
    ['liste diesen Monat', { kind: 'list', range: { from: '2026-11-01', to: '2026-11-21' } }],
    ['liste letzten Monat', { kind: 'list', range: { from: '2026-10-01', to: '2026-10-31' } }],
    ['liste gestern', { kind: 'list', range: { from: '2026-11-20', to: '2026-11-20' } }],
    ['liste am 3.11.', { kind: 'list', range: { from: '2026-11-03', to: '2026-11-03' } }],
    ['liste seit 1.11.2026', { kind: 'list', range: { from: '2026-11-01', to: null } }],
    ['liste ab 2026-11-01 bis 2026-11-10', { range: { from: '2026-11-01', to: '2026-11-10' } }],
    ['liste in WG über Taxi', { kind: 'list', group: 'WG', words: ['Taxi'] }],
    ['exportieren seit 2026-10-01', { kind: 'export', range: { from: '2026-10-01', to: null } }],
    [`erinnern ${ANN}`, { kind: 'remind', mention: ANN_ID }],
    [`erinnere ${ANN} zu zahlen`, { kind: 'remind', mention: ANN_ID }],
    ['hilfe', { kind: 'help', topic: null }],
    ['hilfe zahler', { kind: 'help', topic: 'payers' }],
    ['hilfe anteile', { kind: 'help', topic: 'shares' }],
    ['hilfe verlauf', { kind: 'help', topic: 'list' }],
    ['hilfe gruppen', { kind: 'help', topic: 'groups' }],
    ['hilfe erinnerungen', { kind: 'help', topic: 'reminders' }],
    ['hilfe wiederholen', { kind: 'help', topic: 'recurring' }],
    ['hilfe posten', { kind: 'help', topic: 'itemise' }],
    ['hilfe exportieren', { kind: 'help', topic: 'export' }],
    ['hilfe feed', { kind: 'help', topic: 'feed' }],
    ['hilfe konto', { kind: 'help', topic: 'account' }],
    // Paying back: I paid, or I was paid.
    [`zurückgezahlt ${ANN} 15`, { kind: 'paid', payment: { direction: 'to', person: ANN_ID } }],
    [`bezahlt an ${ANN} 15`, { kind: 'paid', payment: { direction: 'to' } }],
    [`gezahlt ${ANN} 15 zurück`, { kind: 'paid', payment: { direction: 'to' } }],
    [`beglichen ${ANN} 15`, { kind: 'paid', payment: { direction: 'to' } }],
    [`erhalten 15 von ${ANN}`, { kind: 'paid', payment: { direction: 'from', person: ANN_ID } }],
    [`bekommen 15 zurück von ${ANN}`, { kind: 'paid', payment: { direction: 'from' } }],
  ]);
  de.splitThis(['teile das', 'Das teilen!', 'aufteilen']);
});

describe('German words are read for German readers only where they could be a description', () => {
  // `hier` is French for yesterday: in German it is "here", and stays.
  de.expenses([[lunch('hier'), { description: 'Mittagessen hier' }]]);
});

describe('German: outside groups', () => {
  de.expenses([
    [
      lunch('ohne Gruppe'),
      { noGroup: true, group: null, participants: [ME, ANN_ID], description: 'Mittagessen' },
    ],
  ]);
});

de.coversLexicon();
