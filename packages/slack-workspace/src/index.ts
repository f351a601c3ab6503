/**
 * The simulated Slack workspace: the Web API with Slack's rules, signed delivery of what people
 * do to the app, and the page's API, on one loopback port. Tests use it as a library (state,
 * recorded calls, faults, a movable clock); the sandbox serves it to a browser.
 */
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { functionMethods } from './api-functions.js';
import { installMethods } from './api-oauth.js';
import { openIdMethods } from './api-openid.js';
import { createDeliverer } from './delivery.js';
import { createMessageEvents } from './events.js';
import { Installs } from './install.js';
import { createInstallPage } from './install-page.js';
import { createInteractions, type Interactions } from './interactions.js';
import { Oidc, type OidcClient, type OidcClientInput, SESSION_COOKIE } from './oidc.js';
import { createOidcPage } from './oidc-page.js';
import { createPageApi } from './page-api.js';
import { type PageState, pageState } from './page-state.js';
import { appUninstalled, type EventOptions, tokensRevoked } from './payloads.js';
import { restore, snapshot, type WorkspaceSnapshot } from './persist.js';
import { createWorkspaceServer } from './server.js';
import { WorkspaceState } from './state.js';
import type {
  AppFacts,
  Channel,
  ChannelInput,
  Delivery,
  Notice,
  RecordedCall,
  ResponseUrlPost,
  ScheduledMessage,
  StoredFile,
  StoredMessage,
  StoredView,
  Team,
  User,
  UserInput,
  WorkspaceOptions,
} from './types.js';
import { createWebApi } from './web-api.js';
import {
  type StepExecution,
  type Workflow,
  type WorkflowInput,
  type WorkflowRun,
  Workflows,
} from './workflows.js';

export { blockKitErrors, type Surface, viewErrors } from './block-kit.js';
export {
  type InputSource,
  STEP_TIMEOUT_MS,
  type StepExecution,
  type Workflow,
  type WorkflowInput,
  type WorkflowRun,
  type WorkflowStep,
  type WorkflowTrigger,
} from './workflows.js';

/** Where the package's build puts the page; the same place seen from src/ and from dist/. */
export const BUILT_PAGE_DIR = fileURLToPath(new URL('../dist/page', import.meta.url));
export {
  ACK_TIMEOUT_MS,
  SANDBOX_EVENT_RETRY_DELAYS_MS,
  SLACK_EVENT_RETRY_DELAYS_MS,
} from './delivery.js';
export { DEMO_CHANNELS, DEMO_PEOPLE, seedDemoWorkspace } from './demo.js';
export { INSTALL_CODE_LIFE_MS, ROTATING_TOKEN_LIFE_S } from './install.js';
export { INSTALL_AUTHORIZE_PATH, KNOWN_SCOPES } from './install-page.js';
export { type Container, type Interactions, PageError, type ViewValues } from './interactions.js';
export { unfurlId } from './links.js';
export { LOCALES } from './locales.js';
export { readManifest } from './manifest.js';
export type { OidcClient, OidcClientInput } from './oidc.js';
export { AUTHORIZE_PATH, KEYS_PATH } from './oidc-page.js';
export { type PageWords, pageWords, timeOf } from './page/words.js';
export type {
  PageChannel,
  PageMessage,
  PagePerson,
  PageState,
  PageUnfurl,
  PageView,
} from './page-state.js';
export { SNAPSHOT_FORMAT, type WorkspaceSnapshot } from './persist.js';
export { DEFAULT_SCOPES } from './state.js';
export type * from './types.js';

