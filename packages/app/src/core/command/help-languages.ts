/**
 * `/split help` in each language the grammar reads: the forms written with that language's words
 * and its own examples (`/split 40 Mittagessen @ann gestern`), and the words it accepts, grouped
 * as the topics are (from lexicon/). Japanese readers get the English forms: they type the English
 * keywords. Every example here is tested to parse, in its language, to what its line says.
 */
import { HELP_DETAILS, HELP_OVERVIEW, type HelpLine, type HelpLineId } from './help.js';
import { type GrammarLanguage, LEXICONS, type Lexicon } from './lexicon/index.js';
import type { HelpTopic } from './types.js';

/** What a line of a language's words is about: the Slack layer writes its label. */
export type HelpWordsId =
  | 'dates'
  | 'commands'
  | 'split_this'
  | 'paid_by'
  | 'me'
  | 'except_me'
  | 'each'
  | 'balance'
  | 'list'
  | 'ranges'
  | 'pay'
  | 'received'
  | 'remind'
  | 'weekly'
  | 'fortnightly'
  | 'monthly'
  | 'yearly'
  | 'tip'
  | 'tax'
  | 'export';

export interface HelpWords {
  id: HelpWordsId;
  /** As a person types them. */
  words: readonly string[];
}

export interface LanguageHelp {
  overview: readonly HelpLine[];
  details: Readonly<Record<HelpTopic, readonly HelpLine[]>>;
  /** The words of the overview (`'overview'`) and of each topic. */
  words: Readonly<Record<HelpTopic | 'overview', readonly HelpWords[]>>;
  /** `/split <help> <topic>` in this language: its word for help and each topic's word. */
  helpWord: string;
  topicWords: Readonly<Record<HelpTopic, string>>;
}

/** The lines of a language, with an example for each line of the English help. */
interface Examples {
  /** Dates as this language writes them, for the overview's words. */
  dates: readonly string[];
  lines: Readonly<Record<HelpLineId, string>>;
}

/** The forms with English keywords only, around a group's name of the language. */
function englishForms(
  group: string,
): Pick<
  Examples['lines'],
  | 'undo'
  | 'groups'
  | 'group_create'
  | 'group_add'
  | 'group_use'
  | 'group_currency'
  | 'group_default_show'
  | 'group_delete'
  | 'feed_on'
  | 'feed_off'
  | 'feed_status'
  | 'connect'
  | 'whoami'
  | 'disconnect'
  | 'form'
> {
  return {
    form: '/split',
    undo: '/split undo',
    groups: '/split groups',
    group_create: `/split group create ${group} @ann @bob`,
    group_add: `/split group add @cho ${group}`,
    group_use: `/split group use ${group}`,
    group_currency: `/split group default ${group} EUR`,
    group_default_show: `/split group default ${group}`,
    group_delete: `/split group delete ${group}`,
    feed_on: '/split feed on',
    feed_off: '/split feed off',
    feed_status: '/split feed',
    connect: '/split connect',
    whoami: '/split whoami',
    disconnect: '/split disconnect',
  };
}

