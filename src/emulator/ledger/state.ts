/**
 * The ledger's state and everything derived from it: records, the indexes that keep listings and
 * balances cheap, acquaintance and permission rules, notifications, and the wire shapes of every
 * resource. Operations (ops-*.ts) validate first and then call the mutators here.
 */
import { currencyExponent, formatMoney, toWireAmount } from '../../core/money.js';
import type { Clock } from '../types.js';
import { type DebtRow, GroupLedger, matchDebts, type Transfer } from './debts.js';
import type {
  Balance,
  Comment,
  CommentRecord,
  CurrentUser,
  Debt,
  Expense,
  ExpenseRecord,
  Friend,
  FriendshipRecord,
  Group,
  GroupMember,
  GroupRecord,
  Notification,
  NotificationRecord,
  ReceiptRecord,
  ReducedUser,
  User,
  UserRecord,
} from './model.js';
import { stamp } from './params.js';
import { GENERAL_CATEGORY, subcategoryNames } from './reference.js';
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

const AVATAR_COLORS = ['blue', 'orange', 'green', 'pink', 'purple', 'grey', 'red', 'teal'];
const AVATAR_BASE = 'https://s3.amazonaws.com/splitwise/uploads/user/default_avatars';
const GROUP_AVATAR_BASE = 'https://s3.amazonaws.com/splitwise/uploads/group/default_avatars';
const NOTIFICATION_IMAGE = 'https://s3.amazonaws.com/splitwise/uploads/notifications/v2021';

