/**
 * Words, from one catalogue per language (`catalogues/<language>.json`), written as ICU
 * MessageFormat so that plurals and choices follow each language's own rules
 * (`{count, plural, one {# person} other {# people}}`) instead of being pieced together in code.
 * English is always loaded; another language's catalogue is loaded the first time someone who
 * reads it is answered. Each message is compiled once per language and locale, and kept while it
 * is in use.
 */
import type { IntlMessageFormat } from 'intl-messageformat';
import { Lru } from '../core/lru.js';
import type en from './catalogues/en.json';
import { DEFAULT_LANGUAGE, type Language } from './languages.js';

/** A catalogue's messages, nested by feature: `{"split": {"too_long": "..."}}`. */
interface Catalogue {
  [key: string]: string | Catalogue;
}

type Paths<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Paths<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every message's key, as the English catalogue spells it: `split.too_long`. */
export type MessageKey = Paths<typeof en>;

/** What a message's `{placeholders}` take: text already escaped for where it goes, numbers. */
export type MessageValues = Record<string, string | number>;

export type Translate = (key: MessageKey, values?: MessageValues) => string;

const LOADERS: Record<Language, () => Promise<{ default: Catalogue }>> = {
  en: () => import('./catalogues/en.json', { with: { type: 'json' } }),
  de: () => import('./catalogues/de.json', { with: { type: 'json' } }),
  fr: () => import('./catalogues/fr.json', { with: { type: 'json' } }),
  es: () => import('./catalogues/es.json', { with: { type: 'json' } }),
  'pt-BR': () => import('./catalogues/pt-BR.json', { with: { type: 'json' } }),
  ja: () => import('./catalogues/ja.json', { with: { type: 'json' } }),
};

/** `{"a": {"b": "x"}}` -> `a.b` = `x`. */
export function flatten(catalogue: Catalogue, prefix = '', into = new Map<string, string>()) {
  for (const [key, value] of Object.entries(catalogue)) {
    if (typeof value === 'string') into.set(`${prefix}${key}`, value);
    else flatten(value, `${prefix}${key}.`, into);
  }
  return into;
}

interface Loaded {
  language: Language;
  messages: Map<string, string>;
}

/**
 * Compiled messages, by language, locale and key, for every catalogue together. Each costs a few
 * kilobytes; the cap holds what a busy workspace uses (a few locales times the messages of its
 * common answers) and makes a long tail of locales cost a compile again rather than memory.
 */
const COMPILED_KEPT = 2_048;
const compiled = new Lru<string, IntlMessageFormat>(COMPILED_KEPT, 'voice.messages');

const loaded = new Map<Language, Promise<Loaded>>();
let formatClass: Promise<typeof IntlMessageFormat> | undefined;

function load(language: Language): Promise<Loaded> {
  let found = loaded.get(language);
  if (!found) {
    found = LOADERS[language]().then((module) => ({
      language,
      messages: flatten(module.default),
    }));
    // A failed load is not remembered, so that the next person asks again.
    found.catch(() => loaded.delete(language));
    loaded.set(language, found);
  }
  return found;
}

/**
 * The translation function for a language, once its catalogue (and English, which fills any
 * message a catalogue lacks) is loaded. `locale` writes the numbers inside messages.
 */
export async function translator(language: Language, locale: string): Promise<Translate> {
  formatClass ??= import('intl-messageformat').then((module) => module.IntlMessageFormat);
  const [Format, own, fallback] = await Promise.all([
    formatClass,
    load(language),
    load(DEFAULT_LANGUAGE),
  ]);
  return (key, values) => {
    const from = own.messages.has(key) ? own : fallback;
    const source = from.messages.get(key);
    if (source === undefined)
      throw new Error(`no message ${key} in the ${DEFAULT_LANGUAGE} catalogue`);
    // Numbers inside a message follow the person's own locale (de-AT and de-DE differ).
    const message = compiled.getOrMake(
      `${from.language}\u0000${locale}\u0000${key}`,
      () => new Format(source, locale, undefined, { ignoreTag: true }),
    );
    return String(message.format(values));
  };
}

/** Every catalogue, flattened: for the tests that hold the catalogues to one another. */
export async function allCatalogues(): Promise<Map<Language, Map<string, string>>> {
  const entries = await Promise.all(
    (Object.keys(LOADERS) as Language[]).map(
      async (language) => [language, (await load(language)).messages] as const,
    ),
  );
  return new Map(entries);
}
