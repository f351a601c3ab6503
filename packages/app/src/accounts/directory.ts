/**
 * Lookups that a `/split` needs besides the booking itself, each cached for a few minutes so that
 * the same caller booking with the same people again costs exactly one service call
 * (create_expense): Slack profiles (name, e-mail, time zone, locale), the caller's service profile
 * (id, default currency), their friends and their groups.
 *
 * A Slack profile is kept a minute at most: it carries the language a person reads, and a person
 * who switches it expects the next answer in the new one. Slack's `user_change` replaces it at once
 * (profileChanged), and opening App Home reads it again (refreshSlackUser).
 *
 * A Slack lookup the cache cannot answer is made only within the request's budget (lookups.ts),
 * and not at all while Slack has asked the app to wait before calling that method again in that
 * workspace: it is refused at once (LookupRefused), and the caller shows what it knows instead of
 * holding the request for the Retry-After.
 */
import type { webApi } from '@slack/bolt';
import type { CurrentUser, Friend, Group, ServiceClient } from '../service/index.js';
import type { SlackUserKey } from '../store/index.js';
import { TtlCache } from '../store/ttl-cache.js';
import { type LookupBudget, LookupRefused } from './lookups.js';

const DIRECTORY_TTL_MS = 5 * 60_000;
/** The longest a Slack profile (and so a person's language and zone) is answered from the cache. */
export const SLACK_PROFILE_TTL_MS = 60_000;

export interface SlackPerson {
  id: string;
  /** What to call them in text: display name, else real name, else the handle. */
  name: string;
  first_name: string;
  last_name: string;
  /** Present with the users:read.email scope, for people (not bots). */
  email: string | undefined;
  /** IANA zone. */
  tz: string | undefined;
  /** e.g. en-US, when Slack sent it. */
  locale: string | undefined;
  is_bot: boolean;
  deleted: boolean;
}

export interface Directory {
  /** The Slack user (users.info), from the cache or within `lookups`. */
  slackUser(team_id: string, user_id: string, lookups: LookupBudget): Promise<SlackPerson>;
  /**
   * The Slack user as cached, without asking Slack: for answers that must not wait (an ack),
   * which speak to a person the cache does not hold in the default language.
   */
  knownSlackUser(team_id: string, user_id: string): SlackPerson | undefined;
  /**
   * Reads the Slack user again within `lookups` and keeps what Slack says; when Slack cannot be
   * asked, what was cached stays. For a person who has just come back (App Home opened).
   */
  refreshSlackUser(team_id: string, user_id: string, lookups: LookupBudget): Promise<void>;
  /**
   * Slack says this person's profile changed (`user_change`, its user object): a person the cache
   * holds is replaced by it, or read again when it carries no locale. Nobody else is read: the
   * event comes for every change of everyone in the workspace.
   */
  profileChanged(team_id: string, user: SlackUserObject): void;
  /**
   * The Slack user with this e-mail in the team, or null (users.lookupByEmail), from the cache or
   * within `lookups`.
   */
  slackIdByEmail(team_id: string, email: string, lookups: LookupBudget): Promise<string | null>;
  profile(user: SlackUserKey, client: ServiceClient): Promise<CurrentUser>;
  /** Seeds the profile cache (at link time, when get_current_user has just been read). */
  rememberProfile(user: SlackUserKey, profile: CurrentUser): void;
  /**
   * `fresh` skips the cache (an expense made since names new friends); refreshes asked for at
   * once share one read.
   */
  friends(user: SlackUserKey, client: ServiceClient, fresh?: boolean): Promise<Friend[]>;
  /** `fresh` skips the cache (a group made a minute ago is not in a cached list). */
  groups(user: SlackUserKey, client: ServiceClient, fresh?: boolean): Promise<Group[]>;
  /** The service user id someone linked, or null; read through `read` at most every TTL. */
  linkedId(user: SlackUserKey, read: () => Promise<number | null>): Promise<number | null>;
  /** Drops everything cached for this person's link (linked, disconnected, revoked token). */
  forget(user: SlackUserKey): void;
}

/** A user object as users.info and `user_change` carry it. */
export interface SlackUserObject {
  id?: string;
  name?: string;
  real_name?: string;
  tz?: string;
  locale?: string;
  is_bot?: boolean;
  deleted?: boolean;
  profile?: {
    display_name?: string;
    real_name?: string;
    first_name?: string;
    last_name?: string;
    email?: string;
  };
}

function slackPerson(user: SlackUserObject, id: string): SlackPerson {
  const profile = user.profile ?? {};
  const realName = profile.real_name || user.real_name || '';
  const [firstWord = '', ...restWords] = realName.split(/\s+/).filter(Boolean);
  const name = profile.display_name || realName || user.name || id;
  return {
    id,
    name,
    first_name: profile.first_name || firstWord || name,
    last_name: profile.last_name ?? restWords.join(' '),
    email: profile.email || undefined,
    tz: user.tz || undefined,
    locale: user.locale || undefined,
    is_bot: user.is_bot ?? false,
    deleted: user.deleted ?? false,
  };
}

const key = (user: SlackUserKey) => `${user.team_id}:${user.user_id}`;

/** Workspaces and methods whose Retry-After is remembered at once; more than any app serves. */
const MAX_WAITS = 1_000;

/** The seconds a WebAPIRateLimitedError (a 429 the client did not wait out) asks to wait. */
function rateLimitedFor(error: unknown): number | undefined {
  const e = error as { code?: string; retryAfter?: unknown } | null;
  if (e?.code !== 'slack_webapi_rate_limited_error') return undefined;
  return typeof e.retryAfter === 'number' && e.retryAfter >= 0 ? e.retryAfter : 0;
}

