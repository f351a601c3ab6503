/**
 * Everything other than an expense: list, balance and the group commands. A list's filters take
 * the words of the person's language too (`letzte Woche`, `depuis`, `en`, `sobre`).
 */
import { currencyOf } from './currencies.js';
import { dateAt, daysBefore, mondayOf, monthStart, parseToday, ymd } from './dates.js';
import { fail, refused } from './errors.js';
import { refuseNonPeople } from './people.js';
import { isWord, trimBoth } from './tokens.js';
import type { ErrorResult, ParseContext, ParseResult, Token } from './types.js';
import { type Grammar, grammarOf } from './words.js';

type Range = 'this_week' | 'last_week' | 'this_month' | 'last_month';

function mentionsIn(tokens: Token[]): string[] {
  const ids = new Set<string>();
  for (const token of tokens) if (token.t === 'mention') ids.add(token.id);
  return [...ids];
}

/** A name from the remaining words; `skip` words are dropped at either end ("to Roommates"). */
function nameFrom(tokens: Token[], skip: readonly string[] = []): string {
  const words = tokens
    .filter((t) => t.t === 'quoted' || t.t === 'word' || t.t === 'channel')
    .map((t) =>
      t.t === 'quoted' ? t.text : t.t === 'channel' ? t.label : (t as { raw: string }).raw,
    );
  const skipped = (w: string) => skip.includes(w.toLowerCase());
  let start = 0;
  let end = words.length;
  while (start < end && skipped(words[start]!)) start++;
  while (end > start && skipped(words[end - 1]!)) end--;
  return trimBoth(words.slice(start, end).join(' '), /[,:;\s]/);
}

/** Longest search accepted: it travels in the list's paging buttons. */
const MAX_SEARCH_CHARS = 200;

/**
 * Splits what is left of a list's text (no mentions, no dates) into a group's name and search
 * words. `in`/`group` start the name, `about`/`matching`/`containing` start search words (and
 * their words in the person's language: `dans`, `über`, `sobre`...), and a
 * quoted phrase outside a name is searched as it is. Unmarked words (`list Trip to Rome`, `list
 * taxi`) are a group's name when the person has a group so called, else search words: which one,
 * only the service can tell, so they are kept apart as `loose`. Beside a group named with `in`,
 * they can only be search words.
 */
function groupAndWords(
  rest: Token[],
  verb: string,
  words: Grammar,
): { group: string | null; loose: string | null; words: string[] } | ErrorResult {
  const groupTokens: Token[] = [];
  const looseTokens: Token[] = [];
  const found: string[] = [];
  let mode: 'loose' | 'group' | 'words' = 'loose';
  let marked: 'group' | 'words' | null = null;
  // `about` with no words after it, before another marker or at the end.
  const wordless = () =>
    marked === 'words' && found.length === 0
      ? fail('search_which_words', {}, `/split ${verb} about taxi`)
      : null;
  for (const token of rest) {
    if (words.listGroup.has(token) && mode !== 'group') {
      const refusal = wordless();
      if (refusal) return refusal;
      mode = marked = 'group';
      continue;
    }
    if (words.listAbout.has(token)) {
      const refusal = wordless();
      if (refusal) return refusal;
      mode = marked = 'words';
      continue;
    }
    if (token.t === 'quoted' && mode !== 'group') {
      const phrase = token.text.replace(/\s+/g, ' ').trim();
      if (phrase !== '') found.push(phrase);
      continue;
    }
    if (mode === 'words' && token.t === 'word') {
      const word = trimBoth(token.raw, /[,:;.!?]/);
      if (word !== '') found.push(word);
      continue;
    }
    (mode === 'group' ? groupTokens : looseTokens).push(token);
  }
  const refusal = wordless();
  if (refusal) return refusal;
  const fillers = ['in', 'group', 'for', 'with', 'of'];
  const group = nameFrom(groupTokens, fillers);
  if (marked === 'group' && group === '' && !groupTokens.some((t) => t.t === 'channel'))
    return fail('list_which_group', {}, `/split ${verb} in Roommates`);
  let loose: string | null = nameFrom(looseTokens, fillers) || null;
  if (loose !== null && group !== '') {
    found.push(...searchWords(loose));
    loose = null;
  }
  if (found.join(' ').length > MAX_SEARCH_CHARS || (loose?.length ?? 0) > MAX_SEARCH_CHARS)
    return fail('search_too_long', { max: MAX_SEARCH_CHARS }, `/split ${verb} about "pizza night"`);
  return { group: group === '' ? null : group, loose, words: found };
}

/** Unmarked words as words the description must have (`list taxi airport`). */
export function searchWords(loose: string): string[] {
  return loose
    .split(/\s+/)
    .map((word) => trimBoth(word, /[,:;.!?]/))
    .filter((word) => word !== '');
}

/** The first and last day of a named range (`this week`, `letzte Woche`, `le mois dernier`). */
function rangeOf(range: Range, today: Date): { from: string; to: string } {
  switch (range) {
    case 'this_week':
      return { from: ymd(mondayOf(today)), to: ymd(today) };
    case 'this_month':
      return { from: ymd(monthStart(today)), to: ymd(today) };
    case 'last_week':
      return { from: ymd(daysBefore(mondayOf(today), 7)), to: ymd(daysBefore(mondayOf(today), 1)) };
    case 'last_month':
      return { from: ymd(monthStart(today, 1)), to: ymd(daysBefore(monthStart(today), 1)) };
  }
}

