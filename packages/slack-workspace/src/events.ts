/**
 * The Events API side of messages: what Slack sends the app when a message is posted, edited or
 * deleted where its bot can read (`message` with `channel_type`), when a person mentions the bot
 * (`app_mention`), and when a message carries a link to one of its unfurl domains
 * (`link_shared`). An app whose manifest lists its bot events gets only those, and only with the
 * scope each needs; an app with no list gets them all.
 */
import { randomUUID } from 'node:crypto';
import { fileObjects } from './api-files.js';
import type { Deliverer, DeliveryOutcome } from './delivery.js';
import { linksToUnfurl, unfurlId } from './links.js';
import { type EventOptions, eventCallback } from './payloads.js';
import type { MessageChange, WorkspaceState } from './state.js';
import type { AppFacts, Channel, StoredMessage, Team, User } from './types.js';

/** The scope Slack requires for each bot event this workspace sends. */
const EVENT_SCOPES = new Map<string, string>([
  ['message.channels', 'channels:history'],
  ['message.groups', 'groups:history'],
  ['message.im', 'im:history'],
  ['app_mention', 'app_mentions:read'],
  ['link_shared', 'links:read'],
]);

export interface MessageEvents {
  /** A person's message: `message`, `app_mention` and `link_shared`, where each applies. */
  personMessage(message: StoredMessage, user: User): Promise<void>;
  /** A message from a bot that is not the app's (another app, or a classic bot). */
  otherBotMessage(message: StoredMessage): Promise<void>;
  /**
   * A person edited (`message_changed`, and `app_mention` again when the new text mentions the
   * app) or deleted (`message_deleted`) their message.
   */
  personChange(change: MessageChange): Promise<void>;
  /** Whether the app's bot gets a mention in this conversation (it is a member, not a DM). */
  mentionReaches(channel: Channel): boolean;
}

/** The envelope fields naming who the event is for: the team's bot, or its org's. */
export function envelopeFor(state: WorkspaceState, team: Team): EventOptions {
  const org = team.enterprise_id ? state.orgInstalls.get(team.enterprise_id) : undefined;
  return {
    team_id: team.id,
    api_app_id: team.appId,
    ...(team.enterprise_id ? { enterprise_id: team.enterprise_id } : {}),
    is_enterprise_install: org !== undefined,
    authorized_user_id: (org ?? team).botUserId,
  };
}

/** Whether a message mentions the user: `<@U…>` or `<@U…|label>` in its text. */
export function mentions(text: string | undefined, userId: string): boolean {
  return (text ?? '').includes(`<@${userId}>`) || (text ?? '').includes(`<@${userId}|`);
}

function channelType(channel: Channel): 'im' | 'group' | 'channel' {
  return channel.is_im ? 'im' : channel.is_private ? 'group' : 'channel';
}

