/**
 * "Split this": what a person writes to the app, in a thread, to book the thread's first message
 * through the form (as the message shortcut does). Written in any of the languages the app
 * speaks, with or without accents, case or a closing mark; nothing else counts, so that
 * `split this 40` stays an expense typed in full.
 */
import { fold } from './tokens.js';

const PHRASES = new Set([
  'split this',
  'split it',
  // de
  'teile das',
  'das teilen',
  'aufteilen',
  // fr
  'partage ca',
  'partager ca',
  'partage ceci',
  // es
  'divide esto',
  'dividir esto',
  // pt-BR
  'divide isso',
  'dividir isso',
  'divida isso',
  // ja
  'これを割り勘',
  '割り勘',
  'これを割り勘して',
]);

/** Whether the text, the app's mention taken out, asks to split the thread's first message. */
export function isSplitThis(text: string): boolean {
  const folded = fold(text.trim().toLowerCase())
    .replace(/[\s\u3000]+/g, ' ')
    .replace(/[.!?。！？]+$/u, '')
    .trim();
  return PHRASES.has(folded);
}
