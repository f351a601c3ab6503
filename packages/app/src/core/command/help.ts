/**
 * `/split help` as data: the most used forms, then one topic at a time (`/split help payers`),
 * each form with an id that the Slack layer turns into a sentence in the reader's language.
 * These are the English forms; help-languages.ts has each language's. docs/split-syntax.md keeps
 * the whole grammar; every example here is tested to parse as described.
 */
import { fold, trimEnd } from './tokens.js';
import { HELP_TOPICS, type HelpTopic, type ParseResult, type Token } from './types.js';
import { ANYWHERE } from './words.js';

/** What a form of the help means, as an id (the Slack layer holds the words). */
export type HelpLineId =
  | 'basic'
  | 'currency_date'
  | 'unequal'
  | 'balance'
  | 'form'
  | 'paid_by'
  | 'several_payers'
  | 'sharer_after_payers'
  | 'except_me'
  | 'exact'
  | 'percent'
  | 'shares'
  | 'each'
  | 'balance_person'
  | 'balance_group'
  | 'list_filtered'
  | 'list_search'
  | 'list_about'
  | 'undo'
  | 'groups'
  | 'group_create'
  | 'group_add'
  | 'group_use'
  | 'in_group'
  | 'group_default'
  | 'group_currency'
  | 'group_default_show'
  | 'group_delete'
  | 'pay'
  | 'paid_me'
  | 'remind'
  | 'monthly'
  | 'every_two_weeks'
  | 'sum'
  | 'tip_tax'
  | 'tip_amount'
  | 'export'
  | 'export_filtered'
  | 'feed_on'
  | 'feed_off'
  | 'feed_status'
  | 'connect'
  | 'whoami'
  | 'disconnect';

export interface HelpLine {
  /** As typed, with `@ann`, `@bob` and `@cho` standing for people. */
  example: string;
  id: HelpLineId;
}

/** The forms most people need, shown first: `/split help` fits one screen. */
export const HELP_OVERVIEW: readonly HelpLine[] = [
  { example: '/split 40 lunch @ann', id: 'basic' },
  { example: '/split €12,50 taxi @ann @bob yesterday', id: 'currency_date' },
  { example: '/split 40 lunch @ann 25 @bob 15', id: 'unequal' },
  { example: '/split balance', id: 'balance' },
  { example: '/split', id: 'form' },
];

