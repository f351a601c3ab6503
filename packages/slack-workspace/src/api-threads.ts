/**
 * Web API: conversations.replies, a thread as Slack lists it: the parent first (with its reply
 * count, the people who replied and the latest reply's ts), then the replies, oldest first. The
 * ts of any message of the thread names the whole thread; a message with no replies is a thread
 * of one. Reading needs the history scope of the conversation's kind and the bot in it.
 */
import { type Method, messageJson, resolveChannel } from './api-chat.js';
import { fileObjects } from './api-files.js';
import { optionalStr, SlackError, str } from './http-util.js';
import type { WorkspaceState } from './state.js';
import type { Channel, StoredMessage, Team } from './types.js';

const DEFAULT_LIMIT = 1000;

function historyScope(channel: Channel): string {
  return channel.is_im ? 'im:history' : channel.is_private ? 'groups:history' : 'channels:history';
}

/** Slack's opaque cursor: here, the ts to go on after, in base64. */
function cursorTs(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const decoded = Buffer.from(cursor, 'base64').toString('utf8');
  const ts = /^next_ts:(\d+\.\d+)$/.exec(decoded)?.[1];
  if (!ts) throw new SlackError('invalid_cursor');
  return ts;
}

/** A ts in microseconds, exactly (a double cannot hold sixteen digits). */
function micros(ts: string): bigint {
  const [seconds = '0', fraction = ''] = ts.split('.');
  return BigInt(seconds) * 1_000_000n + BigInt(`${fraction}000000`.slice(0, 6));
}

function timestamp(args: Record<string, unknown>, name: 'oldest' | 'latest'): bigint | undefined {
  const value = optionalStr(args, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,12}(\.\d{1,6})?$/.test(value)) throw new SlackError(`invalid_ts_${name}`);
  return micros(value);
}

export function threadMethods(state: WorkspaceState): Record<string, Method> {
  /** The thread's parent and replies people can all see, without deleted or private ones. */
  function threadOf(
    channel: Channel,
    ts: string,
  ): { parent: StoredMessage; replies: StoredMessage[] } {
    const shared = (state.messages.get(channel.id) ?? []).filter(
      (m) => !m.deleted && m.ephemeralFor === undefined,
    );
    const named = shared.find((m) => m.ts === ts);
    if (!named) throw new SlackError('thread_not_found');
    const rootTs = named.thread_ts ?? named.ts;
    const parent = shared.find((m) => m.ts === rootTs) ?? named;
    const replies = shared.filter((m) => m.thread_ts === rootTs && m.ts !== rootTs);
    return { parent, replies };
  }

  /** A message as a thread lists it: with Slack's file objects of the files still there. */
  function withFiles(message: StoredMessage, team: Team) {
    const files = fileObjects(state, message.files, team);
    return { ...messageJson(message, team), ...(files.length > 0 ? { files } : {}) };
  }

  function parentJson(parent: StoredMessage, replies: StoredMessage[], team: Team) {
    const json = withFiles(parent, team);
    if (replies.length === 0) return json;
    const users = [...new Set(replies.map((r) => r.user).filter(Boolean))];
    return {
      ...json,
      thread_ts: parent.ts,
      reply_count: replies.length,
      reply_users_count: users.length,
      latest_reply: replies[replies.length - 1]!.ts,
      reply_users: users.slice(0, 5),
      is_locked: false,
      subscribed: false,
    };
  }

  return {
    'conversations.replies': (args, team) => {
      const channel = resolveChannel(state, team, str(args, 'channel'));
      const scope = historyScope(channel);
      if (!team.scopes.includes(scope))
        throw new SlackError('missing_scope', { needed: scope, provided: team.scopes.join(',') });
      if (!(channel.is_im || channel.botIsMember)) throw new SlackError('not_in_channel');
      const { parent, replies } = threadOf(channel, str(args, 'ts'));
      const asked = Number(optionalStr(args, 'limit') ?? DEFAULT_LIMIT);
      const limit = Number.isFinite(asked) ? Math.min(Math.max(Math.floor(asked), 1), 1000) : 1000;
      const oldest = timestamp(args, 'oldest');
      const latest = timestamp(args, 'latest');
      const inclusive = String(args.inclusive) === 'true' || String(args.inclusive) === '1';
      const after = cursorTs(optionalStr(args, 'cursor'));
      const inRange = (m: StoredMessage) => {
        const t = micros(m.ts);
        if (oldest !== undefined && (inclusive ? t < oldest : t <= oldest)) return false;
        if (latest !== undefined && (inclusive ? t > latest : t >= latest)) return false;
        return true;
      };
      const all = [parent, ...replies].filter(inRange);
      const rest = after === undefined ? all : all.filter((m) => micros(m.ts) > micros(after));
      const page = rest.slice(0, limit);
      const more = rest.length > page.length;
      const last = page[page.length - 1];
      return {
        messages: page.map((m) => (m === parent ? parentJson(m, replies, team) : replyJson(m))),
        has_more: more,
        response_metadata: {
          next_cursor: more && last ? Buffer.from(`next_ts:${last.ts}`).toString('base64') : '',
        },
      };

      function replyJson(m: StoredMessage) {
        return { ...withFiles(m, team), thread_ts: parent.ts, parent_user_id: parent.user };
      }
    },
  };
}
