/**
 * Lookups that a `/split` needs besides the booking itself, each cached for a few minutes so that
 * the same caller booking with the same people again costs exactly one service call
 * (create_expense): Slack profiles (name, e-mail, time zone, locale), the caller's service profile
 * (id, default currency), their friends and their groups.
 */
import type { webApi } from '@slack/bolt';
import type { CurrentUser, Friend, Group, ServiceClient } from '../service/index.js';
import type { SlackUserKey } from '../store/index.js';
import { TtlCache } from '../store/ttl-cache.js';

const DIRECTORY_TTL_MS = 5 * 60_000;

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
  slackUser(team_id: string, user_id: string): Promise<SlackPerson>;
  /**
   * The Slack user as cached, without asking Slack: for answers that must not wait (an ack),
   * which speak to a person the cache does not hold in the default language.
   */
  knownSlackUser(team_id: string, user_id: string): SlackPerson | undefined;
  /** The Slack user with this e-mail in the team, or null (users.lookupByEmail). */
  slackIdByEmail(team_id: string, email: string): Promise<string | null>;
  profile(user: SlackUserKey, client: ServiceClient): Promise<CurrentUser>;
  /** Seeds the profile cache (at link time, when get_current_user has just been read). */
  rememberProfile(user: SlackUserKey, profile: CurrentUser): void;
  friends(user: SlackUserKey, client: ServiceClient): Promise<Friend[]>;
  /** `fresh` skips the cache (a group made a minute ago is not in a cached list). */
  groups(user: SlackUserKey, client: ServiceClient, fresh?: boolean): Promise<Group[]>;
  /** The service user id someone linked, or null; read through `read` at most every TTL. */
  linkedId(user: SlackUserKey, read: () => Promise<number | null>): Promise<number | null>;
  /** Drops everything cached for this person's link (linked, disconnected, revoked token). */
  forget(user: SlackUserKey): void;
}

interface SlackUserObject {
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

export function createDirectory(options: {
  /** The bot's Web API client of a team (its own installation's when installed into many). */
  slack: (team_id: string) => Promise<Pick<webApi.WebClient, 'users'>>;
  ttlMs?: number;
  now?: () => number;
}): Directory {
  const ttl = options.ttlMs ?? DIRECTORY_TTL_MS;
  const slackUsers = new TtlCache<SlackPerson>(ttl, 10_000, options.now);
  const byEmail = new TtlCache<string | null>(ttl, 10_000, options.now);
  const profiles = new TtlCache<CurrentUser>(ttl, 10_000, options.now);
  const friends = new TtlCache<Friend[]>(ttl, 10_000, options.now);
  const groups = new TtlCache<Group[]>(ttl, 10_000, options.now);
  const links = new TtlCache<number | null>(ttl, 10_000, options.now);
  return {
    slackUser(team_id, user_id) {
      return slackUsers.getOrLoad(`${team_id}:${user_id}`, async () => {
        const slack = await options.slack(team_id);
        const reply = await slack.users.info({ user: user_id, include_locale: true });
        return slackPerson((reply.user ?? {}) as SlackUserObject, user_id);
      });
    },
    knownSlackUser: (team_id, user_id) => slackUsers.get(`${team_id}:${user_id}`),
    slackIdByEmail(team_id, email) {
      return byEmail.getOrLoad(`${team_id}:${email.toLowerCase()}`, async () => {
        try {
          const reply = await (await options.slack(team_id)).users.lookupByEmail({ email });
          return reply.user?.id ?? null;
        } catch (error) {
          // Someone not in this workspace is an answer, and cached like one.
          if ((error as { data?: { error?: string } }).data?.error === 'users_not_found')
            return null;
          throw error;
        }
      });
    },
    profile: (user, client) => profiles.getOrLoad(key(user), () => client.getCurrentUser()),
    rememberProfile: (user, profile) => profiles.set(key(user), profile),
    friends: (user, client) => friends.getOrLoad(key(user), () => client.getFriends()),
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