export function parseList(
  tokens: Token[],
  ctx: ParseContext,
  kind: 'list' | 'export' = 'list',
): ParseResult {
  const nonPerson = refuseNonPeople(tokens);
  if (nonPerson) return nonPerson;
  const words = grammarOf(ctx);
  const today = parseToday(ctx.today);
  const used = tokens.map((t) => t.t === 'mention');
  let from: string | null = null;
  let to: string | null = null;
  const example = `/split ${kind} @ann in Roommates from 2026-11-01 to 2026-11-20`;
  for (let i = 0; i < tokens.length; i++) {
    if (used[i]) continue;
    const range = words.ranges.at(tokens, i, used);
    if (range) {
      ({ from, to } = rangeOf(range.value, today));
      for (let k = i; k < i + range.length; k++) used[k] = true;
      i += range.length - 1;
      continue;
    }
    const lower = tokens[i]?.t === 'word' ? (tokens[i] as { lower: string }).lower : '';
    const nextLower = tokens[i + 1]?.t === 'word' ? (tokens[i + 1] as { lower: string }).lower : '';
    const daysMatch = lower === 'last' && /^\d+$/.test(nextLower) && tokens[i + 2]?.t === 'word';
    if (daysMatch && /^days?$/.test((tokens[i + 2] as { lower: string }).lower)) {
      from = ymd(daysBefore(today, Math.max(Number(nextLower) - 1, 0)));
      to = ctx.today;
      used[i] = used[i + 1] = used[i + 2] = true;
      continue;
    }
    // A bound, a word for "on", or both (`depuis le 1/11`, `desde el 1/11`).
    const bound = words.bounds.at(tokens, i, used);
    const afterBound = i + (bound?.length ?? 0);
    const at = afterBound + (words.on.at(tokens, afterBound, used)?.length ?? 0);
    const match = dateAt(tokens, at, ctx, true, { future: true, example }, today, words);
    if (refused(match)) return match;
    if (!match) {
      // `to` and the words for "on" are as often no bound at all (`list Trip to Rome`).
      if (bound && !isWord(tokens[i], 'to')) {
        const typed = tokens
          .slice(i, at)
          .map((t) => (t as { lower: string }).lower)
          .join(' ');
        return fail('date_after_unreadable', { word: typed }, example);
      }
      continue;
    }
    const day = ymd(match.date);
    if (bound?.value === 'since') from = day;
    else if (bound?.value === 'until') to = day;
    else {
      from = day;
      to = day;
    }
    for (let k = i; k < at + match.length; k++) used[k] = true;
    i = at + match.length - 1;
  }
  if (from && to && from > to) {
    return fail('range_backwards', { from: { date: from }, to: { date: to } }, example);
  }
  const filters = groupAndWords(
    tokens.filter((_, i) => !used[i]),
    kind,
    words,
  );
  if (refused(filters)) return filters;
  const { group, loose, words: found } = filters;
  return { kind, mentions: mentionsIn(tokens), group, loose, range: { from, to }, words: found };
}

export function parseBalance(tokens: Token[], ctx: ParseContext): ParseResult {
  const nonPerson = refuseNonPeople(tokens);
  if (nonPerson) return nonPerson;
  const mentions = mentionsIn(tokens);
  if (mentions.length > 1) {
    return fail('one_person', {}, '/split balance @ann');
  }
  const { listGroup } = grammarOf(ctx);
  const rest = tokens.filter((t) => t.t !== 'mention');
  const words = rest.filter(
    (t) => !isWord(t, 'with', 'in', 'for', 'of', 'group', 'and') && !listGroup.has(t),
  );
  let currency: string | null = null;
  const last = words[words.length - 1];
  const mark = last?.t === 'word' ? currencyOf(last.raw, ctx.defaultCurrency) : null;
  if (mark && mark.source !== 'word') {
    currency = mark.code;
    words.pop();
  }
  const group = nameFrom(words);
  if (mentions.length === 1 && group !== '') {
    return fail('person_or_group', {}, '/split balance @ann');
  }
  return {
    kind: 'balance',
    mention: mentions[0] ?? null,
    group: group === '' ? null : group,
    currency,
  };
}

export function parseGroup(tokens: Token[]): ParseResult {
  const nonPerson = refuseNonPeople(tokens);
  if (nonPerson) return nonPerson;
  const sub = tokens[0]?.t === 'word' ? (tokens[0] as { lower: string }).lower : '';
  const rest = tokens.slice(1);
  const mentions = mentionsIn(rest);
  const name = nameFrom(
    rest.filter((t) => t.t !== 'mention'),
    sub === 'add' ? ['to', 'into', 'and', ','] : ['with', 'and', ','],
  );
  switch (sub) {
    case '':
    case 'list':
    case 'ls':
      return { kind: 'groups' };
    case 'create':
    case 'new':
    case 'make':
      if (name === '')
        return fail('group_name_missing', {}, '/split group create Roommates @ann @bob');
      return { kind: 'group_create', name, mentions };
    case 'add':
      if (mentions.length === 0)
        return fail('group_who_joins', {}, '/split group add @cho Roommates');
      if (name === '') return fail('group_which_join', {}, '/split group add @cho Roommates');
      return { kind: 'group_add', mentions, group: name };
    case 'delete':
    case 'remove':
    case 'rm':
      if (name === '') return fail('group_which_delete', {}, '/split group delete Roommates');
      return { kind: 'group_delete', name };
    case 'use':
    case 'bind':
      if (name === '') return fail('group_which_use', {}, '/split group use Roommates');
      return { kind: 'group_use', name };
    default:
      return fail('group_unknown_sub', { typed: sub }, '/split group create Roommates @ann @bob');
  }
}
