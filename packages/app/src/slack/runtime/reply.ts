/**
 * Where an answer goes. A command or a click answers through its response_url (Bolt's respond);
 * work carried out later (after linking) uses the saved response_url or the channel itself. When
 * the first way fails, the second is tried, so that a person is never left without an answer.
 */
import type { Logger, RespondFn, webApi } from '@slack/bolt';
import { deadline } from '../../service/deadline.js';
import type { FetchLike } from '../../service/index.js';
import type { SlackMessage } from '../kit/message.js';

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

/** Slack answers a response_url at once; one that hangs is not waited for. */
const RESPONSE_URL_TIMEOUT_MS = 10_000;

/**
 * Posts `body` to a response_url through `http`: the app's own HTTP client, not the global fetch
 * (whose first calls compile a WebAssembly HTTP parser that leaves megabytes behind; see heap.ts).
 */
export async function postToResponseUrl(
  http: FetchLike,
  url: string,
  body: Record<string, unknown>,
): Promise<void> {
  const limit = deadline(RESPONSE_URL_TIMEOUT_MS);
  try {
    const response = await http(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: limit.signal,
    });
    // Read, not cancelled: Slack answers in a few bytes, and asking the app's HTTP client for a
    // stream to cancel would build one around bytes it already holds.
    await response.text();
    if (!response.ok) throw new Error(`response_url answered HTTP ${response.status}`);
  } finally {
    limit.clear();
  }
}

export function replyViaResponseUrl(url: string, http: FetchLike): Reply {
  const post = (body: Record<string, unknown>) => postToResponseUrl(http, url, body);
  return {
    ephemeral: (m) => post({ response_type: 'ephemeral', replace_original: false, ...m }),
    inChannel: (m) => post({ response_type: 'in_channel', replace_original: false, ...m }),
  };
}

function withFallback(primary: Reply, fallback: Reply, logger: Logger): Reply {
  const either =
    (kind: keyof Reply) =>
    async (m: SlackMessage): Promise<void> => {
      try {
        await primary[kind](m);
      } catch (error) {
        logger.warn({
          msg: 'answer through the response_url failed ({error}); posting instead',
          error: (error as Error).message,
        });
        await fallback[kind](m);
      }
    };
  return { ephemeral: either('ephemeral'), inChannel: either('inChannel') };
}

/** Slack honours a response_url for 30 minutes; a little is kept back for the request itself. */
const RESPONSE_URL_LIFE_MS = 29 * 60_000;

/**
 * Where the answer to acknowledged work goes, however late it comes (a slow service, a restart):
 * its response_url while Slack still honours it, else (or when it fails, e.g. used up) a DM for
 * what only the person should see and the channel for what everyone should.
 */
export function replyLater(input: {
  client: webApi.WebClient;
  response_url: string | undefined;
  /** When the command was acknowledged (ms). */
  acknowledgedAt: number;
  channel: string;
  user: string;
  logger: Logger;
  http: FetchLike;
}): Reply {
  const { client, channel, user } = input;
  const direct: Reply = {
    ephemeral: async (m) => {
      await client.chat.postMessage({ channel: user, ...m });
    },
    inChannel: async (m) => {
      await client.chat.postMessage({ channel, ...m });
    },
  };
  const url = input.response_url;
  if (!url) return direct;
  const viaUrl = withFallback(replyViaResponseUrl(url, input.http), direct, input.logger);
  const fresh = () => Date.now() - input.acknowledgedAt < RESPONSE_URL_LIFE_MS;
  return {
    ephemeral: (m) => (fresh() ? viaUrl : direct).ephemeral(m),
    inChannel: (m) => (fresh() ? viaUrl : direct).inChannel(m),
  };
}
