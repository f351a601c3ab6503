/**
 * Balances between two people, read from the per-group ledgers that State keeps up to date. A
 * group that simplifies debts shows its simplified debts; every other group its pairwise ones.
 */
import type { GroupRecord } from './model.js';
import type { State } from './state.js';

/** What `other` owes `me` inside one group (undefined = non-group), per currency. */
export function groupBalanceBetween(
  state: State,
  me: number,
  other: number,
  group: GroupRecord | undefined,
): Map<string, number> {
  const ledger = state.ledgers.get(group?.id ?? 0);
  if (!ledger) return new Map();
  if (!group?.simplify_by_default) return ledger.owedTo(me, other);
  const out = new Map<string, number>();
  for (const d of ledger.simplifiedDebts()) {
    if (d.from === other && d.to === me) out.set(d.currency, (out.get(d.currency) ?? 0) + d.amount);
    if (d.from === me && d.to === other) out.set(d.currency, (out.get(d.currency) ?? 0) - d.amount);
  }
  return out;
}

export interface FriendBalances {
  total: Map<string, number>;
  groups: { group_id: number; balance: Map<string, number> }[];
}

/**
 * Per-group and total balance of `friend` from `me`'s side (positive = friend owes me): every
 * live group they share, then group 0.
 */
export function friendBalances(state: State, me: number, friend: number): FriendBalances {
  const total = new Map<string, number>();
  const groups: FriendBalances['groups'] = [];
  const add = (groupId: number, balance: Map<string, number>) => {
    groups.push({ group_id: groupId, balance });
    for (const [currency, amount] of balance) {
      total.set(currency, (total.get(currency) ?? 0) + amount);
    }
  };
  for (const group of state.sharedGroups(me, friend)) {
    if (group.deleted_at !== null) continue;
    add(group.id, groupBalanceBetween(state, me, friend, group));
  }
  add(0, groupBalanceBetween(state, me, friend, undefined));
  return { total, groups };
}

export function friendHasBalance(state: State, me: number, friend: number): boolean {
  for (const amount of friendBalances(state, me, friend).total.values()) {
    if (amount !== 0) return true;
  }
  return false;
}
