/**
 * The options of the app's Slack Web API clients, of two kinds. Those that answer and act (Bolt's
 * own, each team's bot client, the token exchanges) wait out a 429 only for the method Slack
 * named (shared/retry-after.ts), never pausing every call the client makes. Those the directory
 * looks people up with are other clients, so that a burst of lookups queues behind nothing that
 * answers a person, and they hand a 429 back at once: the directory remembers its Retry-After and
 * shows what it already knows rather than keep a request waiting.
 */
import type { Logger, webApi } from '@slack/bolt';
import type { FetchLike } from '../service/index.js';
import { retryAfterFetch } from './runtime/retry-after.js';

export function slackClientOptions(parts: {
  logger: Logger;
  http: FetchLike;
  /** SLACK_API_URL; Slack's own Web API when undefined. */
  apiUrl: string | undefined;
  /** Retries of a failed call (and 429s waited out by one call). */
  retries: number;
}): { clientOptions: webApi.WebClientOptions; lookupOptions: webApi.WebClientOptions } {
  const { logger, http, apiUrl, retries } = parts;
  const clientOptions: webApi.WebClientOptions = {
    logger,
    fetch: retryAfterFetch(http, { apiUrl, retries }),
    rejectRateLimitedCalls: true,
    // The bot token goes to the Web API base alone, never to a URL a method name could carry.
    allowAbsoluteUrls: false,
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    retryConfig: { retries, factor: 2, minTimeout: 500, maxTimeout: 5_000 },
    timeout: 10_000,
  };
  const lookupOptions: webApi.WebClientOptions = {
    ...clientOptions,
    fetch: http,
    // A person not found in time is shown by name: one quick retry, not a request held for long.
    retryConfig: { retries: Math.min(retries, 1), minTimeout: 200, maxTimeout: 1_000 },
    timeout: 5_000,
  };
  return { clientOptions, lookupOptions };
}
