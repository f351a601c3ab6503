/**
 * A group's saved defaults (`/split group default ...`): the split, and the currency a `/split`
 * into the group is in when it names none; and a channel's activity feed (`/split feed on|off`).
 * A default split holds percentages or shares only: those fit any cost, while amounts fit one
 * cost and would have to be refused for every other.
 */
import { parseMinor } from '../money.js';
import { FULL_PERCENT } from '../split.js';
import { currencyOf } from './currencies.js';
import { fail, stop } from './errors.js';
import { refuseNonPeople, takePeople } from './people.js';
import { isWord, trimBoth } from './tokens.js';
import {
  type DefaultSplit,
  ME,
  type ParseContext,
  type ParseResult,
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
function takeCurrency(words: string[], ctx: ParseContext): string | null {
  const last = words[words.length - 1];
  const mark = last === undefined ? null : currencyOf(last, ctx.defaultCurrency);
  if (!mark || mark.source === 'word') return null;
  words.pop();
  const before = words[words.length - 1];
  const again = before === undefined ? null : currencyOf(before, ctx.defaultCurrency);
  if (again && again.source !== 'word' && again.code !== mark.code) {
    stop('default_two_currencies', { codes: { and: [again.code, mark.code] } }, CURRENCY_EXAMPLE);
  }
  return mark.code;
}

/**
 * `group default [<group>] [people with percentages or shares] [currency]`, or `... clear`.
 */
export function parseGroupDefault(tokens: Token[], ctx: ParseContext): ParseResult {
  refuseNonPeople(tokens);
  const scan: Scan = { tokens, used: tokens.map(() => false), ctx };
  const { people } = takePeople(scan);
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
  return { kind: 'group_default', group, action: 'set', split: defaultSplitOf(people), currency };
}

function isClear(word: string): boolean {
  return CLEAR_WORDS.includes(word.toLowerCase());
}

function defaultSplitOf(people: ReturnType<typeof takePeople>['people']): DefaultSplit {
  const missing = people.find((p) => p.value === null);
  if (missing) {
    stop(
      'default_needs_value',
      { who: missing.id === ME ? 'me' : 'other', person: { person: missing.id } },
      DEFAULT_EXAMPLE,
    );
  }
  if (people.some((p) => p.value?.kind === 'amount')) {
    stop('default_no_amounts', {}, DEFAULT_EXAMPLE);
  }
  const kinds = new Set(people.map((p) => p.value!.kind));
  if (kinds.size > 1) stop('default_one_kind', {}, DEFAULT_EXAMPLE);
  if (kinds.has('percent')) {
    const percents = people.map((p) => {
      const v = p.value as { decimal: string; raw: string };
      try {
        return { id: p.id, basisPoints: parseMinor(v.decimal, 2) };
      } catch {
        return stop('percent_decimals', { typed: v.raw }, DEFAULT_EXAMPLE);
      }
    });
    const total = percents.reduce((sum, p) => sum + p.basisPoints, 0);
    if (total !== FULL_PERCENT) {
      stop('default_percents_total', { total: { percent: total } }, DEFAULT_EXAMPLE);
    }
    return { kind: 'percent', percents };
  }
  return {
    kind: 'shares',
    shares: people.map((p) => {
      const v = p.value as { count: string; raw: string };
      if (!/^\d+$/.test(v.count) || Number(v.count) < 1) {
        stop('shares_whole', { typed: v.raw }, '/split group default Roommates me 2x @ann 1x');
      }
      return { id: p.id, shares: Number(v.count) };
    }),
  };
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
