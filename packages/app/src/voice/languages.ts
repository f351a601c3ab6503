/**
 * The languages the app speaks, and which one a person's Slack locale gets. Slack sends a BCP 47
 * tag (`de-DE`, `pt-BR`, `en-GB`) from `users.info` with `include_locale`; the language picks the
 * catalogue of words, while the full tag still picks how numbers and dates are written.
 */
import { Lru } from '../core/lru.js';

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];

/** English: the language of the grammar's keywords, and of anyone whose locale is not covered. */
export const DEFAULT_LANGUAGE: Language = 'en';

/** Slack's default when a person's locale is unknown. */
export const DEFAULT_LOCALE = 'en-US';

/**
 * The catalogue for a Slack locale: its language when the app has it, Brazilian Portuguese for
 * any Portuguese (the one Portuguese the app writes), and English otherwise.
 */
export function languageOf(locale: string | undefined): Language {
  const primary = (locale ?? '').split(/[-_]/)[0]?.toLowerCase() ?? '';
  switch (primary) {
    case 'de':
    case 'fr':
    case 'es':
    case 'ja':
      return primary;
    case 'pt':
      return 'pt-BR';
    default:
      return DEFAULT_LANGUAGE;
  }
}

/**
 * How many locales a cache of per-locale formats keeps: a workspace's people write in a handful,
 * and one more costs only building its format again.
 */
export const LOCALES_KEPT = 64;

/** The longest tag read: Slack's and browsers' are a handful of characters. */
const TAG_MAX = 64;

/** A BCP 47 tag's language, script and region subtags, and where they end. Anchored, no nesting. */
const TAG_BASE = /^([a-z]{2,3}|[a-z]{5,8})(?:-([a-z]{4}))?(?:-([a-z]{2}|\d{3}))?(?:-|$)/i;

/**
 * What Intl formats with depends on a tag's language, script and region only; the rest (variants,
 * extensions, private use such as `de-x-1`) is dropped, so that free text in a tag cannot make a
 * locale of its own. Undefined for what is not a tag.
 */
function baseOf(tag: string): string | undefined {
  if (tag.length > TAG_MAX) return undefined;
  const match = TAG_BASE.exec(tag);
  if (!match) return undefined;
  const [, language, script, region] = match;
  return [
    language!.toLowerCase(),
    script && script[0]!.toUpperCase() + script.slice(1).toLowerCase(),
    region?.toUpperCase(),
  ]
    .filter(Boolean)
    .join('-');
}

/** By a tag's base: its base names at most a few thousand, the locales Intl resolves to fewer. */
const resolved = new Lru<string, string>(256, 'voice.locales');

/**
 * The locale Intl formats with for a person's tag: the one the runtime resolves its language,
 * script and region to (`de-AT` stays `de-AT`, `de-ZZ` and `de-x-1` become `de`), else the
 * default. So every formatting locale is one the runtime has data for, a fixed set of a few hundred
 * whatever tags come in, and any cache keyed by it is bounded by that set.
 */
export function formattingLocale(locale: string | undefined): string {
  if (!locale) return DEFAULT_LOCALE;
  const base = baseOf(locale);
  if (base === undefined) return DEFAULT_LOCALE;
  return resolved.getOrMake(base, () =>
    Intl.NumberFormat.supportedLocalesOf([base]).length > 0
      ? new Intl.NumberFormat(base).resolvedOptions().locale
      : DEFAULT_LOCALE,
  );
}
