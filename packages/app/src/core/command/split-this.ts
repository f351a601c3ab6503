/**
 * "Split this": what a person writes to the app, in a thread, to book the thread's first message
 * through the form (as the message shortcut does). Written in any of the languages the app
 * speaks (lexicon/ has the phrases), with or without accents, case or a closing mark; nothing
 * else counts, so that `split this 40` stays an expense typed in full.
 */
import { fold } from './tokens.js';
import { SPLIT_THIS_PHRASES } from './words.js';

/**
 * Longest text that can be one of the phrases: the longest with a closing mark or two and the
 * spaces a person leaves. Anything longer is no phrase and is not read, whatever it holds.
 */
const MAX_PHRASE_CHARS = 64;

/** Marks a phrase may close with ("split this!", "割り勘。"). */
const CLOSING = new Set(['.', '!', '?', '。', '！', '？']);

/** The text without the closing marks at its end, found by walking back from it. */
function withoutClosing(text: string): string {
  let end = text.length;
  while (end > 0 && CLOSING.has(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/** Whether the text, the app's mention taken out, asks to split the thread's first message. */
export function isSplitThis(text: string): boolean {
  if (text.length > MAX_PHRASE_CHARS) return false;
  const folded = fold(text.trim().toLowerCase()).replace(/[\s\u3000]+/g, ' ');
  return SPLIT_THIS_PHRASES.has(withoutClosing(folded).trim());
}
