/**
 * The grammar as a French reader (fr-FR) types it: every word of lexicon/fr.ts in a row, and what
 * the row parses to. Today is Saturday 2026-11-21.
 */
import { describe } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { grammarTables } from './grammar-tables.js';
import { ANN, BOB } from './helpers.js';

const ANN_ID = 'U0ANN';
const BOB_ID = 'U0BOB';
const fr = grammarTables('fr-FR', 'fr');
const lunch = (extra: string) => `40 déjeuner ${ANN} ${extra}`;

describe('French: days', () => {
  fr.expenses([
    [lunch("aujourd'hui"), { date: '2026-11-21', description: 'déjeuner' }],
    [lunch('aujourd’hui'), { date: '2026-11-21', description: 'déjeuner' }],
    [lunch('hier'), { date: '2026-11-20', description: 'déjeuner' }],
    [`hier 40 déjeuner ${ANN}`, { date: '2026-11-20', description: 'déjeuner' }],
    // A weekday alone, as French writes it, or after `le`: its latest, today included.
    [lunch('dimanche'), { date: '2026-11-15', description: 'déjeuner' }],
    [lunch('lundi'), { date: '2026-11-16' }],
    [lunch('mardi'), { date: '2026-11-17' }],
    [lunch('mercredi'), { date: '2026-11-18' }],
    [lunch('jeudi'), { date: '2026-11-19' }],
    [lunch('le vendredi'), { date: '2026-11-20', description: 'déjeuner' }],
    [lunch('samedi'), { date: '2026-11-21' }],
    // With `dernier`: the latest before today.
    [lunch('samedi dernier'), { date: '2026-11-14', description: 'déjeuner' }],
    [lunch('le vendredi dernier'), { date: '2026-11-20', description: 'déjeuner' }],
  ]);
});

describe('French: day and month, day first', () => {
  fr.expenses([
    [lunch('le 3/11'), { date: '2026-11-03', description: 'déjeuner' }],
    [lunch('le 1/2'), { date: '2026-02-01' }],
    [lunch('3/11/2026'), { date: '2026-11-03' }],
    [lunch('1er janvier'), { date: '2026-01-01' }],
    [lunch('3 février'), { date: '2026-02-03' }],
    [lunch('3 fevrier'), { date: '2026-02-03' }],
    [lunch('3 mars'), { date: '2026-03-03' }],
    [lunch('3 avril'), { date: '2026-04-03' }],
    [lunch('3 mai'), { date: '2026-05-03' }],
    [lunch('3 juin'), { date: '2026-06-03' }],
    [lunch('3 juillet'), { date: '2026-07-03' }],
    [lunch('3 août'), { date: '2026-08-03' }],
    [lunch('3 septembre'), { date: '2026-09-03' }],
    [lunch('3 octobre'), { date: '2026-10-03' }],
    [lunch('le 3 novembre 2026'), { date: '2026-11-03', description: 'déjeuner' }],
    [lunch('3 décembre'), { date: '2025-12-03', description: 'déjeuner' }],
  ]);
  // Without `le`, 3/11 is a word, as 24/7 is.
  fr.expenses([[lunch('3/11'), { description: 'déjeuner 3/11' }]]);
});

describe('French: repeats', () => {
  fr.expenses([
    [lunch('hebdomadaire'), { repeat: 'weekly', description: 'déjeuner' }],
    [lunch('hebdo'), { repeat: 'weekly' }],
    [lunch('chaque semaine'), { repeat: 'weekly' }],
    [lunch('toutes les semaines'), { repeat: 'weekly' }],
    [lunch('par semaine'), { repeat: 'weekly' }],
    [lunch('toutes les deux semaines'), { repeat: 'fortnightly', description: 'déjeuner' }],
    [lunch('toutes les 2 semaines'), { repeat: 'fortnightly' }],
    [lunch('tous les quinze jours'), { repeat: 'fortnightly' }],
    [lunch('tous les 15 jours'), { repeat: 'fortnightly' }],
    [lunch('une semaine sur deux'), { repeat: 'fortnightly' }],
    [lunch('mensuel'), { repeat: 'monthly', description: 'déjeuner' }],
    [lunch('mensuelle'), { repeat: 'monthly' }],
    [lunch('mensuellement'), { repeat: 'monthly' }],
    [lunch('chaque mois'), { repeat: 'monthly' }],
    [`1200 loyer ${ANN} tous les mois`, { repeat: 'monthly', description: 'loyer' }],
    [`1200 par mois loyer ${ANN}`, { repeat: 'monthly', description: 'loyer' }],
    [lunch('annuel'), { repeat: 'yearly' }],
    [lunch('annuelle'), { repeat: 'yearly' }],
    [lunch('annuellement'), { repeat: 'yearly' }],
    [lunch('chaque année'), { repeat: 'yearly' }],
    [lunch('toutes les années'), { repeat: 'yearly' }],
    [lunch('tous les ans'), { repeat: 'yearly' }],
    [lunch('par an'), { repeat: 'yearly' }],
    [lunch('hier mensuel'), { repeat: 'monthly', date: '2026-11-20', description: 'déjeuner' }],
    // `chaque` before no period is a word.
    [`40 un café chaque ${ANN}`, { description: 'un café chaque' }],
  ]);
  fr.refusals([
    [lunch('chaque jour'), 'repeat_unsupported'],
    [lunch('tous les jours'), 'repeat_unsupported'],
    [lunch('tous les trois mois'), 'repeat_unsupported'],
    [lunch('toutes les quatre semaines'), 'repeat_unsupported'],
    [lunch('tous les six mois'), 'repeat_unsupported'],
    [lunch('chaque trimestre'), 'repeat_unsupported'],
    [lunch('chaque heure'), 'repeat_unsupported'],
    [lunch('chaque week-end'), 'repeat_unsupported'],
  ]);
});

