/** Web API: chat.* methods (messages, ephemerals, scheduled messages). */
import { blockKitErrors, invalidBlocks } from './block-kit.js';
import { optionalStr, SlackError, str } from './http-util.js';
import { randomId, type WorkspaceState } from './state.js';
import type { Channel, ScheduledMessage, StoredMessage, StoredUnfurl, Team } from './types.js';

export type Method = (args: Record<string, unknown>, team: Team) => Record<string, unknown>;

/** Resolves a channel argument: a C/G/D id, or a user id meaning the app's DM with them. */
export function resolveChannel(state: WorkspaceState, team: Team, id: string): Channel {
  if (/^[UW]/.test(id)) {
    const user = state.users.get(id);
    if (!user || user.team_id !== team.id) throw new SlackError('channel_not_found');
    return state.channels.get(state.dmChannel(id))!;
  }
  let channel = state.channels.get(id);
  if (!channel && id.startsWith('D')) {
    // The app's DM with a user exists from install on (app_home_opened carries its id), so a
    // post to it works without conversations.open first.
    const user = [...state.users.values()].find((u) => `D${u.id.replace(/^[UW]/, '')}` === id);
    if (user && user.team_id === team.id) channel = state.channels.get(state.dmChannel(user.id));
  }
  // A team's token sees only its own team's channels (DMs belong to their person's team).
  const owner = channel?.is_im
    ? state.users.get([...state.dms].find(([, dm]) => dm === channel.id)?.[0] ?? '')?.team_id
    : (channel?.team_id ?? state.defaultTeamId);
  if (!channel || (owner !== undefined && owner !== team.id))
    throw new SlackError('channel_not_found');
  return channel;
}

/** Text and blocks of a message, refused the way Slack refuses them. */
export function messageContent(args: Record<string, unknown>) {
  const text = optionalStr(args, 'text');
  const blocks = args.blocks;
  if (
    text === undefined &&
    (blocks === undefined || (Array.isArray(blocks) && blocks.length === 0))
  )
    throw new SlackError('no_text');
  if (blocks !== undefined) {
    const errors = blockKitErrors(blocks, 'message');
    if (errors.length > 0) throw new SlackError('invalid_blocks', invalidBlocks(errors));
  }
  if (text !== undefined && text.length > 40_000) throw new SlackError('msg_too_long');
  return { text, blocks: blocks as unknown[] | undefined };
}

export function messageJson(message: StoredMessage, team: Team) {
  return {
    type: 'message',
    ...(message.bot_id ? { subtype: 'bot_message', bot_id: message.bot_id } : {}),
    ...(message.username !== undefined ? { username: message.username } : {}),
    text: message.text ?? '',
    ...(message.user ? { user: message.user } : {}),
    ts: message.ts,
    team: team.id,
    ...(message.bot_id ? { app_id: message.app_id ?? team.appId } : {}),
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
    ...(message.unfurls?.length ? { attachments: message.unfurls.map(unfurlAttachment) } : {}),
  };
}

/** An app's unfurl as Slack lists it among the message's attachments. */
function unfurlAttachment(unfurl: StoredUnfurl, index: number) {
  return {
    ...(unfurl.attachment ?? {}),
    id: index + 1,
    ...(unfurl.blocks ? { blocks: unfurl.blocks } : {}),
    app_unfurl_url: unfurl.url,
    is_app_unfurl: true,
  };
}

/**
 * The parent a `thread_ts` names, as the ts replies carry: a reply's ts means its thread. In
 * strict mode a ts that names no message in the conversation is `invalid_thread_ts`; lenient mode
 * keeps it, for tests whose messages the workspace never saw.
 */
export function threadParent(
  state: WorkspaceState,
  channel: Channel,
  ts: string | undefined,
): string | undefined {
  if (ts === undefined) return undefined;
  const parent = state.findMessage(channel.id, ts);
  if (!parent || parent.ephemeralFor !== undefined) {
    if (state.strict) throw new SlackError('invalid_thread_ts');
    return ts;
  }
  return parent.thread_ts ?? parent.ts;
}

