/**
 * The app's Prometheus metrics, on a registry of its own (prom-client's global one would mix in
 * whatever else in the process registers there, and tests start several apps in one process).
 * Callers see only the methods below; prom-client stays in this folder.
 *
 * prom-client is loaded off the start path: importing it after Bolt took 13 to 34 ms here, in a
 * start of about 300 ms, for series nobody reads before the app serves. Until it is loaded (by
 * `load()`, which the app calls soon after it serves, or by the first scrape) every count is
 * kept in order and handed over then, so nothing counted early is lost.
 */
import type { Registry } from 'prom-client';
import type { SlackRequestKind } from './context.js';

/** How one HTTP request to the expense service ended. */
type ServiceOutcome = 'ok' | 'error' | 'rate_limited' | 'timeout' | 'unreachable';

interface QueueDepths {
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
  /** Loads prom-client now rather than at the first scrape. */
  load(): Promise<void>;
  /** The exposition: Prometheus text format. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** The calls above, on prom-client's objects. */
type Series = Omit<Metrics, 'watchQueues' | 'load' | 'render'> & { registry: Registry };

async function createSeries(depths: () => QueueDepths): Promise<Series> {
  const { Counter, Gauge, Histogram, Registry } = await import('prom-client');
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
    registry,
    slackRequest: (kind, seconds) => slackRequests.observe({ kind }, seconds),
    serviceRequest: (operation, outcome) => serviceRequests.inc({ operation, outcome }),
    serviceRetry: (operation) => serviceRetries.inc({ operation }),
    digestSent: () => digestSent.inc(),
    digestFailed: () => digestFailed.inc(),
  };
}

export function createMetrics(): Metrics {
  let depths: () => QueueDepths = () => ({ work: 0, durable: 0 });
  let series: Series | undefined;
  let loading: Promise<Series> | undefined;
  const early: ((s: Series) => void)[] = [];
  const load = () => {
    loading ??= createSeries(() => depths()).then((loaded) => {
      for (const count of early) count(loaded);
      early.length = 0;
      series = loaded;
      return loaded;
    });
    return loading;
  };
  const record = (count: (s: Series) => void) => {
    if (series) count(series);
    else early.push(count);
  };
  return {
    slackRequest: (kind, seconds) => record((s) => s.slackRequest(kind, seconds)),
    serviceRequest: (operation, outcome) => record((s) => s.serviceRequest(operation, outcome)),
    serviceRetry: (operation) => record((s) => s.serviceRetry(operation)),
    digestSent: () => record((s) => s.digestSent()),
    digestFailed: () => record((s) => s.digestFailed()),
    watchQueues(read) {
      depths = read;
    },
    async load() {
      await load();
    },
    async render() {
      const { registry } = await load();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
