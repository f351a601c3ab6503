/**
 * Everything the workspace remembers: teams, people, channels, messages, views, files, and the
 * short-lived grants Slack hands out (trigger ids, response_urls). One instance is shared by the
 * Web API, the response_url endpoint, delivery to the app and the page API, so the page shows
 * exactly what the app did.
 */
import { randomBytes } from 'node:crypto';
import type {
  Channel,
  ChannelInput,
  Notice,
  PendingUpload,
  RecordedCall,
  ResponseUrlPost,
  ScheduledMessage,
  StoredFile,
  StoredMessage,
  StoredView,
  Team,
  User,
  UserInput,
} from './types.js';

export const DEFAULT_SCOPES = [
  'commands',
  'chat:write',
  'users:read',
  'users:read.email',
  'im:write',
  'files:read',
  'files:write',
  'team:read',
];

export const TRIGGER_LIFE_MS = 3_000;
export const RESPONSE_URL_LIFE_MS = 30 * 60_000;
export const RESPONSE_URL_USES = 5;

export interface Trigger {
  issuedAt: number;
  used: boolean;
  /** The person whose interaction produced it: a modal opened with it is theirs. */
  user?: string;
}

export interface ResponseUrlEntry {
  createdAt: number;
  uses: number;
  channel?: string;
  ts?: string;
  user?: string;
}

/** What happened to a message, told to the Events API side (see events.ts). */
export type MessageChange =
  | { kind: 'posted'; message: StoredMessage }
  | { kind: 'changed'; message: StoredMessage; previous: StoredMessage }
  | { kind: 'deleted'; message: StoredMessage; previous: StoredMessage };

export function randomId(prefix: string, length = 10): string {
  return prefix + randomBytes(length).toString('hex').toUpperCase().slice(0, length);
}

export class WorkspaceState {
  clockOffset = 0;
  readonly teams = new Map<string, Team>();
  readonly tokens = new Map<string, Team>();
  /** Enterprise Grid org id -> its name. */
  readonly enterprises = new Map<string, string>();
  /** Org id -> the app's org-wide installation there (its bot's record). */
  readonly orgInstalls = new Map<string, Team>();
  readonly users = new Map<string, User>();
  readonly channels = new Map<string, Channel>();
  /** user id -> the app's DM channel id with them */
  readonly dms = new Map<string, string>();
  readonly messages = new Map<string, StoredMessage[]>();
  readonly views = new Map<string, StoredView>();
  /** user id -> their published Home view */
  readonly homes = new Map<string, StoredView>();
  /** user id -> ids of the modals open for them, top last */
  readonly modals = new Map<string, string[]>();
  readonly files = new Map<string, StoredFile>();
  /** How often each file's bytes were handed out, for tests of who fetched what. */
  readonly downloads = new Map<string, number>();
  /** Files reserved by files.getUploadURLExternal and not yet completed. */
  readonly uploads = new Map<string, PendingUpload>();
  readonly scheduled = new Map<string, ScheduledMessage>();
  readonly triggers = new Map<string, Trigger>();
  readonly responseUrls = new Map<string, ResponseUrlEntry>();
  /** user id -> notices shown to them, newest last */
  readonly notices = new Map<string, Notice[]>();
  readonly calls: RecordedCall[] = [];
  readonly responses: ResponseUrlPost[] = [];
  /** The last modal opened or pushed, for views.push with a trigger not tied to a person. */
  lastModal: StoredView | undefined;
  defaultTeamId: string | undefined;
  version = 0;
  lastTsMicros = 0;
  origin = '';
  /** Told of every message the app's bot posts, edits or deletes (not of ephemeral ones). */
  readonly messageListeners = new Set<(change: MessageChange) => void>();
  private readonly waiters = new Set<() => void>();
  private readonly listeners = new Set<(version: number) => void>();

  constructor(readonly strict: boolean) {}

  now(): number {
    return Date.now() + this.clockOffset;
  }

  /** Strictly increasing `<seconds>.<6 digits>` message timestamps. */
  nextTs(): string {
    this.lastTsMicros = Math.max(this.now() * 1000, this.lastTsMicros + 1);
    const seconds = Math.floor(this.lastTsMicros / 1_000_000);
    const micros = String(this.lastTsMicros % 1_000_000).padStart(6, '0');
    return `${seconds}.${micros}`;
  }