export interface Workspace {
  /** http://127.0.0.1:PORT: the page, and the base of everything below. */
  url: string;
  /** Web API base for SLACK_API_URL / slackApiUrl: http://127.0.0.1:PORT/api/ */
  apiUrl: string;
  /** Same as `url`. */
  origin: string;
  /** Every Web API call, in arrival order (faulted ones too). */
  calls: RecordedCall[];
  /** Every post to a response_url, in arrival order. */
  responses: ResponseUrlPost[];
  /** The default team (throws when started without one). */
  readonly team: Team;
  /**
   * Another team: a workspace of its own, with its own people (addUser with its team_id), channels
   * (addChannel with its team_id) and bot token; `enterprise_id` puts it in an Enterprise Grid org.
   */
  addTeam(team: Partial<Team> & { id: string }): Team;
  /** An Enterprise Grid org, named; its teams name it in `enterprise_id`. */
  addEnterprise(id: string, name: string): void;
  /** The app's org-wide installation on an org, once installed there. */
  orgInstall(enterpriseId: string): Team | undefined;
  /** When a rotating token stops working (workspace clock, ms); undefined: it does not expire. */
  tokenExpiry(token: string): number | undefined;
  /**
   * An admin removes the app from a team (or, given an org id, from the org): its tokens stop
   * working, and the app is sent `app_uninstalled` and `tokens_revoked` naming its bot.
   */
  uninstallApp(id: string): Promise<void>;
  addUser(user: UserInput): User;
  user(id: string): User | undefined;
  addChannel(channel: ChannelInput): Channel;
  channel(id: string): Channel | undefined;
  addFile(
    file: Partial<Omit<StoredFile, 'content'>> & { id: string; content: Buffer | string },
  ): StoredFile;
  /**
   * URL of a response_url. Tied to a channel (and the invoking user), its replies appear in
   * messages(channel); tied to a message (channel + ts), replace_original/delete_original act on
   * it.
   */
  responseUrl(options?: { id?: string; channel?: string; ts?: string; user?: string }): string;
  /** Registers a trigger id (3 s life from now, single use), optionally for a person. */
  issueTrigger(id?: string, user?: string): string;
  /** The next `times` calls of `method` answer 429 with Retry-After (seconds). */
  rateLimit(method: string, options?: { retryAfter?: number; times?: number }): void;
  /**
   * For `seconds` from now (the workspace's clock), every call of `method` (in `team` only, when
   * given) answers 429 with Retry-After the whole seconds left, as Slack answers an app over a
   * method's limit until its window ends; 0 ends it.
   */
  rateLimitFor(method: string, seconds: number, options?: { team?: string }): void;
  /** The next `times` calls of `method` answer 200 `{ok:false, error}`. */
  fail(method: string, error: string, times?: number): void;
  /** The next `times` calls of `method` answer this HTTP status (e.g. 500, 503). */
  httpError(method: string, status: number, times?: number): void;
  callsTo(method: string): RecordedCall[];
  /** First call (already made or coming) matching method and predicate. */
  waitForCall(
    method: string,
    predicate?: (call: RecordedCall) => boolean,
    timeoutMs?: number,
  ): Promise<RecordedCall>;
  /** First response_url post (already made or coming) matching the predicate. */
  waitForResponse(
    predicate?: (post: ResponseUrlPost) => boolean,
    timeoutMs?: number,
  ): Promise<ResponseUrlPost>;
  /**
   * Messages in a channel (a user id reads that user's DM), oldest first, without deleted ones;
   * ephemeral ones carry `ephemeralFor`.
   */
  messages(channel: string): StoredMessage[];
  /** conversations.open's D id for a user (created if needed). */
  dmChannel(userId: string): string;
  /** How many times a file's bytes were handed out (with a valid token). */
  fileDownloads(id: string): number;
  view(id: string): StoredView | undefined;
  homeView(userId: string): StoredView | undefined;
  /** The modals open for a person, root first. */
  modals(userId: string): StoredView[];
  scheduled(): ScheduledMessage[];
  /** The workspace's clock (ms); `advance` moves it for trigger/response_url expiry and scheduling. */
  now(): number;
  advance(ms: number): void;
  /** Forgets recorded calls and responses (state such as users and messages stays). */
  clearCalls(): void;
  /** The app the workspace delivers to; the sandbox sets it once the app is listening. */
  connectApp(target: { appUrl: string; signingSecret: string }): void;
  /**
   * Registers an app for Sign in with Slack (`/openid/connect/authorize`, `openid.connect.*`):
   * its client id and secret (generated unless given) and the redirect URLs it may use.
   */
  addOidcClient(input: OidcClientInput): OidcClient;
  /**
   * Signs a browser in to the workspace as a person: the `name=value` pair for its Cookie header.
   * The page does the same for its "Acting as" person.
   */
  signInBrowser(userId: string): string;
  /** The app's manifest facts (commands, shortcuts, scopes); scopes apply to the default team. */
  setApp(app: AppFacts): void;
  readonly app: AppFacts;
  /** Every signed request sent to the app, with its status and timing. */
  deliveries: Delivery[];
  /**
   * A message from a bot that is not the app's, delivered to the app as Slack does: with `user`
   * (another app's bot user), a message with `bot_id`, `app_id` and `bot_profile`; without, a
   * classic bot's `bot_message` under `username`.
   */
  postAsOtherBot(input: OtherBotMessage): Promise<StoredMessage>;
  /** Notices shown to a person (Slack's errors such as a command's operation_timeout). */
  notices(userId: string): Notice[];
  /** What people do, delivered to the app as Slack would (the page API calls these). */
  act: Interactions;
  /** Workflows made of the app's steps, and their runs (workflows.ts). */
  workflows: WorkflowsApi;
  /** What the page sees for one person (GET /workspace-api/state). */
  pageState(userId: string): PageState;
  /** The whole state as JSON (for the sandbox's --data directory). */
  snapshot(): WorkspaceSnapshot;
  /** Called after each change a person could see; returns the function that stops it. */
  onChange(listener: (version: number) => void): () => void;
  /** Replaces the state with a snapshot's; throws on anything else, changing nothing. */
  restore(json: unknown): void;
  close(): Promise<void>;
}