const EXAMPLES: Readonly<Record<Exclude<GrammarLanguage, 'en'>, Examples>> = {
  de: {
    dates: ['heute', 'gestern', 'am Freitag', 'letzten Freitag', 'am 3.12.', '3. Dezember'],
    lines: {
      ...englishForms('WG'),
      basic: '/split 40 Mittagessen @ann',
      currency_date: '/split 12,50 € Taxi @ann @bob gestern',
      unequal: '/split 40 Mittagessen @ann 25 @bob 15',
      balance: '/split saldo',
      paid_by: '/split 40 Mittagessen @ann bezahlt von @bob',
      several_payers: '/split 60 Abendessen @ann bezahlt von mir 40 @bob 20',
      sharer_after_payers: '/split 60 Abendessen bezahlt von mir 40 @bob 20 @ann',
      except_me: '/split 40 Mittagessen @ann außer mir',
      exact: '/split 40 Mittagessen @ann 25 @bob 15',
      percent: '/split 40 Mittagessen @ann 60% @bob 40%',
      shares: '/split 40 Mittagessen @ann 2x @bob 1x',
      each: '/split 7 € pro Person Kaffee @ann @bob',
      balance_person: '/split saldo @ann',
      balance_group: '/split saldo WG',
      list_filtered: '/split liste @ann in WG letzte Woche',
      list_search: '/split liste Taxi',
      list_about: '/split liste über "Pizzaabend" seit 2026-10-01',
      in_group: '/split 40 Mittagessen in WG',
      group_default: '/split group default WG ich 60% @ann 40%',
      pay: '/split zurückgezahlt @ann 15',
      paid_me: '/split erhalten 15 von @ann',
      remind: '/split erinnern @ann',
      monthly: '/split 1200 Miete @ann monatlich',
      every_two_weeks: '/split 30 Putzen @ann alle zwei Wochen',
      sum: '/split 12,50+7,25 Mittagessen @ann',
      tip_tax: '/split 80 Abendessen @ann 30 @bob 25 +trinkgeld 15% +mwst 8%',
      tip_amount: '/split 60 Abendessen @ann +trinkgeld 10',
      export: '/split exportieren',
      export_filtered: '/split exportieren @ann in WG seit 2026-10-01',
    },
  },
  fr: {
    dates: ["aujourd'hui", 'hier', 'vendredi', 'vendredi dernier', 'le 3/12', '3 décembre'],
    lines: {
      ...englishForms('Coloc'),
      basic: '/split 40 déjeuner @ann',
      currency_date: '/split 12,50 € taxi @ann @bob hier',
      unequal: '/split 40 déjeuner @ann 25 @bob 15',
      balance: '/split solde',
      paid_by: '/split 40 déjeuner @ann payé par @bob',
      several_payers: '/split 60 dîner @ann payé par moi 40 @bob 20',
      sharer_after_payers: '/split 60 dîner payé par moi 40 @bob 20 @ann',
      except_me: '/split 40 déjeuner @ann sauf moi',
      exact: '/split 40 déjeuner @ann 25 @bob 15',
      percent: '/split 40 déjeuner @ann 60% @bob 40%',
      shares: '/split 40 déjeuner @ann 2x @bob 1x',
      each: '/split 7 € chacun café @ann @bob',
      balance_person: '/split solde @ann',
      balance_group: '/split solde Coloc',
      list_filtered: '/split liste @ann dans Coloc la semaine dernière',
      list_search: '/split liste taxi',
      list_about: '/split liste sur "soirée pizza" depuis 2026-10-01',
      in_group: '/split 40 déjeuner in Coloc',
      group_default: '/split group default Coloc moi 60% @ann 40%',
      pay: '/split remboursé @ann 15',
      paid_me: '/split reçu 15 de @ann',
      remind: '/split rappel @ann',
      monthly: '/split 1200 loyer @ann mensuel',
      every_two_weeks: '/split 30 ménage @ann toutes les deux semaines',
      sum: '/split 12,50+7,25 déjeuner @ann',
      tip_tax: '/split 80 dîner @ann 30 @bob 25 +pourboire 15% +tva 8%',
      tip_amount: '/split 60 dîner @ann +pourboire 10',
      export: '/split exporter',
      export_filtered: '/split exporter @ann dans Coloc depuis 2026-10-01',
    },
  },
  es: {
    dates: ['hoy', 'ayer', 'el viernes', 'el viernes pasado', 'el 3/12', '3 de diciembre'],
    lines: {
      ...englishForms('Piso'),
      basic: '/split 40 almuerzo @ann',
      currency_date: '/split 12,50 € taxi @ann @bob ayer',
      unequal: '/split 40 almuerzo @ann 25 @bob 15',
      balance: '/split saldo',
      paid_by: '/split 40 almuerzo @ann pagado por @bob',
      several_payers: '/split 60 cena @ann pagado por mí 40 @bob 20',
      sharer_after_payers: '/split 60 cena pagado por mí 40 @bob 20 @ann',
      except_me: '/split 40 almuerzo @ann menos yo',
      exact: '/split 40 almuerzo @ann 25 @bob 15',
      percent: '/split 40 almuerzo @ann 60% @bob 40%',
      shares: '/split 40 almuerzo @ann 2x @bob 1x',
      each: '/split 7 € cada uno café @ann @bob',
      balance_person: '/split saldo @ann',
      balance_group: '/split saldo Piso',
      list_filtered: '/split lista @ann en Piso la semana pasada',
      list_search: '/split lista taxi',
      list_about: '/split lista sobre "noche de pizza" desde 2026-10-01',
      in_group: '/split 40 almuerzo in Piso',
      group_default: '/split group default Piso yo 60% @ann 40%',
      pay: '/split devolví 15 a @ann',
      paid_me: '/split recibí 15 de @ann',
      remind: '/split recordar @ann',
      monthly: '/split 1200 alquiler @ann mensual',
      every_two_weeks: '/split 30 limpieza @ann cada dos semanas',
      sum: '/split 12,50+7,25 almuerzo @ann',
      tip_tax: '/split 80 cena @ann 30 @bob 25 +propina 15% +iva 8%',
      tip_amount: '/split 60 cena @ann +propina 10',
      export: '/split exportar',
      export_filtered: '/split exportar @ann en Piso desde 2026-10-01',
    },
  },
  pt: {
    dates: ['hoje', 'ontem', 'na sexta', 'sexta passada', 'em 3/12', '3 de dezembro'],
    lines: {
      ...englishForms('Apê'),
      basic: '/split 40 almoço @ann',
      currency_date: '/split R$ 12,50 táxi @ann @bob ontem',
      unequal: '/split 40 almoço @ann 25 @bob 15',
      balance: '/split saldo',
      paid_by: '/split 40 almoço @ann pago por @bob',
      several_payers: '/split 60 jantar @ann pago por mim 40 @bob 20',
      sharer_after_payers: '/split 60 jantar pago por mim 40 @bob 20 @ann',
      except_me: '/split 40 almoço @ann menos eu',
      exact: '/split 40 almoço @ann 25 @bob 15',
      percent: '/split 40 almoço @ann 60% @bob 40%',
      shares: '/split 40 almoço @ann 2x @bob 1x',
      each: '/split 7 cada um café @ann @bob',
      balance_person: '/split saldo @ann',
      balance_group: '/split saldo Apê',
      list_filtered: '/split lista @ann no Apê semana passada',
      list_search: '/split lista táxi',
      list_about: '/split lista sobre "noite da pizza" desde 2026-10-01',
      in_group: '/split 40 almoço in Apê',
      group_default: '/split group default Apê eu 60% @ann 40%',
      pay: '/split paguei @ann 15',
      paid_me: '/split recebi 15 de @ann',
      remind: '/split lembrar @ann',
      monthly: '/split 1200 aluguel @ann mensal',
      every_two_weeks: '/split 30 faxina @ann a cada duas semanas',
      sum: '/split 12,50+7,25 almoço @ann',
      tip_tax: '/split 80 jantar @ann 30 @bob 25 +gorjeta 15% +imposto 8%',
      tip_amount: '/split 60 jantar @ann +gorjeta 10',
      export: '/split exportar',
      export_filtered: '/split exportar @ann no Apê desde 2026-10-01',
    },
  },
};