/** Each topic's forms, for `/split help <topic>`. */
export const HELP_DETAILS: Readonly<Record<HelpTopic, readonly HelpLine[]>> = {
  payers: [
    { example: '/split 40 lunch @ann paid by @bob', id: 'paid_by' },
    { example: '/split 60 dinner @ann paid by me 40 @bob 20', id: 'several_payers' },
    { example: '/split 60 dinner paid by me 40 @bob 20 @ann', id: 'sharer_after_payers' },
    { example: '/split 40 lunch @ann except me', id: 'except_me' },
  ],
  shares: [
    { example: '/split 40 lunch @ann 25 @bob 15', id: 'exact' },
    { example: '/split 40 lunch @ann 60% @bob 40%', id: 'percent' },
    { example: '/split 40 lunch @ann 2x @bob 1x', id: 'shares' },
    { example: '/split $7 each coffee @ann @bob', id: 'each' },
  ],
  list: [
    { example: '/split balance @ann', id: 'balance_person' },
    { example: '/split balance Roommates', id: 'balance_group' },
    { example: '/split list @ann in Roommates last week', id: 'list_filtered' },
    { example: '/split list taxi', id: 'list_search' },
    { example: '/split list about "pizza night" since 2026-10-01', id: 'list_about' },
    { example: '/split undo', id: 'undo' },
  ],
  groups: [
    { example: '/split groups', id: 'groups' },
    { example: '/split group create Roommates @ann @bob', id: 'group_create' },
    { example: '/split group add @cho Roommates', id: 'group_add' },
    { example: '/split group use Roommates', id: 'group_use' },
    { example: '/split 40 lunch in Roommates', id: 'in_group' },
    { example: '/split group default Roommates me 60% @ann 40%', id: 'group_default' },
    { example: '/split group default Roommates EUR', id: 'group_currency' },
    { example: '/split group default Roommates', id: 'group_default_show' },
    { example: '/split group delete Roommates', id: 'group_delete' },
  ],
  reminders: [
    { example: '/split paid @ann 15', id: 'pay' },
    { example: '/split @ann paid me 15', id: 'paid_me' },
    { example: '/split remind @ann', id: 'remind' },
  ],
  recurring: [
    { example: '/split 1200 rent @ann monthly', id: 'monthly' },
    { example: '/split 30 cleaning @ann every 2 weeks', id: 'every_two_weeks' },
  ],
  itemise: [
    { example: '/split 12.50+7.25 lunch @ann', id: 'sum' },
    { example: '/split 80 dinner @ann 30 @bob 25 +tip 15% +tax 8%', id: 'tip_tax' },
    { example: '/split 60 dinner @ann +tip 10', id: 'tip_amount' },
  ],
  export: [
    { example: '/split export', id: 'export' },
    { example: '/split export @ann in Roommates since 2026-10-01', id: 'export_filtered' },
  ],
  feed: [
    { example: '/split feed on', id: 'feed_on' },
    { example: '/split feed off', id: 'feed_off' },
    { example: '/split feed', id: 'feed_status' },
  ],
  account: [
    { example: '/split connect', id: 'connect' },
    { example: '/split whoami', id: 'whoami' },
    { example: '/split disconnect', id: 'disconnect' },
  ],
};

/** Words a topic is asked for by, besides its own name; typed text, so a Map. */
const TOPIC_WORDS = new Map<string, HelpTopic>([
  ...HELP_TOPICS.map((topic) => [topic, topic] as const),
  ['payer', 'payers'],
  ['paid', 'payers'],
  ['share', 'shares'],
  ['split', 'shares'],
  ['splits', 'shares'],
  ['unequal', 'shares'],
  ['percent', 'shares'],
  ['percentages', 'shares'],
  ['each', 'shares'],
  ['history', 'list'],
  ['search', 'list'],
  ['balance', 'list'],
  ['balances', 'list'],
  ['undo', 'list'],
  ['group', 'groups'],
  ['default', 'groups'],
  ['currency', 'groups'],
  ['reminder', 'reminders'],
  ['remind', 'reminders'],
  ['payment', 'reminders'],
  ['payments', 'reminders'],
  ['pay', 'reminders'],
  ['repeat', 'recurring'],
  ['repeats', 'recurring'],
  ['monthly', 'recurring'],
  ['itemize', 'itemise'],
  ['items', 'itemise'],
  ['tip', 'itemise'],
  ['tax', 'itemise'],
  ['csv', 'export'],
  ['connect', 'account'],
  ['disconnect', 'account'],
  ['whoami', 'account'],
]);

/** `help`, `help payers`, `help <something unknown>` (answered with the overview, saying so). */
export function parseHelp(rest: Token[]): Extract<ParseResult, { kind: 'help' }> {
  if (rest.length === 0) return { kind: 'help', topic: null, asked: null };
  const first = rest[0]!;
  const typed = first.t === 'word' ? fold(trimEnd(first.lower, /[?!.,:]/)) : '';
  // A topic's English names first, then its word in each language (`hilfe zahler`).
  const topic =
    rest.length === 1 ? (TOPIC_WORDS.get(typed) ?? ANYWHERE.topics.one(first)) : undefined;
  if (topic) return { kind: 'help', topic, asked: null };
  const asked = rest
    .map((t) => (t.t === 'quoted' ? t.text : t.t === 'mention' ? `@${t.label ?? t.id}` : t.raw))
    .join(' ');
  return { kind: 'help', topic: null, asked: asked.slice(0, 60) };
}
