/**
 * The ledger's records and what keeps them cheap to read: id sequences, the per-group balance
 * ledgers and the per-user and per-group expense indexes, acquaintance and permission rules, and
 * notifications. Operations (ops-*.ts) validate first and then call the mutators here; shapes.ts
 * and expense-shapes.ts turn records into what the wire shows.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../types.js';
import { GroupLedger, repayments } from './debts.js';
import {
  type CommentRecord,
  type Expense,
  type ExpenseRecord,
  type FriendshipRecord,
  type GroupRecord,
  NOTIFICATION_KEYS,
  type NotificationKey,
  type NotificationRecord,
  type ReceiptRecord,
  type UserRecord,
} from './model.js';
import { SortedIndex } from './sorted-index.js';

/** First ids handed out, chosen to look like the real service's (expense ids above 2^31). */
export const FIRST_IDS = {
  user: 120_000_001,
  group: 60_000_001,
  expense: 4_400_000_001,
  comment: 900_000_001,
  notification: 15_000_000_001,
  friendship: 80_000_001,
  receipt: 1,
} as const;
export type Sequences = { -readonly [K in keyof typeof FIRST_IDS]: number };

export interface Moment {
  at: number;
  /** Tokens to hand out again, in order, when replaying a journaled operation. */
  replay: string[] | undefined;
  drawn: string[];
}

/** What addUser needs; the caller has validated the e-mail and names. */
export interface NewUserRecord {
  email: string;
  first_name: string;
  last_name: string | null;
  status: UserRecord['registration_status'];
  default_currency?: string | undefined;
}

export class State {
  users = new Map<number, UserRecord>();
  /** Lower-cased e-mail -> user id. */
  emails = new Map<string, number>();
  /** Symmetric: friendships.get(a).get(b) === friendships.get(b).get(a). */
  friendships = new Map<number, Map<number, FriendshipRecord>>();
  groups = new Map<number, GroupRecord>();
  /** User -> ids of groups they currently belong to (deleted groups included). */
  memberships = new Map<number, Set<number>>();
  expenses = new Map<number, ExpenseRecord>();
  comments = new Map<number, CommentRecord>();
  /** Recipient -> their notifications, oldest first. */
  notifications = new Map<number, NotificationRecord[]>();
  receipts = new Map<number, ReceiptRecord>();
  /** A receipt's key (in its URL) -> its id. */
  receiptKeys = new Map<string, number>();
  /** Group id (0 = non-group) -> live balances. */
  ledgers = new Map<number, GroupLedger>();
  /** User -> expenses they are on (in users[]), in listing order. */
  userIndex = new Map<number, SortedIndex>();
  /** Group -> its expenses, in listing order. */
  groupIndex = new Map<number, SortedIndex>();
  seq: Sequences = { ...FIRST_IDS };
  /** Base URL receipts are served under; the HTTP layer sets it once it knows its address. */
  private receiptBase = '';
  get baseUrl(): string {
    return this.receiptBase;
  }
  set baseUrl(url: string) {
    this.receiptBase = url;
    this.forgetShapes();
  }

  /**
   * The operation being applied, set by the Ledger around each one: its single instant, and the
   * random tokens it draws. Both are written to the --data journal, so that replaying the
   * operation after a restart rebuilds exactly the same records (ids, times, invite links).
   */
  moment: Moment | undefined;

  constructor(readonly clock: Clock) {}

  /**
   * Now, in milliseconds. Records keep the precise time and the wire shows whole seconds, so a
   * client that filters with a timestamp it read (updated_after=...Z) still gets that second's
   * changes back rather than losing them.
   */
  now(): number {
    return this.moment?.at ?? this.clock.now().getTime();
  }

  /** A random URL-safe token; during a replay, the one the original operation drew. */
  randomToken(bytes: number): string {
    const token = this.moment?.replay?.shift() ?? randomBytes(bytes).toString('base64url');
    this.moment?.drawn.push(token);
    return token;
  }

  addReceipt(receipt: ReceiptRecord): void {
    this.receipts.set(receipt.id, receipt);
    this.receiptKeys.set(receipt.key, receipt.id);
  }

  /** The receipt with this key while it is its expense's, when `userId` may see that expense. */
  receiptFor(key: string, userId: number): ReceiptRecord | undefined {
    const id = this.receiptKeys.get(key);
    const receipt = id === undefined ? undefined : this.receipts.get(id);
    const expense = receipt ? this.expenses.get(receipt.expense_id) : undefined;
    if (!receipt || !expense || expense.receipt_id !== receipt.id) return undefined;
    return this.canSeeExpense(userId, expense) ? receipt : undefined;
  }

  next(kind: keyof Sequences): number {
    const id = this.seq[kind];
    this.seq[kind] = id + 1;
    return id;
  }

  /** Creates a user record. */
  addUser(input: NewUserRecord): UserRecord {
    const now = this.now();
    const user: UserRecord = {
      id: this.next('user'),
      first_name: input.first_name.trim(),
      last_name: input.last_name?.trim() ? input.last_name.trim() : null,
      email: input.email.trim(),
      registration_status: input.status,
      default_currency: input.default_currency ?? 'USD',
      locale: 'en',
      country_code: 'US',
      date_format: 'MM/DD/YYYY',
      default_group_id: -1,
      notifications_read: now,
      notification_settings: Object.fromEntries(NOTIFICATION_KEYS.map((k) => [k, true])) as Record<
        NotificationKey,
        boolean
      >,
      created_at: now,
    };
    this.users.set(user.id, user);
    this.emails.set(user.email.toLowerCase(), user.id);
    return user;
  }

  // ---- Relations ----

  userByEmail(email: string): UserRecord | undefined {
    const id = this.emails.get(email.trim().toLowerCase());
    return id === undefined ? undefined : this.users.get(id);
  }

