/** Splits the command text into Slack entities (mentions, links), quoted text and words. */
import type { Token } from './types.js';

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function angleToken(inner: string, raw: string): Token {
  const [target = '', label] = inner.split('|', 2);
  if (target.startsWith('@'))
    return { t: 'mention', id: target.slice(1), label: label ?? null, raw };
  if (target.startsWith('!subteam^')) {
    return { t: 'usergroup', label: label ?? 'a user group', raw };
  }
  const broadcast = /^!(here|channel|everyone)\b/.exec(target);
  if (broadcast) return { t: 'broadcast', name: broadcast[1]!, raw };
  if (target.startsWith('#')) return { t: 'channel', label: label ?? target.slice(1), raw };
  if (target.startsWith('!date^')) return word(decodeEntities(label ?? ''));
  const shown = decodeEntities(label ?? target.replace(/^mailto:/, ''));
  return { t: 'link', label: shown, raw };
}

export function word(raw: string): Token {
  const lower = raw.toLowerCase();
  return { t: 'word', raw, lower, key: fold(trimEnd(lower, CLOSING)) };
}

/** Punctuation that closes a word and is no part of a keyword (`gestern.`, `mir,`). */
const CLOSING = /[,;.!?:]/;

/** A word runs until white space, or the start of a mention, a link or a quote. */
const WORD = /[^\s<"“]+/y;
const SPACE = /\s/;

/**
 * Reads the text from left to right, never going back further than the start of a `<` that
 * closes no mention or link. A `“` with no `”` after it is looked past at once: searching the
 * rest of the text again for each of many would take time growing with the square of its length.
 */
export function tokenize(text: string): Token[] {
  const normalized = text.replace(/[\u00a0\u2007\u202f]/g, ' ');
  const tokens: Token[] = [];
  // Closing quotes that no longer occur: every later opening one starts no token.
  const exhausted = new Set<string>();
  let i = 0;
  while (i < normalized.length) {
    const ch = normalized[i]!;
    if (ch === ' ' || SPACE.test(ch)) {
      i++;
      continue;
    }
    if (ch === '<') {
      // The search stops at the next `<`, so each stretch between two is searched once.
      let end = i + 1;
      while (end < normalized.length && normalized[end] !== '<' && normalized[end] !== '>') end++;
      if (normalized[end] === '>') {
        tokens.push(angleToken(normalized.slice(i + 1, end), normalized.slice(i, end + 1)));
        i = end + 1;
      } else i++;
      continue;
    }
    if (ch === '"' || ch === '“') {
      const close = ch === '"' ? '"' : '”';
      const end = exhausted.has(close) ? -1 : normalized.indexOf(close, i + 1);
      if (end === -1) {
        exhausted.add(close);
        i++;
        continue;
      }
      const raw = normalized.slice(i, end + 1);
      tokens.push({ t: 'quoted', text: decodeEntities(raw.slice(1, -1)).trim(), raw });
      i = end + 1;
      continue;
    }
    WORD.lastIndex = i;
    const match = WORD.exec(normalized);
    // `<@U1>=25`, `=25`: a leading `=` or `:` only joins a value to the mention before it.
    tokens.push(word(decodeEntities(match![0])));
    i = WORD.lastIndex;
  }
  return mergeSpacedThousands(tokens);
}

/** "1 000" and "1 000,50" are one number: a 1-3 digit group followed by groups of exactly 3. */
function mergeSpacedThousands(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (const token of tokens) {
    const prev = out[out.length - 1];
    if (
      token.t === 'word' &&
      prev?.t === 'word' &&
      /^[-+−]?[^\d\s]*(?:\d{1,3}')*\d{1,3}$/.test(prev.raw) &&
      !/^\d{4}$/.test(token.raw) &&
      /^\d{3}(?:[.,]\d{1,2})?[^\d\s]*$/.test(token.raw)
    ) {
      out[out.length - 1] = word(`${prev.raw}'${token.raw}`);
      continue;
    }
    out.push(token);
  }
  return out;
}

/**
 * `text` without the characters `one` matches (a class of one character, like `/[,;]/`) at its
 * end. A loop, not a `[,;]+$` regex: such a regex starts again at every character of a long run
 * that stops short of the end (`x,,,,…,,y`), which takes time growing with the square of the run.
 */
export function trimEnd(text: string, one: RegExp): string {
  let end = text.length;
  while (end > 0 && one.test(text[end - 1]!)) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the characters `one` matches at either end; see trimEnd. */
export function trimBoth(text: string, one: RegExp): string {
  let start = 0;
  while (start < text.length && one.test(text[start]!)) start++;
  return trimEnd(text.slice(start), one);
}

/**
 * `word` without the accents of Latin letters (`payé` → `paye`, `año` → `ano`), for comparing
 * with keywords. Other marks stay: they make other letters (`プ` in `ヘルプ`).
 */
export function fold(word: string): string {
  if (!/[\u0080-\uffff]/.test(word)) return word;
  return word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
}

/** True when `token` is a word in `words`: isWord for a list kept as a Set. */
export function wordIn(token: Token | undefined, words: ReadonlySet<string>): boolean {
  return token?.t === 'word' && words.has(token.lower);
}

export function isWord(token: Token | undefined, ...values: string[]): boolean {
  return token?.t === 'word' && values.includes(token.lower);
}
