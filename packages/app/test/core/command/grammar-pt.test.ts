/**
 * The grammar as a Brazilian reader (pt-BR) types it: every word of lexicon/pt.ts in a row, and
 * what the row parses to. Today is Saturday 2026-11-21.
 */
import { describe } from 'vitest';
import { ME } from '../../../src/core/command/index.js';
import { grammarTables } from './grammar-tables.js';
import { ANN, BOB } from './helpers.js';

const ANN_ID = 'U0ANN';
const BOB_ID = 'U0BOB';
const pt = grammarTables('pt-BR', 'pt');
const lunch = (extra: string) => `40 almoço ${ANN} ${extra}`;

describe('Portuguese: days', () => {
  pt.expenses([
    [lunch('hoje'), { date: '2026-11-21', description: 'almoço' }],
    [lunch('ontem'), { date: '2026-11-20', description: 'almoço' }],
    [`ontem 40 almoço ${ANN}`, { date: '2026-11-20', description: 'almoço' }],
    // After `na` or `no`: the latest such day, today included.
    [lunch('no domingo'), { date: '2026-11-15', description: 'almoço' }],
    [lunch('na segunda-feira'), { date: '2026-11-16' }],
    [lunch('na segunda'), { date: '2026-11-16' }],
    [lunch('na terça-feira'), { date: '2026-11-17' }],
    [lunch('na terça'), { date: '2026-11-17' }],
    [lunch('na quarta-feira'), { date: '2026-11-18' }],
    [lunch('na quarta'), { date: '2026-11-18' }],
    [lunch('na quinta-feira'), { date: '2026-11-19' }],
    [lunch('na quinta'), { date: '2026-11-19' }],
    [lunch('na sexta-feira'), { date: '2026-11-20' }],
    [lunch('na sexta'), { date: '2026-11-20', description: 'almoço' }],
    [lunch('no sábado'), { date: '2026-11-21' }],
    // With `passada`, `passado`, `última` or `último`: the latest before today.
    [lunch('sábado passado'), { date: '2026-11-14', description: 'almoço' }],
    [lunch('sexta passada'), { date: '2026-11-20', description: 'almoço' }],
    [lunch('na sexta-feira passada'), { date: '2026-11-20', description: 'almoço' }],
    [lunch('na última sexta'), { date: '2026-11-20', description: 'almoço' }],
    [lunch('no último sábado'), { date: '2026-11-14' }],
    // Alone, `segunda` and `quinta` are "second" and "fifth": words.
    [`40 segunda parcela ${ANN}`, { description: 'segunda parcela' }],
  ]);
});

describe('Portuguese: day and month, day first', () => {
  pt.expenses([
    [lunch('em 3/11'), { date: '2026-11-03', description: 'almoço' }],
    [lunch('dia 3/11'), { date: '2026-11-03', description: 'almoço' }],
    [lunch('no dia 1/2'), { date: '2026-02-01', description: 'almoço' }],
    [lunch('3/11/2026'), { date: '2026-11-03' }],
    [lunch('3 de janeiro'), { date: '2026-01-03', description: 'almoço' }],
    [lunch('3 de fevereiro'), { date: '2026-02-03' }],
    [lunch('3 de março'), { date: '2026-03-03' }],
    [lunch('3 de abril'), { date: '2026-04-03' }],
    [lunch('3 de maio'), { date: '2026-05-03' }],
    [lunch('3 de junho'), { date: '2026-06-03' }],
    [lunch('3 de julho'), { date: '2026-07-03' }],
    [lunch('3 de agosto'), { date: '2026-08-03' }],
    [lunch('3 de setembro'), { date: '2026-09-03' }],
    [lunch('3 de outubro'), { date: '2026-10-03' }],
    [lunch('3 de novembro de 2026'), { date: '2026-11-03', description: 'almoço' }],
    [lunch('3 de dezembro'), { date: '2025-12-03' }],
  ]);
});

