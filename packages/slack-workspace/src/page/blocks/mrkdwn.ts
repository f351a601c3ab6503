// Slack's mrkdwn, parsed into a small tree that the renderer turns into elements and text nodes.
// Nothing here produces HTML: the tree only ever becomes text nodes, so whatever an app or a
// person typed cannot inject markup.
import { emojiFor } from './emoji.js';

export type Inline =
  | { k: 'text'; text: string }
  | { k: 'br' }
  | { k: 'bold' | 'italic' | 'strike'; children: Inline[] }
  | { k: 'code'; text: string }
  | { k: 'link'; url: string; label: string }
  | { k: 'user'; id: string; label?: string }
  | { k: 'channel'; id: string; label?: string }
  | { k: 'special'; text: string }
  | { k: 'date'; seconds: string; format: string; link?: string; fallback: string }
  | { k: 'emoji'; name: string; char: string };

export type Block =
  | { k: 'p'; children: Inline[] }
  | { k: 'pre'; text: string }
  | { k: 'quote'; children: Block[] }
  | { k: 'list'; ordered: boolean; items: Inline[][] };

/** Slack escapes exactly these three; everything else is literal text. */
export function unescapeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

const SAFE_URL = /^(https?:|mailto:)/i;
const WORD = /[\p{L}\p{N}]/u;
/**
 * What a formatting character may not touch on its inner side: white space, and the zero-width
 * space that apps put beside a character of user text to keep it from formatting.
 */
const SPACE = /[\s\u200b]/;

function entity(body: string): Inline {
  const bar = body.indexOf('|');
  const target = bar === -1 ? body : body.slice(0, bar);
  const label = bar === -1 ? undefined : unescapeEntities(body.slice(bar + 1));
  if (target.startsWith('@')) return { k: 'user', id: target.slice(1), label };
  if (target.startsWith('#')) return { k: 'channel', id: target.slice(1), label };
  if (target.startsWith('!')) {
    const [kind = '', ...args] = target.slice(1).split('^');
    if (kind === 'date') {
      return {
        k: 'date',
        seconds: args[0] ?? '',
        format: unescapeEntities(args[1] ?? ''),
        link: args[2] && SAFE_URL.test(args[2]) ? unescapeEntities(args[2]) : undefined,
        fallback: label ?? '',
      };
    }
    if (kind === 'subteam') return { k: 'special', text: label ?? '@group' };
    if (kind === 'here' || kind === 'channel' || kind === 'everyone') {
      return { k: 'special', text: `@${kind}` };
    }
    return { k: 'text', text: label ?? '' };
  }
  const url = unescapeEntities(target);
  // Only web and mail links become links; any other scheme is shown as its label, inert.
  if (SAFE_URL.test(url)) return { k: 'link', url, label: label ?? url };
  return { k: 'text', text: label ?? url };
}

function opensAt(s: string, i: number): boolean {
  const before = i === 0 ? '' : s[i - 1]!;
  const after = s[i + 1] ?? '';
  return !WORD.test(before) && after !== '' && !SPACE.test(after);
}

function closeOf(s: string, i: number, marker: string): number {
  for (let k = i + 2; k < s.length; k++) {
    const c = s[k]!;
    if (c === '\n') return -1;
    if (c === '<') {
      const end = s.indexOf('>', k);
      if (end !== -1) k = end;
      continue;
    }
    if (c === marker && !SPACE.test(s[k - 1]!) && !WORD.test(s[k + 1] ?? '')) return k;
  }
  return -1;
}

const MARKERS = new Map<string, 'bold' | 'italic' | 'strike'>([
  ['*', 'bold'],
  ['_', 'italic'],
  ['~', 'strike'],
]);

export function parseInline(s: string): Inline[] {
  const out: Inline[] = [];
  let buf = '';
  const flush = () => {
    if (buf) out.push({ k: 'text', text: unescapeEntities(buf) });
    buf = '';
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\n') {
      flush();
      out.push({ k: 'br' });
      i++;
      continue;
    }
    if (c === '<') {
      const end = s.indexOf('>', i);
      const body = end === -1 ? '' : s.slice(i + 1, end);
      if (body && !body.includes('<') && !body.includes('\n')) {
        flush();
        out.push(entity(body));
        i = end + 1;
        continue;
      }
    }
    if (c === '`' && !SPACE.test(s[i + 1] ?? ' ')) {
      const end = s.indexOf('`', i + 1);
      if (end > i + 1 && !s.slice(i + 1, end).includes('\n') && !SPACE.test(s[end - 1]!)) {
        flush();
        out.push({ k: 'code', text: unescapeEntities(s.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    if (c === ':') {
      const match = /^:([a-z0-9_+'-]+):/.exec(s.slice(i));
      const char = match ? emojiFor(match[1]!) : undefined;
      if (match && char) {
        flush();
        out.push({ k: 'emoji', name: match[1]!, char });
        i += match[0].length;
        continue;
      }
    }
    const kind = MARKERS.get(c);
    if (kind && opensAt(s, i)) {
      const end = closeOf(s, i, c);
      if (end !== -1) {
        flush();
        out.push({ k: kind, children: parseInline(s.slice(i + 1, end)) });
        i = end + 1;
        continue;
      }
    }
    buf += c;
    i++;
  }
  flush();
  return out;
}

const QUOTE = /^(?:&gt;|>) ?/;
const BULLET = /^\s*(?:[•◦▪-]|\*(?=\s))\s+(.*)$/;
const NUMBERED = /^\s*\d+[.)]\s+(.*)$/;

function lineBlocks(lines: string[]): Block[] {
  const out: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) quoted.push(lines[i++]!.replace(QUOTE, ''));
      out.push({ k: 'quote', children: lineBlocks(quoted) });
      continue;
    }
    const listRule = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : undefined;
    if (listRule) {
      const items: Inline[][] = [];
      while (i < lines.length && listRule.test(lines[i]!)) {
        items.push(parseInline(listRule.exec(lines[i++]!)![1]!));
      }
      out.push({ k: 'list', ordered: listRule === NUMBERED, items });
      continue;
    }
    const para: string[] = [];
    while (
      i < lines.length &&
      !QUOTE.test(lines[i]!) &&
      !BULLET.test(lines[i]!) &&
      !NUMBERED.test(lines[i]!)
    ) {
      para.push(lines[i++]!);
    }
    out.push({ k: 'p', children: parseInline(para.join('\n')) });
  }
  return out;
}

/** Parses a whole mrkdwn text: code fences first (their content is literal), then lines. */
export function parseMrkdwn(text: string): Block[] {
  const out: Block[] = [];
  const pieces = text.split('```');
  // An odd count of fences leaves the last one unclosed: Slack shows it literally.
  const closed = pieces.length % 2 === 1 ? pieces.length : pieces.length - 1;
  for (let n = 0; n < pieces.length; n++) {
    const piece = pieces[n]!;
    if (n % 2 === 1 && n < closed) {
      out.push({ k: 'pre', text: unescapeEntities(piece.replace(/^\n/, '').replace(/\n$/, '')) });
      continue;
    }
    const literal = n % 2 === 1 ? `\`\`\`${piece}` : piece;
    const trimmed = literal.replace(/^\n/, '').replace(/\n$/, '');
    if (trimmed) out.push(...lineBlocks(trimmed.split('\n')));
  }
  return out;
}
