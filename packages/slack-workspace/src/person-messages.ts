/**
 * What a person does to messages: posts one (in a conversation or a thread, with a file, or a
 * slash command), edits or deletes their own. Each reaches the app as Slack sends it: a command
 * as a signed command request whose ack becomes a private message, a message as the Events API's
 * `message`, `app_mention` and `link_shared` events, an edit or a deletion as `message_changed`
 * or `message_deleted`.
 */
import { type Acting, type AttachedFile, PageError } from './acting.js';
import { blockKitErrors } from './block-kit.js';
import type { Deliverer, DeliveryOutcome } from './delivery.js';
import { clientMessageId, type MessageEvents, mentions } from './events.js';
import { isObject } from './http-util.js';
import { slashCommand } from './payloads.js';
import type { WorkspaceState } from './state.js';
import type { AppFacts, Channel, StoredMessage, User } from './types.js';

/** Slack's limit on a message's text (msg_too_long beyond it). */
export const MAX_MESSAGE_CHARS = 40_000;

export interface MessageActs {
  message(input: {
    as: string;
    channel: string;
    text: string;
    thread_ts?: string;
    /** A file the person attaches to the message. */
    file?: AttachedFile;
  }): Promise<void>;
  /** The person edits one of their messages: `message_changed`. */
  editMessage(input: { as: string; channel: string; ts: string; text: string }): Promise<void>;
  /** The person deletes one of their messages: `message_deleted`. */
  deleteMessage(input: { as: string; channel: string; ts: string }): Promise<void>;
}

/**
 * Slack's notice when the app did not answer (in time) or refused the request, in `channel` when
 * it was asked from one.
 */
export function failureNotice(
  state: WorkspaceState,
  user: User,
  label: string,
  outcome: DeliveryOutcome,
  channel?: string,
): boolean {
  if (!outcome.failure) return false;
  const text = `${label} failed with the error "${outcome.failure}"`;
  state.addNotice(user.id, text, 'error', channel);
  return true;
}

export function createMessageActs(
  state: WorkspaceState,
  deliverer: Deliverer,
  events: MessageEvents,
  acting: Acting,
  app: () => AppFacts,
): MessageActs {
  /** The Messages tab is where people write to the app, when the manifest lets them. */
  function writable(channel: Channel): void {
    const home = app().app_home;
    if (!channel.is_im || home === undefined) return;
    if (!home.messages_tab_enabled || home.messages_tab_read_only_enabled)
      throw new PageError('Sending messages to this app has been turned off.');
  }

  function checkText(text: string): void {
    if (text.length > MAX_MESSAGE_CHARS)
      throw new PageError(
        `A message can be at most ${MAX_MESSAGE_CHARS.toLocaleString('en-US')} characters.`,
      );
  }

  /** A message of the person's own, the only kind they may edit or delete. */
  function own(user: User, channelId: string, ts: string): StoredMessage {
    const channel = acting.channelFor(user, channelId);
    const message = acting.visibleMessage(user, channel.id, ts);
    if (message.user !== user.id || message.bot_id !== undefined || message.ephemeralFor)
      throw new PageError('Only your own messages can be edited or deleted.');
    return message;
  }

  async function command(user: User, channelId: string, text: string): Promise<void> {
    const [name = '', ...rest] = text.trim().split(/\s+/);
    const known = app().commands;
    if (known.length > 0 && !known.some((c) => c.command === name)) {
      state.addNotice(
        user.id,
        `${name} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
        'info',
        channelId,
      );
      return;
    }
    const channel = acting.channelFor(user, channelId);
    writable(channel);
    const argumentText = text.trim().slice(name.length).trimStart();
    const outcome = await deliverer.deliver(
      'command',
      slashCommand({
        ...acting.actor(user, channel),
        command: name,
        text: rest.length === 0 ? '' : argumentText,
        response_url: state.registerResponseUrl({ channel: channel.id, user: user.id }),
        trigger_id: state.issueTrigger(undefined, user.id),
      }),
    );
    if (failureNotice(state, user, name, outcome, channel.id)) return;
    const answer = outcome.answer;
    const reply = typeof answer === 'string' ? { text: answer } : isObject(answer) ? answer : {};
    if (reply.text === undefined && reply.blocks === undefined) return;
    if (reply.blocks !== undefined && blockKitErrors(reply.blocks, 'message').length > 0) {
      state.addNotice(
        user.id,
        `${name} failed with the error "invalid_blocks"`,
        'error',
        channel.id,
      );
      return;
    }
    const t = acting.team(user);
    const message = state.addMessage({
      channel: channel.id,
      ts: state.nextTs(),
      text: typeof reply.text === 'string' ? reply.text : undefined,
      blocks: reply.blocks as unknown[] | undefined,
      thread_ts: undefined,
      user: t.botUserId,
      bot_id: t.botId,
      ...(reply.response_type === 'in_channel' ? {} : { ephemeralFor: user.id }),
    });
    state.announce({ kind: 'posted', message });
  }

  return {
    async message({ as, channel: channelId, text, thread_ts, file }) {
      const user = acting.person(as);
      if (text.trim() === '' && !file) throw new PageError('A message needs some text.');
      checkText(text);
      if (text.startsWith('/') && !file) return command(user, channelId, text);
      const channel = acting.channelFor(user, channelId);
      writable(channel);
      let thread: string | undefined;
      if (thread_ts !== undefined) {
        const parent = state.findMessage(channel.id, thread_ts);
        if (!parent || (parent.ephemeralFor && parent.ephemeralFor !== user.id))
          throw new PageError('That thread is gone.');
        thread = parent.thread_ts ?? parent.ts;
      }
      const stored = file ? acting.shareFile(user, file) : undefined;
      const message = state.addMessage({
        channel: channel.id,
        ts: state.nextTs(),
        text,
        blocks: undefined,
        thread_ts: thread,
        user: user.id,
        bot_id: undefined,
        client_msg_id: clientMessageId(),
        ...(stored ? { files: [stored.id] } : {}),
      });
      const bot = acting.team(user).botUserId;
      if (!channel.is_im && mentions(text, bot) && !events.mentionReaches(channel)) {
        state.addNotice(
          user.id,
          `You mentioned @${app().name}, but it is not in #${channel.name}, so it was not told.`,
          'info',
          channel.id,
        );
      }
      await events.personMessage(message, user);
    },

    async editMessage({ as, channel, ts, text }) {
      const user = acting.person(as);
      if (text.trim() === '') throw new PageError('A message needs some text.');
      checkText(text);
      const message = own(user, channel, ts);
      if (message.text === text) return;
      const previous = { ...message };
      message.text = text;
      message.edited = true;
      state.changed();
      await events.personChange({ kind: 'changed', message, previous });
    },

    async deleteMessage({ as, channel, ts }) {
      const user = acting.person(as);
      const message = own(user, channel, ts);
      const previous = { ...message };
      message.deleted = true;
      state.changed();
      await events.personChange({ kind: 'deleted', message, previous });
    },
  };
}
