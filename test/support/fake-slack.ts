/**
 * A fake Slack Web API on loopback, faithful where the app can go wrong (see
 * shared/reference/slack-platform.md §4): every method answers HTTP 200 with `ok:false` and
 * Slack's error string for platform errors, 429 + Retry-After only when a test asks, tokens are
 * checked, Block Kit limits are enforced, trigger ids are single-use and expire after 3 s, and
 * response_url posts are recorded and limited to 5 uses in 30 minutes.
 *
 * Point a WebClient or Bolt at `url` (`slackApiUrl` / SLACK_API_URL) with retries off.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { blockKitErrors, viewErrors } from './block-kit-limits.js';

export interface FakeTeam {
  id: string;
  name: string;
  domain: string;
  botToken: string;
  botUserId: string;
  botId: string;
  appId: string;
  scopes: string[];
}

export interface FakeUserInput {
  id: string;
  team_id?: string;
  name: string;
  real_name?: string;
  email?: string;
  /** IANA zone, e.g. Europe/Paris. */
  tz?: string;
  is_bot?: boolean;
  deleted?: boolean;
}

export interface FakeUser extends Required<Omit<FakeUserInput, 'email'>> {
  email: string | undefined;
}

export interface FakeChannel {
  id: string;
  name: string;
  is_private: boolean;
  is_im: boolean;
  /** The bot can post only where it is a member (no chat:write.public here). */
  botIsMember: boolean;
  /** undefined = every user of the team is a member. */
  members: Set<string> | undefined;
}

export interface FakeMessage {
  channel: string;
  ts: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  thread_ts: string | undefined;
  user: string;
  bot_id: string | undefined;
  /** Set for chat.postEphemeral messages: only this user sees them. */
  ephemeralFor?: string;
  deleted?: boolean;
}

export interface FakeView {
  id: string;
  team_id: string;
  type: 'modal' | 'home';
  hash: string;
  root_view_id: string;
  previous_view_id: string | null;
  external_id: string;
  callback_id: string;
  private_metadata: string;
  /** For Home views, the user it was published to. */
  user_id?: string;
  view: Record<string, unknown>;
}

export interface FakeFile {
  id: string;
  name: string;
  mimetype: string;
  content: Buffer;
  user: string;
}

export interface RecordedCall {
  method: string;
  /** Token as presented (Authorization header or `token` field). */
  token: string | undefined;
  /** Parsed arguments; JSON-valued fields (blocks, view, ...) already decoded. */
  args: Record<string, unknown>;
  contentType: string | undefined;
  at: number;
  status: number;
  response: Record<string, unknown>;
}

export interface ResponseUrlPost {
  id: string;
  body: Record<string, unknown>;
  contentType: string | undefined;
  at: number;
  status: number;
}

export interface ScheduledMessage {
  id: string;
  channel: string;
  post_at: number;
  text: string | undefined;
  blocks: unknown[] | undefined;
  date_created: number;
}

export interface StartFakeSlackOptions {
  /** The default team (T0001, bot token xoxb-fake-bot-token) is created unless false. */
  defaultTeam?: Partial<FakeTeam> | false;
  /** The default channel C0001 #general (bot is a member) is created unless false. */
  defaultChannel?: boolean;
}

export interface FakeSlack {
  /** Web API base for SLACK_API_URL / slackApiUrl, e.g. http://127.0.0.1:PORT/api/ */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  /** Every Web API call, in arrival order (faulted ones too). */
  calls: RecordedCall[];
  /** Every post to a response_url, in arrival order. */
  responses: ResponseUrlPost[];
  team: FakeTeam;
  addTeam(team: Partial<FakeTeam> & { id: string }): FakeTeam;
  addUser(user: FakeUserInput): FakeUser;
  user(id: string): FakeUser | undefined;
  addChannel(
    channel: Partial<Omit<FakeChannel, 'members'>> & { id: string; members?: string[] },
  ): FakeChannel;
  addFile(
    file: Partial<Omit<FakeFile, 'content'>> & { id: string; content: Buffer | string },
  ): FakeFile;
  /**
   * URL of a response_url. Tied to a channel (and the invoking user), its replies appear in
   * messages(channel); tied to a message (channel + ts), replace_original/delete_original act on
   * it. Unregistered ids are accepted and only recorded.
   */
  responseUrl(options?: { id?: string; channel?: string; ts?: string; user?: string }): string;
  /** Registers a trigger id (3 s life from now, single use); unknown ids are accepted once. */
  issueTrigger(id?: string): string;
  /** The next `times` calls of `method` answer 429 with Retry-After (seconds). */
  rateLimit(method: string, options?: { retryAfter?: number; times?: number }): void;
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
  messages(channel: string): FakeMessage[];
  /** conversations.open's D id for a user (created if needed). */
  dmChannel(userId: string): string;
  view(id: string): FakeView | undefined;
  homeView(userId: string): FakeView | undefined;
  scheduled(): ScheduledMessage[];
  /** The fake's clock (ms); `advance` moves it for trigger/response_url expiry and scheduling. */
  now(): number;
  advance(ms: number): void;
  /** Forgets recorded calls and responses (state such as users and messages stays). */
  clearCalls(): void;
  close(): Promise<void>;
}

