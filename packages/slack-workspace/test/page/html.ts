// A small reader for the markup preact-render-to-string produces (well-formed, attributes always
// double-quoted), so renderer tests can assert on elements, roles and text instead of on strings.
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

export interface El {
  tag: string;
  attrs: Map<string, string>;
  children: (El | string)[];
}

const VOID = new Set([
  'area',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
]);

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

export function parseHtml(html: string): El {
  const root: El = { tag: '#root', attrs: new Map(), children: [] };
  const stack: El[] = [root];
  const token =
    /<\/([a-zA-Z0-9-]+)\s*>|<([a-zA-Z0-9-]+)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*(\/?)>|([^<]+)/g;
  for (let m = token.exec(html); m; m = token.exec(html)) {
    const top = stack[stack.length - 1]!;
    if (m[1]) {
      if (top.tag !== m[1]) throw new Error(`unbalanced </${m[1]}> inside <${top.tag}>`);
      stack.pop();
    } else if (m[2]) {
      const attrs = new Map<string, string>();
      for (const a of (m[3] ?? '').matchAll(/([^\s=>/]+)(?:="([^"]*)")?/g)) {
        attrs.set(a[1]!, decode(a[2] ?? ''));
      }
      const el: El = { tag: m[2], attrs, children: [] };
      top.children.push(el);
      if (!VOID.has(m[2]) && !m[4]) stack.push(el);
    } else if (m[5]) {
      top.children.push(decode(m[5]));
    }
  }
  if (stack.length !== 1) throw new Error('unclosed elements');
  return root;
}

export function render<P>(vnode: VNode<P>): El {
  return parseHtml(renderToString(vnode));
}

export function all(root: El, test: (el: El) => boolean): El[] {
  const out: El[] = [];
  const walk = (el: El) => {
    for (const child of el.children) {
      if (typeof child === 'string') continue;
      if (test(child)) out.push(child);
      walk(child);
    }
  };
  walk(root);
  return out;
}

export function byTag(root: El, tag: string): El[] {
  return all(root, (el) => el.tag === tag);
}

export function byRole(root: El, role: string): El[] {
  return all(root, (el) => el.attrs.get('role') === role);
}

export function byClass(root: El, cls: string): El[] {
  return all(root, (el) => (el.attrs.get('class') ?? '').split(/\s+/).includes(cls));
}

export function one(list: El[]): El {
  if (list.length !== 1) throw new Error(`expected one element, found ${list.length}`);
  return list[0]!;
}

export function text(el: El | string): string {
  if (typeof el === 'string') return el;
  if (el.tag === 'br') return '\n';
  return el.children.map(text).join('');
}

export function byId(root: El, id: string): El {
  return one(all(root, (el) => el.attrs.get('id') === id));
}

/** The text of the label a form field is named by (label[for] or aria-labelledby). */
export function labelOf(root: El, field: El): string {
  const labelledBy = field.attrs.get('aria-labelledby');
  if (labelledBy) return text(byId(root, labelledBy));
  const id = field.attrs.get('id');
  const label = id ? all(root, (el) => el.tag === 'label' && el.attrs.get('for') === id) : [];
  if (label[0]) return text(label[0]);
  return field.attrs.get('aria-label') ?? '';
}
