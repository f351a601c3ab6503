/**
 * The emulator's domain: users, friends, groups, expenses, comments and notifications, answering
 * every /api/v3.0 operation with the status and body the real service would. The HTTP layer
 * (server.ts) authenticates and decodes; `handle` does everything else, synchronously.
 *
 * Each operation validates its whole input before it changes anything, so a refused request
 * leaves the state exactly as it was.
 */
import type { Ctx } from './ledger/ctx.js';
import { seedDemo } from './ledger/demo.js';
import type { ReceiptRecord, User } from './ledger/model.js';
import * as comments from './ledger/ops-comments.js';
import * as expenses from './ledger/ops-expenses.js';
import * as groups from './ledger/ops-groups.js';
import * as notifications from './ledger/ops-notifications.js';
import * as users from './ledger/ops-users.js';
import { isEmail, Reply } from './ledger/params.js';
import { categories, currencies, currencyUnits } from './ledger/reference.js';
import { userShape } from './ledger/shapes.js';
import { snapshotOf, stateFromSnapshot } from './ledger/snapshot.js';
import { type Moment, State } from './ledger/state.js';
import {
  type ApiRequest,
  type ApiResult,
  type Clock,
  emptyParams,
  type NewUser,
  type Operation,
  type Params,
} from './types.js';

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

/** One change to the ledger as the --data journal keeps it (see Ledger.journal). */
export type LedgerEntry =
  | {
      op: 'api';
      at: number;
      name: string;
      pathId?: string;
      params: Params;
      /** Uploaded files, their bytes in base64. */
      files: { field: string; filename: string; contentType: string; data: string }[];
      actorId: number;
      /** Random tokens the operation drew, in order. */
      tokens: string[];
    }
  | { op: 'user'; at: number; input: NewUser }
  | { op: 'reset' };

/** A stored receipt, for the HTTP layer to serve under /__emulator/receipts/<key>/<name>. */
export type Receipt = ReceiptRecord;

type Handler = (ctx: Ctx) => ApiResult;
type Unauthenticated = () => ApiResult;

const AUTHENTICATED = new Map<string, { method: 'GET' | 'POST'; run: Handler }>(
  Object.entries({
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
    get_comments: { method: 'GET', run: comments.getComments },
    create_comment: { method: 'POST', run: comments.createComment },
    delete_comment: { method: 'POST', run: comments.deleteComment },
    get_notifications: { method: 'GET', run: notifications.getNotifications },
  } satisfies Record<string, { method: 'GET' | 'POST'; run: Handler }>),
);

const PUBLIC = new Map<string, { method: 'GET'; run: Unauthenticated }>([
  ['get_currencies', { method: 'GET', run: () => ({ status: 200, body: { currencies } }) }],
  ['get_categories', { method: 'GET', run: () => ({ status: 200, body: { categories } }) }],
]);

const NOT_LOGGED_IN: ApiResult = {
  status: 401,
  body: { error: 'Invalid API request: you are not logged in' },
};
const NOT_FOUND: ApiResult = {
  status: 404,
  body: { errors: { base: ['Invalid API Request: record not found'] } },
};

