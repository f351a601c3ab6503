/**
 * A voice: how the app speaks to one person, built once per request from their Slack locale and
 * time zone. Every text the app writes for a person comes through one: the words from their
 * language's catalogue, and amounts, dates and times written their way.
 */
import { Lru } from '../core/lru.js';
import { type Formats, formatsFor } from './formats.js';
import { formattingLocale, type Language, languageOf } from './languages.js';
import { type Translate, translator } from './translate.js';

export { type Formats, formatsFor } from './formats.js';
export {
  DEFAULT_LANGUAGE,
  DEFAULT_LOCALE,
  formattingLocale,
  LANGUAGES,
  type Language,
  LOCALES_KEPT,
  languageOf,
} from './languages.js';
export { allCatalogues, type MessageKey, type MessageValues, type Translate } from './translate.js';

export interface Voice extends Formats {
  /** The locale numbers and dates are written in (the person's Slack locale when Intl has it). */
  locale: string;
  /** The catalogue the words come from. */
  language: Language;
  /** The zone instants are shown in. */
  timeZone: string;
  t: Translate;
}

/** By the zone as given: Slack's profiles and forms carry a few hundred names, spelled one way. */
const zones = new Lru<string, string | null>(256, 'voice.zones');

/** The longest zone name read: IANA's are at most about thirty characters. */
const ZONE_MAX = 64;

/**
 * The zone as Intl spells it (`europe/paris` is `Europe/Paris`), or null when Intl does not know
 * it. Intl reads zone names in any case, so formats are kept by this spelling: one of the few
 * hundred zones the runtime knows, whatever string came in.
 */
function canonicalZone(zone: string): string | null {
  if (zone.length > ZONE_MAX) return null;
  return zones.getOrMake(zone, () => {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      return null;
    }
  });
}

/** The voice for a person whose Slack profile says `locale` and `tz` (either may be missing). */
export async function voiceFor(person: {
  locale?: string | undefined;
  tz?: string | undefined;
}): Promise<Voice> {
  const locale = formattingLocale(person.locale);
  const language = languageOf(person.locale);
  const zone = person.tz ? canonicalZone(person.tz) : null;
  // The person's own spelling is what they are shown; formats are kept by Intl's.
  const timeZone = zone && person.tz ? person.tz : 'UTC';
  const t = await translator(language, locale);
  return { locale, language, timeZone, t, ...formatsFor(locale, zone ?? 'UTC') };
}
