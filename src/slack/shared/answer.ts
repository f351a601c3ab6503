/**
 * Where the results of a form go, since a view_submission has no response_url: the expense into
 * the channel (in the message's thread for "Split this"), problems privately to the person in
 * that channel. When the channel refuses the bot (not a member, archived), the person gets the
 * same in a DM, so that nothing is lost.
 */
import type { Logger, webApi } from '@slack/bolt';
import type { SlackMessage } from './message.js';
import type { Reply } from './reply.js';

export interface FormAnswer extends Reply {
  /** Posts the expense and returns where it went (for later updates). */
  post(message: SlackMessage): Promise<{ channel: string; ts: string } | undefined>;
}

export function formAnswer(input: {
  client: webApi.WebClient;
  user: string;
  channel: string | undefined;
  thread_ts: string | undefined;
  logger: Logger;
}): FormAnswer {
  const { client, user, channel, logger } = input;
  const thread = input.thread_ts ? { thread_ts: input.thread_ts } : {};
  const dm = async (m: SlackMessage) => {
    const sent = await client.chat.postMessage({ channel: user, ...m });
    return sent.channel && sent.ts ? { channel: sent.channel, ts: sent.ts } : undefined;
  };
  const post = async (m: SlackMessage) => {
    if (!channel) return dm(m);
    try {
      const sent = await client.chat.postMessage({ channel, ...thread, ...m });
      return sent.ts ? { channel, ts: sent.ts } : undefined;
    } catch (error) {
      logger.warn(
        `expense form: posting in ${channel} failed (${(error as Error).message}); DM instead`,
      );
      return dm(m);
    }
  };
  return {
    post,
    inChannel: async (m) => {
      await post(m);
    },
    ephemeral: async (m) => {
      if (channel) {
        try {
          await client.chat.postEphemeral({ channel, user, ...thread, ...m });
          return;
        } catch (error) {
          logger.warn(
            `expense form: ephemeral in ${channel} failed (${(error as Error).message}); DM instead`,
          );
        }
      }
      await dm(m);
    },
  };
}
