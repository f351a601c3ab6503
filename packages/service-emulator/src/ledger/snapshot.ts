/**
 * The ledger as plain JSON (for `--data` files) and back. Only records are kept; indexes,
 * balances and cached shapes are rebuilt from them on load.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../types.js';
import type {
  CommentRecord,
  ExpenseRecord,
  FriendshipRecord,
  GroupRecord,
  NotificationRecord,
  ReceiptRecord,
  UserRecord,
} from './model.js';
import { FIRST_IDS, type Sequences, State } from './state.js';

const SNAPSHOT_FORMAT = 'splitwise-emulator-ledger';

export interface LedgerSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: 1;
  seq: Sequences;
  users: UserRecord[];
  friendships: [number, number, FriendshipRecord][];
  groups: GroupRecord[];
  expenses: ExpenseRecord[];
  comments: CommentRecord[];
  notifications: [number, NotificationRecord[]][];
  /** Files written before receipts had keys carry neither `key` nor `expense_id`. */
  receipts: (Omit<ReceiptRecord, 'data' | 'key' | 'expense_id'> &
    Partial<Pick<ReceiptRecord, 'key' | 'expense_id'>> & { data: string })[];
}

export function snapshotOf(s: State): LedgerSnapshot {
  const friendships: [number, number, FriendshipRecord][] = [];
  for (const [a, map] of s.friendships) {
    for (const [b, record] of map) if (a < b) friendships.push([a, b, record]);
  }
  return {
    format: SNAPSHOT_FORMAT,
    version: 1,
    seq: s.seq,
    users: [...s.users.values()],
    friendships,
    groups: [...s.groups.values()],
    expenses: [...s.expenses.values()],
    comments: [...s.comments.values()],
    notifications: [...s.notifications.entries()],
    receipts: [...s.receipts.values()].map((r) => ({ ...r, data: r.data.toString('base64') })),
  };
}

/** Rebuilds a State; throws an Error saying what is wrong when `data` is not a usable snapshot. */
export function stateFromSnapshot(data: unknown, clock: Clock): State {
  const snapshot = data as LedgerSnapshot;
  if (
    typeof snapshot !== 'object' ||
    snapshot === null ||
    snapshot.format !== SNAPSHOT_FORMAT ||
    snapshot.version !== 1
  ) {
    throw new Error('not a ledger snapshot (format/version missing or unknown)');
  }
  const s = new State(clock);
  try {
    s.seq = { ...FIRST_IDS, ...snapshot.seq };
    for (const user of snapshot.users) {
      s.users.set(user.id, user);
      s.emails.set(user.email.toLowerCase(), user.id);
    }
    for (const [a, b, record] of snapshot.friendships) {
      for (const [x, y] of [
        [a, b],
        [b, a],
      ] as const) {
        let map = s.friendships.get(x);
        if (!map) {
          map = new Map();
          s.friendships.set(x, map);
        }
        map.set(y, record);
      }
    }
    for (const group of snapshot.groups) {
      s.groups.set(group.id, group);
      for (const member of group.members) s.groupsOf(member).add(group.id);
    }
    for (const comment of snapshot.comments) s.comments.set(comment.id, comment);
    for (const expense of snapshot.expenses) {
      s.expenses.set(expense.id, expense);
      s.indexExpense(expense);
      if (s.counts(expense)) s.applyToLedger(expense, 1);
    }
    for (const [userId, list] of snapshot.notifications) s.notifications.set(userId, list);
    const expenseOf = new Map<number, number>();
    for (const expense of s.expenses.values()) {
      if (expense.receipt_id !== null) expenseOf.set(expense.receipt_id, expense.id);
    }
    for (const r of snapshot.receipts) {
      s.addReceipt({
        ...r,
        // An older file's receipt gets a key now, so that its URL cannot be guessed either.
        key: r.key ?? randomBytes(16).toString('base64url'),
        expense_id: r.expense_id ?? expenseOf.get(r.id) ?? 0,
        data: Buffer.from(r.data, 'base64'),
      });
    }
  } catch (error) {
    throw new Error(`damaged ledger snapshot: ${(error as Error).message}`);
  }
  return s;
}
