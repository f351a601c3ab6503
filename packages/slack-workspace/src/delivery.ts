/**
 * Sending what people do to the app, the way Slack does: signed with the app's signing secret,
 * to its request URL, answered within 3 seconds or counted as a timeout.
 *
 * Events API deliveries are retried as Slack retries them, when a schedule is given: an event the
 * app does not answer with a 2xx within the time limit, answers with another status, or cannot be
 * reached for is sent again, byte for byte (the same `event_id`) and freshly signed, up to three
 * times, with `X-Slack-Retry-Num` (1, 2, 3) and `X-Slack-Retry-Reason` (`http_timeout`,
 * `http_error`, `connection_failed`). A non-2xx answer carrying `X-Slack-No-Retry: 1` stops the
 * retries, except after a timeout, as in Slack. Commands and interactions are never retried: a
 * failure shows the person Slack's error instead. Without a schedule nothing is sent again, so a
 * test that does not ask for retries sees each event once.
 */
import { performance } from 'node:perf_hooks';
import { type SlackRequest, signedPost } from './signing.js';
import type { Delivery } from './types.js';

export const ACK_TIMEOUT_MS = 3_000;

/** Slack's own schedule: a retry almost at once, then after about a minute and five minutes. */
export const SLACK_EVENT_RETRY_DELAYS_MS: readonly number[] = [0, 60_000, 300_000];

/** The same shape, ten times faster: what the sandbox uses, so a retry shows up while one waits. */
export const SANDBOX_EVENT_RETRY_DELAYS_MS: readonly number[] = [0, 6_000, 30_000];

/** Slack sends an event at most four times: the first delivery and three retries. */
export const MAX_EVENT_RETRIES = 3;

export type RetryReason = 'http_timeout' | 'http_error' | 'connection_failed';

export interface DeliveryOutcome extends Delivery {
  /** Slack's error code when the app failed: operation_timeout or dispatch_failed. */
  failure?: 'operation_timeout' | 'dispatch_failed';
}

export interface Deliverer {
  readonly deliveries: Delivery[];
  connected(): boolean;
  connect(target: { appUrl: string; signingSecret: string }): void;
  /** Resolves with the first attempt's outcome; an event's retries, if any, follow on their own. */
  deliver(kind: string, request: SlackRequest): Promise<DeliveryOutcome>;
  /** Sends an event again as Slack's retry `num` does (same bytes, the retry headers). */
  retry(request: SlackRequest, num: number, reason: RetryReason): Promise<DeliveryOutcome>;
  /** Cancels retries not yet sent and resolves when every request under way has finished. */
  settle(): Promise<void>;
}

async function readAnswer(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Checks a retry schedule: at most three non-negative delays in milliseconds. */
export function retrySchedule(delays: readonly number[] | undefined): readonly number[] {
  if (delays === undefined) return [];
  if (delays.length > MAX_EVENT_RETRIES)
    throw new Error(`Slack retries an event at most ${MAX_EVENT_RETRIES} times.`);
  if (!delays.every((d) => Number.isFinite(d) && d >= 0))
    throw new Error('Event retry delays are milliseconds, zero or more.');
  return [...delays];
}

export function createDeliverer(options: {
  appUrl?: string;
  signingSecret?: string;
  ackTimeoutMs?: number;
  /** Delays before an event's retries 1, 2 and 3; none (the default) sends each event once. */
  eventRetryDelaysMs?: readonly number[];
  now: () => number;
}): Deliverer {
  let appUrl = options.appUrl;
  let signingSecret = options.signingSecret;
  const limit = options.ackTimeoutMs ?? ACK_TIMEOUT_MS;
  const schedule = retrySchedule(options.eventRetryDelaysMs);
  const deliveries: Delivery[] = [];
  const pending = new Set<Promise<unknown>>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  type Attempt = DeliveryOutcome & { retryAs?: RetryReason };

  async function attempt(
    kind: string,
    request: SlackRequest,
    retry?: { num: number; reason: RetryReason },
  ): Promise<Attempt> {
    const started = performance.now();
    const at = options.now();
    const eventId =
      kind === 'event' && typeof request.payload.event_id === 'string'
        ? request.payload.event_id
        : undefined;
    const outcome = (
      status: number,
      answer: unknown,
      timedOut: boolean,
      failure?: DeliveryOutcome['failure'],
      retryAs?: RetryReason,
    ): Attempt => {
      const record: Delivery = {
        kind,
        at,
        status,
        timedOut,
        ms: Math.round((performance.now() - started) * 1000) / 1000,
        answer,
        ...(eventId ? { event_id: eventId } : {}),
        ...(retry ? { retry_num: retry.num, retry_reason: retry.reason } : {}),
      };
      deliveries.push(record);
      return { ...record, ...(failure ? { failure } : {}), ...(retryAs ? { retryAs } : {}) };
    };
    if (!appUrl || !signingSecret) return outcome(0, undefined, false, 'dispatch_failed');
    const signal = AbortSignal.timeout(limit);
    const headers: Record<string, string> = retry
      ? { 'x-slack-retry-num': String(retry.num), 'x-slack-retry-reason': retry.reason }
      : {};
    try {
      const response = await signedPost(appUrl, signingSecret, request.body, request.contentType, {
        signal,
        headers,
      });
      const answer = await readAnswer(response);
      if (response.status < 200 || response.status > 299) {
        const noRetry = response.headers.get('x-slack-no-retry') === '1';
        return outcome(
          response.status,
          answer,
          false,
          'dispatch_failed',
          noRetry ? undefined : 'http_error',
        );
      }
      return outcome(response.status, answer, false);
    } catch {
      if (signal.aborted) return outcome(0, undefined, true, 'operation_timeout', 'http_timeout');
      return outcome(0, undefined, false, 'dispatch_failed', 'connection_failed');
    }
  }

  function track<T>(run: Promise<T>): Promise<T> {
    pending.add(run);
    void run.finally(() => pending.delete(run));
    return run;
  }

  /** Sends retry `num` after its delay, and the next one if that fails too. */
  function scheduleRetry(request: SlackRequest, num: number, reason: RetryReason): void {
    const delay = schedule[num - 1];
    if (delay === undefined || closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (closed) return;
      void track(
        attempt('event', request, { num, reason }).then((result) => {
          if (result.retryAs) scheduleRetry(request, num + 1, result.retryAs);
        }),
      );
    }, delay);
    // A pending retry alone does not keep the process alive; close() cancels it anyway.
    timer.unref();
    timers.add(timer);
  }

  return {
    deliveries,
    connected: () => Boolean(appUrl && signingSecret),
    connect(target) {
      appUrl = target.appUrl;
      signingSecret = target.signingSecret;
    },
    deliver(kind, request) {
      return track(
        attempt(kind, request).then(({ retryAs, ...result }) => {
          if (kind === 'event' && retryAs) scheduleRetry(request, 1, retryAs);
          return result;
        }),
      );
    },
    retry(request, num, reason) {
      return track(attempt('event', request, { num, reason }).then(({ retryAs: _, ...r }) => r));
    },
    async settle() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...pending]);
    },
  };
}