export function createMessageEvents(
  state: WorkspaceState,
  deliverer: Deliverer,
  app: () => AppFacts,
): MessageEvents {
  function subscribed(team: Team, event: string): boolean {
    const events = app().events;
    if (events === undefined) return true;
    const scope = EVENT_SCOPES.get(event);
    return events.includes(event) && (scope === undefined || team.scopes.includes(scope));
  }

  /** The team a conversation belongs to (a DM: its person's). */
  function teamOf(channel: Channel): Team | undefined {
    if (channel.is_im) {
      const owner = [...state.dms].find(([, dm]) => dm === channel.id)?.[0];
      const user = owner ? state.users.get(owner) : undefined;
      return user ? state.teams.get(user.team_id) : undefined;
    }
    return state.teams.get(channel.team_id ?? state.defaultTeamId ?? '');
  }

  /** Whether `message.<type>` events of this conversation reach the app. */
  function readable(channel: Channel, team: Team): boolean {
    if (!(channel.is_im || channel.botIsMember)) return false;
    return subscribed(team, `message.${channel.is_im ? 'im' : `${channelType(channel)}s`}`);
  }

  function send(team: Team, event: Record<string, unknown>): Promise<DeliveryOutcome> {
    return deliverer.deliver('event', eventCallback(event, envelopeFor(state, team)));
  }

  /** The message as it appears inside an event (and in message_changed's message). */
  function body(message: StoredMessage, team: Team): Record<string, unknown> {
    const parent = message.thread_ts
      ? state.findMessage(message.channel, message.thread_ts)
      : undefined;
    const thread = message.thread_ts
      ? { thread_ts: message.thread_ts, ...(parent ? { parent_user_id: parent.user } : {}) }
      : {};
    const files = fileObjects(state, message.files, team);
    const common = {
      type: 'message',
      ...(files.length > 0 ? { subtype: 'file_share', files } : {}),
      text: message.text ?? '',
      ...(message.blocks ? { blocks: message.blocks } : {}),
      ts: message.ts,
      ...thread,
    };
    if (message.bot_id === undefined) {
      return {
        ...common,
        user: message.user,
        team: team.id,
        ...(message.client_msg_id ? { client_msg_id: message.client_msg_id } : {}),
      };
    }
    if (message.username !== undefined && message.user === '') {
      // A classic bot (an incoming webhook, say): Slack's bot_message, with no user.
      return {
        ...common,
        subtype: 'bot_message',
        bot_id: message.bot_id,
        username: message.username,
      };
    }
    const appId = message.app_id ?? team.appId;
    return {
      ...common,
      user: message.user,
      bot_id: message.bot_id,
      app_id: appId,
      team: team.id,
      bot_profile: {
        id: message.bot_id,
        app_id: appId,
        name: message.bot_id === team.botId ? app().name : (message.username ?? 'bot'),
        deleted: false,
        team_id: team.id,
      },
    };
  }

  function messageEvent(message: StoredMessage, channel: Channel, team: Team) {
    return {
      ...body(message, team),
      channel: channel.id,
      channel_type: channelType(channel),
      event_ts: message.ts,
    };
  }

  /** message_changed and message_deleted: the change has a ts of its own. */
  function changeEvent(
    change: Exclude<MessageChange, { kind: 'posted' }>,
    channel: Channel,
    team: Team,
    ts: string,
  ) {
    const where = { channel: channel.id, channel_type: channelType(channel), ts, event_ts: ts };
    if (change.kind === 'deleted') {
      return {
        type: 'message',
        subtype: 'message_deleted',
        hidden: true,
        ...where,
        deleted_ts: change.message.ts,
        previous_message: body(change.previous, team),
      };
    }
    return {
      type: 'message',
      subtype: 'message_changed',
      hidden: true,
      ...where,
      message: { ...body(change.message, team), edited: { user: change.message.user, ts } },
      previous_message: body(change.previous, team),
    };
  }

  async function deliverChange(change: MessageChange, ts = state.nextTs()): Promise<void> {
    const channel = state.channels.get(change.message.channel);
    const team = channel ? teamOf(channel) : undefined;
    if (!channel || !team || !readable(channel, team)) return;
    if (change.kind === 'posted') {
      await send(team, messageEvent(change.message, channel, team));
      return;
    }
    await send(team, changeEvent(change, channel, team, ts));
  }

  /**
   * The app_mention of a person's message, in a channel the app is in. Slack sends one again for
   * each edit of a message that mentions the app: a new event, with the message's own ts and the
   * edit's `edited`.
   */
  function mentionEvent(
    message: StoredMessage,
    user: User,
    channel: Channel,
    team: Team,
    edited?: string,
  ): Record<string, unknown> | undefined {
    if (
      channel.is_im ||
      !mentions(message.text, team.botUserId) ||
      !mentionReaches(channel) ||
      !subscribed(team, 'app_mention')
    )
      return undefined;
    return {
      type: 'app_mention',
      user: user.id,
      text: message.text ?? '',
      ts: message.ts,
      ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
      channel: channel.id,
      team: team.id,
      ...(message.client_msg_id ? { client_msg_id: message.client_msg_id } : {}),
      ...(edited ? { edited: { user: user.id, ts: edited } } : {}),
      event_ts: edited ?? message.ts,
    };
  }

  function linkShared(message: StoredMessage, channel: Channel, team: Team) {
    const links = linksToUnfurl(message.text ?? '', app().unfurl_domains ?? []);
    if (links.length === 0 || !subscribed(team, 'link_shared')) return undefined;
    return {
      type: 'link_shared',
      channel: channel.id,
      is_bot_user_member: channel.is_im || channel.botIsMember,
      user: message.user,
      message_ts: message.ts,
      ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
      unfurl_id: unfurlId(channel.id, message.ts),
      source: 'conversations_history',
      links,
      event_ts: state.nextTs(),
    };
  }

  const mentionReaches = (channel: Channel) => !channel.is_im && channel.botIsMember;

  // The app's own posts, edits and deletions reach it as Slack sends them: a bot's message, with
  // the bot's user, bot_id and app_id, which an app must recognise as its own and leave alone.
  // Only an app that lists its events gets them: a test without a manifest sees what people do.
  state.messageListeners.add((change) => {
    if (app().events !== undefined) void deliverChange(change);
  });

  return {
    async personMessage(message, user) {
      const channel = state.channels.get(message.channel);
      const team = state.teams.get(user.team_id);
      if (!channel || !team) return;
      const sends: Promise<unknown>[] = [];
      if (readable(channel, team)) sends.push(send(team, messageEvent(message, channel, team)));
      const mention = mentionEvent(message, user, channel, team);
      if (mention) sends.push(send(team, mention));
      const shared = linkShared(message, channel, team);
      if (shared) sends.push(send(team, shared));
      await Promise.all(sends);
    },

    async otherBotMessage(message) {
      await deliverChange({ kind: 'posted', message });
    },

    async personChange(change) {
      const ts = state.nextTs();
      const sends = [deliverChange(change, ts)];
      const channel = state.channels.get(change.message.channel);
      const user = state.users.get(change.message.user);
      const team = user ? state.teams.get(user.team_id) : undefined;
      if (change.kind === 'changed' && channel && user && team) {
        const mention = mentionEvent(change.message, user, channel, team, ts);
        if (mention) sends.push(send(team, mention).then(() => undefined));
      }
      await Promise.all(sends);
    },

    mentionReaches,
  };
}

/** A fresh client_msg_id, as Slack's client gives every message a person sends. */
export function clientMessageId(): string {
  return randomUUID();
}
