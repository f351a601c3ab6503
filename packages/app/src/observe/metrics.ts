/**
 * The app's Prometheus metrics: a few counters, a gauge and a histogram, each replica counting its
 * own, served in the Prometheus text format (version 0.0.4) at /metrics.
 *
 * They are kept here in plain maps rather than with prom-client, which (with the OpenTelemetry API
 * it requires for exemplars) held about 2 MB of the heap once loaded, 2 to 2.5 MB of the idle
 * process's RSS, for six series whose exposition is a few lines of text (bench/README.md,
 * "Footprint"). Every label value comes from the app's own code (a request kind, a service
 * operation, an outcome, a queue name), never from what a person typed, and is escaped all the
 * same.
 */
import type { SlackRequestKind } from './context.js';

/** How one HTTP request to the expense service ended. */
export type ServiceOutcome = 'ok' | 'error' | 'rate_limited' | 'timeout' | 'unreachable';

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
  /** The exposition: Prometheus text format. */
  render(): Promise<{ contentType: string; body: string }>;
}

export const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Slack gives up on an acknowledgement after 3 s. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10];

function escapeLabel(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

function labelText(labels: [string, string][]): string {
  if (labels.length === 0) return '';
  return `{${labels.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(',')}}`;
}

/** Go's float syntax, which Prometheus parses: "+Inf", "-Inf", "NaN", or the number itself. */
function sampleValue(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function header(name: string, help: string, type: string): string {
  const text = help.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));
  return `# HELP ${name} ${text}\n# TYPE ${name} ${type}\n`;
}

/** A counter; one without labels shows 0 before its first count, as Prometheus expects. */
function counter(name: string, help: string, unlabelled = false) {
  const values = new Map<string, number>();
  if (unlabelled) values.set('', 0);
  return {
    inc(labels: [string, string][] = []) {
      const key = labelText(labels);
      values.set(key, (values.get(key) ?? 0) + 1);
    },
    render(): string {
      let out = header(name, help, 'counter');
      for (const [labels, value] of values) out += `${name}${labels} ${sampleValue(value)}\n`;
      return out;
    },
  };
}

interface HistogramSeries {
  /** Observations per bucket, not cumulative; the last one is +Inf's. */
  counts: number[];
  sum: number;
  count: number;
}

/** A histogram with one label; `le` comes first in a bucket's labels. */
function histogram(name: string, help: string, label: string, buckets: number[]) {
  const series = new Map<string, HistogramSeries>();
  return {
    observe(value: string, observed: number) {
      let s = series.get(value);
      if (!s) {
        s = { counts: new Array<number>(buckets.length + 1).fill(0), sum: 0, count: 0 };
        series.set(value, s);
      }
      const at = buckets.findIndex((bound) => observed <= bound);
      s.counts[at === -1 ? buckets.length : at]! += 1;
      s.sum += observed;
      s.count += 1;
    },
    render(): string {
      let out = header(name, help, 'histogram');
      for (const [value, s] of series) {
        let cumulative = 0;
        for (let i = 0; i <= buckets.length; i++) {
          cumulative += s.counts[i]!;
          const le = i < buckets.length ? String(buckets[i]) : '+Inf';
          out += `${name}_bucket${labelText([
            ['le', le],
            [label, value],
          ])} ${cumulative}\n`;
        }
        const own = labelText([[label, value]]);
        out += `${name}_sum${own} ${sampleValue(s.sum)}\n`;
        out += `${name}_count${own} ${s.count}\n`;
      }
      return out;
    },
  };
}

export function createMetrics(): Metrics {
  let depths: () => QueueDepths = () => ({ work: 0, durable: 0 });
  const slackRequests = histogram(
    'split_slack_request_duration_seconds',
    'Time Bolt spent on a Slack request (middleware and listeners), by kind',
    'kind',
    REQUEST_BUCKETS,
  );
  const serviceRequests = counter(
    'split_service_requests_total',
    'HTTP requests to the expense service, each attempt counted, by operation and outcome',
  );
  const serviceRetries = counter(
    'split_service_retries_total',
    'Failed attempts at a service read that were tried again, by operation',
  );
  const digestSent = counter('split_digest_dms_sent_total', 'Daily balance DMs sent', true);
  const digestFailed = counter(
    'split_digest_dms_failed_total',
    'Daily balance DMs not sent because of a failure (retried later or given up for the day)',
    true,
  );
  const queueDepth = () => {
    const now = depths();
    return (
      header(
        'split_queue_depth',
        'Work on this replica not yet finished: the work queue, and durable jobs held here',
        'gauge',
      ) +
      `split_queue_depth${labelText([['queue', 'work']])} ${sampleValue(now.work)}\n` +
      `split_queue_depth${labelText([['queue', 'durable']])} ${sampleValue(now.durable)}\n`
    );
  };
  return {
    slackRequest: (kind, seconds) => slackRequests.observe(kind, seconds),
    serviceRequest: (operation, outcome) =>
      serviceRequests.inc([
        ['operation', operation],
        ['outcome', outcome],
      ]),
    serviceRetry: (operation) => serviceRetries.inc([['operation', operation]]),
    digestSent: () => digestSent.inc(),
    digestFailed: () => digestFailed.inc(),
    watchQueues(read) {
      depths = read;
    },
    async render() {
      const body = [
        slackRequests.render(),
        serviceRequests.render(),
        serviceRetries.render(),
        digestSent.render(),
        digestFailed.render(),
        queueDepth(),
      ].join('\n');
      return { contentType: CONTENT_TYPE, body };
    },
  };
}
