/** What is left of the text once everything with a meaning is taken out. */
import { CONNECTORS, LEADING_FILLERS } from './keywords.js';
import { DEFAULT_DESCRIPTION, type Token } from './types.js';

export function descriptionOf(tokens: Token[], used: boolean[]): string {
  // Consumed tokens leave a gap; connectors next to a gap ("with @ann and @bob") go with it.
  const items: Array<string | null> = tokens.map((token, i) => {
    if (used[i]) return null;
    switch (token.t) {
      case 'quoted':
        return token.text;
      case 'channel':
        return `#${token.label}`;
      case 'link':
        return token.label;
      case 'word':
        return token.raw;
      default:
        return null;
    }
  });
  const isConnector = (s: string | null | undefined) =>
    typeof s === 'string' && CONNECTORS.has(s.toLowerCase());
  let changed = true;
  while (changed) {
    changed = false;
    for (let i = 0; i < items.length; i++) {
      if (!isConnector(items[i])) continue;
      const before = i === 0 ? null : items[i - 1];
      const after = i + 1 < items.length ? items[i + 1] : null;
      if (before === null || after === null) {
        items[i] = null;
        changed = true;
      }
    }
    for (let i = items.length - 1; i > 0; i--) {
      if (items[i] === null && items[i - 1] === null) items.splice(i, 1);
    }
  }
  const words = items.filter((x): x is string => typeof x === 'string' && x !== '');
  while (words.length > 0 && LEADING_FILLERS.has(words[0]!.toLowerCase())) words.shift();
  while (words.length > 0 && isConnector(words[0])) words.shift();
  while (words.length > 0 && isConnector(words[words.length - 1])) words.pop();
  const text = words
    .join(' ')
    .replace(/[\s,;:]+$/, '')
    .trim();
  return text === '' ? DEFAULT_DESCRIPTION : text;
}
