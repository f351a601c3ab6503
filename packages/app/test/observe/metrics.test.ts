/**
 * The Prometheus exposition the app writes itself, by value: each family's HELP and TYPE lines,
 * counters by label set, cumulative histogram buckets with their sum and count, the queue gauge
 * read at each scrape, and label values escaped.
 */
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/observe/metrics.js';

describe('createMetrics', () => {
  it('writes every family, with zeros for the unlabelled counters, before anything is counted', async () => {
    const { contentType, body } = await createMetrics().render();
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(body).toBe(
      [
        '# HELP split_slack_request_duration_seconds Time Bolt spent on a Slack request (middleware and listeners), by kind',
        '# TYPE split_slack_request_duration_seconds histogram',
        '',
        '# HELP split_service_requests_total HTTP requests to the expense service, each attempt counted, by operation and outcome',
        '# TYPE split_service_requests_total counter',
        '',
        '# HELP split_service_retries_total Failed attempts at a service read that were tried again, by operation',
        '# TYPE split_service_retries_total counter',
        '',
        '# HELP split_digest_dms_sent_total Daily balance DMs sent',
        '# TYPE split_digest_dms_sent_total counter',
        'split_digest_dms_sent_total 0',
        '',
        '# HELP split_digest_dms_failed_total Daily balance DMs not sent because of a failure (retried later or given up for the day)',
        '# TYPE split_digest_dms_failed_total counter',
        'split_digest_dms_failed_total 0',
        '',
        '# HELP split_queue_depth Work on this replica not yet finished: the work queue, and durable jobs held here',
        '# TYPE split_queue_depth gauge',
        'split_queue_depth{queue="work"} 0',
        'split_queue_depth{queue="durable"} 0',
        '',
      ].join('\n'),
    );
  });

  it('counts by label set and goes on counting across scrapes', async () => {
    const metrics = createMetrics();
    metrics.serviceRequest('get_friends', 'ok');
    metrics.serviceRequest('get_friends', 'ok');
    metrics.serviceRequest('create_expense', 'timeout');
    metrics.serviceRetry('get_friends');
    metrics.digestSent();
    const first = (await metrics.render()).body;
    expect(first).toContain(
      'split_service_requests_total{operation="get_friends",outcome="ok"} 2\n' +
        'split_service_requests_total{operation="create_expense",outcome="timeout"} 1\n',
    );
    expect(first).toContain('split_service_retries_total{operation="get_friends"} 1\n');
    expect(first).toContain('split_digest_dms_sent_total 1\n');
    expect(first).toContain('split_digest_dms_failed_total 0\n');

    metrics.serviceRequest('get_friends', 'ok');
    metrics.digestFailed();
    const second = (await metrics.render()).body;
    expect(second).toContain(
      'split_service_requests_total{operation="get_friends",outcome="ok"} 3\n',
    );
    expect(second).toContain('split_digest_dms_failed_total 1\n');
  });

  it('writes a histogram with cumulative buckets, +Inf, sum and count per kind', async () => {
    const metrics = createMetrics();
    metrics.slackRequest('command', 0.004);
    metrics.slackRequest('command', 0.005);
    metrics.slackRequest('command', 0.3);
    metrics.slackRequest('command', 12);
    metrics.slackRequest('action', 3);
    const body = (await metrics.render()).body;
    const series = (kind: string) =>
      body
        .split('\n')
        .filter((line) => line.includes(`kind="${kind}"`))
        .join('\n');
    expect(series('command')).toBe(
      [
        'split_slack_request_duration_seconds_bucket{le="0.005",kind="command"} 2',
        'split_slack_request_duration_seconds_bucket{le="0.01",kind="command"} 2',
        'split_slack_request_duration_seconds_bucket{le="0.025",kind="command"} 2',
        'split_slack_request_duration_seconds_bucket{le="0.05",kind="command"} 2',
        'split_slack_request_duration_seconds_bucket{le="0.1",kind="command"} 2',
        'split_slack_request_duration_seconds_bucket{le="0.25",kind="command"} 2',
        'split_slack_request_duration_seconds_bucket{le="0.5",kind="command"} 3',
        'split_slack_request_duration_seconds_bucket{le="1",kind="command"} 3',
        'split_slack_request_duration_seconds_bucket{le="2",kind="command"} 3',
        'split_slack_request_duration_seconds_bucket{le="3",kind="command"} 3',
        'split_slack_request_duration_seconds_bucket{le="5",kind="command"} 3',
        'split_slack_request_duration_seconds_bucket{le="10",kind="command"} 3',
        'split_slack_request_duration_seconds_bucket{le="+Inf",kind="command"} 4',
        `split_slack_request_duration_seconds_sum{kind="command"} ${0.004 + 0.005 + 0.3 + 12}`,
        'split_slack_request_duration_seconds_count{kind="command"} 4',
      ].join('\n'),
    );
    expect(series('action')).toContain(
      'split_slack_request_duration_seconds_bucket{le="2",kind="action"} 0\n' +
        'split_slack_request_duration_seconds_bucket{le="3",kind="action"} 1\n',
    );
  });

  it('reads the queue depths at each scrape', async () => {
    const metrics = createMetrics();
    let work = 3;
    metrics.watchQueues(() => ({ work, durable: 2 }));
    expect((await metrics.render()).body).toContain(
      'split_queue_depth{queue="work"} 3\nsplit_queue_depth{queue="durable"} 2\n',
    );
    work = 0;
    expect((await metrics.render()).body).toContain('split_queue_depth{queue="work"} 0\n');
  });

  it('escapes backslashes, quotes and line breaks in label values', async () => {
    const metrics = createMetrics();
    metrics.serviceRetry('a\\b"c\nd');
    expect((await metrics.render()).body).toContain(
      'split_service_retries_total{operation="a\\\\b\\"c\\nd"} 1\n',
    );
  });

  it('keeps two apps in one process apart', async () => {
    const one = createMetrics();
    const two = createMetrics();
    one.digestSent();
    expect((await one.render()).body).toContain('split_digest_dms_sent_total 1\n');
    expect((await two.render()).body).toContain('split_digest_dms_sent_total 0\n');
  });
});
