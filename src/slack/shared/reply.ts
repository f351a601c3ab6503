/**
 * Where an answer goes. A command or a click answers through its response_url (Bolt's respond);
 * work carried out later (after linking) uses the saved response_url or the channel itself. When
 * the first way fails, the second is tried, so that a person is never left without an answer.
 */
import type { Logger, RespondFn, webApi } from '@slack/bolt';
import type { SlackMessage } from './message.js';

export interface Reply {
  /** Only the person who asked sees it. */
  ephemeral(message: SlackMessage): Promise<void>;
  /** Everyone in the channel sees it. */
  inChannel(message: SlackMessage): Promise<void>;
}

export function replyWithRespond(respond: RespondFn): Reply {
  return {
    ephemeral: async (m) => {
      await respond({ response_type: 'ephemeral', replace_original: false, ...m });
    },
    inChannel: async (m) => {
      await respond({ response_type: 'in_channel', replace_original: false, ...m });
    },
  };
}

export function replyViaResponseUrl(url: string, fetchImpl: typeof fetch = fetch): Reply {
  const post = async (body: Record<string, unknown>) => {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`response_url answered HTTP ${response.status}`);
  };
  return {
    ephemeral: (m) => post({ response_type: 'ephemeral', replace_original: false, ...m }),
    inChannel: (m) => post({ response_type: 'in_channel', replace_original: false, ...m }),
  };
}

export function replyInChannel(client: webApi.WebClient, channel: string, user: string): Reply {
  return {
    ephemeral: async (m) => {
      await client.chat.postEphemeral({ channel, user, ...m });
    },
    inChannel: async (m) => {
      await client.chat.postMessage({ channel, ...m });
    },
  };
}

export function withFallback(primary: Reply, fallback: Reply, logger: Logger): Reply {
  const either =
    (kind: keyof Reply) =>
    async (m: SlackMessage): Promise<void> => {
      try {
        await primary[kind](m);
      } catch (error) {
        logger.warn(
          `answer through the response_url failed (${(error as Error).message}); posting instead`,
        );
        await fallback[kind](m);
      }
    };
  return { ephemeral: either('ephemeral'), inChannel: either('inChannel') };
}
