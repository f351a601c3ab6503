/**
 * Slack's Retry-After, honoured for the method Slack named and no other. Slack limits each Web API
 * method on its own, per workspace and app; Bolt's WebClient, left to itself, pauses its whole
 * queue on any 429, so one method over its limit held every call of that client: a burst of
 * lookups answered with 429 kept another person's /split waiting for its Retry-After, over and
 * over. Every client the app makes therefore rejects rate-limited calls itself
 * (rejectRateLimitedCalls), and this fetch, beneath it, does the waiting per method: a call of a
 * method Slack asked the app to wait for waits until then, a 429 is waited out and sent again, and
 * every other method goes out at once. The wait ends with the call's own timeout (its signal);
 * past `retries` waits the 429 goes back to the caller as WebAPIRateLimitedError.
 *
 * Only calls to the Web API base are held; anything else (a response_url, a file upload's URL)
 * passes through untouched.
 */
import { createHash } from 'node:crypto';
import type { FetchLike } from '../../service/index.js';

/** Slack's Web API base when SLACK_API_URL names none, as the WebClient's default. */
const SLACK_API = 'https://slack.com/api/';

/** Methods (per token) whose Retry-After is remembered at once; the oldest go first past it. */
const MAX_REMEMBERED = 1_000;

export interface RetryAfterOptions {
  /** The Web API base (SLACK_API_URL); Slack's own when undefined. */
  apiUrl: string | undefined;
  /** 429s waited out for one call before it is handed back; 3 unless given. */
  retries?: number;
  now?: () => number;
  /** Waits `ms`, or rejects with the signal's reason once it aborts. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

function abortable(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const done = () => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const aborted = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** Seconds Slack asked to wait, when the header holds a usable number. */
function retryAfterOf(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (header === null || !/^\d{1,6}$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

function authorizationOf(init: RequestInit | undefined): string {
  const headers = init?.headers;
  if (!headers) return '';
  if (headers instanceof Headers) return headers.get('authorization') ?? '';
  if (Array.isArray(headers))
    return headers.find(([name]) => name?.toLowerCase() === 'authorization')?.[1] ?? '';
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'authorization') return String(value);
  return '';
}

export function retryAfterFetch(base: FetchLike, options: RetryAfterOptions): FetchLike {
  const api = options.apiUrl ?? SLACK_API;
  const retries = options.retries ?? 3;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortable;
  /** Until when each (token, method) must not be called, in ms; keyed by a hash of the token. */
  const until = new Map<string, number>();

  const remember = (key: string, at: number) => {
    until.delete(key);
    if (until.size >= MAX_REMEMBERED) {
      const t = now();
      for (const [k, end] of until) if (end <= t) until.delete(k);
      if (until.size >= MAX_REMEMBERED) {
        const oldest = until.keys().next().value;
        if (oldest !== undefined) until.delete(oldest);
      }
    }
    until.set(key, at);
  };

  return async (input, init) => {
    const url = String(input);
    if (!url.startsWith(api)) return base(input, init);
    const method = url.slice(api.length).split(/[?#]/)[0] ?? '';
    // The token only ever stays here as a hash: the map outlives no secret.
    const key = `${createHash('sha256').update(authorizationOf(init)).digest('base64url').slice(0, 16)} ${method}`;
    for (let attempt = 0; ; attempt++) {
      const end = until.get(key);
      if (end !== undefined) {
        const wait = end - now();
        if (wait > 0) await sleep(wait, init?.signal ?? undefined);
        else until.delete(key);
      }
      const response = await base(input, init);
      if (response.status !== 429) return response;
      const seconds = retryAfterOf(response);
      if (seconds === undefined) return response;
      remember(key, now() + seconds * 1_000);
      if (attempt >= retries) return response;
    }
  };
}