export function createDirectory(options: {
  /**
   * The bot's Web API client for lookups in a team (its own installation's when installed into
   * many): apart from the clients that answer people, and handing a 429 back rather than waiting
   * it out (rejectRateLimitedCalls), so that no lookup Slack refuses can hold an answer.
   */
  slack: (team_id: string) => Promise<Pick<webApi.WebClient, 'users'>>;
  ttlMs?: number;
  now?: () => number;
}): Directory {
  const now = options.now ?? Date.now;
  /** Until when Slack asked not to call each method again, per workspace: `${team} ${method}`. */
  const waits = new Map<string, number>();
  const waitFor = (gate: string, seconds: number) => {
    if (waits.size >= MAX_WAITS) {
      const t = now();
      for (const [k, end] of waits) if (end <= t) waits.delete(k);
      if (waits.size >= MAX_WAITS) waits.delete(waits.keys().next().value as string);
    }
    waits.set(gate, now() + seconds * 1_000);
  };
  /**
   * A cached answer, the answer another request is already waiting for, or one Slack call taken
   * from `lookups`.
   */
  function lookUp<V>(
    cache: TtlCache<V>,
    cacheKey: string,
    team_id: string,
    method: string,
    lookups: LookupBudget,
    call: (slack: Pick<webApi.WebClient, 'users'>) => Promise<V>,
  ): Promise<V> {
    return cache.getOrLoad(cacheKey, async () => {
      const gate = `${team_id} ${method}`;
      if ((waits.get(gate) ?? 0) > now()) throw new LookupRefused(method, 'rate_limited');
      if (!lookups.take()) throw new LookupRefused(method, 'budget');
      try {
        return await call(await options.slack(team_id));
      } catch (error) {
        const seconds = rateLimitedFor(error);
        if (seconds === undefined) throw error;
        waitFor(gate, seconds);
        throw new LookupRefused(method, 'rate_limited');
      }
    });
  }
  const ttl = options.ttlMs ?? DIRECTORY_TTL_MS;
  const slackUsers = new TtlCache<SlackPerson>(
    Math.min(ttl, SLACK_PROFILE_TTL_MS),
    10_000,
    options.now,
  );
  const readSlackUser = async (
    slack: Pick<webApi.WebClient, 'users'>,
    user_id: string,
  ): Promise<SlackPerson> => {
    const reply = await slack.users.info({ user: user_id, include_locale: true });
    return slackPerson((reply.user ?? {}) as SlackUserObject, user_id);
  };
  const byEmail = new TtlCache<string | null>(ttl, 10_000, options.now);
  const profiles = new TtlCache<CurrentUser>(ttl, 10_000, options.now);
  const friends = new TtlCache<Friend[]>(ttl, 10_000, options.now);
  const groups = new TtlCache<Group[]>(ttl, 10_000, options.now);
  const links = new TtlCache<number | null>(ttl, 10_000, options.now);
  return {
    slackUser(team_id, user_id, lookups) {
      return lookUp(slackUsers, `${team_id}:${user_id}`, team_id, 'users.info', lookups, (slack) =>
        readSlackUser(slack, user_id),
      );
    },
    knownSlackUser: (team_id, user_id) => slackUsers.get(`${team_id}:${user_id}`),
    async refreshSlackUser(team_id, user_id, lookups) {
      const cacheKey = `${team_id}:${user_id}`;
      const gate = `${team_id} users.info`;
      if ((waits.get(gate) ?? 0) > now() || !lookups.take()) return;
      try {
        const person = await readSlackUser(await options.slack(team_id), user_id);
        slackUsers.invalidate(cacheKey);
        slackUsers.set(cacheKey, person);
      } catch (error) {
        const seconds = rateLimitedFor(error);
        if (seconds === undefined) throw error;
        waitFor(gate, seconds);
      }
    },
    profileChanged(team_id, user) {
      const id = user.id;
      if (!id) return;
      const cacheKey = `${team_id}:${id}`;
      const cached = slackUsers.get(cacheKey);
      // A read under way may have started before the change: it is dropped with the value.
      const held = slackUsers.invalidate(cacheKey);
      if (!held || !user.locale) return;
      const person = slackPerson(user, id);
      // The event's profile holds the e-mail only with users:read.email; the one read is kept.
      slackUsers.set(cacheKey, { ...person, email: person.email ?? cached?.email });
    },
    slackIdByEmail(team_id, email, lookups) {
      return lookUp(
        byEmail,
        `${team_id}:${email.toLowerCase()}`,
        team_id,
        'users.lookupByEmail',
        lookups,
        async (slack) => {
          try {
            const reply = await slack.users.lookupByEmail({ email });
            return reply.user?.id ?? null;
          } catch (error) {
            // Someone not in this workspace is an answer, and cached like one.
            if ((error as { data?: { error?: string } }).data?.error === 'users_not_found')
              return null;
            throw error;
          }
        },
      );
    },
    profile: (user, client) => profiles.getOrLoad(key(user), () => client.getCurrentUser()),
    rememberProfile: (user, profile) => profiles.set(key(user), profile),
    friends(user, client, fresh = false) {
      if (fresh) friends.delete(key(user));
      return friends.getOrLoad(key(user), () => client.getFriends());
    },
    groups(user, client, fresh = false) {
      if (fresh) groups.delete(key(user));
      return groups.getOrLoad(key(user), () => client.getGroups());
    },
    linkedId: (user, read) => links.getOrLoad(key(user), read),
    forget(user) {
      links.delete(key(user));
      profiles.delete(key(user));
      friends.delete(key(user));
      groups.delete(key(user));
    },
  };
}
