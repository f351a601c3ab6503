/**
 * Balance summaries over the service's plain data (friends and groups as the wire returns them),
 * for `/split balance`, App Home and the daily DM. Every currency is its own column: nothing is
 * converted and no currency is dropped, because the service keeps balances per currency. Amounts
 * are read from the wire's decimal strings into integer minor units, never through a float.
 *
 * The input types are structural, the minimum these functions read, so that any client's
 * resource objects (with more fields) fit.
 */
import { currencyExponent, parseMinor } from './money.js';

interface BalanceEntry {
  currency_code: string;
  /** Signed decimal string, as on the wire ("-20.13"). */
  amount: string;
}

export interface FriendInput {
  id: number;
  first_name: string;
  last_name: string | null;
  /** Positive = the friend owes me. */
  balance: BalanceEntry[];
  groups: Array<{ group_id: number; balance: BalanceEntry[] }>;
}

interface DebtInput {
  /** `from` owes `to`. */
  from: number;
  to: number;
  amount: string;
  currency_code: string;
}

interface MemberInput {
  id: number;
  first_name: string;
  last_name: string | null;
  /** Positive = the member is owed. */
  balance: BalanceEntry[];
}

export interface GroupInput {
  id: number;
  name: string;
  members: MemberInput[];
  simplify_by_default?: boolean;
  simplified_debts: DebtInput[];
  original_debts?: DebtInput[];
}

/** An amount in minor units of `currency`; its sign is explained where it is used. */
export interface Money {
  currency: string;
  amount: number;
}

interface CurrencyTotal {
  currency: string;
  /** What friends owe me, minor units, >= 0. */
  owedToMe: number;
  /** What I owe friends, minor units, >= 0. */
  iOwe: number;
  /** owedToMe - iOwe. */
  net: number;
}

export interface FriendDebt {
  id: number;
  name: string;
  currency: string;
  /** Minor units, > 0. */
  amount: number;
}

export interface BalanceSummary {
  /** One row per currency with anything outstanding: the preferred currency first, then by code. */
  totals: CurrencyTotal[];
  /** Friends who owe me, one row per friend and currency, in currency order then largest first. */
  owesMe: FriendDebt[];
  /** Friends I owe, same order. */
  iOwe: FriendDebt[];
  /** True when nothing is owed either way, in any currency. */
  settled: boolean;
}

export interface FriendBreakdown {
  id: number;
  name: string;
  /** Positive = the friend owes me; zero currencies left out. */
  total: Money[];
  /** Per shared group with something outstanding (group 0 = non-group expenses). */
  groups: Array<{ groupId: number; groupName: string | null; balance: Money[] }>;
}

interface Person {
  id: number;
  name: string;
}

export interface GroupDebt {
  from: Person;
  to: Person;
  currency: string;
  /** Minor units, > 0. */
  amount: number;
}

export interface GroupSummary {
  id: number;
  name: string;
  /** True when the debts shown are the simplified ones. */
  simplified: boolean;
  /** My position in the group, positive = I am owed; zero currencies left out. */
  myBalance: Money[];
  /** Every debt in the group, in currency order then largest first. */
  debts: GroupDebt[];
  /** The debts where someone owes me, and where I owe someone. */
  owesMe: GroupDebt[];
  iOwe: GroupDebt[];
  /** Members with their position (positive = owed), largest creditor first. */
  members: Array<Person & { balance: Money[] }>;
}

interface SummaryOptions {
  /** Listed first (the person's default currency); the others follow by code. */
  preferredCurrency?: string;
}

/** A person's display name: "Ann Lee", or "Ann" when the service has no last name. */
export function displayName(person: { first_name: string; last_name: string | null }): string {
  return [person.first_name, person.last_name ?? ''].join(' ').trim();
}

/** Minor units from a wire balance entry, with the currency's own exponent. */
export function minorOf(entry: { currency_code: string; amount: string }): number {
  return parseMinor(entry.amount, currencyExponent(entry.currency_code));
}

/** Sums entries per currency and drops the zeros, keeping the order given by `compare`. */
function toMoney(entries: readonly BalanceEntry[], compare: CurrencyCompare): Money[] {
  const sums = new Map<string, number>();
  for (const entry of entries) {
    const currency = entry.currency_code.toUpperCase();
    sums.set(currency, (sums.get(currency) ?? 0) + minorOf(entry));
  }
  return [...sums]
    .filter(([, amount]) => amount !== 0)
    .map(([currency, amount]) => ({ currency, amount }))
    .sort((a, b) => compare(a.currency, b.currency));
}

