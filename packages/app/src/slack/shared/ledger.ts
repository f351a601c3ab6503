/**
 * Reading balances for a person with their own token, in the shapes core's summaries take, and
 * finding a group by the name someone typed. Balances are always read fresh (never from the
 * directory's cache): a balance shown a few minutes stale would make Settle up pay a wrong amount.
 */
import type { FriendInput, GroupInput } from '../../core/balances.js';
import type { Friend, Group } from '../../service/index.js';
import type { Voice } from '../../voice/index.js';
import { mrkdwn } from '../kit/text.js';

const named = <T extends { last_name?: string | null }>(p: T) => ({
  ...p,
  last_name: p.last_name ?? null,
});

export function toFriendInput(friend: Friend): FriendInput {
  return named(friend);
}

export function toGroupInput(group: Group): GroupInput {
  return { ...group, members: group.members.map(named) };
}

/** Keeps only `currency` (already upper case) in every balance and debt, when one is given. */
export function onlyCurrency<T extends FriendInput | GroupInput>(
  items: T[],
  currency: string | null | undefined,
): T[] {
  if (!currency) return items;
  const keep = <E extends { currency_code: string }>(list: E[]) =>
    list.filter((e) => e.currency_code.toUpperCase() === currency);
  return items.map((item) =>
    'balance' in item
      ? {
          ...item,
          balance: keep(item.balance),
          groups: item.groups.map((g) => ({ ...g, balance: keep(g.balance) })),
        }
      : {
          ...item,
          members: item.members.map((m) => ({ ...m, balance: keep(m.balance) })),
          simplified_debts: keep(item.simplified_debts),
          ...(item.original_debts ? { original_debts: keep(item.original_debts) } : {}),
        },
  );
}

type GroupMatch =
  | { kind: 'found'; group: Group }
  | { kind: 'ambiguous'; groups: Group[] }
  | { kind: 'unknown'; groups: Group[] };

/**
 * The group a typed name means: the exact name (case-insensitive), else the only group whose name
 * starts with it, else the only one that contains it. Several candidates are ambiguous; none is
 * unknown. `groups` are the real groups (not the "non-group" id 0).
 */
export function matchGroup(groups: readonly Group[], typed: string): GroupMatch {
  const real = groups.filter((g) => g.id !== 0);
  const want = typed
    .trim()
    .toLowerCase()
    .replace(/^["“]|["”]$/g, '');
  const norm = (g: Group) => g.name.trim().toLowerCase();
  for (const pick of [
    (g: Group) => norm(g) === want,
    (g: Group) => norm(g).startsWith(want),
    (g: Group) => norm(g).includes(want),
  ]) {
    const found = real.filter(pick);
    if (found.length === 1) return { kind: 'found', group: found[0]! };
    if (found.length > 1) return { kind: 'ambiguous', groups: found };
  }
  return { kind: 'unknown', groups: real };
}

/** "\"Roommates\", \"Trip to Rome\" and 3 more", escaped for mrkdwn. */
function groupNames(
  voice: Voice,
  groups: readonly Pick<Group, 'name'>[],
  join: 'list' | 'alternatives',
  max = 10,
): string {
  const names = groups
    .slice(0, max)
    .map((g) => voice.t('balances.group_name', { name: mrkdwn(g.name) }));
  const more = groups.length - names.length;
  return voice[join](
    more > 0 ? [...names, voice.t('balances.groups_more', { count: more })] : names,
  );
}

/**
 * The sentence for a group name that matched none of the person's groups, in mrkdwn: one
 * sentence for every command that takes a group, with the groups they have.
 */
export function noGroupCalledText(
  voice: Voice,
  typed: string,
  groups: readonly Pick<Group, 'name'>[],
): string {
  const name = voice.t('balances.group_name', { name: mrkdwn(typed) });
  return groups.length > 0
    ? voice.t('balances.group_unknown', { name, groups: groupNames(voice, groups, 'list') })
    : voice.t('balances.group_unknown_none', { name });
}

/** The sentence for a name that matched no group or several, in mrkdwn. */
export function unmatchedGroupText(
  voice: Voice,
  typed: string,
  match: Exclude<GroupMatch, { kind: 'found' }>,
): string {
  if (match.kind === 'ambiguous') {
    return voice.t('balances.group_ambiguous', {
      name: voice.t('balances.group_name', { name: mrkdwn(typed) }),
      groups: groupNames(voice, match.groups, 'alternatives'),
    });
  }
  return noGroupCalledText(voice, typed, match.groups);
}