describe('Portuguese: repeats', () => {
  pt.expenses([
    [lunch('semanal'), { repeat: 'weekly', description: 'almoço' }],
    [lunch('semanalmente'), { repeat: 'weekly' }],
    [lunch('toda semana'), { repeat: 'weekly' }],
    [lunch('a cada semana'), { repeat: 'weekly' }],
    [lunch('todas as semanas'), { repeat: 'weekly' }],
    [lunch('por semana'), { repeat: 'weekly' }],
    [lunch('a cada duas semanas'), { repeat: 'fortnightly', description: 'almoço' }],
    [lunch('cada duas semanas'), { repeat: 'fortnightly' }],
    [lunch('a cada 2 semanas'), { repeat: 'fortnightly' }],
    [lunch('quinzenal'), { repeat: 'fortnightly' }],
    [lunch('quinzenalmente'), { repeat: 'fortnightly' }],
    [lunch('toda quinzena'), { repeat: 'fortnightly' }],
    [lunch('a cada quinze dias'), { repeat: 'fortnightly' }],
    [lunch('a cada 15 dias'), { repeat: 'fortnightly' }],
    [lunch('cada quinze dias'), { repeat: 'fortnightly' }],
    [lunch('cada 15 dias'), { repeat: 'fortnightly' }],
    [lunch('mensal'), { repeat: 'monthly', description: 'almoço' }],
    [lunch('mensalmente'), { repeat: 'monthly' }],
    [`1200 aluguel ${ANN} todo mês`, { repeat: 'monthly', description: 'aluguel' }],
    [lunch('a cada mês'), { repeat: 'monthly' }],
    [lunch('todos os meses'), { repeat: 'monthly' }],
    [`1200 cada mês aluguel ${ANN}`, { repeat: 'monthly', description: 'aluguel', each: null }],
    [lunch('ao mês'), { repeat: 'monthly' }],
    [lunch('anual'), { repeat: 'yearly' }],
    [lunch('anualmente'), { repeat: 'yearly' }],
    [lunch('todo ano'), { repeat: 'yearly' }],
    [lunch('a cada ano'), { repeat: 'yearly' }],
    [lunch('todos os anos'), { repeat: 'yearly' }],
    [lunch('por ano'), { repeat: 'yearly' }],
    [lunch('ontem mensal'), { repeat: 'monthly', date: '2026-11-20', description: 'almoço' }],
    // `todo` before no period is a word.
    [`40 pizza para todo mundo ${ANN}`, { description: 'pizza para todo mundo' }],
  ]);
  pt.refusals([
    [lunch('todo dia'), 'repeat_unsupported'],
    [lunch('todos os dias'), 'repeat_unsupported'],
    [lunch('a cada três meses'), 'repeat_unsupported'],
    [lunch('a cada quatro semanas'), 'repeat_unsupported'],
    [lunch('a cada seis meses'), 'repeat_unsupported'],
    [lunch('todo trimestre'), 'repeat_unsupported'],
    [lunch('toda hora'), 'repeat_unsupported'],
    [lunch('todo fim de semana'), 'repeat_unsupported'],
  ]);
});

describe('Portuguese: me, who paid and who shares', () => {
  pt.expenses([
    [`40 almoço ${ANN} e eu`, { participants: [ANN_ID, ME], description: 'almoço' }],
    [`40 almoço com mim ${ANN}`, { participants: [ME, ANN_ID] }],
    [lunch('exceto eu'), { participants: [ANN_ID], description: 'almoço' }],
    [lunch('menos eu'), { participants: [ANN_ID] }],
    [lunch('sem mim'), { participants: [ANN_ID] }],
    [lunch('fora eu'), { participants: [ANN_ID] }],
    [lunch(`pago por ${BOB}`), { payer: BOB_ID, description: 'almoço' }],
    [`pago por mim 40 ${BOB}`, { payer: ME, cost: 4000, participants: [ME, BOB_ID] }],
    [
      `60 jantar ${ANN} pago por mim 40 e ${BOB} 20`,
      {
        description: 'jantar',
        payers: [
          { id: ME, amount: 4000 },
          { id: BOB_ID, amount: 2000 },
        ],
      },
    ],
    [`7 cada café ${ANN} ${BOB}`, { cost: 2100, each: 700, description: 'café' }],
    [`7 cada um café ${ANN} ${BOB}`, { each: 700, description: 'café' }],
    [`7 cada uma café ${ANN} ${BOB}`, { each: 700 }],
    [`7 cada pessoa café ${ANN} ${BOB}`, { each: 700 }],
    [`R$ 7 por pessoa café ${ANN} ${BOB}`, { each: 700, currency: 'BRL', description: 'café' }],
    [`7 por cabeça café ${ANN} ${BOB}`, { each: 700 }],
    [`40 almoço com ${ANN}`, { description: 'almoço' }],
    [`40 almoço para ${ANN}`, { description: 'almoço' }],
    [`40 almoço entre ${ANN} e ${BOB}`, { description: 'almoço' }],
    [`40 arroz e feijão ${ANN}`, { description: 'arroz e feijão' }],
    [`eu paguei 40 jantar ${ANN}`, { description: 'jantar' }],
    [`80 jantar ${ANN} gorjeta 10%`, { cost: 8800 }],
    [`80 jantar ${ANN} imposto 5%`, { cost: 8400 }],
  ]);
});

