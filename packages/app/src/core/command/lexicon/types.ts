/** What each list of a language's words is for; lexicon/index.ts says how they are read. */
import type { HelpTopic, Repeat } from '../types.js';

/** The languages whose words the grammar reads; Japanese readers type the English words. */
export const GRAMMAR_LANGUAGES = ['en', 'de', 'fr', 'es', 'pt'] as const;
export type GrammarLanguage = (typeof GRAMMAR_LANGUAGES)[number];

export interface Lexicon {
  // Dates: read anywhere, in this language.
  today: readonly string[];
  yesterday: readonly string[];
  /** The names of each day, Sunday first (index = Date#getDay()). */
  weekdays: readonly (readonly string[])[];
  /** Before a weekday (its latest, today included) or a day and month (`am 3.12.`). */
  on: readonly string[];
  /** A weekday needs no word before it (French: `dîner vendredi`). */
  weekdayAlone: boolean;
  /** Before a weekday: its latest before today (`letzten Freitag`). */
  lastBefore: readonly string[];
  /** After a weekday: its latest before today (`vendredi dernier`). */
  lastAfter: readonly string[];
  /** The names of each month, January first. */
  months: readonly (readonly string[])[];
  /** Between a day and its month (`3rd of November`, `3 de diciembre`). */
  dayOfMonth: readonly string[];
  // Repeats: read anywhere, in this language.
  /** Words and fixed phrases for each repeat (`monatlich`, `tous les quinze jours`). */
  repeats: Readonly<Record<Repeat, readonly string[]>>;
  /** Before a period: it repeats (`jeden Monat`, `toutes les semaines`). */
  every: readonly string[];
  /** Before a period: a repeat (`pro Monat`), but before another period a rate (`pro Tag`). */
  per: readonly string[];
  /** Periods after `every` or `per`, as forms of a repeat. */
  periods: ReadonlyArray<readonly [string, Repeat]>;
  /** Between `every` and the weeks, for every two weeks (`alle zwei Wochen`). */
  two: readonly string[];
  /** Weeks after `two`. */
  weeks: readonly string[];
  /** Periods the service cannot repeat: refused after `every` (`jeden Tag`). */
  otherPeriods: readonly string[];
  /** Counts refused before a period after `every` (`alle drei Monate`). */
  counts: readonly string[];
  // People: read anywhere, in this language.
  /** Me among the people who share (`@ann und ich`) or pay (`bezahlt von mir`). */
  me: readonly string[];
  /** Me left out (`außer mir`). */
  exceptMe: readonly string[];
  /** Booked outside any group, even in a channel bound to one (`ohne Gruppe`). */
  noGroup: readonly string[];
  /** Small words that go with the people or amount next to them, never into the description. */
  connectors: readonly string[];
  /** `and` between two payers of a list (`bezahlt von mir 40 und @bob 20`). */
  and: readonly string[];
  /** Words dropped from the start of a description (`I paid 40 lunch`). */
  fillers: readonly string[];
  // In a fixed place, read in every language.
  /** Who paid, before the person (`bezahlt von @bob`). */
  paidBy: readonly string[];
  /** A price per person, right after the cost (`7 je Person`). */
  each: readonly string[];
  /** First words. */
  balance: readonly string[];
  list: readonly string[];
  export: readonly string[];
  remind: readonly string[];
  help: readonly string[];
  /** First words of a payment I made (`zurückgezahlt @ann 15`), after an optional `I`. */
  pay: readonly string[];
  /** First words of a payment I received (`erhalten 15 von @ann`). */
  received: readonly string[];
  /** `I` before a payment's first word (`I paid @ann 15`, `j'ai payé @ann 15`). */
  payI: readonly string[];
  /** Small words a payment I made may hold besides the person and the amount (`to`, `back`). */
  payTo: readonly string[];
  /** Small words a payment I received may hold (`from`). */
  payFrom: readonly string[];
  /** `remind @ann to pay`: small words a reminder may hold. */
  remindWords: readonly string[];
  /** Tip and tax, with a `+` or before a percentage (`+trinkgeld 10`, `mwst 19%`). */
  tip: readonly string[];
  tax: readonly string[];
  // In a list or export, in this language: ranges, bounds, a group and search words.
  thisWeek: readonly string[];
  lastWeek: readonly string[];
  thisMonth: readonly string[];
  lastMonth: readonly string[];
  since: readonly string[];
  until: readonly string[];
  listGroup: readonly string[];
  listAbout: readonly string[];
  /** A word for each topic of `/split help <topic>`. */
  topics: Readonly<Record<HelpTopic, string>>;
  /** Said to the app in a thread, the whole message: book the thread's first message. */
  splitThis: readonly string[];
}
