/**
 * The languages the app speaks, and which one a person's Slack locale gets. Slack sends a BCP 47
 * tag (`de-DE`, `pt-BR`, `en-GB`) from `users.info` with `include_locale`; the language picks the
 * catalogue of words, while the full tag still picks how numbers and dates are written.
 */
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

const supported = new Map<string, string>();

/**
 * A locale Intl can format with: the one given when the runtime knows it (Node ships full ICU),
 * else the default. Remembered, since every message asks.
 */
export function formattingLocale(locale: string | undefined): string {
  if (!locale) return DEFAULT_LOCALE;
  let found = supported.get(locale);
  if (found === undefined) {
    let canonical: string | undefined;
    try {
      canonical = Intl.NumberFormat.supportedLocalesOf([locale])[0];
    } catch {
      canonical = undefined;
    }
    found = canonical ?? DEFAULT_LOCALE;
    // Locales come from Slack's profiles: a handful per workspace, but never let them grow a map.
    if (supported.size > 500) supported.clear();
    supported.set(locale, found);
  }
  return found;
}