/** Form fields @slack/web-api JSON-stringifies; decoded so tests read objects. */
const JSON_FIELDS = new Set(['blocks', 'view', 'attachments', 'metadata', 'user_auth_blocks']);

const METHOD_SCOPES: Record<string, string[]> = {
  'chat.postMessage': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.delete': ['chat:write'],
  'chat.scheduleMessage': ['chat:write'],
  'chat.deleteScheduledMessage': ['chat:write'],
  'users.info': ['users:read'],
  'users.lookupByEmail': ['users:read.email'],
  'conversations.open': ['im:write'],
  'files.info': ['files:read'],
  'team.info': ['team:read'],
};

export const DEFAULT_SCOPES = [
  'commands',
  'chat:write',
  'users:read',
  'users:read.email',
  'im:write',
  'files:read',
  'team:read',
];

class SlackError extends Error {
  constructor(
    readonly error: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(error);
  }
}

function randomId(prefix: string, length = 10): string {
  return prefix + randomBytes(length).toString('hex').toUpperCase().slice(0, length);
}

function tzOffsetSeconds(tz: string, at: number): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(part ?? '');
  if (!match) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60;
  return match[1] === '-' ? -seconds : seconds;
}

function tzLabel(tz: string, at: number): string {
  return (
    new Intl.DateTimeFormat('en-US', { timeZone: tz, timeZoneName: 'long' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value ?? tz
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseArgs(raw: string, contentType: string | undefined, query: URLSearchParams) {
  const args: Record<string, unknown> = Object.fromEntries(query);
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (raw !== '') {
    if (type === 'application/json') {
      Object.assign(args, JSON.parse(raw) as Record<string, unknown>);
    } else {
      for (const [key, value] of new URLSearchParams(raw)) {
        args[key] = value;
      }
    }
  }
  for (const key of Object.keys(args)) {
    const value = args[key];
    if (JSON_FIELDS.has(key) && typeof value === 'string') {
      try {
        args[key] = JSON.parse(value);
      } catch {
        // Left as the string; the method reports invalid_arguments / invalid_blocks.
      }
    }
  }
  return args;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type':
      typeof body === 'string' ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
    ...headers,
  });
  res.end(text);
}

export async function startFakeSlack(options: StartFakeSlackOptions = {}): Promise<FakeSlack> {
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;

  const teams = new Map<string, FakeTeam>();
  const tokens = new Map<string, FakeTeam>();
  const users = new Map<string, FakeUser>();
  const channels = new Map<string, FakeChannel>();
  const dms = new Map<string, string>();
  const messages = new Map<string, FakeMessage[]>();
  const views = new Map<string, FakeView>();
  const homes = new Map<string, FakeView>();
  const files = new Map<string, FakeFile>();
  const scheduled = new Map<string, ScheduledMessage>();
  const triggers = new Map<string, { issuedAt: number; used: boolean }>();
  const responseUrls = new Map<
    string,
    { createdAt: number; uses: number; channel?: string; ts?: string; user?: string }
  >();
  const faults = new Map<
    string,
    Array<
      | { kind: 'rate'; retryAfter: number }
      | { kind: 'error'; error: string }
      | { kind: 'http'; status: number }
    >
  >();
  const calls: RecordedCall[] = [];
  const responses: ResponseUrlPost[] = [];
  const waiters = new Set<() => void>();
  let lastTsMicros = 0;
  let origin = '';

  const notify = () => {
    for (const wake of [...waiters]) wake();
  };

  function nextTs(): string {
    lastTsMicros = Math.max(now() * 1000, lastTsMicros + 1);
    const seconds = Math.floor(lastTsMicros / 1_000_000);
    const micros = String(lastTsMicros % 1_000_000).padStart(6, '0');
    return `${seconds}.${micros}`;
  }

  function addTeam(input: Partial<FakeTeam> & { id: string }): FakeTeam {
    const team: FakeTeam = {
      name: `Team ${input.id}`,
      domain: input.id.toLowerCase(),
      botToken: `xoxb-${input.id}-${randomBytes(6).toString('hex')}`,
      botUserId: randomId('U0BOT', 6),
      botId: randomId('B0', 8),
      appId: 'A0FAKEAPP',
      scopes: [...DEFAULT_SCOPES],
      ...input,
    };
    teams.set(team.id, team);
    tokens.set(team.botToken, team);
    users.set(team.botUserId, {
      id: team.botUserId,
      team_id: team.id,
      name: 'splitbot',
      real_name: 'Split',
      email: undefined,
      tz: 'America/Los_Angeles',
      is_bot: true,
      deleted: false,
    });
    return team;
  }

  const defaultTeam =
    options.defaultTeam === false
      ? undefined
      : addTeam({
          id: 'T0001',
          name: 'Acme',
          domain: 'acme',
          botToken: 'xoxb-fake-bot-token',
          botUserId: 'U0BOT0001',
          botId: 'B0BOT0001',
          ...(options.defaultTeam ?? {}),
        });

  function addUser(input: FakeUserInput): FakeUser {
    const teamId = input.team_id ?? defaultTeam?.id;
    if (teamId === undefined)
      throw new Error('addUser needs team_id when there is no default team');
    const user: FakeUser = {
      id: input.id,
      team_id: teamId,
      name: input.name,
      real_name: input.real_name ?? input.name,
      email: input.email,
      tz: input.tz ?? 'America/Los_Angeles',
      is_bot: input.is_bot ?? false,
      deleted: input.deleted ?? false,
    };
    users.set(user.id, user);
    return user;
  }

  function addChannel(
    input: Partial<Omit<FakeChannel, 'members'>> & { id: string; members?: string[] },
  ): FakeChannel {
    const channel: FakeChannel = {
      name: input.id.toLowerCase(),
      is_private: input.id.startsWith('G'),
      is_im: input.id.startsWith('D'),
      botIsMember: true,
      ...input,
      members: input.members ? new Set(input.members) : undefined,
    };
    channels.set(channel.id, channel);
    return channel;
  }
  if (options.defaultChannel !== false) addChannel({ id: 'C0001', name: 'general' });

  function dmChannel(userId: string): string {
    let id = dms.get(userId);
    if (!id) {
      id = `D${userId.replace(/^[UW]/, '')}`;
      dms.set(userId, id);
      addChannel({ id, name: id, is_im: true, members: [userId] });
    }
    return id;
  }

  function userObject(user: FakeUser, withEmail: boolean) {
    const at = now();
    const profile: Record<string, unknown> = {
      real_name: user.real_name,
      display_name: user.name,
      real_name_normalized: user.real_name,
      display_name_normalized: user.name,
      first_name: user.real_name.split(' ')[0],
      last_name: user.real_name.split(' ').slice(1).join(' '),
      image_72: `https://avatars.example/${user.id}_72.png`,
      team: user.team_id,
    };
    if (withEmail && user.email !== undefined) profile.email = user.email;
    return {
      id: user.id,
      team_id: user.team_id,
      name: user.name,
      deleted: user.deleted,
      real_name: user.real_name,
      tz: user.tz,
      tz_label: tzLabel(user.tz, at),
      tz_offset: tzOffsetSeconds(user.tz, at),
      profile,
      is_admin: false,
      is_owner: false,
      is_bot: user.is_bot,
      is_app_user: false,
      updated: Math.floor(at / 1000),
    };
  }

  // --- argument helpers -------------------------------------------------------------------

  function str(args: Record<string, unknown>, name: string): string {
    const value = args[name];
    if (value === undefined || value === null || value === '') {
      throw new SlackError('invalid_arguments', {
        response_metadata: { messages: [`[ERROR] missing required field: ${name}`] },
      });
    }
    return String(value);
  }

  function optionalStr(args: Record<string, unknown>, name: string): string | undefined {
    const value = args[name];
    return value === undefined || value === null || value === '' ? undefined : String(value);
  }

  /** Resolves a channel argument: a C/G/D id, or a user id meaning the app's DM with them. */
  function resolveChannel(team: FakeTeam, id: string): FakeChannel {
    if (/^[UW]/.test(id)) {
      const user = users.get(id);
      if (!user || user.team_id !== team.id) throw new SlackError('channel_not_found');
      return channels.get(dmChannel(id))!;
    }
    let channel = channels.get(id);
    if (!channel && id.startsWith('D')) {
      // The app's DM with a user exists from install on (app_home_opened carries its id), so a
      // post to it works without conversations.open first.
      const user = [...users.values()].find((u) => `D${u.id.replace(/^[UW]/, '')}` === id);
      if (user && user.team_id === team.id) channel = channels.get(dmChannel(user.id));
    }
    if (!channel) throw new SlackError('channel_not_found');
    return channel;
  }

  function messageContent(args: Record<string, unknown>) {
    const text = optionalStr(args, 'text');
    const blocks = args.blocks;
    if (
      text === undefined &&
      (blocks === undefined || (Array.isArray(blocks) && blocks.length === 0))
    ) {
      throw new SlackError('no_text');
    }
    if (blocks !== undefined) {
      const errors = blockKitErrors(blocks, 'message');
      if (errors.length > 0) {
        throw new SlackError('invalid_blocks', { response_metadata: { messages: errors } });
      }
    }
    if (text !== undefined && text.length > 40_000) throw new SlackError('msg_too_long');
    return { text, blocks: blocks as unknown[] | undefined };
  }

  function messageJson(message: FakeMessage, team: FakeTeam) {
    return {
      type: 'message',
      ...(message.bot_id ? { subtype: 'bot_message', bot_id: message.bot_id } : {}),
      text: message.text ?? '',
      user: message.user,
      ts: message.ts,
      team: team.id,
      app_id: team.appId,
      ...(message.blocks ? { blocks: message.blocks } : {}),
      ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
    };
  }

  function findMessage(channel: string, ts: string): FakeMessage | undefined {
    return messages.get(channel)?.find((m) => m.ts === ts && !m.deleted && !m.ephemeralFor);
  }

  function useTrigger(triggerId: string): void {
    const trigger = triggers.get(triggerId);
    if (!/^\d+\.\d+\.[0-9a-f]+$/i.test(triggerId) && !trigger) {
      throw new SlackError('invalid_trigger_id');
    }
    if (trigger?.used) throw new SlackError('exchanged_trigger_id');
    if (trigger && now() - trigger.issuedAt > 3_000) throw new SlackError('expired_trigger_id');
    triggers.set(triggerId, { issuedAt: trigger?.issuedAt ?? now(), used: true });
  }

  function parseView(args: Record<string, unknown>): Record<string, unknown> {
    const view = args.view;
    if (typeof view !== 'object' || view === null) {
      throw new SlackError('invalid_arguments', {
        response_metadata: { messages: ['[ERROR] failed to parse view [json-pointer:/view]'] },
      });
    }
    const errors = viewErrors(view);
    if (errors.length > 0) {
      throw new SlackError('invalid_arguments', { response_metadata: { messages: errors } });
    }
    return view as Record<string, unknown>;
  }

  function storeView(
    team: FakeTeam,
    body: Record<string, unknown>,
    base: {
      id?: string;
      root_view_id?: string;
      previous_view_id?: string | null;
      user_id?: string;
    },
  ): FakeView {
    const id = base.id ?? randomId('V0', 9);
    const externalId = (body.external_id as string | undefined) ?? '';
    if (externalId !== '') {
      for (const other of views.values()) {
        if (other.external_id === externalId && other.id !== id && other.team_id === team.id) {
          throw new SlackError('duplicate_external_id');
        }
      }
    }
    const stored: FakeView = {
      id,
      team_id: team.id,
      type: body.type === 'home' ? 'home' : 'modal',
      hash: `${Math.floor(now() / 1000)}.${randomBytes(4).toString('hex')}`,
      root_view_id: base.root_view_id ?? id,
      previous_view_id: base.previous_view_id ?? null,
      external_id: externalId,
      callback_id: (body.callback_id as string | undefined) ?? '',
      private_metadata: (body.private_metadata as string | undefined) ?? '',
      ...(base.user_id ? { user_id: base.user_id } : {}),
      view: body,
    };
    views.set(id, stored);
    return stored;
  }

  function viewJson(view: FakeView, team: FakeTeam) {
    return {
      id: view.id,
      team_id: view.team_id,
      type: view.type,
      blocks: view.view.blocks ?? [],
      private_metadata: view.private_metadata,
      callback_id: view.callback_id,
      state: { values: {} },
      hash: view.hash,
      title: view.view.title ?? null,
      clear_on_close: Boolean(view.view.clear_on_close),
      notify_on_close: Boolean(view.view.notify_on_close),
      close: view.view.close ?? null,
      submit: view.view.submit ?? null,
      previous_view_id: view.previous_view_id,
      root_view_id: view.root_view_id,
      app_id: team.appId,
      external_id: view.external_id,
      app_installed_team_id: team.id,
      bot_id: team.botId,
    };
  }

  function stackDepth(view: FakeView): number {
    let depth = 1;
    let current: FakeView | undefined = view;
    while (current?.previous_view_id) {
      depth += 1;
      current = views.get(current.previous_view_id);
    }
    return depth;
  }

  let lastModal: FakeView | undefined;

  const methods: Record<
    string,
    (args: Record<string, unknown>, team: FakeTeam) => Record<string, unknown>
  > = {
    'api.test': (args) => ({ args }),
    'auth.test': (_args, team) => ({
      url: `https://${team.domain}.slack.com/`,
      team: team.name,
      user: 'splitbot',
      team_id: team.id,
      user_id: team.botUserId,
      bot_id: team.botId,
      is_enterprise_install: false,
    }),
    'team.info': (_args, team) => ({
      team: { id: team.id, name: team.name, domain: team.domain, email_domain: '', icon: {} },
    }),
    'chat.postMessage': (args, team) => {
      const channel = resolveChannel(team, str(args, 'channel'));
      if (!channel.is_im && !channel.botIsMember) throw new SlackError('not_in_channel');
      const { text, blocks } = messageContent(args);
      const message: FakeMessage = {
        channel: channel.id,
        ts: nextTs(),
        text,
        blocks,
        thread_ts: optionalStr(args, 'thread_ts'),
        user: team.botUserId,
        bot_id: team.botId,
      };
      messages.set(channel.id, [...(messages.get(channel.id) ?? []), message]);
      return { channel: channel.id, ts: message.ts, message: messageJson(message, team) };
    },
    'chat.postEphemeral': (args, team) => {
      const channel = resolveChannel(team, str(args, 'channel'));
      const userId = str(args, 'user');
      const user = users.get(userId);
      if (!user || user.team_id !== team.id) throw new SlackError('user_not_found');
      if (channel.members && !channel.members.has(userId))
        throw new SlackError('user_not_in_channel');
      if (!channel.is_im && !channel.botIsMember) throw new SlackError('not_in_channel');
      const { text, blocks } = messageContent(args);
      const message: FakeMessage = {
        channel: channel.id,
        ts: nextTs(),
        text,
        blocks,
        thread_ts: optionalStr(args, 'thread_ts'),
        user: team.botUserId,
        bot_id: team.botId,
        ephemeralFor: userId,
      };
      messages.set(channel.id, [...(messages.get(channel.id) ?? []), message]);
      return { message_ts: message.ts };
    },
    'chat.update': (args, team) => {
      const channel = resolveChannel(team, str(args, 'channel'));
      const message = findMessage(channel.id, str(args, 'ts'));
      if (!message) throw new SlackError('message_not_found');
      if (message.bot_id !== team.botId) throw new SlackError('cant_update_message');
      const { text, blocks } = messageContent(args);
      message.text = text;
      message.blocks = blocks;
      return {
        channel: channel.id,
        ts: message.ts,
        text: text ?? '',
        message: messageJson(message, team),
      };
    },
    'chat.delete': (args, team) => {
      const channel = resolveChannel(team, str(args, 'channel'));
      const message = findMessage(channel.id, str(args, 'ts'));
      if (!message) throw new SlackError('message_not_found');
      if (message.bot_id !== team.botId) throw new SlackError('cant_delete_message');
      message.deleted = true;
      return { channel: channel.id, ts: message.ts };
    },
    'chat.scheduleMessage': (args, team) => {
      const channel = resolveChannel(team, str(args, 'channel'));
      const postAt = Number(str(args, 'post_at'));
      if (!Number.isFinite(postAt)) throw new SlackError('invalid_time');
      const nowSeconds = now() / 1000;
      if (postAt < nowSeconds) throw new SlackError('time_in_past');
      if (postAt > nowSeconds + 120 * 86_400) throw new SlackError('time_too_far');
      const { text, blocks } = messageContent(args);
      const entry: ScheduledMessage = {
        id: randomId('Q0', 10),
        channel: channel.id,
        post_at: postAt,
        text,
        blocks,
        date_created: Math.floor(nowSeconds),
      };
      scheduled.set(entry.id, entry);
      return {
        channel: channel.id,
        scheduled_message_id: entry.id,
        post_at: postAt,
        message: {
          type: 'delayed_message',
          text: text ?? '',
          bot_id: team.botId,
          user: team.botUserId,
        },
      };
    },
    'chat.deleteScheduledMessage': (args) => {
      const id = str(args, 'scheduled_message_id');
      if (!scheduled.delete(id)) throw new SlackError('invalid_scheduled_message_id');
      return {};
    },
    'chat.scheduledMessages.list': (args) => {
      const channel = optionalStr(args, 'channel');
      return {
        scheduled_messages: [...scheduled.values()]
          .filter((m) => channel === undefined || m.channel === channel)
          .map((m) => ({
            id: m.id,
            channel_id: m.channel,
            post_at: m.post_at,
            date_created: m.date_created,
            text: m.text ?? '',
          })),
        response_metadata: { next_cursor: '' },
      };
    },
    'views.open': (args, team) => {
      useTrigger(str(args, 'trigger_id'));
      const body = parseView(args);
      if (body.type !== 'modal') throw new SlackError('invalid_arguments');
      const view = storeView(team, body, {});
      lastModal = view;
      return { view: viewJson(view, team) };
    },
    'views.push': (args, team) => {
      useTrigger(str(args, 'trigger_id'));
      const body = parseView(args);
      if (!lastModal) throw new SlackError('invalid_arguments');
      if (stackDepth(lastModal) >= 3) throw new SlackError('push_limit_reached');
      const view = storeView(team, body, {
        root_view_id: lastModal.root_view_id,
        previous_view_id: lastModal.id,
      });
      lastModal = view;
      return { view: viewJson(view, team) };
    },
    'views.update': (args, team) => {
      const viewId = optionalStr(args, 'view_id');
      const externalId = optionalStr(args, 'external_id');
      if (!viewId && !externalId) throw new SlackError('invalid_arguments');
      const existing = viewId
        ? views.get(viewId)
        : [...views.values()].find((v) => v.external_id === externalId && v.team_id === team.id);
      if (!existing || existing.team_id !== team.id) throw new SlackError('not_found');
      const hash = optionalStr(args, 'hash');
      if (hash !== undefined && hash !== existing.hash) throw new SlackError('hash_conflict');
      const body = parseView(args);
      const view = storeView(team, body, {
        id: existing.id,
        root_view_id: existing.root_view_id,
        previous_view_id: existing.previous_view_id,
        ...(existing.user_id ? { user_id: existing.user_id } : {}),
      });
      if (view.type === 'home' && view.user_id) homes.set(view.user_id, view);
      return { view: viewJson(view, team) };
    },
    'views.publish': (args, team) => {
      const userId = str(args, 'user_id');
      const user = users.get(userId);
      if (!user || user.team_id !== team.id) throw new SlackError('user_not_found');
      const body = parseView(args);
      if (body.type !== 'home') throw new SlackError('invalid_arguments');
      const existing = homes.get(userId);
      const hash = optionalStr(args, 'hash');
      if (hash !== undefined && existing && hash !== existing.hash)
        throw new SlackError('hash_conflict');
      const view = storeView(team, body, {
        ...(existing ? { id: existing.id } : {}),
        user_id: userId,
      });
      homes.set(userId, view);
      return { view: viewJson(view, team) };
    },
    'users.info': (args, team) => {
      const user = users.get(str(args, 'user'));
      if (!user) throw new SlackError('user_not_found');
      if (user.team_id !== team.id) throw new SlackError('user_not_visible');
      const json: Record<string, unknown> = userObject(
        user,
        team.scopes.includes('users:read.email'),
      );
      if (args.include_locale === 'true' || args.include_locale === true) json.locale = 'en-US';
      return { user: json };
    },
    'users.lookupByEmail': (args, team) => {
      const email = str(args, 'email').toLowerCase();
      const user = [...users.values()].find(
        (u) => u.team_id === team.id && u.email?.toLowerCase() === email && !u.deleted,
      );
      if (!user) throw new SlackError('users_not_found');
      return { user: userObject(user, true) };
    },
    'conversations.open': (args, team) => {
      const channelArg = optionalStr(args, 'channel');
      let id: string;
      if (channelArg) {
        const channel = channels.get(channelArg);
        if (!channel?.is_im) throw new SlackError('channel_not_found');
        id = channel.id;
      } else {
        const ids = str(args, 'users')
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean);
        if (ids.length !== 1) throw new SlackError('not_implemented');
        const user = users.get(ids[0]!);
        if (!user || user.team_id !== team.id) throw new SlackError('user_not_found');
        if (user.deleted) throw new SlackError('user_disabled');
        const already = dms.has(user.id);
        id = dmChannel(user.id);
        if (args.return_im === 'true' || args.return_im === true) {
          return {
            no_op: already,
            already_open: already,
            channel: {
              id,
              created: Math.floor(now() / 1000),
              is_im: true,
              user: user.id,
              is_open: true,
            },
          };
        }
        return { no_op: already, already_open: already, channel: { id } };
      }
      return { no_op: true, already_open: true, channel: { id } };
    },
    'files.info': (args, team) => {
      const file = files.get(str(args, 'file'));
      if (!file) throw new SlackError('file_not_found');
      return {
        file: {
          id: file.id,
          created: Math.floor(now() / 1000),
          timestamp: Math.floor(now() / 1000),
          name: file.name,
          title: file.name,
          mimetype: file.mimetype,
          filetype: file.name.split('.').pop() ?? 'binary',
          user: file.user,
          user_team: team.id,
          size: file.content.length,
          url_private: `${origin}/files/${file.id}/${encodeURIComponent(file.name)}`,
          url_private_download: `${origin}/files/${file.id}/download/${encodeURIComponent(file.name)}`,
          permalink: `https://${team.domain}.slack.com/files/${file.user}/${file.id}/${file.name}`,
        },
      };
    },
  };

  function authenticate(token: string | undefined): FakeTeam {
    if (token === undefined || token === '') throw new SlackError('not_authed');
    const team = tokens.get(token);
    if (!team) throw new SlackError('invalid_auth');
    return team;
  }

  async function handleApi(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    query: URLSearchParams,
  ) {
    const raw = await readBody(req);
    const contentType = req.headers['content-type'];
    let args: Record<string, unknown>;
    try {
      args = parseArgs(raw, contentType, query);
    } catch {
      args = {};
    }
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
    const call: RecordedCall = {
      method,
      token,
      args,
      contentType,
      at: now(),
      status: 200,
      response: {},
    };
    const reply = (
      status: number,
      body: Record<string, unknown>,
      headers: Record<string, string> = {},
    ) => {
      call.status = status;
      call.response = body;
      calls.push(call);
      send(res, status, body, headers);
      notify();
    };

    const queue = faults.get(method);
    const fault = queue?.shift();
    if (fault?.kind === 'rate') {
      return reply(
        429,
        { ok: false, error: 'ratelimited' },
        { 'retry-after': String(fault.retryAfter) },
      );
    }
    if (fault?.kind === 'http') return reply(fault.status, { ok: false, error: 'fatal_error' });
    if (fault?.kind === 'error') return reply(200, { ok: false, error: fault.error });

    const handler = methods[method];
    if (!handler) return reply(200, { ok: false, error: 'unknown_method', req_method: method });
    try {
      const team = authenticate(token);
      const needed = (METHOD_SCOPES[method] ?? []).filter((s) => !team.scopes.includes(s));
      if (needed.length > 0) {
        throw new SlackError('missing_scope', {
          needed: needed.join(','),
          provided: team.scopes.join(','),
        });
      }
      const body = handler(args, team);
      reply(200, { ok: true, ...body }, { 'x-oauth-scopes': team.scopes.join(',') });
    } catch (error) {
      if (error instanceof SlackError)
        return reply(200, { ok: false, error: error.error, ...error.extra });
      reply(200, { ok: false, error: 'internal_error', detail: String(error) });
    }
  }

  /**
   * What a response_url post does to the conversation: replace or delete the original message
   * when the URL is tied to one, otherwise add a reply (ephemeral for the invoking user unless
   * response_type is in_channel) when the URL is tied to a channel.
   */
  function applyResponse(
    entry: { channel?: string; ts?: string; user?: string },
    body: Record<string, unknown>,
  ): void {
    if (!entry.channel) return;
    const original = entry.ts
      ? messages.get(entry.channel)?.find((m) => m.ts === entry.ts && !m.deleted)
      : undefined;
    if (original && body.delete_original) {
      original.deleted = true;
      return;
    }
    if (original && body.replace_original) {
      original.text = body.text as string | undefined;
      original.blocks = body.blocks as unknown[] | undefined;
      return;
    }
    const team = defaultTeam;
    const message: FakeMessage = {
      channel: entry.channel,
      ts: nextTs(),
      text: body.text as string | undefined,
      blocks: body.blocks as unknown[] | undefined,
      thread_ts: body.thread_ts as string | undefined,
      user: team?.botUserId ?? 'U0BOT',
      bot_id: team?.botId,
      ...(body.response_type === 'in_channel' ? {} : { ephemeralFor: entry.user ?? 'unknown' }),
    };
    messages.set(entry.channel, [...(messages.get(entry.channel) ?? []), message]);
  }

  async function handleResponseUrl(req: IncomingMessage, res: ServerResponse, id: string) {
    const raw = await readBody(req);
    const contentType = req.headers['content-type'];
    let body: Record<string, unknown> = {};
    let status = 200;
    let answer: Record<string, unknown> = { ok: true };
    try {
      body = contentType?.startsWith('application/json')
        ? (JSON.parse(raw) as Record<string, unknown>)
        : (JSON.parse(new URLSearchParams(raw).get('payload') ?? '{}') as Record<string, unknown>);
    } catch {
      status = 400;
      answer = { ok: false, error: 'invalid_payload' };
    }
    let entry = responseUrls.get(id);
    if (!entry) {
      entry = { createdAt: now(), uses: 0 };
      responseUrls.set(id, entry);
    }
    if (status === 200) {
      if (now() - entry.createdAt > 30 * 60_000) {
        status = 404;
        answer = { ok: false, error: 'expired_url' };
      } else if (entry.uses >= 5) {
        status = 404;
        answer = { ok: false, error: 'used_url' };
      } else {
        const errors = body.blocks === undefined ? [] : blockKitErrors(body.blocks, 'message');
        if (errors.length > 0) {
          status = 400;
          answer = { ok: false, error: 'invalid_blocks', response_metadata: { messages: errors } };
        } else if (body.text === undefined && body.blocks === undefined && !body.delete_original) {
          status = 400;
          answer = { ok: false, error: 'no_text' };
        } else {
          entry.uses += 1;
          applyResponse(entry, body);
        }
      }
    }
    responses.push({ id, body, contentType, at: now(), status });
    send(res, status, answer);
    notify();
  }

  function handleFile(req: IncomingMessage, res: ServerResponse, id: string) {
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const file = files.get(id);
    // Like Slack: without a valid token the file URL answers a sign-in page, not the file.
    if (!bearer || !tokens.has(bearer)) {
      return send(res, 200, '<!DOCTYPE html><html><body>Sign in to Slack</body></html>');
    }
    if (!file) return send(res, 404, '<!DOCTYPE html><html><body>File not found</body></html>');
    res.writeHead(200, {
      'content-type': file.mimetype,
      'content-length': String(file.content.length),
    });
    res.end(file.content);
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const api = /^\/api\/([A-Za-z0-9_.]+)$/.exec(url.pathname);
    const response = /^\/response\/([^/]+)$/.exec(url.pathname);
    const file = /^\/files\/([^/]+)\//.exec(url.pathname);
    const fail = (error: unknown) => {
      if (!res.headersSent)
        send(res, 500, { ok: false, error: 'fake_failure', detail: String(error) });
    };
    if (api && (req.method === 'POST' || req.method === 'GET')) {
      handleApi(req, res, api[1]!, url.searchParams).catch(fail);
    } else if (response && req.method === 'POST') {
      handleResponseUrl(req, res, decodeURIComponent(response[1]!)).catch(fail);
    } else if (file && req.method === 'GET') {
      handleFile(req, res, decodeURIComponent(file[1]!));
    } else {
      send(res, 404, { ok: false, error: 'not_found' });
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function waitFor<T>(find: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found !== undefined) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`fake Slack: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  }

  const fake: FakeSlack = {
    url: `${origin}/api/`,
    origin,
    calls,
    responses,
    get team(): FakeTeam {
      if (!defaultTeam) throw new Error('the fake was started without a default team');
      return defaultTeam;
    },
    addTeam,
    addUser,
    user: (id) => users.get(id),
    addChannel,
    addFile(input) {
      const file: FakeFile = {
        name: `${input.id}.bin`,
        mimetype: 'application/octet-stream',
        user: 'U0000',
        ...input,
        content: Buffer.isBuffer(input.content) ? input.content : Buffer.from(input.content),
      };
      files.set(file.id, file);
      return file;
    },
    responseUrl(opts = {}) {
      const id = opts.id ?? randomBytes(8).toString('hex');
      responseUrls.set(id, {
        createdAt: now(),
        uses: 0,
        ...(opts.channel ? { channel: opts.channel } : {}),
        ...(opts.ts ? { ts: opts.ts } : {}),
        ...(opts.user ? { user: opts.user } : {}),
      });
      return `${origin}/response/${encodeURIComponent(id)}`;
    },
    issueTrigger(id) {
      const trigger =
        id ??
        `${Math.floor(now() / 1000)}.${Date.now() % 1_000_000}.${randomBytes(16).toString('hex')}`;
      triggers.set(trigger, { issuedAt: now(), used: false });
      return trigger;
    },
    rateLimit(method, opts = {}) {
      const queue = faults.get(method) ?? [];
      for (let i = 0; i < (opts.times ?? 1); i++)
        queue.push({ kind: 'rate', retryAfter: opts.retryAfter ?? 1 });
      faults.set(method, queue);
    },
    fail(method, error, times = 1) {
      const queue = faults.get(method) ?? [];
      for (let i = 0; i < times; i++) queue.push({ kind: 'error', error });
      faults.set(method, queue);
    },
    httpError(method, status, times = 1) {
      const queue = faults.get(method) ?? [];
      for (let i = 0; i < times; i++) queue.push({ kind: 'http', status });
      faults.set(method, queue);
    },
    callsTo: (method) => calls.filter((c) => c.method === method),
    waitForCall(method, predicate = () => true, timeoutMs = 2_000) {
      return waitFor(
        () => calls.find((c) => c.method === method && predicate(c)),
        timeoutMs,
        `a ${method} call`,
      );
    },
    waitForResponse(predicate = () => true, timeoutMs = 2_000) {
      return waitFor(() => responses.find(predicate), timeoutMs, 'a response_url post');
    },
    messages(channel) {
      const id = /^[UW]/.test(channel) ? dms.get(channel) : channel;
      return (id ? (messages.get(id) ?? []) : []).filter((m) => !m.deleted);
    },
    dmChannel,
    view: (id) => views.get(id),
    homeView: (userId) => homes.get(userId),
    scheduled: () => [...scheduled.values()],
    now,
    advance(ms) {
      clockOffset += ms;
    },
    clearCalls() {
      calls.length = 0;
      responses.length = 0;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
  return fake;
}
