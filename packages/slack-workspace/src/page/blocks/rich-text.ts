// `rich_text` blocks mapped onto the same tree mrkdwn parses into, so both render alike.
import { emojiFor } from './emoji.js';
import type { Inline, Block as MBlock } from './mrkdwn.js';

interface RichElement {
  type?: string;
  text?: string;
  url?: string;
  user_id?: string;
  channel_id?: string;
  usergroup_id?: string;
  range?: string;
  name?: string;
  unicode?: string;
  timestamp?: number;
  format?: string;
  fallback?: string;
  style?: unknown;
  elements?: RichElement[];
}

function styled(node: Inline, style: unknown): Inline {
  if (!style || typeof style !== 'object') return node;
  const s = style as Record<string, unknown>;
  let out = node;
  if (s.code && node.k === 'text') out = { k: 'code', text: node.text };
  if (s.strike) out = { k: 'strike', children: [out] };
  if (s.italic) out = { k: 'italic', children: [out] };
  if (s.bold) out = { k: 'bold', children: [out] };
  return out;
}

function fromCodePoints(unicode: string): string | undefined {
  const points = unicode.split('-').map((p) => Number.parseInt(p, 16));
  if (points.some((p) => !Number.isInteger(p) || p < 0 || p > 0x10ffff)) return undefined;
  return String.fromCodePoint(...points);
}

function inline(el: RichElement): Inline[] {
  switch (el.type) {
    case 'text': {
      const parts = (el.text ?? '').split('\n');
      return parts.flatMap((part, i) => {
        const node = styled({ k: 'text', text: part }, el.style);
        return i === 0 ? [node] : [{ k: 'br' } as Inline, node];
      });
    }
    case 'link': {
      const url = el.url ?? '';
      const label = el.text || url;
      const node: Inline = /^(https?:|mailto:)/i.test(url)
        ? { k: 'link', url, label }
        : { k: 'text', text: label };
      return [styled(node, el.style)];
    }
    case 'user':
      return [{ k: 'user', id: el.user_id ?? '' }];
    case 'channel':
      return [{ k: 'channel', id: el.channel_id ?? '' }];
    case 'usergroup':
      return [{ k: 'special', text: '@group' }];
    case 'broadcast':
      return [{ k: 'special', text: `@${el.range ?? 'here'}` }];
    case 'emoji': {
      const name = el.name ?? '';
      const char = (el.unicode && fromCodePoints(el.unicode)) || emojiFor(name);
      return [char ? { k: 'emoji', name, char } : { k: 'text', text: `:${name}:` }];
    }
    case 'date':
      return [
        {
          k: 'date',
          seconds: String(el.timestamp ?? ''),
          format: el.format ?? '',
          fallback: el.fallback ?? '',
        },
      ];
    default:
      return [];
  }
}

function section(el: RichElement): Inline[] {
  return (el.elements ?? []).flatMap(inline);
}

export function richTextBlocks(elements: unknown): MBlock[] {
  if (!Array.isArray(elements)) return [];
  return (elements as RichElement[]).flatMap((el): MBlock[] => {
    switch (el.type) {
      case 'rich_text_section':
        return [{ k: 'p', children: section(el) }];
      case 'rich_text_quote':
        return [{ k: 'quote', children: [{ k: 'p', children: section(el) }] }];
      case 'rich_text_preformatted':
        return [
          {
            k: 'pre',
            text: (el.elements ?? []).map((e) => e.text ?? e.url ?? '').join(''),
          },
        ];
      case 'rich_text_list':
        return [
          {
            k: 'list',
            ordered: el.style === 'ordered',
            items: (el.elements ?? []).map(section),
          },
        ];
      default:
        return [];
    }
  });
}
