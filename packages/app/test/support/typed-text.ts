/**
 * Text as people type it, for the tests that send it through the app's renderers: the pieces that
 * Slack reads as markup (mentions, links, formatting, entities) mixed with plain words, accents,
 * emoji and other scripts, drawn by a seeded generator so that a failure is found again. And the
 * checks that what a renderer made of it shows it as typed and makes nothing of it.
 */
import { expect } from 'vitest';
import { mrkdwn } from '../../src/slack/kit/text.js';

const PIECES = [
  '&',
  '<',
  '>',
  '*',
  '_',
  '~',
  '`',
  '|',
  '@',
  '!',
  '#',
  ':',
  '"',
  "'",
  '\\',
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<@U0ANN>',
  '<https://evil.example|your receipt>',
  '&amp;',
  '&lt;b&gt;',
  '*bold*',
  '_it_',
  '~gone~',
  '```code```',
  ' ',
  ' ',
  'fish',
  'Chips',
  'é',
  '€',
  '🍕',
  'ランチ',
  'ß',
  '12,50',
] as const;

/** A small seeded generator (mulberry32): the same seed draws the same texts. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A text of a few pieces, at most `max` characters, never blank (a description must say
 * something); with `lines`, new lines too (notes, comments).
 */
export function typedText(random: () => number, max = 60, lines = false): string {
  const pieces: string[] = lines ? [...PIECES, '\n'] : [...PIECES];
  let text = '';
  const count = 1 + Math.floor(random() * 8);
  for (let i = 0; i < count; i += 1) {
    const piece = pieces[Math.floor(random() * pieces.length)] as string;
    if (text.length + piece.length > max) break;
    text += piece;
  }
  return text.trim() === '' ? `x${text}` : text;
}

/** The texts a property test sends: the known troublemakers first, then drawn ones. */
export function typedTexts(seed: number, count: number, lines = false): string[] {
  const random = seeded(seed);
  return [
    'fish & chips <b>bold</b> *star*',
    '<!channel> <https://evil.example|y> *b* & _i_ ~s~ `c`',
    ...Array.from({ length: count }, () => typedText(random, 60, lines)),
  ];
}

/** Every `text` of a payload that is mrkdwn (fields, sections, context, confirm texts). */
export function mrkdwnTexts(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) mrkdwnTexts(v, out);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.type === 'mrkdwn' && typeof record.text === 'string') out.push(record.text);
    for (const v of Object.values(record)) mrkdwnTexts(v, out);
  }
  return out;
}

/** Every `text` of a payload that is plain_text (headers, labels, options, buttons). */
export function plainTexts(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) plainTexts(v, out);
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (record.type === 'plain_text' && typeof record.text === 'string') out.push(record.text);
    for (const v of Object.values(record)) plainTexts(v, out);
  }
  return out;
}

/** The markup the app itself writes into mrkdwn: mentions it means, and receipt links. */
const APP_MARKUP = /<@[UW][A-Z0-9]{2,}>|<https?:\/\/[^\s|<>]+\|[^<>]*>/g;

/**
 * That a mrkdwn text holds no markup besides the app's own: no `<`/`>` at all once the app's
 * mentions and links are taken out (so no `<!channel>`, no disguised link), and each of mrkdwn's
 * formatting characters fenced by zero-width spaces unless the app's own (a bold label).
 */
export function expectInert(text: string, typed: string): void {
  expect(text.replace(APP_MARKUP, ''), `markup left in ${JSON.stringify(text)}`).not.toMatch(
    /[<>]/,
  );
  expect(text).toContain(mrkdwn(typed));
}

/** What a reader sees of mrkdwn the app wrote with mrkdwn(): the fences and entities undone. */
export function seen(text: string): string {
  return text
    .replace(/\u200b/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
