/**
 * The words of lexicon/ made ready for reading: phrases looked up by their first word, in Maps
 * (typed text is the key), compared in lower case, without accents and without the punctuation
 * that closes a word (`gestern.`, `mir,`). Each lookup tries the few phrases that start with the
 * word at hand, of at most a few words each: reading stays linear in the text.
 */
import {
  GRAMMAR_LANGUAGES,
  type GrammarLanguage,
  grammarLanguageOf,
  LEXICONS,
  type Lexicon,
  SPLIT_THIS_JA,
} from './lexicon/index.js';
import { fold, trimEnd } from './tokens.js';
import type { HelpTopic, ParseContext, Repeat, Token } from './types.js';

/**
 * Words whose accent is their meaning: Spanish `mí` is me, while `mi` is "my" and starts many a
 * description (`mi almuerzo`). Such a word matches only as written, accent included.
 */
const ACCENT_KEPT = new Set(['mí']);

const CLOSING = /[,;.!?:]/;

/** A typed word as keywords are compared, worked out once when it was read (tokens.ts). */
export function keyOf(token: Token | undefined): string | null {
  return token?.t === 'word' ? token.key : null;
}

interface WordOfPhrase {
  key: string;
  /** Set for a word of ACCENT_KEPT: the form the typed word must have, accents and all. */
  exact: string | null;
}

function wordsOf(phrase: string): WordOfPhrase[] {
  return phrase
    .toLowerCase()
    .split(' ')
    .map((word) => ({
      key: fold(word),
      exact: ACCENT_KEPT.has(word) ? word.normalize('NFC') : null,
    }));
}

function matches(token: Token | undefined, word: WordOfPhrase): boolean {
  if (keyOf(token) !== word.key) return false;
  return (
    word.exact === null ||
    trimEnd((token as { lower: string }).lower, CLOSING).normalize('NFC') === word.exact
  );
}

/** Phrases of one or more words, each with a meaning. */
export class Phrases<T> {
  private readonly byFirst = new Map<string, Array<{ words: WordOfPhrase[]; value: T }>>();

  constructor(entries: Iterable<readonly [string, T]>) {
    for (const [phrase, value] of entries) {
      const words = wordsOf(phrase);
      const first = words[0]!.key;
      const list = this.byFirst.get(first) ?? [];
      list.push({ words, value });
      // The longest first: `no dia` before `no`, `per person` before `per`.
      list.sort((a, b) => b.words.length - a.words.length);
      this.byFirst.set(first, list);
    }
  }

  /** The longest phrase starting at `tokens[i]` that covers no used token, or null. */
  at(
    tokens: readonly Token[],
    i: number,
    used?: readonly boolean[],
  ): { value: T; length: number } | null {
    const key = keyOf(tokens[i]);
    if (key === null || used?.[i]) return null;
    for (const { words, value } of this.byFirst.get(key) ?? []) {
      let k = 0;
      while (k < words.length && !used?.[i + k] && matches(tokens[i + k], words[k]!)) k++;
      if (k === words.length) return { value, length: k };
    }
    return null;
  }

  /** The meaning of the token alone, when it is a phrase of one word. */
  one(token: Token | undefined): T | undefined {
    const key = keyOf(token);
    if (key === null) return undefined;
    return (this.byFirst.get(key) ?? []).find(
      ({ words }) => words.length === 1 && matches(token, words[0]!),
    )?.value;
  }

  /** True when the token alone is one of the one-word phrases. */
  has(token: Token | undefined): boolean {
    return this.one(token) !== undefined;
  }
}

function flag(phrases: readonly string[]): Array<readonly [string, true]> {
  return phrases.map((p) => [p, true] as const);
}

function foldedSet(words: readonly string[]): ReadonlySet<string> {
  return new Set(words.map((w) => fold(w.toLowerCase())));
}

