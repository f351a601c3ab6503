/**
 * A voice: how the app speaks to one person, built once per request from their Slack locale and
 * time zone. Every text the app writes for a person comes through one: the words from their
 * language's catalogue, and amounts, dates and times written their way.
 */
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

const zones = new Map<string, boolean>();

function knownZone(zone: string): boolean {
  let known = zones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    if (zones.size > 1_000) zones.clear();
    zones.set(zone, known);
  }
  return known;
}

/** The voice for a person whose Slack profile says `locale` and `tz` (either may be missing). */
export async function voiceFor(person: {
  locale?: string | undefined;
  tz?: string | undefined;
}): Promise<Voice> {
  const locale = formattingLocale(person.locale);
  const language = languageOf(person.locale);
  const timeZone = person.tz && knownZone(person.tz) ? person.tz : 'UTC';
  const t = await translator(language, locale);
  return { locale, language, timeZone, t, ...formatsFor(locale, timeZone) };
}
