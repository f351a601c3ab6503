/**
 * ServiceClient: the complete interface of the expense service (API v3.0), one short method per
 * operation over one request function (request.ts). Construction only stores options, so one
 * client per user token is cheap, and clients share nothing mutable.
 *
 * Credentials, strongest first: the user token (OAuth 2.0 or OAuth 1.0a, whichever was set last;
 * given both to the constructor, OAuth 2.0 wins), then `apiKey`. An operation that acts for a user
 * with none of them fails before sending anything.
 */
import { randomBytes } from 'node:crypto';
import { amount, formEncode, type Pairs, put, putPerson, segment } from './encode.js';
import {
  firstMessage,
  hasErrors,
  makeRedactor,
  normaliseErrors,
  type Redactor,
  ServiceEditionException,
  type ServiceErrors,
  ServiceException,
  ServiceInputException,
  ServiceUnauthorizedException,
} from './errors.js';
import { oauth1Header } from './oauth1.js';
import {
  checkVerifier,
  type OAuth2Config,
  oauth2AuthorizeUrl,
  oauth2ExchangeCode,
} from './oauth2.js';
import {
  type ApiCall,
  type FetchLike,
  type RequestBody,
  type RetryPolicy,
  send,
} from './request.js';
import type {
  Category,
  Comment,
  CommentResult,
  Currency,
  CurrentUser,
  Edition,
  Expense,
  ExpenseFields,
  ExpenseFilters,
  ExpenseResult,
  ExpenseShare,
  ExpenseUpdate,
  Friend,
  FriendResult,
  Group,
  GroupMember,
  GroupResult,
  MemberResult,
  NewExpense,
  NewFriend,
  NewGroup,
  Notification,
  OAuth1Token,
  OAuth2Token,
  PersonRef,
  SuccessResult,
  User,
  UserResult,
  UserUpdate,
} from './types.js';

export const DEFAULT_BASE_URL = 'https://secure.splitwise.com/api/v3.0';

export interface ServiceClientOptions {
  /** The app's OAuth client id (OAuth 2.0) / consumer key (OAuth 1.0a). */
  consumerKey?: string;
  consumerSecret?: string;
  /** A personal API key, sent as Bearer (editions 2 and 3). */
  apiKey?: string;
  /** An OAuth 1.0a access token. */
  accessToken?: OAuth1Token;
  /** An OAuth 2.0 access token. */
  oauth2AccessToken?: string | OAuth2Token;
  /** Which edition of the interface to speak; 3, the latest, by default. */
  edition?: Edition;
  /** API base, default https://secure.splitwise.com/api/v3.0. */
  baseUrl?: string;
  /** OAuth 2.0 consent page; default `<origin of baseUrl>/oauth/authorize`. */
  authorizeUrl?: string;
  /** OAuth 2.0 token endpoint; default `<origin of baseUrl>/oauth/token`. */
  tokenUrl?: string;
  /** OAuth 1.0a consent page; default `<origin of baseUrl>/authorize`. */
  oauth1AuthorizeUrl?: string;
  /** Per HTTP attempt, in ms; default 10 000. */
  timeoutMs?: number;
  /** Extra attempts for reads; default 2. Writes are never retried. */
  retries?: number;
  /** First backoff step in ms (doubles each retry, with jitter); default 200. */
  retryBaseDelayMs?: number;
  /** Ceiling of one backoff step in ms; default 5 000. */
  retryMaxDelayMs?: number;
  /** Longest Retry-After (ms) the client waits out before retrying; default 30 000. */
  maxRetryAfterMs?: number;
  fetch?: FetchLike;
}

type UserCredential =
  | { kind: 'oauth2'; token: string }
  | { kind: 'oauth1'; token: string; secret: string };

/** Operations missing from each older edition (the extras follow the operations they extend). */
const MISSING: Record<Edition, ReadonlySet<string>> = {
  1: new Set([
    'updateUser',
    'updateExpense',
    'deleteExpense',
    'undeleteExpense',
    'getComments',
    'createComment',
    'deleteComment',
    'getNotifications',
  ]),
  2: new Set(['getNotifications']),
  3: new Set(),
};