export interface WorkflowsApi {
  create(input: WorkflowInput): Workflow;
  /** Starts one: by a person (with the form's answers), or as its schedule would. */
  start(id: string, by?: { user: string; form?: Record<string, unknown> }): WorkflowRun;
  list(): Workflow[];
  runs(): WorkflowRun[];
  execution(id: string): StepExecution | undefined;
  /** Sends an execution's function_executed again, as Slack's retry `num`. */
  redeliver(id: string, num?: number): Promise<Delivery>;
  /** Runs what is due on the workspace's clock now (after `advance`). */
  tick(): void;
  /** The run once it has completed or failed. */
  waitForRun(id: string, timeoutMs?: number): Promise<WorkflowRun>;
}

export interface OtherBotMessage {
  channel: string;
  text: string;
  thread_ts?: string;
  /** Its bot id; B0OTHERBOT unless given. */
  bot_id?: string;
  /** The other app's bot user; leave it out for a classic bot (an incoming webhook, say). */
  user?: string;
  /** The other app's id (A0OTHERAPP unless given), when `user` is set. */
  app_id?: string;
  /** A classic bot's name (its messages have no user). */
  username?: string;
}

const DEFAULT_APP: AppFacts = { name: 'Split', commands: [], shortcuts: [], scopes: [] };

