/**
 * The one request function: credentials, timeout, retries and error mapping, written down once.
 *
 * Retry policy: only reads (GET) are retried, on connection errors, timeouts, 429 and 5xx, with
 * exponential backoff and jitter; a 429's Retry-After (seconds or HTTP date) is honoured when it is
 * no longer than `maxRetryAfterMs`, otherwise the call fails at once with the wait in the error.
 * Writes (POST) are never retried: a write whose outcome is unknown is reported as such
 * (`outcome_unknown`) for the caller to reconcile.
 */

import { openAsBlob } from 'node:fs';
import { basename, extname } from 'node:path';
import { deadline } from './deadline.js';
import { formEncode, type Pairs } from './encode.js';
import {
  errorFromResponse,
  keptHeaders,
  type Redactor,
  ServiceConnectionException,
  ServiceException,
  ServiceInputException,
  ServiceTimeoutException,
} from './errors.js';
import { USER_AGENT } from './version.js';

export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface RetryPolicy {
  /** Extra attempts after the first, for reads only. */
  retries: number;
  /** First backoff step; doubles each attempt. */
  baseDelayMs: number;
  /** Ceiling of one backoff step. */
  maxDelayMs: number;
  /** Longest Retry-After the client waits out; a longer one fails the call at once. */
  maxRetryAfterMs: number;
}

/** One HTTP attempt, as the client tells whoever watches it (logs, metrics). */
export interface AttemptReport {
  /** The operation's name on the wire: "create_expense". */
  operation: string;
  method: 'GET' | 'POST';
  /** 0 for the first attempt. */
  attempt: number;
  /** Undefined when no response came. */
  status: number | undefined;
  outcome: 'ok' | 'error' | 'rate_limited' | 'timeout' | 'unreachable';
  durationMs: number;
  /** It failed and the call will be tried again. */
  retrying: boolean;
}

export interface TransportConfig {
  timeoutMs: number;
  retry: RetryPolicy;
  fetch: FetchLike;
  redact: Redactor;
  /** Told of every attempt; it must not throw, and what it throws is ignored. */
  onAttempt?: (report: AttemptReport) => void;
}

export type RequestBody =
  | { kind: 'form'; pairs: Pairs }
  | { kind: 'multipart'; pairs: Pairs; file: { field: string; path: string } };

export interface ApiCall {
  /** Operation name for messages: "create_expense". */
  what: string;
  method: 'GET' | 'POST';
  url: string;
  body?: RequestBody;
  /** Produces the Authorization header for one attempt (OAuth 1.0a signs every attempt anew). */
  authorization?: (method: string, url: string, formPairs: Pairs | undefined) => string | undefined;
  /** `json` (default) or `text` (OAuth 1.0a token endpoints answer form-encoded). */
  expect?: 'json' | 'text';
}

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.heic': 'image/heic',
  '.pdf': 'application/pdf',
};

/** Connection failures where the request certainly never reached the service. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Parses Retry-After: delta-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Exponential backoff with equal jitter: between half and all of base * 2^attempt, capped. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function buildBody(body: RequestBody | undefined): Promise<{
  init: Pick<RequestInit, 'body'>;
  contentType?: string;
  signedPairs?: Pairs;
}> {
  if (!body) return { init: {} };
  if (body.kind === 'form') {
    return {
      init: { body: formEncode(body.pairs) },
      contentType: 'application/x-www-form-urlencoded',
      signedPairs: body.pairs,
    };
  }
  const type = CONTENT_TYPES[extname(body.file.path).toLowerCase()] ?? 'application/octet-stream';
  let data: Blob;
  try {
    // Backed by the file: its bytes are read as the request is sent, never held whole.
    data = await openAsBlob(body.file.path, { type });
  } catch (error) {
    const code = errorCode(error) ?? 'unreadable';
    throw new ServiceInputException(`cannot read the ${body.file.field} file (${code})`);
  }
  const form = new FormData();
  for (const [name, value] of body.pairs) form.append(name, value);
  form.append(body.file.field, data, basename(body.file.path));
  // fetch writes the multipart Content-Type with its boundary itself.
  return { init: { body: form } };
}

/**
 * Sends one API call and resolves to its parsed 2xx body; throws a mapped error otherwise.
 * A 2xx body carrying `errors` is returned as is: the caller decides what failure means there.
 */
