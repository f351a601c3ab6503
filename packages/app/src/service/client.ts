/**
 * ServiceClient: the complete interface of the expense service (API v3.0). Each operation is
 * declared once in `resources/` (method, path, parameters, edition, how the answer is read) and
 * run by `invoke.ts` over the one request function (`request.ts`); the methods below are one-line
 * wrappers that keep the service's operation names. Construction only stores options, so one
 * client per user token is cheap, and clients share nothing mutable.
 *
 * Credentials, strongest first: the user token (OAuth 2.0 or OAuth 1.0a, whichever was set last;
 * given both to the constructor, OAuth 2.0 wins), then `apiKey`. An operation that acts for a user
 * with none of them fails before sending anything.
 */
import { randomBytes } from 'node:crypto';
import {
  authorization,
  type Credentials,
  consumerOf,
  type OAuth1Token,
  oauth1Token,
  type UserCredential,
} from './credentials.js';
import { nonNegativeInt, type PersonRef } from './encode.js';
import {
  makeRedactor,
  type Redactor,
  ServiceEditionException,
  ServiceInputException,
} from './errors.js';
import { type Caller, invoke } from './invoke.js';
import {
  checkVerifier,
  type OAuth2Config,
  type OAuth2Token,
  oauth2AuthorizeUrl,
  oauth2ExchangeCode,
} from './oauth2.js';
import type { Edition, Operation } from './operation.js';
import type { AttemptReport, FetchLike, RetryPolicy } from './request.js';
import type { Comment, CommentResult } from './resources/comments.js';
import type {
  Expense,
  ExpenseFilters,
  ExpenseResult,
  ExpenseUpdate,
  NewExpense,
} from './resources/expenses.js';
import type { Friend, FriendResult, NewFriend } from './resources/friends.js';
import type { Group, GroupResult, MemberResult, NewGroup } from './resources/groups.js';
import {
  comments,
  expenses,
  friends,
  groups,
  notifications,
  other,
  users,
} from './resources/index.js';
import type { Notification } from './resources/notifications.js';
import type { Category, Currency } from './resources/other.js';
import type { CurrentUser, User, UserResult, UserUpdate } from './resources/users.js';
import type { SuccessResult } from './results.js';

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
  /** Told of every HTTP attempt (operation, status, outcome, duration): logs and metrics. */
  onAttempt?: (report: AttemptReport) => void;
}

