/**
 * The words of the grammar in each language it reads, as a person writes them (with accents and
 * case): the parser compiles them (../words.ts), `/split help` shows them and docs/split-syntax.md
 * lists them, so the three cannot drift apart. A phrase of several words is written with single
 * spaces between them.
 *
 * Two kinds of words, read differently (docs/split-syntax.md, "Other languages"):
 * - Words in a fixed place (the first word, right after the cost, right after `paid by`, after
 *   `help`, inside the bare shape of a payment) cannot take a word from a description, and are
 *   read in every language.
 * - Words that may stand anywhere (dates, repeats, me, except me, connecting words, a list's
 *   filters) are read in English and in the person's own Slack language only: `hier` is
 *   yesterday in French and "here" in German.
 */
import { DE } from './de.js';
import { EN } from './en.js';
import { ES } from './es.js';
import { FR } from './fr.js';
import { PT } from './pt.js';
import type { GrammarLanguage, Lexicon } from './types.js';

export { GRAMMAR_LANGUAGES, type GrammarLanguage, type Lexicon } from './types.js';

/** The grammar's language for a Slack locale (`de-AT` is `de`); English for any other. */
export function grammarLanguageOf(locale: string | undefined): GrammarLanguage {
  const primary = (locale ?? '').slice(0, 3).split(/[-_]/)[0]?.toLowerCase();
  switch (primary) {
    case 'de':
    case 'fr':
    case 'es':
    case 'pt':
      return primary;
    default:
      return 'en';
  }
}

/** Every language's words; the Slack layer reads the one of the reader's language for help. */
export const LEXICONS: Readonly<Record<GrammarLanguage, Lexicon>> = {
  en: EN,
  de: DE,
  fr: FR,
  es: ES,
  pt: PT,
};

/** "Split this" in Japanese: no keywords of its own beyond it, so it lives here alone. */
export const SPLIT_THIS_JA = ['これを割り勘', '割り勘', 'これを割り勘して'];