/**
 * Whether the bot may write into a channel: its DMs and channels it is in; public channels it has
 * not joined only with chat:write.public.
 */
function canPost(team: Team, channel: Channel): boolean {
  if (channel.is_im || channel.botIsMember) return true;
  return !channel.is_private && team.scopes.includes('chat:write.public');
}

export function chatMethods(state: WorkspaceState): Record<string, Method> {
  const shared = (channel: string, ts: string) =>
    state.messages.get(channel)?.find((m) => m.ts === ts && !m.deleted && !m.ephemeralFor);
  /** Stores a message from the app's bot once the method's own checks have passed. */
  const postAsBot = (
    args: Record<string, unknown>,
    team: Team,
    channel: Channel,
    ephemeralFor?: string,
  ) => {
    const { text, blocks } = messageContent(args);
    const message = state.addMessage({
      channel: channel.id,
      ts: state.nextTs(),
      text,
      blocks,
      thread_ts: threadParent(state, channel, optionalStr(args, 'thread_ts')),
      user: team.botUserId,
      bot_id: team.botId,
      ...(ephemeralFor ? { ephemeralFor } : {}),
    });
    state.announce({ kind: 'posted', message });
    return message;
  };

  return {
    'chat.postMessage': (args, team) => {
      const channel = resolveChannel(state, team, str(args, 'channel'));
      if (!canPost(team, channel)) throw new SlackError('not_in_channel');
      const message = postAsBot(args, team, channel);
      return { channel: channel.id, ts: message.ts, message: messageJson(message, team) };
    },
    'chat.postEphemeral': (args, team) => {
      const channel = resolveChannel(state, team, str(args, 'channel'));
      const userId = str(args, 'user');
      const user = state.users.get(userId);
      if (!user || user.team_id !== team.id) throw new SlackError('user_not_found');
      if (channel.members && !channel.members.has(userId))
        throw new SlackError('user_not_in_channel');
      if (!canPost(team, channel)) throw new SlackError('not_in_channel');
      return { message_ts: postAsBot(args, team, channel, userId).ts };
    },
    'chat.update': (args, team) => {
      const channel = resolveChannel(state, team, str(args, 'channel'));
      const message = shared(channel.id, str(args, 'ts'));
      if (!message) throw new SlackError('message_not_found');
      if (message.bot_id !== team.botId) throw new SlackError('cant_update_message');
      const { text, blocks } = messageContent(args);
      const previous = { ...message };
      message.text = text;
      message.blocks = blocks;
      message.edited = true;
      state.changed();
      state.announce({ kind: 'changed', message, previous });
      return {
        channel: channel.id,
        ts: message.ts,
        text: text ?? '',
        message: messageJson(message, team),
      };
    },
    'chat.delete': (args, team) => {
      const channel = resolveChannel(state, team, str(args, 'channel'));
      const message = shared(channel.id, str(args, 'ts'));
      if (!message) throw new SlackError('message_not_found');
      if (message.bot_id !== team.botId) throw new SlackError('cant_delete_message');
      const previous = { ...message };
      message.deleted = true;
      state.changed();
      state.announce({ kind: 'deleted', message, previous });
      return { channel: channel.id, ts: message.ts };
    },
    'chat.scheduleMessage': (args, team) => {
      const channel = resolveChannel(state, team, str(args, 'channel'));
      const postAt = Number(str(args, 'post_at'));
      if (!Number.isFinite(postAt)) throw new SlackError('invalid_time');
      const nowSeconds = state.now() / 1000;
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
      state.scheduled.set(entry.id, entry);
      state.changed();
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
      if (!state.scheduled.delete(id)) throw new SlackError('invalid_scheduled_message_id');
      state.changed();
      return {};
    },
    'chat.scheduledMessages.list': (args) => {
      const channel = optionalStr(args, 'channel');
      return {
        scheduled_messages: [...state.scheduled.values()]
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
  };
}