  groupsOf(userId: number): Set<number> {
    let set = this.memberships.get(userId);
    if (!set) {
      set = new Set();
      this.memberships.set(userId, set);
    }
    return set;
  }

  isMember(userId: number, group: GroupRecord): boolean {
    return this.memberships.get(userId)?.has(group.id) ?? false;
  }

  friendship(a: number, b: number): FriendshipRecord | undefined {
    return this.friendships.get(a)?.get(b);
  }

  /** Makes two people friends; answers whether the friendship is new. */
  befriend(a: number, b: number, at: number): boolean {
    if (a === b || this.friendship(a, b)) return false;
    const record: FriendshipRecord = {
      id: this.next('friendship'),
      created_at: at,
      updated_at: at,
    };
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      let map = this.friendships.get(x);
      if (!map) {
        map = new Map();
        this.friendships.set(x, map);
      }
      map.set(y, record);
    }
    return true;
  }

  unfriend(a: number, b: number): void {
    this.friendships.get(a)?.delete(b);
    this.friendships.get(b)?.delete(a);
  }

  touchFriendship(a: number, b: number, at: number): void {
    const record = this.friendship(a, b);
    if (record) record.updated_at = at;
  }

  /** Groups both people currently belong to, oldest first. */
  sharedGroups(a: number, b: number): GroupRecord[] {
    const mine = this.memberships.get(a);
    const theirs = this.memberships.get(b);
    if (!mine || !theirs) return [];
    const out: GroupRecord[] = [];
    for (const id of mine) {
      if (theirs.has(id)) out.push(this.groups.get(id)!);
    }
    return out.sort((x, y) => x.id - y.id);
  }

  /** Acquainted = the same person, friends, or members of a common group. */
  acquainted(a: number, b: number): boolean {
    if (a === b || this.friendship(a, b)) return true;
    return this.sharedGroups(a, b).length > 0;
  }

  involved(expense: ExpenseRecord, userId: number): boolean {
    return expense.shares.some((s) => s.user_id === userId);
  }

  canSeeExpense(userId: number, expense: ExpenseRecord): boolean {
    if (this.involved(expense, userId)) return true;
    const group = expense.group_id ? this.groups.get(expense.group_id) : undefined;
    return group !== undefined && this.isMember(userId, group);
  }

  /** Any member may edit any bill of a group; outside groups only the people on it. */
  canEditExpense(userId: number, expense: ExpenseRecord): boolean {
    const group = expense.group_id ? this.groups.get(expense.group_id) : undefined;
    if (group) return this.isMember(userId, group);
    return this.involved(expense, userId);
  }

  // ---- Balances ----

  ledger(groupId: number): GroupLedger {
    let ledger = this.ledgers.get(groupId);
    if (!ledger) {
      ledger = new GroupLedger();
      this.ledgers.set(groupId, ledger);
    }
    return ledger;
  }

  /**
   * Whether an expense is applied to its group's ledger: every expense not itself deleted. A
   * deleted group keeps its ledger (undelete_group restores it as it was); readers skip it.
   */
  counts(expense: ExpenseRecord): boolean {
    return expense.deleted_at === null;
  }

  applyToLedger(expense: ExpenseRecord, sign: 1 | -1): void {
    const rows = expense.shares.map((s) => ({ user_id: s.user_id, net: s.paid - s.owed }));
    this.ledger(expense.group_id).apply(expense.currency_code, rows, repayments(expense), sign);
  }

  // ---- Expense indexes ----

  indexOf(map: Map<number, SortedIndex>, key: number): SortedIndex {
    let index = map.get(key);
    if (!index) {
      index = new SortedIndex();
      map.set(key, index);
    }
    return index;
  }

  indexExpense(expense: ExpenseRecord): void {
    const entry = { t: expense.date, id: expense.id };
    for (const s of expense.shares) this.indexOf(this.userIndex, s.user_id).insert(entry);
    if (expense.group_id) this.indexOf(this.groupIndex, expense.group_id).insert(entry);
  }

  unindexExpense(expense: ExpenseRecord): void {
    const entry = { t: expense.date, id: expense.id };
    for (const s of expense.shares) this.userIndex.get(s.user_id)?.remove(entry);
    if (expense.group_id) this.groupIndex.get(expense.group_id)?.remove(entry);
  }

  // ---- Notifications ----

  notify(
    recipients: Iterable<number>,
    base: Omit<NotificationRecord, 'id' | 'content' | 'created_at'>,
    content: (recipient: number) => string,
  ): void {
    const at = this.now();
    for (const recipient of new Set(recipients)) {
      if (!this.users.has(recipient)) continue;
      let list = this.notifications.get(recipient);
      if (!list) {
        list = [];
        this.notifications.set(recipient, list);
      }
      list.push({
        ...base,
        source: { ...base.source },
        id: this.next('notification'),
        created_at: at,
        content: content(recipient),
      });
    }
  }

  // ---- Reads shared by operations and shapes ----

  liveComments(expense: ExpenseRecord): CommentRecord[] {
    const out: CommentRecord[] = [];
    for (const id of expense.comments) {
      const c = this.comments.get(id);
      if (c && c.deleted_at === null) out.push(c);
    }
    return out;
  }

  /**
   * Wire shapes of expenses, kept between requests (see expense-shapes.ts). Dropped whenever what
   * they show changes (invalidate), and all at once when a user's name or the receipt base URL
   * changes (forgetShapes).
   */
  readonly expenseShapes = new Map<number, Expense>();

  invalidate(expenseId: number): void {
    this.expenseShapes.delete(expenseId);
  }

  forgetShapes(): void {
    this.expenseShapes.clear();
  }
}
