/**
 * The app's Prometheus metrics, on a registry of its own (prom-client's global one would mix in
 * whatever else in the process registers there, and tests start several apps in one process).
 * Callers see only the methods below; prom-client stays in this folder.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SlackRequestKind } from './context.js';

/** How one HTTP request to the expense service ended. */
export type ServiceOutcome = 'ok' | 'error' | 'rate_limited' | 'timeout' | 'unreachable';

export interface QueueDepths {
  /** Jobs running or waiting on the work queue of this replica. */
  work: number;
  /** Durable jobs this replica holds (acknowledged, not finished). */
  durable: number;
}

export interface Metrics {
  slackRequest(kind: SlackRequestKind, seconds: number): void;
  serviceRequest(operation: string, outcome: ServiceOutcome): void;
  serviceRetry(operation: string): void;
  digestSent(): void;
  digestFailed(): void;
  /** Read at each scrape. */
  watchQueues(depths: () => QueueDepths): void;
  /** The exposition: Prometheus text format. */
  render(): Promise<{ contentType: string; body: string }>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const slackRequests = new Histogram({
    name: 'split_slack_request_duration_seconds',
    help: 'Time Bolt spent on a Slack request (middleware and listeners), by kind',
    labelNames: ['kind'] as const,
    // Slack gives up on an acknowledgement after 3 s.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10],
    registers,
  });
  const serviceRequests = new Counter({
    name: 'split_service_requests_total',
    help: 'HTTP requests to the expense service, each attempt counted, by operation and outcome',
    labelNames: ['operation', 'outcome'] as const,
    registers,
  });
  const serviceRetries = new Counter({
    name: 'split_service_retries_total',
    help: 'Failed attempts at a service read that were tried again, by operation',
    labelNames: ['operation'] as const,
    registers,
  });
  const digestSent = new Counter({
    name: 'split_digest_dms_sent_total',
    help: 'Daily balance DMs sent',
    registers,
  });
  const digestFailed = new Counter({
    name: 'split_digest_dms_failed_total',
    help: 'Daily balance DMs not sent because of a failure (retried later or given up for the day)',
    registers,
  });
  let depths: () => QueueDepths = () => ({ work: 0, durable: 0 });
  new Gauge({
    name: 'split_queue_depth',
    help: 'Work on this replica not yet finished: the work queue, and durable jobs held here',
    labelNames: ['queue'] as const,
    registers,
    collect() {
      const now = depths();
      this.set({ queue: 'work' }, now.work);
      this.set({ queue: 'durable' }, now.durable);
    },
  });
  return {
    slackRequest: (kind, seconds) => slackRequests.observe({ kind }, seconds),
    serviceRequest: (operation, outcome) => serviceRequests.inc({ operation, outcome }),
    serviceRetry: (operation) => serviceRetries.inc({ operation }),
    digestSent: () => digestSent.inc(),
    digestFailed: () => digestFailed.inc(),
    watchQueues(read) {
      depths = read;
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
