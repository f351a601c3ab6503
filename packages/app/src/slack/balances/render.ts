/**
 * Balance messages built from a fresh read with the person's own token: all balances (2 service
 * calls: friends and groups, in parallel), one friend (friends and groups, for the groups' names),
 * one group (1 call).
 */
import { friendBalance, summarizeBalances, summarizeGroup } from '../../core/balances.js';
import type { Friend, Group, ServiceClient } from '../../service/index.js';
import type { Voice } from '../../voice/index.js';
import type { SlackMessage } from '../kit/message.js';
import { onlyCurrency, toFriendInput, toGroupInput } from '../shared/ledger.js';
import { allBalancesMessage, friendBalanceMessage, groupBalanceMessage } from './views.js';

interface RenderOptions {
  currency?: string | null | undefined;
  /** A line shown first, mrkdwn already written. */
  notice?: string | undefined;
  /** Listed first: the person's default currency. */
  preferredCurrency?: string | undefined;
}

export function allFrom(
  friends: Friend[],
  groups: Group[],
  me: number,
  o: RenderOptions,
  voice: Voice,
): SlackMessage {
  const summaryOptions = o.preferredCurrency ? { preferredCurrency: o.preferredCurrency } : {};
  const f = onlyCurrency(friends.map(toFriendInput), o.currency);
  const g = onlyCurrency(groups.filter((x) => x.id !== 0).map(toGroupInput), o.currency);
  return allBalancesMessage(
    {
      summary: summarizeBalances(f, summaryOptions),
      groups: g.map((x) => ({
        name: x.name,
        balance: summarizeGroup(x, me, summaryOptions).myBalance,
      })),
      currency: o.currency,
      notice: o.notice,
    },
    voice,
  );
}

export async function renderAll(
  client: ServiceClient,
  me: number,
  o: RenderOptions,
  voice: Voice,
): Promise<SlackMessage> {
  const [friends, groups] = await Promise.all([client.getFriends(), client.getGroups()]);
  return allFrom(friends, groups, me, o, voice);
}

export function friendFrom(
  friend: Friend,
  groups: Group[],
  o: RenderOptions,
  voice: Voice,
): SlackMessage {
  const names = new Map(groups.map((g) => [g.id, g.name]));
  const [input] = onlyCurrency([toFriendInput(friend)], o.currency);
  return friendBalanceMessage(
    {
      friend: friendBalance(
        input!,
        names,
        o.preferredCurrency ? { preferredCurrency: o.preferredCurrency } : {},
      ),
      currency: o.currency,
      notice: o.notice,
    },
    voice,
  );
}

export async function renderFriend(
  client: ServiceClient,
  friendId: number,
  o: RenderOptions,
  voice: Voice,
): Promise<SlackMessage> {
  const [friend, groups] = await Promise.all([client.getFriend(friendId), client.getGroups()]);
  return friendFrom(friend, groups, o, voice);
}

export function groupFrom(group: Group, me: number, o: RenderOptions, voice: Voice): SlackMessage {
  const [input] = onlyCurrency([toGroupInput(group)], o.currency);
  return groupBalanceMessage(
    {
      group: summarizeGroup(
        input!,
        me,
        o.preferredCurrency ? { preferredCurrency: o.preferredCurrency } : {},
      ),
      me,
      currency: o.currency,
      notice: o.notice,
    },
    voice,
  );
}

export async function renderGroup(
  client: ServiceClient,
  groupId: number,
  me: number,
  o: RenderOptions,
  voice: Voice,
): Promise<SlackMessage> {
  return groupFrom(await client.getGroup(groupId), me, o, voice);
}