export async function startWorkspace(options: WorkspaceOptions = {}): Promise<Workspace> {
  const state = new WorkspaceState(options.strict ?? true);
  if (options.defaultTeam !== false) {
    const team = state.addTeam({
      id: 'T0001',
      name: 'Acme',
      domain: 'acme',
      botToken: 'xoxb-fake-bot-token',
      botUserId: 'U0BOT0001',
      botId: 'B0BOT0001',
      ...(options.app ? { scopes: [...options.app.scopes] } : {}),
      ...(options.defaultTeam ?? {}),
    });
    state.defaultTeamId = team.id;
  }
  if (options.defaultChannel !== false) state.addChannel({ id: 'C0001', name: 'general' });

  let app: AppFacts = options.app ?? DEFAULT_APP;
  const deliverer = createDeliverer({
    ...(options.appUrl ? { appUrl: options.appUrl } : {}),
    ...(options.signingSecret ? { signingSecret: options.signingSecret } : {}),
    ...(options.ackTimeoutMs ? { ackTimeoutMs: options.ackTimeoutMs } : {}),
    ...(options.eventRetryDelaysMs ? { eventRetryDelaysMs: options.eventRetryDelaysMs } : {}),
    now: () => state.now(),
  });
  const events = createMessageEvents(state, deliverer, () => app);
  const act = createInteractions(state, deliverer, () => app, events);
  const oidc = new Oidc(state);
  const installs = new Installs(state, oidc);
  const workflows = new Workflows(state, deliverer, () => app);
  const api = createWebApi(
    state,
    new Map([
      ...openIdMethods(oidc),
      ...installMethods(installs),
      ...functionMethods(state, workflows),
    ]),
    (token) => installs.expired(token) || workflows.expired(token),
    () => app,
  );
  const controls = options.controls ?? {};
  const host = options.host ?? '127.0.0.1';
  const server = createWorkspaceServer(state, api, {
    host,
    ...(options.pageDir ? { pageDir: options.pageDir } : {}),
    pageApi: createPageApi(state, act, () => app, controls, oidc, workflows),
    signIn: createOidcPage(state, oidc),
    install: createInstallPage(state, oidc, installs),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  state.origin = `http://${urlHost}:${address.port}`;

  const workspace: Workspace = {
    url: state.origin,
    apiUrl: `${state.origin}/api/`,
    origin: state.origin,
    calls: state.calls,
    responses: state.responses,
    get team(): Team {
      const team = state.defaultTeam();
      if (!team) throw new Error('the workspace was started without a default team');
      return team;
    },
    addTeam: (team) => state.addTeam(team),
    addEnterprise(id, name) {
      state.enterprises.set(id, name);
    },
    orgInstall: (id) => state.orgInstalls.get(id),
    tokenExpiry: (token) => installs.expiries.get(token),
    async uninstallApp(id) {
      const org = state.orgInstalls.get(id);
      const holder = org ?? state.teams.get(id);
      if (!holder) throw new Error(`the app is not installed in ${id}`);
      installs.revokeAll(holder);
      if (org) state.orgInstalls.delete(id);
      const inTeam = org
        ? [...state.teams.values()].find((t) => t.enterprise_id === id && !t.org)
        : holder;
      const options: EventOptions = {
        team_id: inTeam?.id ?? id,
        api_app_id: holder.appId,
        authorized_user_id: holder.botUserId,
        ...(holder.enterprise_id ? { enterprise_id: holder.enterprise_id } : {}),
        is_enterprise_install: org !== undefined,
      };
      await deliverer.deliver('event', appUninstalled(options));
      await deliverer.deliver('event', tokensRevoked({ bot: [holder.botUserId] }, options));
    },
    addUser: (user) => state.addUser(user),
    user: (id) => state.users.get(id),
    addChannel: (channel) => state.addChannel(channel),
    channel: (id) => state.channels.get(id),
    addFile(input) {
      const file: StoredFile = {
        name: `${input.id}.bin`,
        mimetype: 'application/octet-stream',
        user: 'U0000',
        ...input,
        content: Buffer.isBuffer(input.content) ? input.content : Buffer.from(input.content),
      };
      state.files.set(file.id, file);
      return file;
    },
    responseUrl: (opts = {}) => state.registerResponseUrl(opts),
    issueTrigger: (id, user) => state.issueTrigger(id, user),
    rateLimit: (method, opts) => api.rateLimit(method, opts),
    rateLimitFor: (method, seconds, opts) => api.rateLimitFor(method, seconds, opts),
    fail: (method, error, times) => api.fail(method, error, times),
    httpError: (method, status, times) => api.httpError(method, status, times),
    callsTo: (method) => state.calls.filter((c) => c.method === method),
    waitForCall(method, predicate = () => true, timeoutMs = 2_000) {
      return state.waitFor(
        () => state.calls.find((c) => c.method === method && predicate(c)),
        timeoutMs,
        `a ${method} call`,
      );
    },
    waitForResponse(predicate = () => true, timeoutMs = 2_000) {
      return state.waitFor(() => state.responses.find(predicate), timeoutMs, 'a response_url post');
    },
    messages(channel) {
      const id = /^[UW]/.test(channel) ? state.dms.get(channel) : channel;
      return (id ? (state.messages.get(id) ?? []) : []).filter((m) => !m.deleted);
    },
    dmChannel: (userId) => state.dmChannel(userId),
    fileDownloads: (id) => state.downloads.get(id) ?? 0,
    view: (id) => state.views.get(id),
    homeView: (userId) => state.homes.get(userId),
    modals: (userId) => state.modalStack(userId),
    scheduled: () => [...state.scheduled.values()],
    now: () => state.now(),
    advance(ms) {
      state.clockOffset += ms;
    },
    clearCalls() {
      state.calls.length = 0;
      state.responses.length = 0;
    },
    connectApp: (target) => deliverer.connect(target),
    addOidcClient: (input) => oidc.addClient(input),
    signInBrowser(userId) {
      if (!state.users.has(userId)) throw new Error(`there is no person ${userId} to sign in`);
      return `${SESSION_COOKIE}=${oidc.signIn(userId)}`;
    },
    setApp(facts) {
      app = facts;
      const team = state.defaultTeam();
      if (team) team.scopes = [...facts.scopes];
      state.changed();
    },
    get app() {
      return app;
    },
    deliveries: deliverer.deliveries,
    async postAsOtherBot(input) {
      const channel = state.channels.get(input.channel);
      if (!channel) throw new Error(`there is no channel ${input.channel}`);
      const message = state.addMessage({
        channel: channel.id,
        ts: state.nextTs(),
        text: input.text,
        blocks: undefined,
        thread_ts: input.thread_ts,
        user: input.user ?? '',
        bot_id: input.bot_id ?? 'B0OTHERBOT',
        ...(input.user ? { app_id: input.app_id ?? 'A0OTHERAPP' } : {}),
        ...(input.username !== undefined || !input.user
          ? { username: input.username ?? 'Other bot' }
          : {}),
      });
      await events.otherBotMessage(message);
      return message;
    },
    notices: (userId) => [...(state.notices.get(userId) ?? [])],
    act,
    workflows: {
      create: (input) => workflows.create(input),
      start: (id, by) => workflows.start(id, by),
      list: () => [...workflows.workflows.values()],
      runs: () => [...workflows.runs],
      execution: (id) => workflows.execution(id),
      redeliver: (id, num) => workflows.redeliver(id, num),
      tick: () => workflows.tick(),
      waitForRun(id, timeoutMs = 10_000) {
        return state.waitFor(
          () => workflows.runs.find((r) => r.id === id && r.state !== 'running'),
          timeoutMs,
          `workflow run ${id} to end`,
        );
      },
    },
    pageState: (userId) => pageState(state, app, controls, userId),
    snapshot: () => snapshot(state),
    onChange: (listener) => state.onChange(listener),
    restore: (json) => restore(state, json),
    async close() {
      workflows.stop();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      await deliverer.settle();
    },
  };
  return workspace;
}
