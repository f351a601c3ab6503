/**
 * One name per action, in each language: the glossary (`docs/glossary.json`, the tables of
 * `docs/voice.md`) gives each action and state one term per language and lists the words it
 * replaced. No catalogue holds a replaced word, each button the glossary names says its term, and
 * the doc shows what the JSON says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { allCatalogues, type Language } from '../../src/voice/index.js';

interface Entry {
  concept: string;
  term: string;
  /** Words that named the same thing before: none may appear in the catalogue. */
  avoid?: string[];
  /** Longer phrases that hold an avoided word legitimately ("mettre à jour" beside "à jour"). */
  allow?: string[];
  /** Messages that must say the term: the buttons and labels that name the action. */
  keys?: string[];
  source?: string;
}

const root = join(import.meta.dirname, '..', '..', '..', '..');
const glossary = JSON.parse(readFileSync(join(root, 'docs', 'glossary.json'), 'utf8')) as Record<
  string,
  Entry[]
>;
const doc = readFileSync(join(root, 'docs', 'voice.md'), 'utf8');
const GLOSSED = ['en', 'de', 'fr', 'es', 'pt-BR'] as const satisfies readonly Language[];

let catalogues: Map<Language, Map<string, string>>;
beforeAll(async () => {
  catalogues = await allCatalogues();
});

/** The words a message can show, every branch of its plurals and selects, placeholders left out. */
function shownText(message: string): string {
  const parts: string[] = [];
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.literal) parts.push(element.value);
      else parts.push(' ');
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        for (const option of Object.values(element.options)) {
          walk(option.value);
          parts.push(' ');
        }
      }
    }
  };
  walk(parse(message, { ignoreTag: true }));
  // Commands in code spans are the grammar's words, which the glossary does not rename.
  return parts.join('').replace(/`[^`]*`/g, ' ');
}

/** A phrase as whole words: "lance" is not found in "balance", nor "Kanal" in "Kanalnetz". */
function asWords(phrase: string): RegExp {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'giu');
}

/** The avoided words of `entry` that `text` holds, once its allowed phrases are taken out. */
function avoidedIn(text: string, entry: Entry): string[] {
  let rest = text.normalize('NFC').replace(/[\u00A0\u202F]/g, ' ');
  for (const allowed of entry.allow ?? []) rest = rest.replace(asWords(allowed), ' ');
  return (entry.avoid ?? []).filter((word) => asWords(word).test(rest));
}

describe('finding a replaced word', () => {
  it('matches whole words and phrases only, in any case, and skips the allowed phrases', () => {
    const entry = { concept: 'c', term: 't', avoid: ['Kanal', 'lance', 'à jour'] };
    expect(avoidedIn('Kanalnetz, balance', entry)).toEqual([]);
    expect(avoidedIn('dieser kanal', entry)).toEqual(['Kanal']);
    expect(avoidedIn('Tu es à jour.', entry)).toEqual(['à jour']);
    expect(avoidedIn('Tu es à\u202Fjour.', entry)).toEqual(['à jour']);
    expect(avoidedIn('mettre à jour', { ...entry, allow: ['mettre à jour'] })).toEqual([]);
  });

  it('reads every branch of a message and none of its placeholders or code spans', () => {
    const text = shownText('{n, plural, one {# quitt} other {alle {who}}} `/split quitt`');
    expect(text.split(/\s+/).filter(Boolean)).toEqual(['quitt', 'alle']);
  });
});

describe('the glossary', () => {
  for (const language of GLOSSED) {
    it(`keeps every replaced word out of the ${language} catalogue`, () => {
      const found: string[] = [];
      for (const [key, message] of catalogues.get(language)!) {
        const text = shownText(message);
        for (const entry of glossary[language]!) {
          for (const word of avoidedIn(text, entry))
            found.push(`${key}: "${word}" (${entry.term})`);
        }
      }
      expect(found).toEqual([]);
    });

    it(`names each ${language} action by its term where the glossary says`, () => {
      const wrong: string[] = [];
      for (const entry of glossary[language]!) {
        for (const key of entry.keys ?? []) {
          const message = catalogues.get(language)!.get(key);
          if (message === undefined) wrong.push(`${key}: missing`);
          else if (!message.toLowerCase().includes(entry.term.toLowerCase())) {
            wrong.push(`${key}: "${message}" lacks "${entry.term}"`);
          }
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it('is the table docs/voice.md shows, language by language', () => {
    const missing: string[] = [];
    for (const language of GLOSSED) {
      const start = doc.indexOf(`(\`${language}\`)\n`);
      expect(start, `a section for ${language} in docs/voice.md`).toBeGreaterThan(0);
      const end = doc.indexOf('\n#', start);
      const section = doc.slice(start, end === -1 ? undefined : end);
      for (const entry of glossary[language]!) {
        const row = section.split('\n').find((line) => line.startsWith(`| ${entry.concept} |`));
        if (!row) {
          missing.push(`${language} ${entry.concept}: no row`);
          continue;
        }
        for (const word of [entry.term, ...(entry.avoid ?? []), ...(entry.allow ?? [])]) {
          if (!row.includes(word)) missing.push(`${language} ${entry.concept}: "${word}"`);
        }
        if (entry.source && !row.includes(entry.source)) {
          missing.push(`${language} ${entry.concept}: source "${entry.source}"`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
