/**
 * The emulator's domain: users, friends, groups, expenses, comments and notifications, answering
 * every /api/v3.0 operation with the status and body the real service would. The HTTP layer
 * (server.ts) authenticates and decodes; `handle` does everything else, synchronously.
 *
 * Each operation validates its whole input before it changes anything, so a refused request
 * leaves the state exactly as it was.
 */
import type {
  ExpenseRecord,
  GroupRecord,
  ReceiptRecord,
  User,
  UserRecord,
} from './ledger/model.js';
import * as expenses from './ledger/ops-expenses.js';
import * as groups from './ledger/ops-groups.js';
import * as users from './ledger/ops-users.js';
import { addUser, type Ctx } from './ledger/ops-users.js';
import { isEmail, Reply } from './ledger/params.js';
import { categories, currencies, currencyUnits } from './ledger/reference.js';
import { FIRST_IDS, State } from './ledger/state.js';
import type { ApiRequest, ApiResult, Clock, NewUser, Operation } from './types.js';

export type {
  Balance,
  Category,
  Comment,
  Currency,
  CurrentUser,
  Debt,
  Expense,
  ExpenseUser,
  Friend,
  Group,
  GroupMember,
  Notification,
  Picture,
  ReducedUser,
  User,
} from './ledger/model.js';

/** A person or test gave the ledger something it cannot accept (taken e-mail, bad snapshot). */
export class LedgerInputError extends Error {
  override name = 'LedgerInputError';
}

/** A stored receipt, for the HTTP layer to serve under /__emulator/receipts/<id>/<name>. */
export type Receipt = ReceiptRecord;

type Handler = (ctx: Ctx) => ApiResult;
type Unauthenticated = () => ApiResult;

const AUTHENTICATED: Record<string, { method: 'GET' | 'POST'; run: Handler }> = {
  get_current_user: { method: 'GET', run: users.getCurrentUser },
  get_user: { method: 'GET', run: users.getUser },
  update_user: { method: 'POST', run: users.updateUser },
  get_friends: { method: 'GET', run: users.getFriends },
  get_friend: { method: 'GET', run: users.getFriend },
  create_friend: { method: 'POST', run: users.createFriend },
  create_friends: { method: 'POST', run: users.createFriends },
  delete_friend: { method: 'POST', run: users.deleteFriend },
  get_groups: { method: 'GET', run: groups.getGroups },
  get_group: { method: 'GET', run: groups.getGroup },
  create_group: { method: 'POST', run: groups.createGroup },
  delete_group: { method: 'POST', run: groups.deleteGroup },
  undelete_group: { method: 'POST', run: groups.undeleteGroup },
  add_user_to_group: { method: 'POST', run: groups.addUserToGroup },
  remove_user_from_group: { method: 'POST', run: groups.removeUserFromGroup },
  get_expenses: { method: 'GET', run: expenses.getExpenses },
  get_expense: { method: 'GET', run: expenses.getExpense },
  create_expense: { method: 'POST', run: expenses.createExpense },
  update_expense: { method: 'POST', run: expenses.updateExpense },
  delete_expense: { method: 'POST', run: expenses.deleteExpense },
  undelete_expense: { method: 'POST', run: expenses.undeleteExpense },
  get_comments: { method: 'GET', run: expenses.getComments },
  create_comment: { method: 'POST', run: expenses.createComment },
  delete_comment: { method: 'POST', run: expenses.deleteComment },
  get_notifications: { method: 'GET', run: expenses.getNotifications },
};

const PUBLIC: Record<string, { method: 'GET'; run: Unauthenticated }> = {
  get_currencies: { method: 'GET', run: () => ({ status: 200, body: { currencies } }) },
  get_categories: { method: 'GET', run: () => ({ status: 200, body: { categories } }) },
};

const NOT_LOGGED_IN: ApiResult = {
  status: 401,
  body: { error: 'Invalid API request: you are not logged in' },
};
const NOT_FOUND: ApiResult = {
  status: 404,
  body: { errors: { base: ['Invalid API Request: record not found'] } },
};

const SNAPSHOT_FORMAT = 'splitwise-emulator-ledger';

export class Ledger {
  static operations: Record<string, Operation> = Object.fromEntries([
    ...Object.entries(AUTHENTICATED).map(([op, { method }]) => [op, { method, auth: true }]),
    ...Object.entries(PUBLIC).map(([op, { method }]) => [op, { method, auth: false }]),
  ]);

