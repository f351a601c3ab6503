/**
 * Where the results of a form go, since a view_submission has no response_url: the expense into
 * the channel (in the message's thread for "Split this"), problems privately to the person in
 * that channel. With `chat:write.public` the bot posts in any public channel without joining it;
 * a private conversation it is not in refuses it, and then the person gets the same in a DM that
 * says why it came there, so that nothing is lost or unexplained.
 */
import type { Logger, types, webApi } from '@slack/bolt';
import type { TypedWhere } from '../../store/index.js';
import { contextBlock, mrkdwnObject } from '../kit/blocks.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn } from '../kit/text.js';
import type { Voice } from '../shared/voice.js';
import type { Reply } from './reply.js';

export interface FormAnswer extends Reply {
  /** Posts the expense and returns where it went (for later updates). */
  post(message: SlackMessage): Promise<{ channel: string; ts: string } | undefined>;
}

/** Slack's error code when the Web API refused, else the error's message. */
function reasonOf(error: unknown): string {
  const data = (error as { data?: { error?: unknown } }).data;
  return typeof data?.error === 'string' ? data.error : (error as Error).message;
}

const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;

/** The line a DM starts with when it stands in for an answer in a channel. */
function movedNote(voice: Voice, channel: string, reason: string): types.ContextBlock {
  const where = CHANNEL_ID.test(channel) ? `<#${channel}>` : mrkdwn(channel);
  const text =
    reason === 'not_in_channel' || reason === 'channel_not_found'
      ? voice.t('common.moved_not_in_channel', { channel: where })
      : voice.t('common.moved_slack_said', { channel: where, reason: mrkdwn(reason) });
  return contextBlock({ elements: [mrkdwnObject({ text })] });
}

export function formAnswer(input: {
  client: webApi.WebClient;
  user: string;
  channel: string | undefined;
  thread_ts: string | undefined;
  logger: Logger;
  /** The person's: a DM standing in for a channel answer says why in it. */
  voice: Voice;
}): FormAnswer {
  const { client, user, channel, logger, voice } = input;
  const thread = input.thread_ts ? { thread_ts: input.thread_ts } : {};
  const dm = async (m: SlackMessage, moved?: { channel: string; reason: string }) => {
    const sent = await client.chat.postMessage({
      channel: user,
      text: m.text,
      blocks: moved ? [movedNote(voice, moved.channel, moved.reason), ...m.blocks] : m.blocks,
    });
    return sent.channel && sent.ts ? { channel: sent.channel, ts: sent.ts } : undefined;
  };
  const post = async (m: SlackMessage) => {
    if (!channel) return dm(m);
    try {
      const sent = await client.chat.postMessage({ channel, ...thread, ...m });
      return sent.ts ? { channel, ts: sent.ts } : undefined;
    } catch (error) {
      const reason = reasonOf(error);
      logger.warn({
        msg: 'expense form: posting in {channel} failed ({reason}); DM instead',
        channel,
        reason,
      });
      return dm(m, { channel, reason });
    }
  };
  return {
    post,
    inChannel: async (m) => {
      await post(m);
    },
    ephemeral: async (m) => {
      if (!channel) return void (await dm(m));
      try {
        await client.chat.postEphemeral({ channel, user, ...thread, ...m });
      } catch (error) {
        const reason = reasonOf(error);
        logger.warn({
          msg: 'expense form: ephemeral in {channel} failed ({reason}); DM instead',
          channel,
          reason,
        });
        await dm(m, { channel, reason });
      }
    },
  };
}

/**
 * The answer to a command written as a message. A mention is answered in its thread: privately
 * with chat.postEphemeral (the person alone, as the form's answers are, with the same DM when
 * Slack refuses), for everyone with chat.postMessage. A DM is private already, so both kinds
 * are posted in it, in the thread it was written in if any.
 */
export function conversationAnswer(input: {
  client: webApi.WebClient;
  user: string;
  channel: string;
  /** Where and how it was written. */
  typed: TypedWhere;
  logger: Logger;
  voice: Voice;
}): Reply {
  const { client, channel, typed } = input;
  if (typed.kind === 'mention') return formAnswer({ ...input, thread_ts: typed.thread_ts });
  const thread = typed.thread_ts ? { thread_ts: typed.thread_ts } : {};
  const post = async (m: SlackMessage) => {
    await client.chat.postMessage({ channel, ...thread, ...m });
  };
  return { ephemeral: post, inChannel: post };
}