const ENGLISH_DATES = ['today', 'yesterday', 'on friday', 'last friday', 'Nov 3', '2026-11-20'];

/** The words of a language, grouped as the help's topics are. */
function wordsOf(
  l: Lexicon,
  dates: readonly string[],
): Record<HelpTopic | 'overview', HelpWords[]> {
  return {
    overview: [
      { id: 'dates', words: dates },
      {
        id: 'commands',
        words: [l.balance[0]!, l.list[0]!, l.export[0]!, l.remind[0]!, l.help[0]!],
      },
      { id: 'split_this', words: l.splitThis },
    ],
    payers: [
      { id: 'paid_by', words: l.paidBy },
      { id: 'me', words: l.me },
      { id: 'except_me', words: l.exceptMe },
    ],
    shares: [{ id: 'each', words: l.each }],
    list: [
      { id: 'balance', words: l.balance },
      { id: 'list', words: l.list },
      {
        id: 'ranges',
        words: [
          ...l.thisWeek,
          ...l.lastWeek,
          ...l.thisMonth,
          ...l.lastMonth,
          ...l.since,
          ...l.until,
        ],
      },
    ],
    groups: [],
    reminders: [
      { id: 'pay', words: l.pay },
      { id: 'received', words: l.received },
      { id: 'remind', words: l.remind },
    ],
    recurring: [
      { id: 'weekly', words: l.repeats.weekly },
      { id: 'fortnightly', words: l.repeats.fortnightly },
      { id: 'monthly', words: l.repeats.monthly },
      { id: 'yearly', words: l.repeats.yearly },
    ],
    itemise: [
      { id: 'tip', words: l.tip },
      { id: 'tax', words: l.tax },
    ],
    export: [{ id: 'export', words: l.export }],
    feed: [],
    account: [],
  };
}

/** The lines of `ids`, each with this language's example. */
function linesOf(lines: Examples['lines'], ids: readonly HelpLine[]): HelpLine[] {
  return ids.map(({ id }) => ({ id, example: lines[id] }));
}

function build(language: GrammarLanguage): LanguageHelp {
  const lexicon = LEXICONS[language];
  const base = { helpWord: lexicon.help[0]!, topicWords: lexicon.topics };
  if (language === 'en') {
    return {
      ...base,
      overview: HELP_OVERVIEW,
      details: HELP_DETAILS,
      words: wordsOf(lexicon, ENGLISH_DATES),
    };
  }
  const { lines, dates } = EXAMPLES[language];
  const details = Object.fromEntries(
    (Object.entries(HELP_DETAILS) as Array<[HelpTopic, readonly HelpLine[]]>).map(
      ([topic, english]) => [topic, linesOf(lines, english)],
    ),
  ) as Record<HelpTopic, HelpLine[]>;
  return {
    ...base,
    overview: linesOf(lines, HELP_OVERVIEW),
    details,
    words: wordsOf(lexicon, dates),
  };
}

const HELP = new Map<GrammarLanguage, LanguageHelp>();

/** The help of a language, built once. */
export function helpFor(language: GrammarLanguage): LanguageHelp {
  let help = HELP.get(language);
  if (!help) {
    help = build(language);
    HELP.set(language, help);
  }
  return help;
}