export const SYSTEM_USER: ReducedUser = {
  id: 0,
  first_name: 'Splitwise',
  last_name: null,
  picture: { medium: null },
};

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

  constructor(readonly clock: Clock) {}

  /**
   * Now, in milliseconds. Records keep the precise time and the wire shows whole seconds, so a
   * client that filters with a timestamp it read (updated_after=...Z) still gets that second's
   * changes back rather than losing them.
   */
  now(): number {
    return this.clock.now().getTime();
  }

  next(kind: keyof Sequences): number {
    const id = this.seq[kind];
    this.seq[kind] = id + 1;
    return id;
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

  /** What `other` owes `me` inside one group, as the group's simplify setting shows it. */
  groupBalanceBetween(
    me: number,
    other: number,
    group: GroupRecord | undefined,
  ): Map<string, number> {
    const ledger = this.ledgers.get(group?.id ?? 0);
    if (!ledger) return new Map();
    if (!group?.simplify_by_default) return ledger.owedTo(me, other);
    const out = new Map<string, number>();
    for (const d of ledger.simplifiedDebts()) {
      if (d.from === other && d.to === me)
        out.set(d.currency, (out.get(d.currency) ?? 0) + d.amount);
      if (d.from === me && d.to === other)
        out.set(d.currency, (out.get(d.currency) ?? 0) - d.amount);
    }
    return out;
  }

  /** Per-group and total balance of `friend` from `me`'s side (positive = friend owes me). */
  friendBalances(
    me: number,
    friend: number,
  ): { total: Map<string, number>; groups: { group_id: number; balance: Map<string, number> }[] } {
    const total = new Map<string, number>();
    const groups: { group_id: number; balance: Map<string, number> }[] = [];
    const add = (groupId: number, balance: Map<string, number>) => {
      groups.push({ group_id: groupId, balance });
      for (const [currency, amount] of balance) {
        total.set(currency, (total.get(currency) ?? 0) + amount);
      }
    };
    for (const group of this.sharedGroups(me, friend)) {
      if (group.deleted_at !== null) continue;
      add(group.id, this.groupBalanceBetween(me, friend, group));
    }
    add(0, this.groupBalanceBetween(me, friend, undefined));
    return { total, groups };
  }

  friendHasBalance(me: number, friend: number): boolean {
    for (const amount of this.friendBalances(me, friend).total.values()) {
      if (amount !== 0) return true;
    }
    return false;
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

  /** "You" for the reader's own actions, else the short name the service uses ("Ada L."). */
  nameFor(reader: number, userId: number): string {
    if (reader === userId) return 'You';
    return escapeHtml(shortName(this.users.get(userId)));
  }

  // ---- Wire shapes ----

  picture(user: UserRecord): User['picture'] {
    const cached = pictures.get(user.id);
    if (cached) return cached;
    const color = AVATAR_COLORS[user.id % AVATAR_COLORS.length];
    const n = (user.id % 50) + 1;
    const at = (size: number) => `${AVATAR_BASE}/avatar-${color}${n}-${size}px.png`;
    const picture = { small: at(50), medium: at(100), large: at(200) };
    pictures.set(user.id, picture);
    return picture;
  }

  user(user: UserRecord): User {
    return {
      id: user.id,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      registration_status: user.registration_status,
      picture: this.picture(user),
      custom_picture: false,
    };
  }

  currentUser(user: UserRecord): CurrentUser {
    // Rows are appended in time order: find the first unread one by binary search.
    const list = this.notifications.get(user.id) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]!.created_at > user.notifications_read) hi = mid;
      else lo = mid + 1;
    }
    const unread = list.length - lo;
    return {
      ...this.user(user),
      force_refresh_at: null,
      locale: user.locale,
      country_code: user.country_code,
      date_format: user.date_format,
      default_currency: user.default_currency,
      default_group_id: user.default_group_id,
      notifications_read: stamp(user.notifications_read),
      notifications_count: unread,
      notifications: { ...user.notification_settings },
      add_friend_url: `https://www.splitwise.com/add_friend/${user.id.toString(36)}`,
    };
  }

  reduced(userId: number): ReducedUser {
    const user = this.users.get(userId);
    if (!user) return { ...SYSTEM_USER, id: userId };
    return {
      id: user.id,
      first_name: user.first_name,
      last_name: user.last_name,
      picture: { medium: this.picture(user).medium },
    };
  }

  reducedWithCustom(userId: number | null): (ReducedUser & { custom_picture: boolean }) | null {
    return userId === null ? null : { ...this.reduced(userId), custom_picture: false };
  }

  balances(amounts: Map<string, number>, keepZero: boolean): Balance[] {
    return [...amounts.entries()]
      .filter(([, amount]) => keepZero || amount !== 0)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([currency, amount]) => ({
        currency_code: currency,
        amount: toWireAmount(amount, currencyExponent(currency)),
      }));
  }

  friend(me: number, friendId: number): Friend {
    const friend = this.users.get(friendId)!;
    const { total, groups } = this.friendBalances(me, friendId);
    const record = this.friendship(me, friendId);
    return {
      ...this.user(friend),
      balance: this.balances(total, false),
      groups: groups.map((g) => ({
        group_id: g.group_id,
        balance: this.balances(g.balance, false),
      })),
      updated_at: stamp(record?.updated_at ?? friend.created_at),
    };
  }

  debts(rows: DebtRow[]): Debt[] {
    return rows.map((d) => ({
      from: d.from,
      to: d.to,
      amount: toWireAmount(d.amount, currencyExponent(d.currency)),
      currency_code: d.currency,
    }));
  }

  groupAvatars(group: { id: number; group_type?: string }) {
    const kind = group.id === 0 ? 'nongroup' : (group.group_type ?? 'other');
    const at = (size: string) => `${GROUP_AVATAR_BASE}/${kind}-${size}.png`;
    return {
      avatar: {
        small: at('50px'),
        medium: at('100px'),
        large: at('200px'),
        xlarge: at('500px'),
        xxlarge: at('1000px'),
        original: null,
      },
      tall_avatar: { xlarge: at('tall-288px'), large: at('tall-192px') },
      custom_avatar: false,
      cover_photo: { xxlarge: at('cover-1000px'), xlarge: at('cover-500px') },
    };
  }

  group(group: GroupRecord): Group {
    const ledger = this.ledgers.get(group.id);
    const members: GroupMember[] = group.members.map((id) => ({
      ...this.user(this.users.get(id)!),
      balance: this.balances(ledger?.nets.get(id) ?? new Map(), true),
    }));
    return {
      id: group.id,
      name: group.name,
      created_at: stamp(group.created_at),
      updated_at: stamp(group.updated_at),
      members,
      simplify_by_default: group.simplify_by_default,
      original_debts: this.debts(ledger?.originalDebts() ?? []),
      simplified_debts: this.debts(ledger?.simplifiedDebts() ?? []),
      whiteboard: group.whiteboard,
      whiteboard_lock_version: group.whiteboard_lock_version,
      whiteboard_updated_at:
        group.whiteboard_updated_at === null ? null : stamp(group.whiteboard_updated_at),
      whiteboard_updated_by: group.whiteboard_updated_by,
      group_type: group.group_type,
      invite_link: `https://www.splitwise.com/join/${group.invite_token}`,
      group_reminders: null,
      ...this.groupAvatars(group),
    };
  }

  /** The "Non-group expenses" pseudo-group as `me` sees it. */
  nonGroup(me: number): Group {
    const ledger = this.ledgers.get(0);
    const user = this.users.get(me)!;
    const rows: DebtRow[] = [];
    if (ledger) {
      const others = new Set<number>(this.friendships.get(me)?.keys() ?? []);
      for (const other of [...others].sort((a, b) => a - b)) {
        for (const [currency, owed] of ledger.owedTo(me, other)) {
          if (owed > 0) rows.push({ from: other, to: me, amount: owed, currency });
          else rows.push({ from: me, to: other, amount: -owed, currency });
        }
      }
    }
    rows.sort((x, y) => x.from - y.from || x.to - y.to || (x.currency < y.currency ? -1 : 1));
    const debts = this.debts(rows);
    return {
      id: 0,
      name: 'Non-group expenses',
      created_at: null,
      updated_at: stamp(this.now()),
      members: [
        { ...this.user(user), balance: this.balances(ledger?.nets.get(me) ?? new Map(), true) },
      ],
      simplify_by_default: false,
      original_debts: debts,
      simplified_debts: debts,
      ...this.groupAvatars({ id: 0 }),
    };
  }

  receiptUrls(expense: ExpenseRecord): Expense['receipt'] {
    const receipt = expense.receipt_id === null ? undefined : this.receipts.get(expense.receipt_id);
    if (!receipt) return { large: null, original: null };
    const url = `${this.baseUrl}/__emulator/receipts/${receipt.id}/${encodeURIComponent(receipt.filename)}`;
    return { large: url, original: url };
  }

  liveComments(expense: ExpenseRecord): CommentRecord[] {
    const out: CommentRecord[] = [];
    for (const id of expense.comments) {
      const c = this.comments.get(id);
      if (c && c.deleted_at === null) out.push(c);
    }
    return out;
  }

  /**
   * Wire shapes of expenses, kept between requests: a listing of 10,000 expenses then costs
   * little more than its serialization. Dropped whenever what they show changes (invalidate),
   * and all at once when a user's name or the receipt base URL changes (forgetShapes).
   */
  private shapes = new Map<number, Expense>();

  invalidate(expenseId: number): void {
    this.shapes.delete(expenseId);
  }

  forgetShapes(): void {
    this.shapes.clear();
  }

  expense(expense: ExpenseRecord, withComments: boolean): Expense {
    if (withComments) {
      return {
        ...this.expense(expense, false),
        comments: this.liveComments(expense).map((c) => this.comment(c)),
      };
    }
    const cached = this.shapes.get(expense.id);
    if (cached) return cached;
    const shape = this.buildExpense(expense);
    this.shapes.set(expense.id, shape);
    return shape;
  }

  private buildExpense(expense: ExpenseRecord): Expense {
    const exponent = currencyExponent(expense.currency_code);
    const live = this.liveComments(expense);
    const users: Expense['users'] = [];
    for (const s of expense.shares) {
      users.push({
        user: this.reduced(s.user_id),
        user_id: s.user_id,
        paid_share: toWireAmount(s.paid, exponent),
        owed_share: toWireAmount(s.owed, exponent),
        net_balance: toWireAmount(s.paid - s.owed, exponent),
      });
    }
    const paybacks: Expense['repayments'] = [];
    for (const t of repayments(expense)) {
      paybacks.push({ from: t.from, to: t.to, amount: toWireAmount(t.amount, exponent) });
    }
    return {
      id: expense.id,
      group_id: expense.group_id === 0 ? null : expense.group_id,
      ...(expense.group_id === 0 ? { friendship_id: null } : {}),
      expense_bundle_id: null,
      description: expense.description,
      repeats: expense.repeat_interval !== null,
      repeat_interval: expense.repeat_interval,
      email_reminder: false,
      email_reminder_in_advance: -1,
      next_repeat: expense.repeat_interval === null ? null : stamp(nextRepeat(expense)),
      details: expense.details,
      comments_count: live.length,
      payment: expense.payment,
      creation_method: expense.creation_method,
      transaction_method: 'offline',
      transaction_confirmed: false,
      transaction_id: null,
      transaction_status: null,
      cost: toWireAmount(expense.cost, exponent),
      currency_code: expense.currency_code,
      repayments: paybacks,
      date: stamp(expense.date),
      created_at: stamp(expense.created_at),
      created_by: this.reducedWithCustom(expense.created_by)!,
      updated_at: stamp(expense.updated_at),
      updated_by: this.reducedWithCustom(expense.updated_by),
      deleted_at: expense.deleted_at === null ? null : stamp(expense.deleted_at),
      deleted_by: this.reducedWithCustom(expense.deleted_by),
      category: {
        id: expense.category_id,
        name: subcategoryNames.get(expense.category_id) ?? subcategoryNames.get(GENERAL_CATEGORY)!,
      },
      receipt: this.receiptUrls(expense),
      users,
    };
  }

  comment(comment: CommentRecord): Comment {
    return {
      id: comment.id,
      content: comment.content,
      comment_type: comment.comment_type,
      relation_type: 'ExpenseComment',
      relation_id: comment.expense_id,
      created_at: stamp(comment.created_at),
      deleted_at: comment.deleted_at === null ? null : stamp(comment.deleted_at),
      user:
        comment.comment_type === 'System'
          ? { ...SYSTEM_USER, picture: { medium: null } }
          : this.reduced(comment.user_id),
    };
  }

  notification(n: NotificationRecord): Notification {
    return {
      id: n.id,
      type: n.type,
      created_at: stamp(n.created_at),
      created_by: n.created_by,
      source: { type: n.source.type, id: n.source.id, url: null },
      image_url: `${NOTIFICATION_IMAGE}/${n.type}.png`,
      image_shape: n.image_shape,
      content: n.content,
    };
  }

  /** "$20.00" for people (notifications, System comments). */
  money(minor: number, currency: string): string {
    return formatMoney(minor, currency);
  }
}

