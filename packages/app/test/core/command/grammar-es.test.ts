/**
 * The grammar as a Spanish reader (es-ES) types it: every word of lexicon/es.ts in a row, and what
 * the row parses to. Today is Saturday 2026-11-21.
 */
import { describe } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { grammarTables } from './grammar-tables.js';
import { ANN, BOB } from './helpers.js';

const ANN_ID = 'U0ANN';
const BOB_ID = 'U0BOB';
const es = grammarTables('es-ES', 'es');
const lunch = (extra: string) => `40 almuerzo ${ANN} ${extra}`;

describe('Spanish: days', () => {
  es.expenses([
    [lunch('hoy'), { date: '2026-11-21', description: 'almuerzo' }],
    [lunch('ayer'), { date: '2026-11-20', description: 'almuerzo' }],
    [`ayer 40 almuerzo ${ANN}`, { date: '2026-11-20', description: 'almuerzo' }],
    // After `el`: the latest such day, today included.
    [lunch('el domingo'), { date: '2026-11-15', description: 'almuerzo' }],
    [lunch('el lunes'), { date: '2026-11-16' }],
    [lunch('el martes'), { date: '2026-11-17' }],
    [lunch('el miércoles'), { date: '2026-11-18' }],
    [lunch('el miercoles'), { date: '2026-11-18' }],
    [lunch('el jueves'), { date: '2026-11-19' }],
    [lunch('el viernes'), { date: '2026-11-20' }],
    [lunch('el sábado'), { date: '2026-11-21' }],
    // With `pasado`: the latest before today.
    [lunch('el sábado pasado'), { date: '2026-11-14', description: 'almuerzo' }],
    [lunch('viernes pasado'), { date: '2026-11-20', description: 'almuerzo' }],
    // A weekday alone is a word.
    [lunch('viernes'), { description: 'almuerzo viernes' }],
  ]);
});

describe('Spanish: day and month, day first', () => {
  es.expenses([
    [lunch('el 3/11'), { date: '2026-11-03', description: 'almuerzo' }],
    [lunch('el 1/2'), { date: '2026-02-01' }],
    [lunch('3/11/2026'), { date: '2026-11-03' }],
    [lunch('3 de enero'), { date: '2026-01-03', description: 'almuerzo' }],
    [lunch('3 de febrero'), { date: '2026-02-03' }],
    [lunch('3 de marzo'), { date: '2026-03-03' }],
    [lunch('3 de abril'), { date: '2026-04-03' }],
    [lunch('3 de mayo'), { date: '2026-05-03' }],
    [lunch('3 de junio'), { date: '2026-06-03' }],
    [lunch('3 de julio'), { date: '2026-07-03' }],
    [lunch('3 de agosto'), { date: '2026-08-03' }],
    [lunch('3 de septiembre'), { date: '2026-09-03' }],
    [lunch('3 de setiembre'), { date: '2026-09-03' }],
    [lunch('3 de octubre'), { date: '2026-10-03' }],
    [lunch('el 3 de noviembre de 2026'), { date: '2026-11-03', description: 'almuerzo' }],
    [lunch('3 diciembre'), { date: '2025-12-03' }],
  ]);
});

describe('Spanish: repeats', () => {
  es.expenses([
    [lunch('semanal'), { repeat: 'weekly', description: 'almuerzo' }],
    [lunch('semanalmente'), { repeat: 'weekly' }],
    [lunch('cada semana'), { repeat: 'weekly' }],
    [lunch('todas las semanas'), { repeat: 'weekly' }],
    [lunch('a la semana'), { repeat: 'weekly' }],
    [lunch('por semana'), { repeat: 'weekly' }],
    [lunch('cada dos semanas'), { repeat: 'fortnightly', description: 'almuerzo' }],
    [lunch('cada 2 semanas'), { repeat: 'fortnightly' }],
    [lunch('quincenal'), { repeat: 'fortnightly' }],
    [lunch('quincenalmente'), { repeat: 'fortnightly' }],
    [lunch('cada quincena'), { repeat: 'fortnightly' }],
    [lunch('cada quince días'), { repeat: 'fortnightly' }],
    [lunch('cada 15 días'), { repeat: 'fortnightly' }],
    [lunch('mensual'), { repeat: 'monthly', description: 'almuerzo' }],
    [lunch('mensualmente'), { repeat: 'monthly' }],
    [`1200 cada mes alquiler ${ANN}`, { repeat: 'monthly', description: 'alquiler', each: null }],
    [lunch('todos los meses'), { repeat: 'monthly' }],
    [lunch('al mes'), { repeat: 'monthly' }],
    [lunch('por mes'), { repeat: 'monthly' }],
    [lunch('anual'), { repeat: 'yearly' }],
    [lunch('anualmente'), { repeat: 'yearly' }],
    [lunch('cada año'), { repeat: 'yearly' }],
    [lunch('todos los años'), { repeat: 'yearly' }],
    [lunch('al año'), { repeat: 'yearly' }],
    [lunch('por año'), { repeat: 'yearly' }],
    [lunch('ayer mensual'), { repeat: 'monthly', date: '2026-11-20', description: 'almuerzo' }],
  ]);
  es.refusals([
    [lunch('cada día'), 'repeat_unsupported'],
    [lunch('todos los días'), 'repeat_unsupported'],
    [lunch('cada tres meses'), 'repeat_unsupported'],
    [lunch('cada cuatro semanas'), 'repeat_unsupported'],
    [lunch('cada seis meses'), 'repeat_unsupported'],
    [lunch('cada trimestre'), 'repeat_unsupported'],
    [lunch('cada hora'), 'repeat_unsupported'],
    [lunch('cada fin de semana'), 'repeat_unsupported'],
  ]);
});