describe('French: me, who paid and who shares', () => {
  fr.expenses([
    [`40 déjeuner ${ANN} et moi`, { participants: [ANN_ID, ME], description: 'déjeuner' }],
    [lunch('sauf moi'), { participants: [ANN_ID], description: 'déjeuner' }],
    [lunch('sans moi'), { participants: [ANN_ID] }],
    [lunch('hormis moi'), { participants: [ANN_ID] }],
    [lunch(`payé par ${BOB}`), { payer: BOB_ID, description: 'déjeuner' }],
    [`payé par moi 40 ${BOB}`, { payer: ME, cost: 4000, participants: [ME, BOB_ID] }],
    [
      `60 dîner ${ANN} payé par moi 40 et ${BOB} 20`,
      {
        description: 'dîner',
        payers: [
          { id: ME, amount: 4000 },
          { id: BOB_ID, amount: 2000 },
        ],
      },
    ],
    [`7 chacun café ${ANN} ${BOB}`, { cost: 2100, each: 700, description: 'café' }],
    [`7 chacune café ${ANN} ${BOB}`, { each: 700 }],
    [`7 € par personne café ${ANN} ${BOB}`, { each: 700, description: 'café' }],
    [`7 par tête café ${ANN} ${BOB}`, { each: 700, description: 'café' }],
    [`40 déjeuner avec ${ANN}`, { description: 'déjeuner' }],
    [`40 déjeuner pour ${ANN}`, { description: 'déjeuner' }],
    [`40 déjeuner entre ${ANN} et ${BOB}`, { description: 'déjeuner' }],
    [`40 fromage et vin ${ANN}`, { description: 'fromage et vin' }],
    [`j'ai payé 40 déjeuner ${ANN}`, { description: 'déjeuner' }],
    [`j’ai payé 40 déjeuner ${ANN}`, { description: 'déjeuner' }],
    [`80 dîner ${ANN} pourboire 10%`, { cost: 8800 }],
    [`80 dîner ${ANN} +pourboire 10`, { cost: 9000 }],
    [`80 dîner ${ANN} TVA 20%`, { cost: 9600 }],
    [`80 dîner ${ANN} taxe 5%`, { cost: 8400 }],
  ]);
});

describe('French: commands', () => {
  fr.results([
    ['solde', { kind: 'balance' }],
    [`soldes ${ANN}`, { kind: 'balance', mention: ANN_ID }],
    ['liste', { kind: 'list' }],
    ['historique cette semaine', { kind: 'list', range: { from: '2026-11-16', to: '2026-11-21' } }],
    [
      'liste la semaine dernière',
      { kind: 'list', range: { from: '2026-11-09', to: '2026-11-15' } },
    ],
    ['liste semaine dernière', { range: { from: '2026-11-09', to: '2026-11-15' } }],
    ['liste ce mois-ci', { range: { from: '2026-11-01', to: '2026-11-21' } }],
    ['liste ce mois', { range: { from: '2026-11-01', to: '2026-11-21' } }],
    ['liste le mois dernier', { range: { from: '2026-10-01', to: '2026-10-31' } }],
    ['liste mois dernier', { range: { from: '2026-10-01', to: '2026-10-31' } }],
    ['liste hier', { range: { from: '2026-11-20', to: '2026-11-20' } }],
    ["liste depuis le 1/11 jusqu'au 10/11", { range: { from: '2026-11-01', to: '2026-11-10' } }],
    ['liste jusqu’au 10/11', { range: { from: null, to: '2026-11-10' } }],
    ['liste dans Coloc sur taxi', { kind: 'list', group: 'Coloc', words: ['taxi'] }],
    ['exporter depuis 2026-10-01', { kind: 'export', range: { from: '2026-10-01', to: null } }],
    [`rappel ${ANN}`, { kind: 'remind', mention: ANN_ID }],
    [`relancer ${ANN} de payer`, { kind: 'remind', mention: ANN_ID }],
    [`relance ${ANN}`, { kind: 'remind', mention: ANN_ID }],
    ['aide', { kind: 'help', topic: null }],
    ['aide payeurs', { kind: 'help', topic: 'payers' }],
    ['aide parts', { kind: 'help', topic: 'shares' }],
    ['aide historique', { kind: 'help', topic: 'list' }],
    ['aide groupes', { kind: 'help', topic: 'groups' }],
    ['aide rappels', { kind: 'help', topic: 'reminders' }],
    ['aide répétition', { kind: 'help', topic: 'recurring' }],
    ['aide détail', { kind: 'help', topic: 'itemise' }],
    ['aide exporter', { kind: 'help', topic: 'export' }],
    ['aide fil', { kind: 'help', topic: 'feed' }],
    ['aide compte', { kind: 'help', topic: 'account' }],
    [`remboursé ${ANN} 15`, { kind: 'paid', payment: { direction: 'to', person: ANN_ID } }],
    [`j'ai payé 15 à ${ANN}`, { kind: 'paid', payment: { direction: 'to' } }],
    [`j’ai réglé ${ANN} 15`, { kind: 'paid', payment: { direction: 'to' } }],
    [`reçu 15 de ${ANN}`, { kind: 'paid', payment: { direction: 'from', person: ANN_ID } }],
  ]);
  fr.splitThis(['partage ça', 'Partager ça !', 'partage ceci']);
});

describe('French: outside groups', () => {
  fr.expenses([
    [
      lunch('sans groupe'),
      { noGroup: true, group: null, participants: [ME, ANN_ID], description: 'déjeuner' },
    ],
  ]);
});

fr.coversLexicon();
