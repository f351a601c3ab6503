/**
 * The copy rules every catalogue keeps (docs/voice.md, "One name per action: the glossary"):
 * English notices stay short and use one quote style; no message names an HTTP status or a token;
 * French sets its punctuation with narrow no-break spaces and typographic apostrophes; German
 * writes the ellipsis one way.
 */
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { allCatalogues, LANGUAGES, type Language } from '../../src/voice/index.js';

let catalogues: Map<Language, Map<string, string>>;
beforeAll(async () => {
  catalogues = await allCatalogues();
});

const elements = (message: string) => parse(message, { ignoreTag: true });

/** The words of the longest way a message reads: the longest branch of each choice, a value one word. */
function longestReading(parts: MessageFormatElement[]): number {
  let text = '';
  let branches = 0;
  for (const part of parts) {
    if (part.type === TYPE.literal) text += part.value;
    else if (part.type === TYPE.plural || part.type === TYPE.select) {
      text += ' ';
      branches += Math.max(...Object.values(part.options).map((o) => longestReading(o.value)));
    } else text += ' value ';
  }
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length + branches;
}

/** The text a message shows, every branch of it, without its placeholders. */
function literal(parts: MessageFormatElement[]): string {
  return parts
    .map((part) => {
      if (part.type === TYPE.literal) return part.value;
      if (part.type === TYPE.plural || part.type === TYPE.select) {
        return Object.values(part.options)
          .map((o) => ` ${literal(o.value)} `)
          .join('');
      }
      return ' ';
    })
    .join('');
}

describe('the English copy', () => {
  it('says each notice in at most 40 words', () => {
    const long = [...catalogues.get('en')!]
      .map(([key, message]) => [key, longestReading(elements(message))] as const)
      .filter(([, words]) => words > 40);
    expect(long).toEqual([]);
  });

  it('quotes with straight quotes and apostrophes only', () => {
    const curly = [...catalogues.get('en')!].filter(([, message]) => /[“”‘’]/.test(message));
    expect(curly.map(([key]) => key)).toEqual([]);
  });
});

describe('every catalogue', () => {
  it('names no HTTP status and no token', () => {
    const found: string[] = [];
    for (const language of LANGUAGES) {
      for (const [key, message] of catalogues.get(language)!) {
        // The words shown, not the choices' keys (`http_error`) nor the placeholders' names.
        const text = literal(elements(message));
        if (/HTTP|token|jeton|トークン/i.test(text) || /\{status[,}]/.test(message)) {
          found.push(`${language} ${key}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});

describe('French typography', () => {
  /** What French punctuation rules apply to: no code span, emoji code, link or `files:write`. */
  const prose = (message: string) =>
    literal(elements(message))
      .replace(/`[^`]*`/g, ' ')
      .replace(/<[^>]*>/g, ' ')
      .replace(/:[a-z_]+:/g, ' ')
      .replace(/[\p{L}\p{N}]:[\p{L}\p{N}]/gu, ' ');

  it('sets a narrow no-break space before : ; ? ! and inside « »', () => {
    const wrong: string[] = [];
    for (const [key, message] of catalogues.get('fr')!) {
      const text = prose(message);
      if (/(?:^|[^\u202F])[:;?!]/.test(text) || /«(?!\u202F)|(?<!\u202F)»/.test(text)) {
        wrong.push(key);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('writes apostrophes as ’', () => {
    const straight = [...catalogues.get('fr')!].filter(([, message]) =>
      /\p{L}'\p{L}/u.test(literal(elements(message))),
    );
    expect(straight.map(([key]) => key)).toEqual([]);
  });
});

describe('German typography', () => {
  it('attaches the ellipsis to the word it follows or leads', () => {
    const spaced = [...catalogues.get('de')!].filter(([, message]) => / …|… /.test(message));
    expect(spaced.map(([key]) => key)).toEqual([]);
  });
});