interface Settings {
  edition: Edition;
  baseUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  oauth1AuthorizeUrl: string;
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: FetchLike;
  onAttempt: ((report: AttemptReport) => void) | undefined;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
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
      onAttempt: options.onAttempt,
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
    options: { code_verifier?: string; login_hint?: string } = {},
  ): { auth_url: string; state: string } {
    if (options.code_verifier !== undefined) checkVerifier(options.code_verifier);
    const kept = state ?? randomBytes(16).toString('hex');
    return {
      auth_url: oauth2AuthorizeUrl(this.#oauth2Config(), redirect_uri, kept, options),
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

  getCurrentUser(): Promise<CurrentUser> {
    return this.#call(users.getCurrentUser, {});
  }

  getUser(id: number): Promise<User> {
    return this.#call(users.getUser, { id });
  }

  /** Changes the fields set on `user` (besides `id`) and nothing else. */
  updateUser(user: UserUpdate): Promise<UserResult> {
    return this.#call(users.updateUser, user);
  }

  // ---- friends --------------------------------------------------------------------------------

  getFriends(): Promise<Friend[]> {
    return this.#call(friends.getFriends, {});
  }

  getFriend(id: number): Promise<Friend> {
    return this.#call(friends.getFriend, { id });
  }

  /** Befriends a person by e-mail; names are needed only when the e-mail is new to the service. */
  createFriend(friend: NewFriend): Promise<FriendResult> {
    return this.#call(friends.createFriend, friend);
  }

  deleteFriend(id: number): Promise<SuccessResult> {
    return this.#call(friends.deleteFriend, { id });
  }

  // ---- groups ---------------------------------------------------------------------------------

  getGroups(): Promise<Group[]> {
    return this.#call(groups.getGroups, {});
  }

  /** A group; 0 (the default) is the pseudo-group of non-group expenses. */
  getGroup(id = 0): Promise<Group> {
    return this.#call(groups.getGroup, { id });
  }

  /** Creates a group; the caller becomes a member automatically. */
  createGroup(group: NewGroup): Promise<GroupResult> {
    return this.#call(groups.createGroup, group);
  }

  /** Adds a user to a group, by user_id or by e-mail and name. */
  addUserToGroup(user: PersonRef, group_id: number): Promise<MemberResult> {
    return this.#call(groups.addUserToGroup, { user, group_id });
  }

  /** Removes a user from a group (the service refuses while their balance there is not zero). */
  removeUserFromGroup(user_id: number, group_id: number): Promise<SuccessResult> {
    return this.#call(groups.removeUserFromGroup, { user_id, group_id });
  }

  deleteGroup(id: number): Promise<SuccessResult> {
    return this.#call(groups.deleteGroup, { id });
  }

  // ---- expenses -------------------------------------------------------------------------------

  /**
   * One page of expenses, newest first. Without `visible: true` the service also returns deleted
   * expenses (with deleted_at set). The service's default page size is 20; `limit: 0` asks for all.
   */
  getExpenses(filters: ExpenseFilters = {}): Promise<Expense[]> {
    return this.#call(expenses.getExpenses, filters);
  }

  /**
   * Every expense matching `filters`, page by page (offset pagination, `pageSize` per request,
   * default 100): stops at the first short page, and never yields the same expense twice even if
   * new expenses shift the pages while it runs. `filters.offset` is where it starts and
   * `filters.limit`, when positive, caps the total yielded.
   */
  iterateExpenses(
    filters: ExpenseFilters = {},
    options: { pageSize?: number } = {},
  ): AsyncGenerator<Expense, void, undefined> {
    return expenses.walkExpenses((page) => this.getExpenses(page), filters, options);
  }

  getExpense(id: number): Promise<Expense> {
    return this.#call(expenses.getExpense, { id });
  }

  /**
   * Creates an expense. Either `users` with each person's paid and owed shares (which must each
   * add up to `cost`), or, without users, an equal split over all members of `group_id` paid by
   * the caller (`split_equally`, true by default, which needs a non-zero group_id).
   */
  createExpense(expense: NewExpense): Promise<ExpenseResult> {
    return this.#call(expenses.createExpense, expense);
  }

  /** Changes only the fields set on `expense` (besides `id`); giving `users` replaces all shares. */
  updateExpense(expense: ExpenseUpdate): Promise<ExpenseResult> {
    return this.#call(expenses.updateExpense, expense);
  }

  deleteExpense(id: number): Promise<SuccessResult> {
    return this.#call(expenses.deleteExpense, { id });
  }

  undeleteExpense(id: number): Promise<SuccessResult> {
    return this.#call(expenses.undeleteExpense, { id });
  }

  // ---- comments -------------------------------------------------------------------------------

  /** Comments on an expense, oldest first, System comments included. */
  getComments(expense_id: number): Promise<Comment[]> {
    return this.#call(comments.getComments, { expense_id });
  }

  createComment(expense_id: number, content: string): Promise<CommentResult> {
    return this.#call(comments.createComment, { expense_id, content });
  }

  /** Deletes a comment; the result is the comment with deleted_at set. */
  deleteComment(id: number): Promise<CommentResult> {
    return this.#call(comments.deleteComment, { id });
  }

  // ---- notifications and reference data -------------------------------------------------------

  /** Notifications newest first, newer than `updated_since` when given; limit 0 = the server's max. */
  getNotifications(updated_since?: string | Date, limit = 0): Promise<Notification[]> {
    return this.#call(notifications.getNotifications, { updated_after: updated_since, limit });
  }

  /** The service's currencies; needs no credential. */
  getCurrencies(): Promise<Currency[]> {
    return this.#call(other.getCurrencies, {});
  }

  /** The category tree (expenses take a subcategory id); needs no credential. */
  getCategories(): Promise<Category[]> {
    return this.#call(other.getCategories, {});
  }

  // ---- internals ------------------------------------------------------------------------------

  async #call<In, Out>(operation: Operation<In, Out>, input: In): Promise<Out> {
    const caller: Caller = {
      edition: this.#settings.edition,
      baseUrl: this.#settings.baseUrl,
      transport: this.#transport(),
      authorization: (name, required) => authorization(this.#credentials(), name, required),
    };
    return invoke(caller, operation, input);
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

  #credentials(): Credentials {
    return {
      user: this.#user,
      consumerKey: this.#consumerKey,
      consumerSecret: this.#consumerSecret,
      apiKey: this.#apiKey,
    };
  }

  #transport() {
    return {
      timeoutMs: this.#settings.timeoutMs,
      retry: this.#settings.retry,
      fetch: this.#settings.fetch,
      redact: this.#redactor(),
      ...(this.#settings.onAttempt ? { onAttempt: this.#settings.onAttempt } : {}),
    };
  }

  async #oauth1TokenCall(
    path: string,
    token: { token: string; secret: string } | undefined,
    extra: Record<string, string>,
  ): Promise<OAuth1Token> {
    const consumer = consumerOf(this.#credentials());
    const url = `${this.#settings.baseUrl}/${path}`;
    return oauth1Token(this.#transport(), url, path, consumer, token, extra);
  }
}