interface Settings {
  edition: Edition;
  baseUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  oauth1AuthorizeUrl: string;
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: FetchLike;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function nonNegativeInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ServiceInputException(`${name} must be a non-negative integer`);
  }
  return value;
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function isObjectWithId(value: unknown): boolean {
  const id = asRecord(value).id;
  return typeof id === 'number';
}

export class ServiceClient {
  readonly #settings: Settings;
  readonly #consumerKey: string | undefined;
  readonly #consumerSecret: string | undefined;
  readonly #apiKey: string | undefined;
  #user: UserCredential | undefined;

  constructor(options: ServiceClientOptions = {}) {
    const edition = options.edition ?? 3;
    if (edition !== 1 && edition !== 2 && edition !== 3) {
      throw new ServiceInputException(`edition must be 1, 2 or 3, got ${String(edition)}`);
    }
    if (edition === 1 && options.apiKey !== undefined) {
      throw new ServiceEditionException('edition 1 has no api_key credential: use OAuth instead');
    }
    const baseUrl = trimSlash(options.baseUrl ?? DEFAULT_BASE_URL);
    const origin = new URL(baseUrl).origin;
    this.#settings = {
      edition,
      baseUrl,
      authorizeUrl: options.authorizeUrl ?? `${origin}/oauth/authorize`,
      tokenUrl: options.tokenUrl ?? `${origin}/oauth/token`,
      oauth1AuthorizeUrl: options.oauth1AuthorizeUrl ?? `${origin}/authorize`,
      timeoutMs: nonNegativeInt('timeoutMs', options.timeoutMs, 10_000),
      retry: {
        retries: nonNegativeInt('retries', options.retries, 2),
        baseDelayMs: nonNegativeInt('retryBaseDelayMs', options.retryBaseDelayMs, 200),
        maxDelayMs: nonNegativeInt('retryMaxDelayMs', options.retryMaxDelayMs, 5_000),
        maxRetryAfterMs: nonNegativeInt('maxRetryAfterMs', options.maxRetryAfterMs, 30_000),
      },
      fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    };
    this.#consumerKey = options.consumerKey;
    this.#consumerSecret = options.consumerSecret;
    this.#apiKey = options.apiKey;
    if (options.accessToken) this.setAccessToken(options.accessToken);
    if (options.oauth2AccessToken) this.setOAuth2AccessToken(options.oauth2AccessToken);
  }

  get edition(): Edition {
    return this.#settings.edition;
  }

  // ---- credentials ----------------------------------------------------------------------------

  /** Uses an OAuth 2.0 access token from now on (replacing any OAuth 1.0a token). */
  setOAuth2AccessToken(token: string | OAuth2Token): void {
    const value = typeof token === 'string' ? token : token.access_token;
    if (!value) throw new ServiceInputException('the OAuth 2.0 access token is empty');
    this.#user = { kind: 'oauth2', token: value };
  }

  /** Uses an OAuth 1.0a access token from now on (replacing any OAuth 2.0 token). */
  setAccessToken(token: OAuth1Token): void {
    if (!token.oauth_token || !token.oauth_token_secret) {
      throw new ServiceInputException(
        'an OAuth 1.0a token needs oauth_token and oauth_token_secret',
      );
    }
    this.#user = { kind: 'oauth1', token: token.oauth_token, secret: token.oauth_token_secret };
  }

  /**
   * Step 1 of OAuth 2.0: the consent page URL to send the person to, and the `state` to keep
   * (generated when not given) and compare when they come back. With a PKCE `code_verifier`
   * (RFC 7636), its S256 challenge goes with the request; keep the verifier for step 2.
   */
  getOAuth2AuthorizeURL(
    redirect_uri: string,
    state?: string,
    options: { code_verifier?: string } = {},
  ): { auth_url: string; state: string } {
    if (options.code_verifier !== undefined) checkVerifier(options.code_verifier);
    const kept = state ?? randomBytes(16).toString('hex');
    return {
      auth_url: oauth2AuthorizeUrl(this.#oauth2Config(), redirect_uri, kept, options.code_verifier),
      state: kept,
    };
  }

  /**
   * Step 2 of OAuth 2.0: exchanges the code for a token (with the PKCE verifier of step 1, if one
   * was used). The client keeps nothing: pass the token to setOAuth2AccessToken (or to a new
   * client) to act for the person.
   */
  getOAuth2AccessToken(
    code: string,
    redirect_uri: string,
    options: { code_verifier?: string } = {},
  ): Promise<OAuth2Token> {
    if (options.code_verifier !== undefined) checkVerifier(options.code_verifier);
    return oauth2ExchangeCode(this.#oauth2Config(), code, redirect_uri, options.code_verifier);
  }

  /**
   * Step 1 of OAuth 1.0a: gets a request token and returns the consent URL with its secret (keep
   * the secret for getAccessToken). `callback` is sent as oauth_callback when given.
   */
  async getAuthorizeURL(
    callback?: string,
  ): Promise<{ auth_url: string; oauth_token: string; oauth_token_secret: string }> {
    const token = await this.#oauth1TokenCall(
      'get_request_token',
      undefined,
      callback === undefined ? {} : { oauth_callback: callback },
    );
    const url = new URL(this.#settings.oauth1AuthorizeUrl);
    url.searchParams.set('oauth_token', token.oauth_token);
    return { auth_url: url.toString(), ...token };
  }

  /** Step 2 of OAuth 1.0a: exchanges the authorised request token for an access token. */
  getAccessToken(
    oauth_token: string,
    oauth_token_secret: string,
    oauth_verifier: string,
  ): Promise<OAuth1Token> {
    return this.#oauth1TokenCall(
      'get_access_token',
      { token: oauth_token, secret: oauth_token_secret },
      { oauth_verifier },
    );
  }

  // ---- users ----------------------------------------------------------------------------------

  async getCurrentUser(): Promise<CurrentUser> {
    const body = await this.#get('getCurrentUser', 'get_current_user');
    return this.#pick(body, 'user', 'get_current_user') as CurrentUser;
  }

  async getUser(id: number): Promise<User> {
    const body = await this.#get('getUser', `get_user/${segment('id', id)}`);
    return this.#pick(body, 'user', 'get_user') as User;
  }

  /** Changes the fields set on `user` (besides `id`) and nothing else. */
  async updateUser(user: UserUpdate): Promise<UserResult> {
    this.#available('updateUser');
    const pairs: Pairs = [];
    for (const key of [
      'first_name',
      'last_name',
      'email',
      'password',
      'locale',
      'default_currency',
      'date_format',
      'default_group_id',
    ] as const) {
      put(pairs, key, user[key]);
    }
    if (pairs.length === 0) throw new ServiceInputException('updateUser: nothing to change');
    const body = await this.#post('updateUser', `update_user/${segment('id', user.id)}`, pairs);
    const record = asRecord(body);
    // The spec says the user comes back bare; clients have seen it wrapped. Accept both.
    const updated = 'user' in record ? record.user : isObjectWithId(record) ? record : undefined;
    const { ok, errors } = this.#outcome('update_user', body, isObjectWithId(updated));
    return ok ? { user: updated as CurrentUser, errors } : { errors };
  }

  // ---- friends --------------------------------------------------------------------------------

  async getFriends(): Promise<Friend[]> {
    const body = await this.#get('getFriends', 'get_friends');
    return this.#pick(body, 'friends', 'get_friends') as Friend[];
  }

  async getFriend(id: number): Promise<Friend> {
    const body = await this.#get('getFriend', `get_friend/${segment('id', id)}`);
    return this.#pick(body, 'friend', 'get_friend') as Friend;
  }

  /** Befriends a person by e-mail; names are needed only when the e-mail is new to the service. */
  async createFriend(friend: NewFriend): Promise<FriendResult> {
    if (!friend.email) throw new ServiceInputException('createFriend: email is required');
    const pairs: Pairs = [];
    put(pairs, 'user_email', friend.email);
    put(pairs, 'user_first_name', friend.first_name);
    put(pairs, 'user_last_name', friend.last_name);
    const body = await this.#post('createFriend', 'create_friend', pairs);
    const created = asRecord(body).friend;
    const { ok, errors } = this.#outcome('create_friend', body, isObjectWithId(created));
    return ok ? { friend: created as Friend, errors } : { errors };
  }

  async deleteFriend(id: number): Promise<SuccessResult> {
    return this.#success('deleteFriend', 'delete_friend', `delete_friend/${segment('id', id)}`);
  }

  // ---- groups ---------------------------------------------------------------------------------

  async getGroups(): Promise<Group[]> {
    const body = await this.#get('getGroups', 'get_groups');
    return this.#pick(body, 'groups', 'get_groups') as Group[];
  }

  /** A group; 0 (the default) is the pseudo-group of non-group expenses. */
  async getGroup(id = 0): Promise<Group> {
    const body = await this.#get('getGroup', `get_group/${segment('id', id)}`);
    return this.#pick(body, 'group', 'get_group') as Group;
  }

  /** Creates a group; the caller becomes a member automatically. */
  async createGroup(group: NewGroup): Promise<GroupResult> {
    if (!group.name) throw new ServiceInputException('createGroup: name is required');
    const pairs: Pairs = [];
    put(pairs, 'name', group.name);
    put(pairs, 'group_type', group.group_type);
    put(pairs, 'simplify_by_default', group.simplify_by_default);
    put(pairs, 'whiteboard', group.whiteboard);
    put(pairs, 'country_code', group.country_code);
    (group.users ?? []).forEach((person, i) => {
      putPerson(pairs, `users__${i}`, person);
    });
    const body = await this.#post('createGroup', 'create_group', pairs);
    const created = asRecord(asRecord(body).group);
    // In 2020 the service reported create_group failures inside the group object (id null).
    const nested = normaliseErrors({ errors: created.errors });
    const { ok, errors } = this.#outcome('create_group', body, isObjectWithId(created), nested);
    if (!ok) return { errors };
    const { errors: _nested, ...made } = created;
    return { group: made as unknown as Group, errors };
  }

  /** Adds a user to a group, by user_id or by e-mail and name. */
  async addUserToGroup(user: PersonRef, group_id: number): Promise<MemberResult> {
    const pairs: Pairs = [];
    put(pairs, 'group_id', group_id);
    const p = user as Partial<{
      user_id: number;
      email: string;
      first_name: string;
      last_name: string | null;
    }>;
    if (p.user_id !== undefined) put(pairs, 'user_id', p.user_id);
    else {
      if (!p.email || !p.first_name) {
        throw new ServiceInputException(
          'addUserToGroup: a person needs a user_id, or an email and a first_name',
        );
      }
      put(pairs, 'first_name', p.first_name);
      put(pairs, 'last_name', p.last_name);
      put(pairs, 'email', p.email);
    }
    const body = await this.#post('addUserToGroup', 'add_user_to_group', pairs);
    const record = asRecord(body);
    const { ok, errors } = this.#outcome('add_user_to_group', body, record.success === true);
    if (!ok) return { success: false, errors };
    return isObjectWithId(record.user)
      ? { success: true, user: record.user as GroupMember, errors }
      : { success: true, errors };
  }

  /** Removes a user from a group (the service refuses while their balance there is not zero). */
  async removeUserFromGroup(user_id: number, group_id: number): Promise<SuccessResult> {
    const pairs: Pairs = [];
    put(pairs, 'group_id', group_id);
    put(pairs, 'user_id', user_id);
    return this.#success(
      'removeUserFromGroup',
      'remove_user_from_group',
      'remove_user_from_group',
      pairs,
    );
  }

  async deleteGroup(id: number): Promise<SuccessResult> {
    return this.#success('deleteGroup', 'delete_group', `delete_group/${segment('id', id)}`);
  }

  // ---- expenses -------------------------------------------------------------------------------

  /**
   * One page of expenses, newest first. Without `visible: true` the service also returns deleted
   * expenses (with deleted_at set). The service's default page size is 20; `limit: 0` asks for all.
   */
  async getExpenses(filters: ExpenseFilters = {}): Promise<Expense[]> {
    const query = this.#expenseQuery(filters);
    const body = await this.#get('getExpenses', 'get_expenses', query);
    return this.#pick(body, 'expenses', 'get_expenses') as Expense[];
  }

  /**
   * Every expense matching `filters`, page by page (offset pagination, `pageSize` per request,
   * default 100): stops at the first short page, and never yields the same expense twice even if
   * new expenses shift the pages while it runs. `filters.offset` is where it starts and
   * `filters.limit`, when positive, caps the total yielded.
   */
  async *iterateExpenses(
    filters: ExpenseFilters = {},
    options: { pageSize?: number } = {},
  ): AsyncGenerator<Expense, void, undefined> {
    const pageSize = options.pageSize ?? 100;
    if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
      throw new ServiceInputException('iterateExpenses: pageSize must be a positive integer');
    }
    const cap = filters.limit && filters.limit > 0 ? filters.limit : Number.POSITIVE_INFINITY;
    const seen = new Set<number>();
    let offset = filters.offset ?? 0;
    for (;;) {
      const page = await this.getExpenses({ ...filters, offset, limit: pageSize });
      for (const expense of page) {
        if (seen.has(expense.id)) continue;
        seen.add(expense.id);
        yield expense;
        if (seen.size >= cap) return;
      }
      if (page.length < pageSize) return;
      offset += page.length;
    }
  }

  async getExpense(id: number): Promise<Expense> {
    const body = await this.#get('getExpense', `get_expense/${segment('id', id)}`);
    const expense = this.#pick(body, 'expense', 'get_expense') as Expense;
    if (this.#settings.edition === 1) {
      // Edition 1 has no Comment resource.
      const { comments: _omitted, ...rest } = expense;
      return rest as Expense;
    }
    return expense;
  }

  /**
   * Creates an expense. Either `users` with each person's paid and owed shares (which must each
   * add up to `cost`), or, without users, an equal split over all members of `group_id` paid by
   * the caller (`split_equally`, true by default, which needs a non-zero group_id).
   */
  async createExpense(expense: NewExpense): Promise<ExpenseResult> {
    this.#available('createExpense');
    const pairs: Pairs = [];
    if (!expense.description)
      throw new ServiceInputException('createExpense: description is required');
    if (expense.cost === undefined)
      throw new ServiceInputException('createExpense: cost is required');
    const byShares = expense.users !== undefined;
    if (byShares && expense.split_equally === true) {
      throw new ServiceInputException(
        'createExpense: split_equally cannot be combined with users (give one or the other)',
      );
    }
    if (!byShares) {
      if (expense.split_equally === false) {
        throw new ServiceInputException(
          'createExpense: without split_equally, give users with their paid and owed shares',
        );
      }
      if (!expense.group_id) {
        throw new ServiceInputException(
          'createExpense: split_equally needs a group_id (the cost is split over its members; ' +
            'group 0 is refused) — or give users with their shares',
        );
      }
    }
    this.#expenseFields(pairs, 'createExpense', expense);
    if (!byShares) put(pairs, 'split_equally', true);
    const body = await this.#post('createExpense', 'create_expense', pairs, expense.receipt);
    return this.#expenseResult('create_expense', body);
  }

  /** Changes only the fields set on `expense` (besides `id`); giving `users` replaces all shares. */
  async updateExpense(expense: ExpenseUpdate): Promise<ExpenseResult> {
    this.#available('updateExpense');
    if ('split_equally' in expense) {
      throw new ServiceInputException(
        'updateExpense: the service does not accept split_equally on update; give users with shares',
      );
    }
    const pairs: Pairs = [];
    this.#expenseFields(pairs, 'updateExpense', expense);
    if (pairs.length === 0 && expense.receipt === undefined) {
      throw new ServiceInputException('updateExpense: nothing to change');
    }
    const body = await this.#post(
      'updateExpense',
      `update_expense/${segment('id', expense.id)}`,
      pairs,
      expense.receipt,
    );
    return this.#expenseResult('update_expense', body);
  }

  async deleteExpense(id: number): Promise<SuccessResult> {
    return this.#success('deleteExpense', 'delete_expense', `delete_expense/${segment('id', id)}`);
  }

  async undeleteExpense(id: number): Promise<SuccessResult> {
    return this.#success(
      'undeleteExpense',
      'undelete_expense',
      `undelete_expense/${segment('id', id)}`,
    );
  }

  // ---- comments -------------------------------------------------------------------------------

  /** Comments on an expense, oldest first, System comments included. */
  async getComments(expense_id: number): Promise<Comment[]> {
    this.#available('getComments');
    const query: Pairs = [];
    put(query, 'expense_id', expense_id);
    const body = await this.#get('getComments', 'get_comments', query);
    return this.#pick(body, 'comments', 'get_comments') as Comment[];
  }

  async createComment(expense_id: number, content: string): Promise<CommentResult> {
    this.#available('createComment');
    if (!content) throw new ServiceInputException('createComment: content is required');
    const pairs: Pairs = [];
    put(pairs, 'expense_id', expense_id);
    put(pairs, 'content', content);
    const body = await this.#post('createComment', 'create_comment', pairs);
    return this.#commentResult('create_comment', body);
  }

  /** Deletes a comment; the result is the comment with deleted_at set. */
  async deleteComment(id: number): Promise<CommentResult> {
    this.#available('deleteComment');
    const body = await this.#post('deleteComment', `delete_comment/${segment('id', id)}`, []);
    return this.#commentResult('delete_comment', body);
  }

  // ---- notifications and reference data -------------------------------------------------------

  /** Notifications newest first, newer than `updated_since` when given; limit 0 = the server's max. */
  async getNotifications(updated_since?: string | Date, limit = 0): Promise<Notification[]> {
    this.#available('getNotifications');
    const query: Pairs = [];
    put(query, 'updated_after', updated_since);
    put(query, 'limit', nonNegativeInt('limit', limit, 0));
    const body = await this.#get('getNotifications', 'get_notifications', query);
    return this.#pick(body, 'notifications', 'get_notifications') as Notification[];
  }

  /** The service's currencies; needs no credential. */
  async getCurrencies(): Promise<Currency[]> {
    const body = await this.#get('getCurrencies', 'get_currencies', [], false);
    return this.#pick(body, 'currencies', 'get_currencies') as Currency[];
  }

  /** The category tree (expenses take a subcategory id); needs no credential. */
  async getCategories(): Promise<Category[]> {
    const body = await this.#get('getCategories', 'get_categories', [], false);
    return this.#pick(body, 'categories', 'get_categories') as Category[];
  }

  // ---- internals ------------------------------------------------------------------------------

  #available(operation: string): void {
    const edition = this.#settings.edition;
    if (MISSING[edition].has(operation)) {
      throw new ServiceEditionException(
        `${operation} is not available in edition ${edition} of the service interface`,
      );
    }
  }

  #redactor(): Redactor {
    const user = this.#user;
    return makeRedactor([
      this.#consumerSecret,
      this.#apiKey,
      user?.token,
      user?.kind === 'oauth1' ? user.secret : undefined,
    ]);
  }

  #oauth2Config(): OAuth2Config {
    if (!this.#consumerKey || !this.#consumerSecret) {
      throw new ServiceInputException(
        'OAuth 2.0 needs the consumerKey (client id) and consumerSecret',
      );
    }
    return {
      clientId: this.#consumerKey,
      clientSecret: this.#consumerSecret,
      authorizeUrl: this.#settings.authorizeUrl,
      tokenUrl: this.#settings.tokenUrl,
      timeoutMs: this.#settings.timeoutMs,
      redact: this.#redactor(),
    };
  }

  #consumer(): { key: string; secret: string } {
    if (!this.#consumerKey || !this.#consumerSecret) {
      throw new ServiceInputException('OAuth 1.0a needs the consumerKey and consumerSecret');
    }
    return { key: this.#consumerKey, secret: this.#consumerSecret };
  }

  /** The Authorization header maker for one call, or a local failure when a user is required. */
  #authorization(operation: string, required: boolean): ApiCall['authorization'] {
    const user = this.#user;
    if (user?.kind === 'oauth2') return () => `Bearer ${user.token}`;
    if (user?.kind === 'oauth1') {
      const consumer = this.#consumer();
      return (method, url, formPairs) =>
        oauth1Header({
          method,
          url,
          consumerKey: consumer.key,
          consumerSecret: consumer.secret,
          token: user.token,
          tokenSecret: user.secret,
          ...(formPairs ? { bodyParams: formPairs } : {}),
        });
    }
    if (this.#apiKey) {
      const key = this.#apiKey;
      return () => `Bearer ${key}`;
    }
    if (!required) return undefined;
    throw new ServiceUnauthorizedException(
      `${operation} acts for a user: set an OAuth 2.0 token, an OAuth 1.0a token or an apiKey first`,
    );
  }

  #transport() {
    return {
      timeoutMs: this.#settings.timeoutMs,
      retry: this.#settings.retry,
      fetch: this.#settings.fetch,
      redact: this.#redactor(),
    };
  }

  async #get(
    operation: string,
    path: string,
    query: Pairs = [],
    needsUser = true,
  ): Promise<unknown> {
    this.#available(operation);
    const authorization = this.#authorization(operation, needsUser);
    const qs = query.length > 0 ? `?${formEncode(query)}` : '';
    return send(this.#transport(), {
      what: path.split('/')[0] ?? path,
      method: 'GET',
      url: `${this.#settings.baseUrl}/${path}${qs}`,
      ...(authorization ? { authorization } : {}),
    });
  }

  async #post(operation: string, path: string, pairs: Pairs, receipt?: string): Promise<unknown> {
    this.#available(operation);
    const authorization = this.#authorization(operation, true);
    const body: RequestBody =
      receipt === undefined
        ? { kind: 'form', pairs }
        : { kind: 'multipart', pairs, file: { field: 'receipt', path: receipt } };
    return send(this.#transport(), {
      what: path.split('/')[0] ?? path,
      method: 'POST',
      url: `${this.#settings.baseUrl}/${path}`,
      body,
      ...(authorization ? { authorization } : {}),
    });
  }

  async #oauth1TokenCall(
    path: string,
    token: { token: string; secret: string } | undefined,
    extra: Record<string, string>,
  ): Promise<OAuth1Token> {
    const consumer = this.#consumer();
    const text = (await send(this.#transport(), {
      what: path,
      method: 'POST',
      url: `${this.#settings.baseUrl}/${path}`,
      expect: 'text',
      authorization: (method, url) =>
        oauth1Header({
          method,
          url,
          consumerKey: consumer.key,
          consumerSecret: consumer.secret,
          ...(token ? { token: token.token, tokenSecret: token.secret } : {}),
          extra,
        }),
    })) as string;
    let fields: Record<string, unknown>;
    try {
      fields = asRecord(JSON.parse(text));
    } catch {
      fields = Object.fromEntries(new URLSearchParams(text));
    }
    const oauth_token = fields.oauth_token;
    const oauth_token_secret = fields.oauth_token_secret;
    if (typeof oauth_token !== 'string' || typeof oauth_token_secret !== 'string') {
      throw new ServiceException(`${path} failed: the answer carried no oauth_token`);
    }
    return { oauth_token, oauth_token_secret };
  }

  /** The resource under `key` of a read's envelope; a missing key is a failure, not undefined. */
  #pick(body: unknown, key: string, what: string): unknown {
    const record = asRecord(body);
    if (!(key in record) || record[key] === null) {
      const errors = normaliseErrors(record);
      throw new ServiceException(
        `${what} failed: the answer carried no ${key}${hasErrors(errors) ? ` (${firstMessage(errors)})` : ''}`,
        { errors },
      );
    }
    return record[key];
  }

  /**
   * The one place that reads a mutation's answer (the service's "200 with errors" convention,
   * wire reference §4.2). Failed results get at least one message, so `errors` is never empty
   * when the object is absent. Edition 1 has no error object: a refusal throws instead.
   */
  #outcome(
    what: string,
    body: unknown,
    applied: boolean,
    extraErrors: ServiceErrors = {},
  ): { ok: boolean; errors: ServiceErrors } {
    const record = asRecord(body);
    const errors: ServiceErrors = { ...normaliseErrors(record) };
    for (const [key, messages] of Object.entries(extraErrors)) {
      errors[key] = [...(errors[key] ?? []), ...messages];
    }
    const ok = applied && !hasErrors(errors) && record.success !== false;
    if (!ok && !hasErrors(errors)) errors.base = [`the service did not apply ${what}`];
    if (!ok && this.#settings.edition === 1) {
      throw new ServiceException(`${what} was refused: ${firstMessage(errors)}`, { errors });
    }
    return { ok, errors };
  }

  async #success(
    operation: string,
    what: string,
    path: string,
    pairs: Pairs = [],
  ): Promise<SuccessResult> {
    const body = await this.#post(operation, path, pairs);
    const { ok, errors } = this.#outcome(what, body, asRecord(body).success === true);
    return { success: ok, errors };
  }

  #expenseResult(what: string, body: unknown): ExpenseResult {
    const record = asRecord(body);
    const list = Array.isArray(record.expenses) ? record.expenses : [];
    const expense = list[0] ?? record.expense;
    const { ok, errors } = this.#outcome(what, body, isObjectWithId(expense));
    return ok ? { expense: expense as Expense, errors } : { errors };
  }

  #commentResult(what: string, body: unknown): CommentResult {
    const comment = asRecord(body).comment;
    const { ok, errors } = this.#outcome(what, body, isObjectWithId(comment));
    return ok ? { comment: comment as Comment, errors } : { errors };
  }

  #expenseFields(pairs: Pairs, operation: string, fields: ExpenseFields): void {
    put(pairs, 'description', fields.description);
    if (fields.cost !== undefined) put(pairs, 'cost', amount(`${operation}: cost`, fields.cost));
    put(pairs, 'currency_code', fields.currency_code);
    put(pairs, 'date', fields.date);
    put(pairs, 'category_id', fields.category_id);
    put(pairs, 'group_id', fields.group_id);
    put(pairs, 'details', fields.details);
    put(pairs, 'repeat_interval', fields.repeat_interval);
    put(pairs, 'payment', fields.payment);
    if (fields.users !== undefined) this.#shares(pairs, operation, fields.users);
  }

  #shares(pairs: Pairs, operation: string, users: ExpenseShare[]): void {
    if (users.length === 0) {
      throw new ServiceInputException(
        `${operation}: users is empty (there would be nobody involved)`,
      );
    }
    users.forEach((share, i) => {
      const prefix = `users__${i}`;
      putPerson(pairs, prefix, share);
      put(
        pairs,
        `${prefix}__paid_share`,
        amount(`${operation}: ${prefix}__paid_share`, share.paid_share),
      );
      put(
        pairs,
        `${prefix}__owed_share`,
        amount(`${operation}: ${prefix}__owed_share`, share.owed_share),
      );
    });
  }

  #expenseQuery(filters: ExpenseFilters): Pairs {
    const edition = this.#settings.edition;
    if (edition === 1 && filters.visible !== undefined) {
      throw new ServiceEditionException(
        'the visible filter is not available in edition 1 of the service interface',
      );
    }
    const query: Pairs = [];
    if (filters.offset !== undefined)
      put(query, 'offset', nonNegativeInt('offset', filters.offset, 0));
    if (filters.limit !== undefined) put(query, 'limit', nonNegativeInt('limit', filters.limit, 0));
    put(query, 'group_id', filters.group_id);
    // Edition 1 named the friend filter friendship_id.
    put(query, edition === 1 ? 'friendship_id' : 'friend_id', filters.friend_id);
    put(query, 'dated_after', filters.dated_after);
    put(query, 'dated_before', filters.dated_before);
    put(query, 'updated_after', filters.updated_after);
    put(query, 'updated_before', filters.updated_before);
    put(query, 'visible', filters.visible);
    return query;
  }
}
