/**
 * Parsing of everything typed after `/split`, deterministic and without I/O. The grammar and the
 * rules chosen for ambiguous text are written for people in docs/split-syntax.md; this folder is
 * the one place that implements them. User input never makes it throw: anything it cannot read
 * becomes an `error` result with a short message and an example that works, returned by the step
 * that found it and handed up by each caller (errors.ts).
 */
import { EX, fail } from './errors.js';
import { parseExpense } from './expense.js';
import { parseFeed, parseGroupDefault } from './group-settings.js';
import { parseHelp } from './help.js';
import { parsePayment, parseRemind } from './payment.js';
import { parseBalance, parseGroup, parseList } from './subcommands.js';
import { isWord, tokenize, trimEnd } from './tokens.js';
import type { ParseContext, ParseResult } from './types.js';
import { ANYWHERE } from './words.js';

function parseInner(text: string, ctx: ParseContext): ParseResult {
  const tokens = tokenize(text);
  if (tokens.length === 0) return { kind: 'open_modal' };
  const first = tokens[0]!;
  const head = first.t === 'word' ? trimEnd(first.lower, /[?!.]/) : '';
  const rest = tokens.slice(1);
  const phrase = trimEnd(
    tokens.map((t) => (t.t === 'word' ? t.lower : '\u0000')).join(' '),
    /[?!.]/,
  );
  switch (head) {
    case 'ヘルプ':
      return parseHelp(rest);
    case 'connect':
    case 'login':
    case 'link':
      return { kind: 'connect' };
    case 'disconnect':
    case 'logout':
    case 'unlink':
      return { kind: 'disconnect' };
    case 'whoami':
      return { kind: 'whoami' };
    case 'undo':
      return { kind: 'undo' };
    case 'groups':
      return { kind: 'groups' };
    case 'group':
      if (isWord(rest[0], 'default', 'defaults')) return parseGroupDefault(rest.slice(1), ctx);
      return parseGroup(rest);
    case 'feed':
      return parseFeed(rest);
  }
  // Balance, list, export, remind and help, in every language (lexicon/).
  // A lone `?` is help too; as a closing mark it is trimmed from the other words.
  switch (first.t === 'word' && /^\?+$/.test(first.raw) ? 'help' : ANYWHERE.firstWords.one(first)) {
    case 'balance':
      return parseBalance(rest, ctx);
    case 'list':
      return parseList(rest, ctx);
    case 'export':
      return parseList(rest, ctx, 'export');
    case 'remind':
      return parseRemind(rest);
    case 'help': {
      // `aide` is also an English word (`/split aide 40 @ann`): the words for help of other
      // languages count on their own, or before a topic's name.
      const help = parseHelp(rest);
      if (!ANYWHERE.helpAbroad.has(first) || rest.length === 0 || help.topic !== null) return help;
    }
  }
  if (phrase === 'who am i') return { kind: 'whoami' };
  if (head === 'show') {
    return parseList(
      rest.filter((t) => !isWord(t, 'me', 'my', 'history', 'expenses', 'all')),
      ctx,
    );
  }
  if (/^delete (my )?last( expense)?$/.test(phrase)) return { kind: 'undo' };
  if (/^who (should|do) i pay$|^how much do i owe$/.test(phrase)) {
    return { kind: 'balance', mention: null, group: null, currency: null };
  }
  if (/^how much do i owe\b/.test(phrase) || /^how much does\b.*\bowe me$/.test(phrase)) {
    return parseBalance(
      tokens.filter((t) => t.t !== 'word'),
      ctx,
    );
  }
  return parsePayment(tokens, ctx) ?? parseExpense(tokens, ctx);
}

/**
 * Longest text `parseCommand` reads, in characters as JavaScript counts them (UTF-16 units). A
 * command is a line or two; a cap far above that keeps the work of one parse small whatever is
 * pasted (a Slack message may hold 40,000 characters).
 */
export const MAX_COMMAND_CHARS = 4000;

/**
 * Parses the text typed after `/split`. Never throws for anything a person can type. A text
 * longer than MAX_COMMAND_CHARS is refused at once, unread.
 */
export function parseCommand(text: string, ctx: ParseContext): ParseResult {
  if (text.length > MAX_COMMAND_CHARS) {
    return fail('too_long', { count: text.length, max: MAX_COMMAND_CHARS }, EX.basic);
  }
  return parseUncapped(text, ctx);
}

/**
 * The start of `text` that parseCommand reads whole, for text written as a message rather than
 * a command ("Split this" on a message of any length). The cut goes at white space, so that no
 * number is cut short ("1234" read as "12"), and before a mention or link it would split, which
 * would then name nobody.
 */
export function cutToCommandCap(text: string): string {
  if (text.length <= MAX_COMMAND_CHARS) return text;
  let end = MAX_COMMAND_CHARS;
  while (end > 0 && !/\s/.test(text[end]!)) end--;
  const kept = text.slice(0, end === 0 ? MAX_COMMAND_CHARS : end);
  const open = kept.lastIndexOf('<');
  return open > kept.lastIndexOf('>') ? kept.slice(0, open) : kept;
}

/**
 * parseCommand without its length cap, for the tests and the benchmark that time long texts.
 * Everything else calls parseCommand.
 */
export function parseUncapped(text: string, ctx: ParseContext): ParseResult {
  const defaultCurrency = ctx.defaultCurrency.toUpperCase();
  // Copied only when the case changes: the service gives codes in capitals.
  return parseInner(
    text,
    defaultCurrency === ctx.defaultCurrency ? ctx : { ...ctx, defaultCurrency },
  );
}