  /** Wakes waiters (a call or response was recorded) without a new version. */
  notify(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /** Something the page shows changed: a new version for the event stream. */
  changed(): void {
    this.version += 1;
    for (const listener of [...this.listeners]) listener(this.version);
    this.notify();
  }

  onChange(listener: (version: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  defaultTeam(): Team | undefined {
    return this.defaultTeamId === undefined ? undefined : this.teams.get(this.defaultTeamId);
  }

  addTeam(input: Partial<Team> & { id: string }): Team {
    const team: Team = {
      name: `Team ${input.id}`,
      domain: input.id.toLowerCase(),
      botToken: `xoxb-${input.id}-${randomBytes(6).toString('hex')}`,
      botUserId: randomId('U0BOT', 6),
      botId: randomId('B0', 8),
      appId: 'A0FAKEAPP',
      scopes: [...DEFAULT_SCOPES],
      ...input,
    };
    this.teams.set(team.id, team);
    this.tokens.set(team.botToken, team);
    this.users.set(team.botUserId, {
      id: team.botUserId,
      team_id: team.id,
      name: 'splitbot',
      real_name: 'Split',
      display_name: 'Split',
      email: undefined,
      tz: 'America/Los_Angeles',
      locale: 'en-US',
      is_bot: true,
      deleted: false,
    });
    this.changed();
    return team;
  }

  addUser(input: UserInput): User {
    const teamId = input.team_id ?? this.defaultTeamId;
    if (teamId === undefined)
      throw new Error('addUser needs team_id when there is no default team');
    const user: User = {
      id: input.id,
      team_id: teamId,
      name: input.name,
      real_name: input.real_name ?? input.name,
      display_name: input.display_name ?? input.name,
      email: input.email,
      tz: input.tz ?? 'America/Los_Angeles',
      locale: input.locale ?? 'en-US',
      is_bot: input.is_bot ?? false,
      deleted: input.deleted ?? false,
    };
    this.users.set(user.id, user);
    this.changed();
    return user;
  }

  addChannel(input: ChannelInput): Channel {
    const channel: Channel = {
      name: input.id.toLowerCase(),
      is_private: input.id.startsWith('G'),
      is_im: input.id.startsWith('D'),
      botIsMember: true,
      ...input,
      members: input.members ? new Set(input.members) : undefined,
    };
    this.channels.set(channel.id, channel);
    this.changed();
    return channel;
  }

  /** The app's DM channel with a person (created on first use, like Slack's at install). */
  dmChannel(userId: string): string {
    let id = this.dms.get(userId);
    if (!id) {
      id = `D${userId.replace(/^[UW]/, '')}`;
      this.dms.set(userId, id);
      this.addChannel({ id, name: id, is_im: true, members: [userId] });
    }
    return id;
  }

  addMessage(message: StoredMessage): StoredMessage {
    this.messages.set(message.channel, [...(this.messages.get(message.channel) ?? []), message]);
    this.changed();
    return message;
  }

  /** Tells the listeners what happened to a message everyone in its conversation sees. */
  announce(change: MessageChange): void {
    if (change.message.ephemeralFor !== undefined) return;
    for (const listener of [...this.messageListeners]) listener(change);
  }

  findMessage(channel: string, ts: string): StoredMessage | undefined {
    return this.messages.get(channel)?.find((m) => m.ts === ts && !m.deleted);
  }

  issueTrigger(id?: string, user?: string): string {
    const trigger =
      id ??
      `${Math.floor(this.now() / 1000)}.${Date.now() % 1_000_000}.${randomBytes(16).toString('hex')}`;
    this.triggers.set(trigger, { issuedAt: this.now(), used: false, ...(user ? { user } : {}) });
    return trigger;
  }

  registerResponseUrl(options: { id?: string; channel?: string; ts?: string; user?: string }) {
    const id = options.id ?? randomBytes(8).toString('hex');
    this.responseUrls.set(id, {
      createdAt: this.now(),
      uses: 0,
      ...(options.channel ? { channel: options.channel } : {}),
      ...(options.ts ? { ts: options.ts } : {}),
      ...(options.user ? { user: options.user } : {}),
    });
    return `${this.origin}/response/${encodeURIComponent(id)}`;
  }

  addNotice(user: string, text: string, tone: Notice['tone'], channel?: string): Notice {
    const notice: Notice = {
      id: randomId('N', 8),
      at: this.now(),
      text,
      tone,
      ...(channel ? { channel } : {}),
    };
    this.notices.set(user, [...(this.notices.get(user) ?? []), notice].slice(-20));
    this.changed();
    return notice;
  }

  /** The modal stack open for a person (a fresh array). */
  modalStack(user: string): StoredView[] {
    return (this.modals.get(user) ?? [])
      .map((id) => this.views.get(id))
      .filter((v): v is StoredView => v !== undefined);
  }

  setModalStack(user: string, ids: string[]): void {
    if (ids.length === 0) this.modals.delete(user);
    else this.modals.set(user, ids);
    this.changed();
  }

  waitFor<T>(find: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found !== undefined) {
          clearTimeout(timer);
          this.waiters.delete(check);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`workspace: timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}