/** Default avatars depend only on the user id. */
const pictures = new Map<number, User['picture']>();

/**
 * Who pays whom inside one expense: each debtor's outflow and each creditor's inflow equal their
 * net; with one payer, one entry per other participant.
 */
export function repayments(expense: {
  shares: readonly { user_id: number; paid: number; owed: number }[];
}): Transfer[] {
  const nets = new Map<number, number>();
  for (const s of expense.shares) nets.set(s.user_id, (nets.get(s.user_id) ?? 0) + s.paid - s.owed);
  return matchDebts(nets);
}

function nextRepeat(expense: ExpenseRecord): number {
  const d = new Date(expense.date);
  switch (expense.repeat_interval) {
    case 'weekly':
      d.setUTCDate(d.getUTCDate() + 7);
      break;
    case 'fortnightly':
      d.setUTCDate(d.getUTCDate() + 14);
      break;
    case 'monthly':
      d.setUTCMonth(d.getUTCMonth() + 1);
      break;
    case 'yearly':
      d.setUTCFullYear(d.getUTCFullYear() + 1);
      break;
    default:
      break;
  }
  return d.getTime();
}

export function shortName(user: UserRecord | undefined): string {
  if (!user) return 'Someone';
  return user.last_name ? `${user.first_name} ${user.last_name.charAt(0)}.` : user.first_name;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
