/**
 * What App Home's latest activity is made of: the service's notifications, each with what it is
 * about read from the service, so that the app writes every line itself (activity-view.ts) in the
 * reader's language instead of showing the service's English.
 *
 * A notification carries its type, who acted (an id) and what it is about (`source`: an expense,
 * a group or a person, by id). Groups and people come from the lists the tab reads anyway
 * (friends, groups, with their members); an expense is read by its id, at most MAX_READS of them
 * per publish, each once however many lines name it. A read that fails, or one past the cap,
 * leaves that line saying less ("Ann added an expense"), never the service's words. A type the
 * app does not know keeps the service's own text.
 */
import { currencyExponent, parseMinor } from '../../core/money.js';
import type { Expense, Friend, Group, Notification } from '../../service/index.js';

/** Expense reads one publish of the tab may make: one per line shown, at most. */
export const MAX_READS = 5;

/** Who acted, or who paid whom: the reader, someone by name, or someone the app cannot name. */
export type Someone = { me: true } | { me: false; name: string | undefined };

/** An expense, as a line names it. */
export interface ActivityExpense {
  description: string;
  /** Minor units of `currency`. */
  cost: number;
  currency: string;
  /** Set for a payment between two people: who paid whom. */
  payment?: { from: Someone; to: Someone } | undefined;
  /** What the reader gets back (positive) or owes (negative), minor units; 0 when neither. */
  mine: number;
}

export type ActivityEntry = { at: string } & (
  | {
      kind: 'expense';
      what: 'added' | 'updated' | 'deleted' | 'restored' | 'commented';
      who: Someone;
      /** Undefined when it could not be read. */
      expense: ActivityExpense | undefined;
    }
  | {
      kind: 'group';
      what: 'created' | 'added' | 'removed' | 'left' | 'deleted' | 'restored' | 'settings';
      who: Someone;
      /** Undefined when the reader can no longer see it (deleted, or they left it). */
      group: string | undefined;
    }
  | { kind: 'friend'; what: 'added' | 'removed'; who: Someone }
  /** A type the app does not know: the service's HTML. */
  | { kind: 'service'; html: string }
);

const EXPENSE_TYPES = new Map<number, Extract<ActivityEntry, { kind: 'expense' }>['what']>([
  [0, 'added'],
  [1, 'updated'],
  [2, 'deleted'],
  [3, 'commented'],
  [13, 'restored'],
]);

/** A group made this close to its notification was made by it: "created", not "added". */
const CREATED_WITHIN_MS = 60_000;

function fullName(user: { first_name?: string | null; last_name?: string | null } | undefined) {
  const name = [user?.first_name, user?.last_name].filter(Boolean).join(' ').trim();
  return name === '' ? undefined : name;
}

function minorOf(text: string, currency: string): number {
  try {
    return parseMinor(text, currencyExponent(currency));
  } catch {
    return 0;
  }
}

/** The expense as a line names it, from the reader's (`me`) side. */
function expenseOf(
  expense: Expense,
  me: number,
  someone: (id: number) => Someone,
): ActivityExpense {
  const currency = expense.currency_code;
  const shares = expense.users.map((u) => ({
    id: u.user_id,
    paid: minorOf(u.paid_share, currency),
    owed: minorOf(u.owed_share, currency),
  }));
  const mine = shares.find((s) => s.id === me);
  const from = shares.find((s) => s.paid > 0);
  const to = shares.find((s) => s.owed > 0);
  return {
    description: expense.description,
    cost: minorOf(expense.cost, currency),
    currency,
    payment:
      expense.payment && from && to ? { from: someone(from.id), to: someone(to.id) } : undefined,
    mine: mine && !expense.deleted_at ? mine.paid - mine.owed : 0,
  };
}

function groupEntry(
  n: Notification,
  who: Someone,
  group: Group | undefined,
  /** Whether the reader's groups were read: only then does a group missing from them mean one. */
  groupsRead: boolean,
): ActivityEntry | undefined {
  const base = { kind: 'group' as const, at: n.created_at, who, group: group?.name };
  switch (n.type) {
    case 4: {
      const made = Date.parse(group?.created_at ?? '') - Date.parse(n.created_at);
      return { ...base, what: Math.abs(made) <= CREATED_WITHIN_MS ? 'created' : 'added' };
    }
    // Gone from the reader's groups (and not deleted): it was the reader who went.
    case 5:
      return { ...base, what: group || !groupsRead ? 'removed' : 'left' };
    case 6:
      return { ...base, what: 'deleted' };
    case 7:
      return { ...base, what: 'settings' };
    case 12:
      return { ...base, what: 'restored' };
    default:
      return undefined;
  }
}

/**
 * The notifications as entries, newest first, reading at most MAX_READS expenses (in parallel,
 * each once). `friends` and `groups` are what the tab read; either may be missing.
 */
export async function readActivity(
  notifications: readonly Notification[],
  input: {
    me: number;
    friends: readonly Friend[] | undefined;
    groups: readonly Group[] | undefined;
    readExpense: (id: number) => Promise<Expense>;
  },
): Promise<ActivityEntry[]> {
  const names = new Map<number, string>();
  const know = (id: number, user: Parameters<typeof fullName>[0]) => {
    const name = fullName(user);
    if (name !== undefined && !names.has(id)) names.set(id, name);
  };
  for (const f of input.friends ?? []) know(f.id, f);
  for (const g of input.groups ?? []) for (const m of g.members ?? []) know(m.id, m);
  const groups = new Map((input.groups ?? []).map((g) => [g.id, g]));

  const wanted = [
    ...new Set(
      notifications
        .filter((n) => EXPENSE_TYPES.has(n.type) && n.source?.type === 'Expense')
        .map((n) => n.source!.id),
    ),
  ].slice(0, MAX_READS);
  const read = new Map<number, Expense>();
  await Promise.all(
    wanted.map(async (id) => {
      const expense = await input.readExpense(id).catch(() => undefined);
      if (expense) read.set(id, expense);
    }),
  );
  for (const expense of read.values()) for (const u of expense.users) know(u.user_id, u.user);

  const someone = (id: number): Someone =>
    id === input.me ? { me: true } : { me: false, name: names.get(id) };
  return notifications.map((n): ActivityEntry => {
    const who = someone(n.created_by);
    const expenseWhat = EXPENSE_TYPES.get(n.type);
    if (expenseWhat && n.source?.type === 'Expense') {
      const expense = read.get(n.source.id);
      return {
        kind: 'expense',
        at: n.created_at,
        what: expenseWhat,
        who,
        expense: expense ? expenseOf(expense, input.me, someone) : undefined,
      };
    }
    if (n.source?.type === 'Group') {
      const entry = groupEntry(n, who, groups.get(n.source.id), input.groups !== undefined);
      if (entry) return entry;
    }
    if (n.type === 8 || n.type === 9) {
      return { kind: 'friend', at: n.created_at, what: n.type === 8 ? 'added' : 'removed', who };
    }
    return { kind: 'service', at: n.created_at, html: n.content };
  });
}