/** The words read anywhere, in English and in one other language. */
export interface Grammar {
  language: GrammarLanguage;
  /** Days before today: 0 for today, 1 for yesterday. */
  days: Phrases<number>;
  /** The day of the week; `alone` when the name needs no word before it. */
  weekdays: Phrases<{ day: number; alone: boolean }>;
  on: Phrases<true>;
  lastBefore: Phrases<true>;
  lastAfter: Phrases<true>;
  /** The month, 1 to 12. */
  months: Phrases<number>;
  dayOfMonth: Phrases<true>;
  repeats: Phrases<Repeat>;
  every: Phrases<true>;
  per: Phrases<true>;
  periods: Phrases<Repeat>;
  two: Phrases<true>;
  weeks: Phrases<true>;
  otherPeriods: Phrases<true>;
  counts: Phrases<true>;
  me: Phrases<true>;
  exceptMe: Phrases<true>;
  noGroup: Phrases<true>;
  /** Folded lower-case words, compared with description words as typed. */
  connectors: ReadonlySet<string>;
  fillers: ReadonlySet<string>;
  /**
   * The person's own language's connecting words (none in English): they end a group's name after
   * `in`, as `with` does (`in WG mit @ann`).
   */
  groupStops: ReadonlySet<string>;
  ranges: Phrases<'this_week' | 'last_week' | 'this_month' | 'last_month'>;
  bounds: Phrases<'since' | 'until'>;
  listGroup: Phrases<true>;
  listAbout: Phrases<true>;
}

function compile(language: GrammarLanguage): Grammar {
  const lexicons: Lexicon[] = language === 'en' ? [LEXICONS.en] : [LEXICONS.en, LEXICONS[language]];
  const all = <K extends keyof Lexicon>(key: K) => lexicons.map((l) => l[key]);
  const each = <T>(pick: (l: Lexicon) => Iterable<readonly [string, T]>) =>
    new Phrases(lexicons.flatMap((l) => [...pick(l)]));
  const flags = (pick: (l: Lexicon) => readonly string[]) => each((l) => flag(pick(l)));
  return {
    language,
    days: each((l) => [
      ...l.today.map((w) => [w, 0] as const),
      ...l.yesterday.map((w) => [w, 1] as const),
    ]),
    weekdays: each((l) =>
      l.weekdays.flatMap((names, day) =>
        names.map((n) => [n, { day, alone: l.weekdayAlone }] as const),
      ),
    ),
    on: flags((l) => l.on),
    lastBefore: flags((l) => l.lastBefore),
    lastAfter: flags((l) => l.lastAfter),
    months: each((l) => l.months.flatMap((names, m) => names.map((n) => [n, m + 1] as const))),
    dayOfMonth: flags((l) => l.dayOfMonth),
    repeats: each((l) =>
      (Object.entries(l.repeats) as Array<[Repeat, readonly string[]]>).flatMap(([repeat, words]) =>
        words.map((w) => [w, repeat] as const),
      ),
    ),
    every: flags((l) => l.every),
    per: flags((l) => l.per),
    periods: each((l) => l.periods),
    two: flags((l) => l.two),
    weeks: flags((l) => l.weeks),
    otherPeriods: flags((l) => l.otherPeriods),
    counts: flags((l) => l.counts),
    me: flags((l) => l.me),
    exceptMe: flags((l) => l.exceptMe),
    noGroup: flags((l) => l.noGroup),
    connectors: foldedSet(all('connectors').flat()),
    fillers: foldedSet(all('fillers').flat()),
    groupStops: foldedSet(language === 'en' ? [] : LEXICONS[language].connectors),
    ranges: each((l) => [
      ...l.thisWeek.map((w) => [w, 'this_week'] as const),
      ...l.lastWeek.map((w) => [w, 'last_week'] as const),
      ...l.thisMonth.map((w) => [w, 'this_month'] as const),
      ...l.lastMonth.map((w) => [w, 'last_month'] as const),
    ]),
    bounds: each((l) => [
      ...l.since.map((w) => [w, 'since'] as const),
      ...l.until.map((w) => [w, 'until'] as const),
    ]),
    listGroup: flags((l) => l.listGroup),
    listAbout: flags((l) => l.listAbout),
  };
}

