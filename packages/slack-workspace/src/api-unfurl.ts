/**
 * Web API: chat.unfurl, the app attaching a preview to links people posted. The message is named
 * by `channel` + `ts`, or by the `unfurl_id` + `source` of the link_shared event; `unfurls` maps
 * each URL to Block Kit `blocks` (checked as a message's blocks) or a legacy attachment. Only
 * links in the message, and only those in the app's unfurl domains, can be unfurled; a second
 * call for a link replaces its preview.
 *
 * `user_auth_required` (implied by `user_auth_message`, `user_auth_url` or `user_auth_blocks`)
 * asks the person who posted the links to connect first: Slack shows them alone a prompt from the
 * app, in the message's conversation, and the others see nothing. Its words are
 * `user_auth_blocks`, else `user_auth_message` (which wins over `user_auth_url` when both are
 * given), else a line of Slack's own linking to `user_auth_url`. Another call for the same message
 * replaces the prompt rather than adding one.
 */
import { type Method, resolveChannel } from './api-chat.js';
import { blockKitErrors, invalidBlocks } from './block-kit.js';
import { isObject, optionalStr, SlackError } from './http-util.js';
import { readUnfurlId, unfurlDomain, urlsIn } from './links.js';
import type { WorkspaceState } from './state.js';
import type { AppFacts, StoredMessage, StoredUnfurl, Team } from './types.js';

const SOURCES = new Set(['composer', 'conversations_history']);

function invalid(message: string): SlackError {
  return new SlackError('invalid_arguments', {
    response_metadata: { messages: [`[ERROR] ${message}`] },
  });
}

/** The `unfurls` argument: a JSON object (or its text) keyed by URL. */
function unfurlsArg(args: Record<string, unknown>): Map<string, unknown> {
  let value = args.unfurls;
  if (value === undefined || value === null || value === '')
    throw new SlackError('missing_unfurls');
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      throw new SlackError('invalid_unfurls_format');
    }
  }
  if (!isObject(value)) throw new SlackError('invalid_unfurls_format');
  return new Map(Object.entries(value));
}

/** A boolean argument as Slack reads it: `true` or `1`, in JSON or a form. */
function flag(value: unknown): boolean {
  return value === true || value === 1 || value === 'true' || value === '1';
}

interface AuthPrompt {
  text: string;
  blocks: unknown[];
}

/** The prompt the user_auth_* arguments ask for, or undefined when they ask for none. */
function authPrompt(args: Record<string, unknown>, appName: string): AuthPrompt | undefined {
  const message = optionalStr(args, 'user_auth_message');
  const url = optionalStr(args, 'user_auth_url');
  const blocks = args.user_auth_blocks;
  const asked =
    flag(args.user_auth_required) ||
    message !== undefined ||
    url !== undefined ||
    (blocks !== undefined && blocks !== null && blocks !== '');
  if (!asked) return undefined;
  if (url !== undefined && !/^https?:\/\/[^\s<>|]+$/i.test(url))
    throw invalid('user_auth_url must be an http(s) URL');
  if (message !== undefined && message.length > 4_000)
    throw invalid('user_auth_message is too long');
  const text =
    message ??
    (url
      ? `${appName} can show previews of these links once you connect: <${url}|connect>.`
      : `${appName} can show previews of these links once you connect your account.`);
  if (blocks !== undefined && blocks !== null && blocks !== '') {
    const errors = blockKitErrors(blocks, 'message');
    if (errors.length > 0) throw new SlackError('invalid_blocks', invalidBlocks(errors));
    return { text, blocks: blocks as unknown[] };
  }
  return { text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] };
}

export function unfurlMethods(state: WorkspaceState, app: () => AppFacts): Record<string, Method> {
  /** The message the call names, by channel + ts or by the link_shared event's unfurl_id. */
  function target(args: Record<string, unknown>, team: Team): StoredMessage {
    const id = optionalStr(args, 'unfurl_id');
    const source = optionalStr(args, 'source');
    let channelId: string | undefined;
    let ts: string | undefined;
    if (id !== undefined || source !== undefined) {
      if (id === undefined || source === undefined)
        throw invalid('unfurl_id and source must be given together');
      if (!SOURCES.has(source))
        throw invalid('source must be one of composer, conversations_history');
      // The workspace issues ids for posted messages only, never for a composer's draft.
      const named = source === 'conversations_history' ? readUnfurlId(id) : undefined;
      if (!named) throw new SlackError('cannot_find_message');
      ({ channel: channelId, ts } = named);
    } else {
      channelId = optionalStr(args, 'channel');
      ts = optionalStr(args, 'ts');
      if (channelId === undefined) throw new SlackError('missing_channel');
      if (ts === undefined) throw new SlackError('missing_ts');
    }
    let channel: ReturnType<typeof resolveChannel>;
    try {
      channel = resolveChannel(state, team, channelId);
    } catch {
      throw new SlackError('cannot_find_channel');
    }
    const message = state.findMessage(channel.id, ts);
    if (!message || message.ephemeralFor !== undefined) throw new SlackError('cannot_find_message');
    return message;
  }

  /** Shows the prompt to the message's author alone, replacing one already shown for it. */
  function showPrompt(message: StoredMessage, team: Team, prompt: AuthPrompt): void {
    const shown = state.messages
      .get(message.channel)
      ?.find((m) => m.authPromptFor === message.ts && m.ephemeralFor === message.user);
    if (shown) {
      shown.text = prompt.text;
      shown.blocks = prompt.blocks;
      state.changed();
      return;
    }
    state.addMessage({
      channel: message.channel,
      ts: state.nextTs(),
      text: prompt.text,
      blocks: prompt.blocks,
      thread_ts: message.thread_ts,
      user: team.botUserId,
      bot_id: team.botId,
      ephemeralFor: message.user,
      authPromptFor: message.ts,
    });
  }

  return {
    'chat.unfurl': (args, team) => {
      const message = target(args, team);
      const unfurls = unfurlsArg(args);
      const prompt = authPrompt(args, app().name);
      const inMessage = urlsIn(message.text ?? '');
      const domains = app().unfurl_domains ?? [];
      const next = new Map((message.unfurls ?? []).map((u) => [u.url, u]));
      for (const [url, value] of unfurls) {
        if (!inMessage.includes(url)) throw new SlackError('cannot_unfurl_message');
        if (!unfurlDomain(url, domains) || message.bot_id === team.botId)
          throw new SlackError('cannot_unfurl_url');
        if (!isObject(value)) throw new SlackError('cannot_parse_attachment');
        const unfurl: StoredUnfurl = { url };
        if (value.blocks !== undefined) {
          const errors = blockKitErrors(value.blocks, 'message');
          if (errors.length > 0) throw new SlackError('invalid_blocks', invalidBlocks(errors));
          unfurl.blocks = value.blocks as unknown[];
        } else {
          unfurl.attachment = { ...value };
        }
        next.set(url, unfurl);
      }
      // In the order the links appear in the message, as Slack shows the previews.
      message.unfurls = inMessage
        .map((url) => next.get(url))
        .filter((u): u is StoredUnfurl => u !== undefined);
      state.changed();
      if (prompt && message.bot_id === undefined) showPrompt(message, team, prompt);
      return {};
    },
  };
}
