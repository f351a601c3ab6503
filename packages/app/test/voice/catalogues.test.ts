/**
 * The catalogues hold to one another: every message exists in every language, reads as ICU
 * MessageFormat, and takes the same placeholders as the English one (a translation that drops
 * `{amount}` would lose it; one that adds `{amuont}` would throw), and every message is used by the
 * code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { allCatalogues, LANGUAGES, type Language } from '../../src/voice/index.js';

let catalogues: Map<Language, Map<string, string>>;
beforeAll(async () => {
  catalogues = await allCatalogues();
});

/** The names a message's placeholders take, nested plurals and selects included. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type !== TYPE.literal && element.type !== TYPE.pound) {
      into.add(String(element.value));
    }
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    }
    if (element.type === TYPE.tag) argumentsOf(element.children, into);
  }
  return into;
}

function parsed(language: Language, key: string, message: string): MessageFormatElement[] {
  try {
    return parse(message, { ignoreTag: true, requiresOtherClause: true });
  } catch (error) {
    throw new Error(`${language} ${key} is not ICU MessageFormat: ${(error as Error).message}`);
  }
}

describe('the catalogues', () => {
  it('cover the same messages in every language', () => {
    const english = [...catalogues.get('en')!.keys()].sort();
    for (const language of LANGUAGES) {
      const keys = [...catalogues.get(language)!.keys()].sort();
      expect(
        english.filter((key) => !keys.includes(key)),
        `messages ${language} lacks`,
      ).toEqual([]);
      expect(
        keys.filter((key) => !english.includes(key)),
        `messages only ${language} has`,
      ).toEqual([]);
    }
  });

  it('are ICU MessageFormat, each translation with the placeholders of the English message', () => {
    const english = catalogues.get('en')!;
    for (const [key, source] of english) {
      const wanted = [...argumentsOf(parsed('en', key, source))].sort();
      for (const language of LANGUAGES) {
        const message = catalogues.get(language)!.get(key);
        if (message === undefined) continue;
        const found = [...argumentsOf(parsed(language, key, message))].sort();
        expect(found, `${language} ${key}`).toEqual(wanted);
      }
    }
  });

  it('hold no message that the code never asks for', () => {
    const root = join(import.meta.dirname, '..', '..', 'src');
    const code = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(root, file), 'utf8'))
      .join('\n');
    const unused = [...catalogues.get('en')!.keys()].filter(
      (key) => !code.includes(`'${key}'`) && !code.includes(`"${key}"`),
    );
    expect(unused).toEqual([]);
  });
});