export class Ledger {
  static operations: Record<string, Operation> = Object.fromEntries([
    ...[...AUTHENTICATED].map(([op, { method }]) => [op, { method, auth: true }]),
    ...[...PUBLIC].map(([op, { method }]) => [op, { method, auth: false }]),
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

  /**
   * Receives every change, in order, once it is applied (the --data journal). What it gets is
   * enough for `replay` to apply the same change again with the same outcome.
   */
  journal: ((entry: LedgerEntry) => void) | undefined;

  handle(req: ApiRequest): ApiResult {
    return this.execute(req, this.options.clock.now().getTime(), undefined);
  }

  /** Applies a journaled change again, at its original instant and with its original tokens. */
  replay(entry: LedgerEntry): void {
    switch (entry.op) {
      case 'api': {
        const files = entry.files.map((f) => ({ ...f, data: Buffer.from(f.data, 'base64') }));
        const req: ApiRequest = {
          op: entry.name,
          method: 'POST',
          params: Object.assign(emptyParams(), entry.params),
          files,
          actorId: entry.actorId,
          ...(entry.pathId !== undefined ? { pathId: entry.pathId } : {}),
        };
        try {
          this.execute(req, entry.at, [...entry.tokens]);
        } catch {
          // It failed the same way when it was first applied (the client got a 500).
        }
        return;
      }
      case 'user':
        this.at(entry.at, () => this.createUserNow(entry.input));
        return;
      case 'reset':
        this.reset();
        return;
    }
  }

  private execute(req: ApiRequest, at: number, replay: string[] | undefined): ApiResult {
    const open = PUBLIC.get(req.op);
    if (open) return req.method === open.method ? open.run() : NOT_FOUND;
    const op = AUTHENTICATED.get(req.op);
    if (!op || req.method !== op.method) return NOT_FOUND;
    const actor = req.actorId === undefined ? undefined : this.state.users.get(req.actorId);
    if (!actor) return NOT_LOGGED_IN;
    const ctx = {
      state: this.state,
      actor,
      params: req.params,
      pathId: req.pathId,
      files: req.files,
    };
    if (op.method === 'GET') {
      try {
        return op.run(ctx);
      } catch (error) {
        if (error instanceof Reply) return error.result;
        throw error;
      }
    }
    const moment: Moment = { at, replay, drawn: [] };
    this.state.moment = moment;
    try {
      const result = op.run(ctx);
      this.record(req, actor.id, moment);
      return result;
    } catch (error) {
      // A refusal changed nothing, so there is nothing to replay.
      if (error instanceof Reply) return error.result;
      this.record(req, actor.id, moment);
      throw error;
    } finally {
      this.state.moment = undefined;
    }
  }

  private record(req: ApiRequest, actorId: number, moment: Moment): void {
    this.journal?.({
      op: 'api',
      at: moment.at,
      name: req.op,
      ...(req.pathId !== undefined ? { pathId: req.pathId } : {}),
      params: req.params,
      files: req.files.map((f) => ({ ...f, data: f.data.toString('base64') })),
      actorId,
      tokens: moment.drawn,
    });
  }

  /** Runs `run` at a single instant (records created by one change share it). */
  private at<T>(at: number, run: () => T): T {
    this.state.moment = { at, replay: undefined, drawn: [] };
    try {
      return run();
    } finally {
      this.state.moment = undefined;
    }
  }

  createUser(input: NewUser): User {
    const at = this.options.clock.now().getTime();
    const user = this.at(at, () => this.createUserNow(input));
    this.journal?.({ op: 'user', at, input: { ...input } });
    return user;
  }

  private createUserNow(input: NewUser): User {
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
      return userShape(existing);
    }
    const user = this.state.addUser({
      email,
      first_name: input.first_name,
      last_name: input.last_name ?? null,
      status: 'confirmed',
      default_currency: currency,
    });
    return userShape(user);
  }

  findUserByEmail(email: string): User | undefined {
    const user = this.state.userByEmail(email);
    return user ? userShape(user) : undefined;
  }

  getUser(id: number): User | undefined {
    const user = this.state.users.get(id);
    return user ? userShape(user) : undefined;
  }

  /**
   * The receipt whose URL names `key`, for a caller acting as `userId`: only while it is its
   * expense's receipt, and only to someone who may see that expense.
   */
  receiptFor(key: string, userId: number): Receipt | undefined {
    return this.state.receiptFor(key, userId);
  }

  /**
   * A small, realistic data set, built through the same operations clients call: three people
   * with accounts and one invited by e-mail, a trip group that simplifies debts (EUR), a home
   * group (USD), a non-group lunch, a payment and a comment. Seeding twice changes nothing.
   */
  seedDemo(): { users: User[] } {
    return seedDemo(this, this.options.clock.now().getTime());
  }

  reset(): void {
    const baseUrl = this.state.baseUrl;
    this.state = new State(this.options.clock);
    this.state.baseUrl = baseUrl;
    this.journal?.({ op: 'reset' });
  }

  toJSON(): unknown {
    return snapshotOf(this.state);
  }

  static fromJSON(data: unknown, options: { clock: Clock }): Ledger {
    const ledger = new Ledger(options);
    try {
      ledger.state = stateFromSnapshot(data, options.clock);
    } catch (error) {
      throw new LedgerInputError((error as Error).message);
    }
    return ledger;
  }
}