  private state: State;

  constructor(private readonly options: { clock: Clock }) {
    this.state = new State(options.clock);
  }

  /**
   * Absolute origin receipt URLs start with (e.g. "http://127.0.0.1:4000"); set by the HTTP layer
   * once it listens. Empty gives path-only URLs.
   */
  get baseUrl(): string {
    return this.state.baseUrl;
  }
  set baseUrl(url: string) {
    this.state.baseUrl = url.replace(/\/+$/, '');
  }

  handle(req: ApiRequest): ApiResult {
    const open = PUBLIC[req.op];
    if (open) return req.method === open.method ? open.run() : NOT_FOUND;
    const op = AUTHENTICATED[req.op];
    if (!op || req.method !== op.method) return NOT_FOUND;
    const actor = req.actorId === undefined ? undefined : this.state.users.get(req.actorId);
    if (!actor) return NOT_LOGGED_IN;
    try {
      return op.run({
        state: this.state,
        actor,
        params: req.params,
        pathId: req.pathId,
        files: req.files,
      });
    } catch (error) {
      if (error instanceof Reply) return error.result;
      throw error;
    }
  }

  createUser(input: NewUser): User {
    const email = input.email?.trim() ?? '';
    if (!isEmail(email))
      throw new LedgerInputError(`"${input.email}" is not a valid e-mail address`);
    if (!input.first_name?.trim()) throw new LedgerInputError('a first name is required');
    const currency = (input.default_currency ?? 'USD').toUpperCase();
    if (!currencyUnits.has(currency)) {
      throw new LedgerInputError(`"${input.default_currency}" is not a supported currency`);
    }
    const existing = this.state.userByEmail(email);
    if (
      existing &&
      existing.registration_status !== 'dummy' &&
      existing.registration_status !== 'invited'
    ) {
      throw new LedgerInputError(`${email} already has an account`);
    }
    if (existing) {
      // Someone invited by e-mail signs up: they take over the placeholder account and its history.
      existing.first_name = input.first_name.trim();
      existing.last_name = input.last_name?.trim() || null;
      existing.registration_status = 'confirmed';
      existing.default_currency = currency;
      this.state.forgetShapes();
      return this.state.user(existing);
    }
    const user = addUser(this.state, {
      email,
      first_name: input.first_name,
      last_name: input.last_name ?? null,
      status: 'confirmed',
      default_currency: currency,
    });
    return this.state.user(user);
  }

  findUserByEmail(email: string): User | undefined {
    const user = this.state.userByEmail(email);
    return user ? this.state.user(user) : undefined;
  }

  getUser(id: number): User | undefined {
    const user = this.state.users.get(id);
    return user ? this.state.user(user) : undefined;
  }

  getReceipt(id: number): Receipt | undefined {
    return this.state.receipts.get(id);
  }

