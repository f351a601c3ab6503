/**
 * A group's saved default split (`/split group default ...`) and a channel's activity feed
 * (`/split feed on|off`). A default holds percentages or shares only: those fit any cost, while
 * amounts fit one cost and would have to be refused for every other.
 */
import { parseMinor } from '../money.js';
import { FULL_PERCENT, formatPercent } from '../split.js';
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
const CLEAR_WORDS = ['clear', 'off', 'none', 'remove', 'delete', 'reset', 'forget'];
const NAME_FILLERS = ['in', 'for', 'of', 'group', 'to', ':'];

/** `group default [<group>] [people with percentages or shares | clear]`. */
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
  const filler = (w: string) => NAME_FILLERS.includes(w.toLowerCase());
  let start = 0;
  let end = words.length;
  while (start < end && filler(words[start]!)) start++;
  while (end > start && filler(words[end - 1]!)) end--;
  const name = trimBoth(words.slice(start, end).join(' '), /[,;\s]/);
  const group = name === '' ? null : name;
  if (cleared) {
    if (people.length > 0)
      return fail('Clear the default, or set a new one: not both at once.', DEFAULT_EXAMPLE);
    return { kind: 'group_default', group, action: 'clear' };
  }
  if (people.length === 0) return { kind: 'group_default', group, action: 'show' };
  return { kind: 'group_default', group, action: 'set', split: defaultSplitOf(people) };
}

function isClear(word: string): boolean {
  return CLEAR_WORDS.includes(word.toLowerCase());
}

function defaultSplitOf(people: ReturnType<typeof takePeople>['people']): DefaultSplit {
  const missing = people.find((p) => p.value === null);
  if (missing) {
    const who = missing.id === ME ? 'yourself' : `<@${missing.id}>`;
    stop(
      `Give ${who} a percentage or a share too: a default names everyone's part.`,
      DEFAULT_EXAMPLE,
    );
  }
  if (people.some((p) => p.value?.kind === 'amount')) {
    stop(
      'A default split is in percentages (60%) or shares (2x), which fit any cost; an amount fits one cost only.',
      DEFAULT_EXAMPLE,
    );
  }
  const kinds = new Set(people.map((p) => p.value!.kind));
  if (kinds.size > 1) {
    stop('Use one kind: percentages for everyone, or shares (2x) for everyone.', DEFAULT_EXAMPLE);
  }
  if (kinds.has('percent')) {
    const percents = people.map((p) => {
      const v = p.value as { decimal: string; raw: string };
      try {
        return { id: p.id, basisPoints: parseMinor(v.decimal, 2) };
      } catch {
        return stop(`Percentages take at most two decimals ("${v.raw}").`, DEFAULT_EXAMPLE);
      }
    });
    const total = percents.reduce((sum, p) => sum + p.basisPoints, 0);
    if (total !== FULL_PERCENT) {
      stop(`The percentages add up to ${formatPercent(total)}, not 100%.`, DEFAULT_EXAMPLE);
    }
    return { kind: 'percent', percents };
  }
  return {
    kind: 'shares',
    shares: people.map((p) => {
      const v = p.value as { count: string; raw: string };
      if (!/^\d+$/.test(v.count) || Number(v.count) < 1) {
        stop(
          `Shares are whole numbers from 1 ("${v.raw}" is not).`,
          '/split group default Roommates me 2x @ann 1x',
        );
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
  return fail(
    `I don't know "feed ${tokens.map((t) => t.raw).join(' ')}". Try feed on or feed off.`,
    '/split feed on',
  );
}
