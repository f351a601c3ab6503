/**
 * The examples of `/split help` in each language run as tests: typed by a reader of that
 * language, each parses to what its line says (the line's sentence is the same in every
 * language, from the catalogues; the example is each language's own). The dates the help lists
 * among its words parse as dates too.
 */
import { describe, expect, it } from 'vitest';
import {
  GRAMMAR_LANGUAGES,
  type GrammarLanguage,
  HELP_TOPICS,
  type HelpLineId,
  helpFor,
  ME,
  type ParseResult,
  parseCommand,
} from '../../../src/core/command/index.js';
import { asTyped } from './helpers.js';

const TODAY = '2026-11-21';
const LOCALES: Record<GrammarLanguage, string> = {
  en: 'en-US',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
  pt: 'pt-BR',
};

type Expense = Extract<ParseResult, { kind: 'expense' }>['expense'];
const ANN = 'U0ANN';
const BOB = 'U0BOB';

function expenseOf(result: ParseResult): Expense {
  expect(result.kind, JSON.stringify(result)).toBe('expense');
  return (result as { expense: Expense }).expense;
}

/** What each line says its example does, checked on the parse. */
const SAYS: Record<HelpLineId, (result: ParseResult) => void> = {
  basic: (r) => {
    const e = expenseOf(r);
    expect([e.cost, e.participants, e.split.kind, e.payer]).toEqual([4000, [ME, ANN], 'equal', ME]);
    expect(e.description).not.toBe('');
  },
  currency_date: (r) => {
    const e = expenseOf(r);
    expect(e.cost).toBe(1250);
    expect(e.currencySource).not.toBe('default');
    expect(e.date).toBe('2026-11-20');
    expect(e.participants).toEqual([ME, ANN, BOB]);
  },
  unequal: (r) => expect(expenseOf(r).split.kind).toBe('exact'),
  exact: (r) =>
    expect(expenseOf(r).split).toEqual({
      kind: 'exact',
      amounts: [
        { id: ANN, amount: 2500 },
        { id: BOB, amount: 1500 },
      ],
    }),
  percent: (r) => expect(expenseOf(r).split.kind).toBe('percent'),
  shares: (r) => expect(expenseOf(r).split.kind).toBe('shares'),
  each: (r) => expect([expenseOf(r).each, expenseOf(r).cost]).toEqual([700, 2100]),
  balance: (r) =>
    expect(r).toEqual({ kind: 'balance', mention: null, group: null, currency: null }),
  form: (r) => expect(r).toEqual({ kind: 'open_modal' }),
  paid_by: (r) => {
    const e = expenseOf(r);
    expect(e.payer).toBe(BOB);
    expect(e.participants).toEqual([ME, ANN, BOB]);
  },
  several_payers: (r) => {
    const e = expenseOf(r);
    expect(e.payers).toEqual([
      { id: ME, amount: 4000 },
      { id: BOB, amount: 2000 },
    ]);
    expect(e.participants).toContain(ANN);
  },
  sharer_after_payers: (r) => {
    const e = expenseOf(r);
    expect(e.payers?.map((p) => p.id)).toEqual([ME, BOB]);
    expect(e.participants).toContain(ANN);
  },
  except_me: (r) => expect(expenseOf(r).participants).toEqual([ANN]),
  balance_person: (r) => expect(r).toMatchObject({ kind: 'balance', mention: ANN, group: null }),
  balance_group: (r) => expect(r).toMatchObject({ kind: 'balance', mention: null }),
  list_filtered: (r) =>
    expect(r).toMatchObject({
      kind: 'list',
      mentions: [ANN],
      range: { from: '2026-11-09', to: '2026-11-15' },
    }),
  list_search: (r) => expect(r).toMatchObject({ kind: 'list', group: null, words: [] }),
  list_about: (r) =>
    expect(r).toMatchObject({ kind: 'list', range: { from: '2026-10-01', to: null } }),
  undo: (r) => expect(r.kind).toBe('undo'),
  groups: (r) => expect(r.kind).toBe('groups'),
  group_create: (r) => expect(r).toMatchObject({ kind: 'group_create', mentions: [ANN, BOB] }),
  group_add: (r) => expect(r).toMatchObject({ kind: 'group_add', mentions: ['U0CHO'] }),
  group_use: (r) => expect(r.kind).toBe('group_use'),
  in_group: (r) => {
    const e = expenseOf(r);
    expect(e.wholeGroup).toBe(true);
    expect(e.group).not.toBeNull();
  },
  group_default: (r) =>
    expect(r).toMatchObject({
      kind: 'group_default',
      action: 'set',
      split: { kind: 'percent', percents: [{ id: ME, basisPoints: 6000 }, { id: ANN }] },
    }),
  group_currency: (r) =>
    expect(r).toMatchObject({ kind: 'group_default', action: 'currency', currency: 'EUR' }),
  group_default_show: (r) => expect(r).toMatchObject({ kind: 'group_default', action: 'show' }),
  group_delete: (r) => expect(r.kind).toBe('group_delete'),
  pay: (r) =>
    expect(r).toMatchObject({
      kind: 'paid',
      payment: { direction: 'to', person: ANN, amountText: '15' },
    }),
  paid_me: (r) =>
    expect(r).toMatchObject({
      kind: 'paid',
      payment: { direction: 'from', person: ANN, amountText: '15' },
    }),
  remind: (r) => expect(r).toEqual({ kind: 'remind', mention: ANN }),
  monthly: (r) => expect(expenseOf(r).repeat).toBe('monthly'),
  every_two_weeks: (r) => expect(expenseOf(r).repeat).toBe('fortnightly'),
  sum: (r) => expect(expenseOf(r).cost).toBe(1975),
  tip_tax: (r) =>
    expect(expenseOf(r).itemised).toMatchObject({
      subtotal: 8000,
      tip: { minor: 1200, basisPoints: 1500 },
      tax: { minor: 640, basisPoints: 800 },
    }),
  tip_amount: (r) =>
    expect(expenseOf(r).itemised).toMatchObject({ tip: { minor: 1000, basisPoints: null } }),
  export: (r) => expect(r).toMatchObject({ kind: 'export', mentions: [] }),
  export_filtered: (r) =>
    expect(r).toMatchObject({
      kind: 'export',
      mentions: [ANN],
      range: { from: '2026-10-01', to: null },
    }),
  feed_on: (r) => expect(r).toEqual({ kind: 'feed', action: 'on' }),
  feed_off: (r) => expect(r).toEqual({ kind: 'feed', action: 'off' }),
  feed_status: (r) => expect(r).toEqual({ kind: 'feed', action: 'status' }),
  connect: (r) => expect(r.kind).toBe('connect'),
  whoami: (r) => expect(r.kind).toBe('whoami'),
  disconnect: (r) => expect(r.kind).toBe('disconnect'),
};

