/**
 * Sending what people do to the app, the way Slack does: signed with the app's signing secret,
 * to its request URL, answered within 3 seconds or counted as a timeout.
 *
 * Events API retries are not simulated: an event the app does not acknowledge in time is
 * recorded in `deliveries` with `timedOut`, and nothing is sent again. Slack would retry up to
 * three times with x-slack-retry-num; the app under test is expected to ack events at once,
 * and a retry a minute later would only make the page harder to follow.
 */
import { performance } from 'node:perf_hooks';
import { type SlackRequest, signedPost } from './signing.js';
import type { Delivery } from './types.js';

export const ACK_TIMEOUT_MS = 3_000;

export interface DeliveryOutcome extends Delivery {
  /** Slack's error code when the app failed: operation_timeout or dispatch_failed. */
  failure?: 'operation_timeout' | 'dispatch_failed';
}

export interface Deliverer {
  readonly deliveries: Delivery[];
  connected(): boolean;
  connect(target: { appUrl: string; signingSecret: string }): void;
  deliver(kind: string, request: SlackRequest): Promise<DeliveryOutcome>;
  /** Resolves when every delivery under way has finished (for close()). */
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

export function createDeliverer(options: {
  appUrl?: string;
  signingSecret?: string;
  ackTimeoutMs?: number;
  now: () => number;
}): Deliverer {
  let appUrl = options.appUrl;
  let signingSecret = options.signingSecret;
  const limit = options.ackTimeoutMs ?? ACK_TIMEOUT_MS;
  const deliveries: Delivery[] = [];
  const pending = new Set<Promise<unknown>>();

  async function attempt(kind: string, request: SlackRequest): Promise<DeliveryOutcome> {
    const started = performance.now();
    const at = options.now();
    const outcome = (
      status: number,
      answer: unknown,
      timedOut: boolean,
      failure?: DeliveryOutcome['failure'],
    ): DeliveryOutcome => {
      const record: Delivery = {
        kind,
        at,
        status,
        timedOut,
        ms: Math.round((performance.now() - started) * 1000) / 1000,
        answer,
      };
      deliveries.push(record);
      return failure ? { ...record, failure } : record;
    };
    if (!appUrl || !signingSecret) return outcome(0, undefined, false, 'dispatch_failed');
    const signal = AbortSignal.timeout(limit);
    try {
      const response = await signedPost(appUrl, signingSecret, request.body, request.contentType, {
        signal,
      });
      const answer = await readAnswer(response);
      if (response.status < 200 || response.status > 299) {
        return outcome(response.status, answer, false, 'dispatch_failed');
      }
      return outcome(response.status, answer, false);
    } catch {
      if (signal.aborted) return outcome(0, undefined, true, 'operation_timeout');
      return outcome(0, undefined, false, 'dispatch_failed');
    }
  }

  return {
    deliveries,
    connected: () => Boolean(appUrl && signingSecret),
    connect(target) {
      appUrl = target.appUrl;
      signingSecret = target.signingSecret;
    },
    deliver(kind, request) {
      const run = attempt(kind, request);
      pending.add(run);
      void run.finally(() => pending.delete(run));
      return run;
    },
    async settle() {
      await Promise.allSettled([...pending]);
    },
  };
}