export async function send(config: TransportConfig, call: ApiCall): Promise<unknown> {
  const isRead = call.method === 'GET';
  const maxAttempts = isRead ? 1 + Math.max(0, config.retry.retries) : 1;
  for (let attempt = 0; ; attempt += 1) {
    const last = attempt + 1 >= maxAttempts;
    const started = performance.now();
    const outcome = await attemptOnce(config, call);
    const retrying =
      !outcome.ok &&
      isRead &&
      !last &&
      outcome.retryable &&
      !(outcome.retryAfterMs !== undefined && outcome.retryAfterMs > config.retry.maxRetryAfterMs);
    tell(config, call, attempt, outcome, performance.now() - started, retrying);
    if (outcome.ok) return outcome.value;
    if (!retrying) throw outcome.error;
    await sleep(outcome.retryAfterMs ?? backoffDelay(attempt, config.retry));
  }
}

type Attempt =
  | { ok: true; value: unknown; status: number }
  | { ok: false; error: Error; retryable: boolean; retryAfterMs?: number; status?: number };

function tell(
  config: TransportConfig,
  call: ApiCall,
  attempt: number,
  result: Attempt,
  durationMs: number,
  retrying: boolean,
): void {
  if (!config.onAttempt) return;
  const outcome: AttemptReport['outcome'] = result.ok
    ? 'ok'
    : result.error instanceof ServiceTimeoutException
      ? 'timeout'
      : result.error instanceof ServiceConnectionException
        ? 'unreachable'
        : result.status === 429
          ? 'rate_limited'
          : 'error';
  try {
    config.onAttempt({
      operation: call.what,
      method: call.method,
      attempt,
      status: result.status,
      outcome,
      durationMs: Math.round(durationMs),
      retrying,
    });
  } catch {
    // Watching a call must never change how it ends.
  }
}

async function attemptOnce(config: TransportConfig, call: ApiCall): Promise<Attempt> {
  const write = call.method === 'POST';
  const { init, contentType, signedPairs } = await buildBody(call.body);
  const headers: Record<string, string> = {
    'User-Agent': USER_AGENT,
    Accept: call.expect === 'text' ? '*/*' : 'application/json',
  };
  if (contentType) headers['Content-Type'] = contentType;
  const authorization = call.authorization?.(call.method, call.url, signedPairs);
  if (authorization) headers.Authorization = authorization;

  const limit = deadline(config.timeoutMs);
  const { signal } = limit;
  let response: Response;
  let text: string;
  try {
    response = await config.fetch(call.url, { method: call.method, headers, signal, ...init });
    text = await response.text();
  } catch (error) {
    const code = errorCode(error);
    const neverSent = !signal.aborted && code !== undefined && NOT_SENT_CODES.has(code);
    const outcomeUnknown = write && !neverSent;
    const failure = signal.aborted
      ? new ServiceTimeoutException(
          `${call.what} timed out after ${config.timeoutMs} ms${
            write ? '; the service may have applied it' : ''
          }`,
          { outcomeUnknown },
        )
      : new ServiceConnectionException(
          `${call.what} failed: no response from the service (${config.redact(code ?? describe(error))})${
            outcomeUnknown ? '; the service may have applied it' : ''
          }`,
          { outcomeUnknown },
        );
    return { ok: false, error: failure, retryable: true };
  } finally {
    limit.clear();
  }

  const status = response.status;
  if (status >= 200 && status < 300) {
    if (call.expect === 'text') return { ok: true, value: text, status };
    try {
      return { ok: true, value: text === '' ? {} : JSON.parse(text), status };
    } catch {
      return {
        ok: false,
        status,
        retryable: false,
        error: new ServiceException(`${call.what} failed: the service answered with no JSON`, {
          response: {
            status,
            headers: keptHeaders(response.headers, config.redact),
            body: config.redact(text),
          },
        }),
      };
    }
  }
  const retryAfterMs =
    status === 429 || status === 503
      ? parseRetryAfter(response.headers.get('retry-after'))
      : undefined;
  const error = errorFromResponse(
    call.what,
    { status, headers: keptHeaders(response.headers, config.redact), body: text },
    { redact: config.redact, write, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
  );
  const retryable = status === 429 || status >= 500;
  return {
    ok: false,
    error,
    status,
    retryable,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