describe('Portuguese: commands', () => {
  pt.results([
    ['saldo', { kind: 'balance' }],
    [`saldos ${ANN}`, { kind: 'balance', mention: ANN_ID }],
    ['lista', { kind: 'list' }],
    ['histórico esta semana', { kind: 'list', range: { from: '2026-11-16', to: '2026-11-21' } }],
    ['lista essa semana', { range: { from: '2026-11-16', to: '2026-11-21' } }],
    ['lista semana passada', { range: { from: '2026-11-09', to: '2026-11-15' } }],
    ['lista na semana passada', { range: { from: '2026-11-09', to: '2026-11-15' } }],
    ['lista este mês', { range: { from: '2026-11-01', to: '2026-11-21' } }],
    ['lista esse mês', { range: { from: '2026-11-01', to: '2026-11-21' } }],
    ['lista mês passado', { range: { from: '2026-10-01', to: '2026-10-31' } }],
    ['lista no mês passado', { range: { from: '2026-10-01', to: '2026-10-31' } }],
    ['lista ontem', { range: { from: '2026-11-20', to: '2026-11-20' } }],
    ['lista desde 1/11 até 10/11', { range: { from: '2026-11-01', to: '2026-11-10' } }],
    ['lista em Apê sobre táxi', { kind: 'list', group: 'Apê', words: ['táxi'] }],
    ['lista no Apê', { kind: 'list', group: 'Apê' }],
    ['lista na República', { kind: 'list', group: 'República' }],
    ['exportar desde 2026-10-01', { kind: 'export', range: { from: '2026-10-01', to: null } }],
    [`lembrar ${ANN}`, { kind: 'remind', mention: ANN_ID }],
    [`cobrar ${ANN} de pagar`, { kind: 'remind', mention: ANN_ID }],
    ['ajuda', { kind: 'help', topic: null }],
    ['ajuda pagadores', { kind: 'help', topic: 'payers' }],
    ['ajuda partes', { kind: 'help', topic: 'shares' }],
    ['ajuda histórico', { kind: 'help', topic: 'list' }],
    ['ajuda grupos', { kind: 'help', topic: 'groups' }],
    ['ajuda lembretes', { kind: 'help', topic: 'reminders' }],
    ['ajuda recorrentes', { kind: 'help', topic: 'recurring' }],
    ['ajuda itens', { kind: 'help', topic: 'itemise' }],
    ['ajuda exportar', { kind: 'help', topic: 'export' }],
    ['ajuda feed', { kind: 'help', topic: 'feed' }],
    ['ajuda conta', { kind: 'help', topic: 'account' }],
    [`paguei ${ANN} 15`, { kind: 'paid', payment: { direction: 'to', person: ANN_ID } }],
    [`eu devolvi 15 para ${ANN}`, { kind: 'paid', payment: { direction: 'to' } }],
    [`acertei 15 pra ${ANN}`, { kind: 'paid', payment: { direction: 'to' } }],
    [`devolvi 15 a ${ANN}`, { kind: 'paid', payment: { direction: 'to' } }],
    [`recebi 15 de ${ANN}`, { kind: 'paid', payment: { direction: 'from', person: ANN_ID } }],
  ]);
  pt.splitThis(['divide isso', 'Dividir isso!', 'divida isso', 'racha isso', 'rachar isso']);
});

describe('Portuguese: outside groups', () => {
  pt.expenses([
    [
      lunch('sem grupo'),
      { noGroup: true, group: null, participants: [ME, ANN_ID], description: 'almoço' },
    ],
  ]);
});

pt.coversLexicon();
