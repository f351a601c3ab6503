/**
 * A group's saved defaults (`/split group default ...`): the split, and the currency a `/split`
 * into the group is in when it names none; and a channel's activity feed (`/split feed on|off`).
 * A default split holds percentages or shares only: those fit any cost, while amounts fit one
 * cost and would have to be refused for every other.
 */
import { readMinor } from '../money.js';
import { FULL_PERCENT } from '../split.js';
import { currencyOf } from './currencies.js';
import { fail, refused } from './errors.js';
import { refuseNonPeople, takePeople } from './people.js';
import { isWord, trimBoth } from './tokens.js';
import {
  type DefaultSplit,
  type ErrorResult,
  ME,
  type ParseContext,
  type ParseResult,
  type Person,
  type Scan,
  type Token,
} from './types.js';

export const DEFAULT_EXAMPLE = '/split group default Roommates me 60% @ann 40%';
export const CURRENCY_EXAMPLE = '/split group default Roommates EUR';
const CLEAR_WORDS = ['clear', 'off', 'none', 'remove', 'delete', 'reset', 'forget'];
const NAME_FILLERS = ['in', 'for', 'of', 'group', 'to', ':', 'currency'];

/**
 * A currency code or symbol last among `words` (`EUR`, `€`), taken out of them. Words for a
 * currency (`euros`) are left to the group's name, which may hold one (`Euro trip`).
 */
function takeCurrency(words: string[], ctx: ParseContext): string | ErrorResult | null {
  const last = words[words.length - 1];
  const mark = last === undefined ? null : currencyOf(last, ctx.defaultCurrency);
  if (!mark || mark.source === 'word') return null;
  words.pop();
  const before = words[words.length - 1];
  const again = before === undefined ? null : currencyOf(before, ctx.defaultCurrency);
  if (again && again.source !== 'word' && again.code !== mark.code) {
    const codes = { and: [again.code, mark.code] };
    return fail('default_two_currencies', { codes }, CURRENCY_EXAMPLE);
  }
  return mark.code;
}

/**
 * `group default [<group>] [people with percentages or shares] [currency]`, or `... clear`.
 */
export function parseGroupDefault(tokens: Token[], ctx: ParseContext): ParseResult {
  const nonPerson = refuseNonPeople(tokens);
  if (nonPerson) return nonPerson;
  const scan: Scan = { tokens, used: tokens.map(() => false), ctx };
  const taken = takePeople(scan);
  if (refused(taken)) return taken;
  const { people } = taken;
  const words = tokens
    .filter((_, i) => !scan.used[i])
    .map((t) => (t.t === 'quoted' ? t.text : t.t === 'channel' ? t.label : t.raw));
  let cleared = false;
  if (words.length > 0 && isClear(words[0]!)) {
    words.shift();
    cleared = true;
  } else if (words.length > 0 && isClear(words[words.length - 1]!)) {
    words.pop();
    cleared = true;
  }
  const currency = takeCurrency(words, ctx);
  if (refused(currency)) return currency;
  const filler = (w: string) => NAME_FILLERS.includes(w.toLowerCase());
  let start = 0;
  let end = words.length;
  while (start < end && filler(words[start]!)) start++;
  while (end > start && filler(words[end - 1]!)) end--;
  const name = trimBoth(words.slice(start, end).join(' '), /[,;\s]/);
  const group = name === '' ? null : name;
  if (cleared) {
    if (people.length > 0 || currency !== null)
      return fail('default_clear_and_set', {}, DEFAULT_EXAMPLE);
    return { kind: 'group_default', group, action: 'clear' };
  }
  if (people.length === 0) {
    return currency === null
      ? { kind: 'group_default', group, action: 'show' }
      : { kind: 'group_default', group, action: 'currency', currency };
  }
  const split = defaultSplitOf(people);
  if (refused(split)) return split;
  return { kind: 'group_default', group, action: 'set', split, currency };
}

function isClear(word: string): boolean {
  return CLEAR_WORDS.includes(word.toLowerCase());
}

function defaultSplitOf(people: Person[]): DefaultSplit | ErrorResult {
  const missing = people.find((p) => p.value === null);
  if (missing) {
    return fail(
      'default_needs_value',
      { who: missing.id === ME ? 'me' : 'other', person: { person: missing.id } },
      DEFAULT_EXAMPLE,
    );
  }
  if (people.some((p) => p.value?.kind === 'amount')) {
    return fail('default_no_amounts', {}, DEFAULT_EXAMPLE);
  }
  const kinds = new Set(people.map((p) => p.value!.kind));
  if (kinds.size > 1) return fail('default_one_kind', {}, DEFAULT_EXAMPLE);
  if (kinds.has('percent')) {
    const percents: Array<{ id: string; basisPoints: number }> = [];
    for (const p of people) {
      const v = p.value as { decimal: string; raw: string };
      const basisPoints = readMinor(v.decimal, 2);
      if (typeof basisPoints !== 'number') {
        return fail('percent_decimals', { typed: v.raw }, DEFAULT_EXAMPLE);
      }
      percents.push({ id: p.id, basisPoints });
    }
    const total = percents.reduce((sum, p) => sum + p.basisPoints, 0);
    if (total !== FULL_PERCENT) {
      return fail('default_percents_total', { total: { percent: total } }, DEFAULT_EXAMPLE);
    }
    return { kind: 'percent', percents };
  }
  const shares: Array<{ id: string; shares: number }> = [];
  for (const p of people) {
    const v = p.value as { count: string; raw: string };
    if (!/^\d+$/.test(v.count) || Number(v.count) < 1) {
      return fail('shares_whole', { typed: v.raw }, '/split group default Roommates me 2x @ann 1x');
    }
    shares.push({ id: p.id, shares: Number(v.count) });
  }
  return { kind: 'shares', shares };
}

/** `feed`, `feed on`, `feed off`. */
export function parseFeed(tokens: Token[]): ParseResult {
  const words = tokens.filter((t) => !isWord(t, 'the', 'channel', 'activity'));
  if (words.length === 0 || (words.length === 1 && isWord(words[0], 'status', 'show')))
    return { kind: 'feed', action: 'status' };
  if (words.length === 1 && isWord(words[0], 'on', 'start', 'enable', 'yes'))
    return { kind: 'feed', action: 'on' };
  if (words.length === 1 && isWord(words[0], 'off', 'stop', 'disable', 'no'))
    return { kind: 'feed', action: 'off' };
  return fail('feed_unknown', { typed: tokens.map((t) => t.raw).join(' ') }, '/split feed on');
}
