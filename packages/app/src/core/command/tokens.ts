/** Splits the command text into Slack entities (mentions, links), quoted text and words. */
import type { Token } from './types.js';

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function angleToken(inner: string, raw: string): Token {
  const [target = '', label] = inner.split('|', 2);
  if (target.startsWith('@'))
    return { t: 'mention', id: target.slice(1), label: label ?? null, raw };
  if (target.startsWith('!subteam^')) {
    return { t: 'usergroup', label: label ?? 'a user group', raw };
  }
  if (/^!(here|channel|everyone)\b/.test(target)) {
    return { t: 'broadcast', name: target.slice(1).replace(/\W.*$/, ''), raw };
  }
  if (target.startsWith('#')) return { t: 'channel', label: label ?? target.slice(1), raw };
  if (target.startsWith('!date^')) return word(decodeEntities(label ?? ''));
  const shown = decodeEntities(label ?? target.replace(/^mailto:/, ''));
  return { t: 'link', label: shown, raw };
}

export function word(raw: string): Token {
  return { t: 'word', raw, lower: raw.toLowerCase() };
}

export function tokenize(text: string): Token[] {
  const normalized = text.replace(/[\u00a0\u2007\u202f]/g, ' ');
  const tokens: Token[] = [];
  for (const match of normalized.matchAll(/<([^<>]*)>|"([^"]*)"|“([^”]*)”|[^\s<"“]+/g)) {
    const [raw, angle, quoted, curly] = match;
    if (angle !== undefined) tokens.push(angleToken(angle, raw));
    else if (quoted !== undefined || curly !== undefined) {
      tokens.push({ t: 'quoted', text: decodeEntities(quoted ?? curly ?? '').trim(), raw });
    } else {
      // `<@U1>=25`, `=25`: a leading `=` or `:` only joins a value to the mention before it.
      tokens.push(word(decodeEntities(raw)));
    }
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

export function isWord(token: Token | undefined, ...values: string[]): boolean {
  return token?.t === 'word' && values.includes(token.lower);
}