type CurrencyCompare = (a: string, b: string) => number;

function currencyOrder(options: SummaryOptions | undefined): CurrencyCompare {
  const preferred = options?.preferredCurrency?.toUpperCase();
  return (a, b) => {
    if (a === b) return 0;
    if (a === preferred) return -1;
    if (b === preferred) return 1;
    return a < b ? -1 : 1;
  };
}

function byCurrencyThenSize<T extends { currency: string; amount: number }>(
  compare: CurrencyCompare,
  name: (item: T) => string,
): (a: T, b: T) => number {
  return (a, b) =>
    compare(a.currency, b.currency) || b.amount - a.amount || name(a).localeCompare(name(b));
}

/** Totals per currency, who owes me and whom I owe, across all friends. */
export function summarizeBalances(
  friends: readonly FriendInput[],
  options?: SummaryOptions,
): BalanceSummary {
  const compare = currencyOrder(options);
  const totals = new Map<string, CurrencyTotal>();
  const owesMe: FriendDebt[] = [];
  const iOwe: FriendDebt[] = [];
  for (const friend of friends) {
    const name = displayName(friend);
    for (const { currency, amount } of toMoney(friend.balance, compare)) {
      const total = totals.get(currency) ?? { currency, owedToMe: 0, iOwe: 0, net: 0 };
      if (amount > 0) {
        total.owedToMe += amount;
        owesMe.push({ id: friend.id, name, currency, amount });
      } else {
        total.iOwe -= amount;
        iOwe.push({ id: friend.id, name, currency, amount: -amount });
      }
      total.net = total.owedToMe - total.iOwe;
      totals.set(currency, total);
    }
  }
  const order = byCurrencyThenSize<FriendDebt>(compare, (d) => d.name);
  return {
    totals: [...totals.values()].sort((a, b) => compare(a.currency, b.currency)),
    owesMe: owesMe.sort(order),
    iOwe: iOwe.sort(order),
    settled: owesMe.length === 0 && iOwe.length === 0,
  };
}

/**
 * One friend's balance, in total and per shared group. `groupNames` names the groups (the friend
 * object carries only ids); group 0 is the service's "non-group expenses".
 */
export function friendBalance(
  friend: FriendInput,
  groupNames: ReadonlyMap<number, string> = new Map(),
  options?: SummaryOptions,
): FriendBreakdown {
  const compare = currencyOrder(options);
  return {
    id: friend.id,
    name: displayName(friend),
    total: toMoney(friend.balance, compare),
    groups: friend.groups
      .map((g) => ({
        groupId: g.group_id,
        groupName: groupNames.get(g.group_id) ?? null,
        balance: toMoney(g.balance, compare),
      }))
      .filter((g) => g.balance.length > 0),
  };
}

/**
 * A group's balances from my point of view: my position, and its debts (simplified when the
 * group simplifies by default, else pairwise when the service sent them).
 */
export function summarizeGroup(
  group: GroupInput,
  me: number,
  options?: SummaryOptions,
): GroupSummary {
  const compare = currencyOrder(options);
  const people = new Map<number, Person>(
    group.members.map((m) => [m.id, { id: m.id, name: displayName(m) }]),
  );
  const person = (id: number): Person => people.get(id) ?? { id, name: `User ${id}` };
  const simplified = group.simplify_by_default !== false || group.original_debts === undefined;
  const source = simplified ? group.simplified_debts : (group.original_debts ?? []);
  const debts = source
    .map((d) => ({
      from: person(d.from),
      to: person(d.to),
      currency: d.currency_code.toUpperCase(),
      amount: minorOf(d),
    }))
    .filter((d) => d.amount > 0)
    .sort(byCurrencyThenSize<GroupDebt>(compare, (d) => `${d.from.name} ${d.to.name}`));
  const members = group.members
    .map((m) => ({ ...person(m.id), balance: toMoney(m.balance, compare) }))
    .sort((a, b) => {
      const first = (x: { balance: Money[] }) => x.balance[0]?.amount ?? 0;
      return first(b) - first(a) || a.name.localeCompare(b.name);
    });
  const mine = group.members.find((m) => m.id === me);
  return {
    id: group.id,
    name: group.name,
    simplified,
    myBalance: mine ? toMoney(mine.balance, compare) : [],
    debts,
    owesMe: debts.filter((d) => d.to.id === me),
    iOwe: debts.filter((d) => d.from.id === me),
    members,
  };
}