for (const language of GRAMMAR_LANGUAGES) {
  const ctx = { today: TODAY, defaultCurrency: 'EUR', locale: LOCALES[language] };
  const help = helpFor(language);
  describe(`/split help in ${language}`, () => {
    for (const line of [...help.overview, ...HELP_TOPICS.flatMap((t) => help.details[t])]) {
      it(`${line.example} (${line.id})`, () =>
        SAYS[line.id](parseCommand(asTyped(line.example), ctx)));
    }

    it('has the same lines as the English help, each with an example of its own language', () => {
      const english = helpFor('en');
      expect(help.overview.map((l) => l.id)).toEqual(english.overview.map((l) => l.id));
      for (const topic of HELP_TOPICS) {
        expect(help.details[topic].map((l) => l.id)).toEqual(
          english.details[topic].map((l) => l.id),
        );
      }
    });

    it('lists dates that parse as dates', () => {
      const dates = help.words.overview.find((w) => w.id === 'dates')!.words;
      // Every word of each is taken as the date: none is left in the description.
      for (const date of dates) {
        expect(expenseOf(parseCommand(`40 x <@U0ANN> ${date}`, ctx)).description, date).toBe('x');
      }
    });

    it('asks for each topic with a word of its own language', () => {
      for (const topic of HELP_TOPICS) {
        expect(parseCommand(`${help.helpWord} ${help.topicWords[topic]}`, ctx)).toEqual({
          kind: 'help',
          topic,
          asked: null,
        });
      }
    });
  });
}