describe('Spanish: me, who paid and who shares', () => {
  es.expenses([
    [`40 almuerzo ${ANN} y yo`, { participants: [ANN_ID, ME], description: 'almuerzo' }],
    [`40 almuerzo ${ANN} y mí`, { participants: [ANN_ID, ME], description: 'almuerzo' }],
    // `mi` without its accent is "my", and stays.
    [`40 mi almuerzo ${ANN}`, { participants: [ME, ANN_ID], description: 'mi almuerzo' }],
    [lunch('excepto yo'), { participants: [ANN_ID], description: 'almuerzo' }],
    [lunch('menos yo'), { participants: [ANN_ID] }],
    [lunch('salvo yo'), { participants: [ANN_ID] }],
    [lunch('sin mí'), { participants: [ANN_ID] }],
    [lunch(`pagado por ${BOB}`), { payer: BOB_ID, description: 'almuerzo' }],
    [`pagado por mí 40 ${BOB}`, { payer: ME, cost: 4000, participants: [ME, BOB_ID] }],
    [
      `60 cena ${ANN} pagado por mí 40 y ${BOB} 20`,
      {
        description: 'cena',
        payers: [
          { id: ME, amount: 4000 },
          { id: BOB_ID, amount: 2000 },
        ],
      },
    ],
    [`7 cada café ${ANN} ${BOB}`, { cost: 2100, each: 700, description: 'café' }],
    [`7 cada uno café ${ANN} ${BOB}`, { each: 700, description: 'café' }],
    [`7 cada una café ${ANN} ${BOB}`, { each: 700 }],
    [`7 cada persona café ${ANN} ${BOB}`, { each: 700 }],
    [`7 € por persona café ${ANN} ${BOB}`, { each: 700, description: 'café' }],
    [`7 por cabeza café ${ANN} ${BOB}`, { each: 700 }],
    [`40 almuerzo con ${ANN}`, { description: 'almuerzo' }],
    [`40 almuerzo para ${ANN}`, { description: 'almuerzo' }],
    [`40 almuerzo entre ${ANN} y ${BOB}`, { description: 'almuerzo' }],
    [`40 pan y queso ${ANN}`, { description: 'pan y queso' }],
    [`yo pagué 40 cena ${ANN}`, { description: 'cena' }],
    [`80 cena ${ANN} propina 10%`, { cost: 8800 }],
    [`80 cena ${ANN} IVA 10%`, { cost: 8800 }],
    [`80 cena ${ANN} impuesto 5%`, { cost: 8400 }],
  ]);
});

describe('Spanish: commands', () => {
  es.results([
    ['saldo', { kind: 'balance' }],
    [`saldos ${ANN}`, { kind: 'balance', mention: ANN_ID }],
    ['lista', { kind: 'list' }],
    ['historial esta semana', { kind: 'list', range: { from: '2026-11-16', to: '2026-11-21' } }],
    ['lista la semana pasada', { range: { from: '2026-11-09', to: '2026-11-15' } }],
    ['lista semana pasada', { range: { from: '2026-11-09', to: '2026-11-15' } }],
    ['lista este mes', { range: { from: '2026-11-01', to: '2026-11-21' } }],
    ['lista el mes pasado', { range: { from: '2026-10-01', to: '2026-10-31' } }],
    ['lista mes pasado', { range: { from: '2026-10-01', to: '2026-10-31' } }],
    ['lista ayer', { range: { from: '2026-11-20', to: '2026-11-20' } }],
    ['lista desde el 1/11 hasta el 10/11', { range: { from: '2026-11-01', to: '2026-11-10' } }],
    ['lista en Piso sobre taxi', { kind: 'list', group: 'Piso', words: ['taxi'] }],
    ['exportar desde 2026-10-01', { kind: 'export', range: { from: '2026-10-01', to: null } }],
    [`recordar ${ANN}`, { kind: 'remind', mention: ANN_ID }],
    [`recuérdale a ${ANN} que pague`, { kind: 'remind', mention: ANN_ID }],
    ['ayuda', { kind: 'help', topic: null }],
    ['ayuda pagadores', { kind: 'help', topic: 'payers' }],
    ['ayuda partes', { kind: 'help', topic: 'shares' }],
    ['ayuda historial', { kind: 'help', topic: 'list' }],
    ['ayuda grupos', { kind: 'help', topic: 'groups' }],
    ['ayuda recordatorios', { kind: 'help', topic: 'reminders' }],
    ['ayuda periódicos', { kind: 'help', topic: 'recurring' }],
    ['ayuda detalle', { kind: 'help', topic: 'itemise' }],
    ['ayuda exportar', { kind: 'help', topic: 'export' }],
    ['ayuda feed', { kind: 'help', topic: 'feed' }],
    ['ayuda cuenta', { kind: 'help', topic: 'account' }],
    [`devolví 15 a ${ANN}`, { kind: 'paid', payment: { direction: 'to', person: ANN_ID } }],
    [`yo pagué ${ANN} 15`, { kind: 'paid', payment: { direction: 'to' } }],
    [`saldé ${ANN} 15`, { kind: 'paid', payment: { direction: 'to' } }],
    [`recibí 15 de ${ANN}`, { kind: 'paid', payment: { direction: 'from', person: ANN_ID } }],
  ]);
  es.splitThis(['divide esto', 'Dividir esto!', 'reparte esto']);
});

describe('Spanish: outside groups', () => {
  es.expenses([
    [
      lunch('sin grupo'),
      { noGroup: true, group: null, participants: [ME, ANN_ID], description: 'almuerzo' },
    ],
  ]);
});

es.coversLexicon();