/** One per language, made when first asked for: at most five, whatever the locales. */
const grammars = new Map<GrammarLanguage, Grammar>();

/** The words read anywhere for the person who typed: English's and their language's. */
export function grammarOf(ctx: ParseContext): Grammar {
  const language = grammarLanguageOf(ctx.locale);
  let grammar = grammars.get(language);
  if (!grammar) {
    grammar = compile(language);
    grammars.set(language, grammar);
  }
  return grammar;
}

/** Every language's lists of one kind, joined: the words read in every language. */
function everywhere(pick: (l: Lexicon) => readonly string[]): string[] {
  return GRAMMAR_LANGUAGES.flatMap((language) => pick(LEXICONS[language]));
}

export type FirstWord = 'balance' | 'list' | 'export' | 'remind' | 'help';

/** The words read in every language: each is read only in its fixed place. */
export const ANYWHERE = {
  paidBy: new Phrases(flag(everywhere((l) => l.paidBy))),
  each: new Phrases(flag(everywhere((l) => l.each))),
  /** `and` between two payers of a list, in any language. */
  and: new Phrases(flag(everywhere((l) => l.and))),
  /** Me right after `paid by`, in any language: `bezahlt von mir`. */
  payerMe: new Phrases(flag([...everywhere((l) => l.me), 'i'])),
  firstWords: new Phrases<FirstWord>([
    ...everywhere((l) => l.balance).map((w) => [w, 'balance'] as const),
    ...everywhere((l) => l.list).map((w) => [w, 'list'] as const),
    ...everywhere((l) => l.export).map((w) => [w, 'export'] as const),
    ...everywhere((l) => l.remind).map((w) => [w, 'remind'] as const),
    ...everywhere((l) => l.help).map((w) => [w, 'help'] as const),
  ]),
  /** Words for help that are no English word for it: `aide` is also an English word. */
  helpAbroad: new Phrases(
    flag(GRAMMAR_LANGUAGES.filter((l) => l !== 'en').flatMap((l) => LEXICONS[l].help)),
  ),
  topics: new Phrases<HelpTopic>(
    GRAMMAR_LANGUAGES.flatMap((l) =>
      (Object.entries(LEXICONS[l].topics) as Array<[HelpTopic, string]>).map(
        ([topic, word]) => [word, topic] as const,
      ),
    ),
  ),
  pay: new Phrases(flag(everywhere((l) => l.pay))),
  received: new Phrases(flag(everywhere((l) => l.received))),
  payI: new Phrases(flag(everywhere((l) => l.payI))),
  payTo: new Phrases(flag(everywhere((l) => l.payTo))),
  payFrom: new Phrases(flag(everywhere((l) => l.payFrom))),
  remindWords: new Phrases(flag(everywhere((l) => l.remindWords))),
  extras: new Phrases<'tip' | 'tax'>([
    ...everywhere((l) => l.tip).map((w) => [w, 'tip'] as const),
    ...everywhere((l) => l.tax).map((w) => [w, 'tax'] as const),
  ]),
  /** After a per-person word of another language, a period says how often, not for whom. */
  periodsAbroad: new Phrases(
    flag(
      GRAMMAR_LANGUAGES.filter((l) => l !== 'en').flatMap((l) => [
        ...LEXICONS[l].periods.map(([w]) => w),
        ...LEXICONS[l].otherPeriods,
      ]),
    ),
  ),
  eachEnglish: new Phrases(flag(LEXICONS.en.each)),
};

/** The phrases of "split this", folded as isSplitThis compares them. */
export const SPLIT_THIS_PHRASES: ReadonlySet<string> = new Set([
  ...[...everywhere((l) => l.splitThis), ...SPLIT_THIS_JA].map((p) => fold(p.toLowerCase())),
]);
