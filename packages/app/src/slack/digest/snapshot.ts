/**
 * What the last DM showed, kept so that the next one can say what changed. Only friends with
 * something outstanding are kept, in integer minor units: a few dozen numbers per person.
 */
import { displayName, type FriendInput, friendBalance } from '../../core/balances.js';
import type { BalanceSnapshot } from '../../store/digest.js';

export type { BalanceSnapshot };

interface BalanceChange {
  name: string;
  currency: string;
  /** Minor units, positive = the friend owes me; 0 = nothing was / is outstanding. */
  before: number;
  after: number;
}

export function snapshotOf(friends: readonly FriendInput[]): BalanceSnapshot {
  const snapshot: BalanceSnapshot = { friends: {} };
  for (const friend of friends) {
    const total = friendBalance(friend).total;
    if (total.length === 0) continue;
    snapshot.friends[String(friend.id)] = {
      name: displayName(friend),
      amounts: Object.fromEntries(total.map((m) => [m.currency, m.amount])),
    };
  }
  return snapshot;
}

export function isEmptySnapshot(snapshot: BalanceSnapshot): boolean {
  return Object.keys(snapshot.friends).length === 0;
}

/**
 * Every friend and currency whose amount differs between two snapshots, by name then currency.
 * With no previous snapshot (the first DM) nothing is reported as changed: the balances
 * themselves are the news.
 */
export function changesBetween(
  before: BalanceSnapshot | null,
  after: BalanceSnapshot,
): BalanceChange[] {
  if (before === null) return [];
  const changes: BalanceChange[] = [];
  const ids = new Set([...Object.keys(before.friends), ...Object.keys(after.friends)]);
  for (const id of ids) {
    const was = before.friends[id];
    const now = after.friends[id];
    const name = now?.name ?? was?.name ?? `Friend ${id}`;
    const currencies = new Set([
      ...Object.keys(was?.amounts ?? {}),
      ...Object.keys(now?.amounts ?? {}),
    ]);
    for (const currency of currencies) {
      const b = was?.amounts[currency] ?? 0;
      const a = now?.amounts[currency] ?? 0;
      if (a !== b) changes.push({ name, currency, before: b, after: a });
    }
  }
  return changes.sort((x, y) => x.name.localeCompare(y.name) || (x.currency < y.currency ? -1 : 1));
}
