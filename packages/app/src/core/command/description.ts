/** What is left of the text once everything with a meaning is taken out. */
import { fold, trimEnd } from './tokens.js';
import type { Token } from './types.js';
import type { Grammar } from './words.js';

/**
 * The words left, as typed, without the connecting words (English's and the person's language's:
 * `with`, `mit`, `avec`...) next to what was taken out, nor a filler first (`I`, `ich`).
 */
export function descriptionOf(tokens: Token[], used: boolean[], words: Grammar): string {
  // Consumed tokens leave a gap (null).
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
    typeof s === 'string' && words.connectors.has(fold(s.toLowerCase()));
  // Connectors next to a gap or an end ("with @ann and @bob") go with it, and so does every
  // connector next to those: a run of connectors goes whole when either side of it is a gap or
  // an end, and stays whole when words hold it on both sides. One pass, run by run.
  for (let start = 0; start < items.length; ) {
    if (!isConnector(items[start])) {
      start++;
      continue;
    }
    let end = start;
    while (end + 1 < items.length && isConnector(items[end + 1])) end++;
    const before = start === 0 ? null : items[start - 1];
    const after = end + 1 < items.length ? items[end + 1] : null;
    if (before === null || after === null) items.fill(null, start, end + 1);
    start = end + 1;
  }
  const left = items.filter((x): x is string => typeof x === 'string' && x !== '');
  let first = 0;
  let last = left.length;
  while (first < last && words.fillers.has(fold(left[first]!.toLowerCase()))) first++;
  while (first < last && isConnector(left[first])) first++;
  while (last > first && isConnector(left[last - 1])) last--;
  return trimEnd(left.slice(first, last).join(' '), /[\s,;:]/).trim();
}