  /**
   * A small, realistic data set, built through the same operations clients call: three people
   * with accounts and one invited by e-mail, a trip group that simplifies debts (EUR), a home
   * group (USD), a non-group lunch, a payment and a comment. Seeding twice changes nothing.
   */
  seedDemo(): { users: User[] } {
    const people = [
      { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
      { email: 'alan@example.com', first_name: 'Alan', last_name: 'Turing' },
    ];
    const existing = people.map((p) => this.state.userByEmail(p.email));
    if (existing.every((u) => u?.registration_status === 'confirmed')) {
      return { users: existing.map((u) => this.state.user(u!)) };
    }
    const [ada, grace, alan] = people.map(
      (p) => this.findUserByEmail(p.email) ?? this.createUser(p),
    ) as [User, User, User];
    const day = 86_400_000;
    const now = this.options.clock.now().getTime();
    const date = (daysAgo: number) => new Date(now - daysAgo * day).toISOString();
    const call = (actor: User, op: string, params: Record<string, string>) => {
      const result = this.handle({ op, method: 'POST', params, files: [], actorId: actor.id });
      if (result.status !== 200) throw new Error(`seedDemo: ${op} answered ${result.status}`);
      return result.body as Record<string, unknown>;
    };
    const trip = call(ada, 'create_group', {
      name: 'Lisbon trip',
      group_type: 'trip',
      simplify_by_default: 'true',
      users__0__email: grace.email,
      users__1__email: alan.email,
    }).group as { id: number };
    const home = call(grace, 'create_group', {
      name: 'Flat 4B',
      group_type: 'home',
      users__0__email: ada.email,
    }).group as { id: number };
    const dinner = call(ada, 'create_expense', {
      cost: '90.00',
      description: 'Dinner at Time Out Market',
      group_id: String(trip.id),
      split_equally: 'true',
      currency_code: 'EUR',
      category_id: '13',
      date: date(6),
    }).expenses as { id: number }[];
    call(grace, 'create_expense', {
      cost: '240.00',
      description: 'Hotel, two nights',
      group_id: String(trip.id),
      split_equally: 'true',
      currency_code: 'EUR',
      category_id: '47',
      date: date(5),
    });
    call(alan, 'create_expense', {
      cost: '30.00',
      description: 'Taxi from the airport',
      group_id: String(trip.id),
      currency_code: 'EUR',
      category_id: '36',
      date: date(5),
      users__0__user_id: String(alan.id),
      users__0__paid_share: '30.00',
      users__0__owed_share: '15.00',
      users__1__user_id: String(grace.id),
      users__1__paid_share: '0',
      users__1__owed_share: '15.00',
    });
    call(grace, 'create_expense', {
      cost: '1200.00',
      description: 'Rent',
      group_id: String(home.id),
      split_equally: 'true',
      currency_code: 'USD',
      category_id: '3',
      repeat_interval: 'monthly',
      date: date(20),
    });
    call(ada, 'create_expense', {
      cost: '84.36',
      description: 'Groceries',
      group_id: String(home.id),
      split_equally: 'true',
      currency_code: 'USD',
      category_id: '12',
      date: date(3),
    });
    call(ada, 'create_expense', {
      cost: '300.00',
      description: 'Payment',
      group_id: String(home.id),
      payment: 'true',
      currency_code: 'USD',
      date: date(2),
      users__0__user_id: String(ada.id),
      users__0__paid_share: '300.00',
      users__0__owed_share: '0',
      users__1__user_id: String(grace.id),
      users__1__paid_share: '0',
      users__1__owed_share: '300.00',
    });
    call(ada, 'create_expense', {
      cost: '40.00',
      description: 'Lunch',
      currency_code: 'USD',
      category_id: '13',
      date: date(1),
      users__0__user_id: String(ada.id),
      users__0__paid_share: '40.00',
      users__0__owed_share: '20.00',
      users__1__email: 'katherine@example.com',
      users__1__first_name: 'Katherine',
      users__1__last_name: 'Johnson',
      users__1__paid_share: '0',
      users__1__owed_share: '20.00',
    });
    call(grace, 'create_comment', {
      expense_id: String(dinner[0]!.id),
      content: 'Best bacalhau of the trip!',
    });
    return { users: [ada, grace, alan].map((u) => this.getUser(u.id)!) };
  }

  reset(): void {
    const baseUrl = this.state.baseUrl;
    this.state = new State(this.options.clock);
    this.state.baseUrl = baseUrl;
  }

  toJSON(): unknown {
    const s = this.state;
    const friendships: [number, number, unknown][] = [];
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

  static fromJSON(data: unknown, options: { clock: Clock }): Ledger {
    const snapshot = data as Snapshot;
    if (
      typeof snapshot !== 'object' ||
      snapshot === null ||
      snapshot.format !== SNAPSHOT_FORMAT ||
      snapshot.version !== 1
    ) {
      throw new LedgerInputError('not a ledger snapshot (format/version missing or unknown)');
    }
    const ledger = new Ledger(options);
    const s = ledger.state;
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
      for (const r of snapshot.receipts) {
        s.receipts.set(r.id, { ...r, data: Buffer.from(r.data, 'base64') });
      }
    } catch (error) {
      throw new LedgerInputError(`damaged ledger snapshot: ${(error as Error).message}`);
    }
    return ledger;
  }
}

interface Snapshot {
  format: string;
  version: number;
  seq: State['seq'];
  users: UserRecord[];
  friendships: [number, number, { id: number; created_at: number; updated_at: number }][];
  groups: GroupRecord[];
  expenses: ExpenseRecord[];
  comments: State['comments'] extends Map<number, infer C> ? C[] : never;
  notifications: [number, State['notifications'] extends Map<number, infer N> ? N : never][];
  receipts: (Omit<ReceiptRecord, 'data'> & { data: string })[];
}
