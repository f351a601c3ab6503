/**
 * The metrics before and after prom-client is loaded: what was counted before the first scrape
 * (or `load()`) is all there after it, and counting goes on from there.
 */
import { describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/observe/metrics.js';

describe('createMetrics', () => {
  it('keeps what was counted before prom-client was loaded', async () => {
    const metrics = createMetrics();
    metrics.serviceRequest('get_friends', 'ok');
    metrics.serviceRequest('get_friends', 'ok');
    metrics.serviceRetry('get_friends');
    metrics.slackRequest('command', 0.004);
    metrics.digestSent();
    metrics.watchQueues(() => ({ work: 3, durable: 2 }));
    const first = (await metrics.render()).body;
    expect(first).toContain(
      'split_service_requests_total{operation="get_friends",outcome="ok"} 2\n',
    );
    expect(first).toContain('split_service_retries_total{operation="get_friends"} 1\n');
    expect(first).toContain(
      'split_slack_request_duration_seconds_bucket{le="0.005",kind="command"} 1\n',
    );
    expect(first).toContain('split_digest_dms_sent_total 1\n');
    expect(first).toContain('split_digest_dms_failed_total 0\n');
    expect(first).toContain('split_queue_depth{queue="work"} 3\n');
    expect(first).toContain('split_queue_depth{queue="durable"} 2\n');

    metrics.serviceRequest('get_friends', 'ok');
    metrics.digestFailed();
    const second = (await metrics.render()).body;
    expect(second).toContain(
      'split_service_requests_total{operation="get_friends",outcome="ok"} 3\n',
    );
    expect(second).toContain('split_digest_dms_failed_total 1\n');
  });

  it('counts the same after an early load()', async () => {
    const metrics = createMetrics();
    metrics.serviceRequest('create_expense', 'timeout');
    await metrics.load();
    metrics.serviceRequest('create_expense', 'timeout');
    const { contentType, body } = await metrics.render();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain(
      'split_service_requests_total{operation="create_expense",outcome="timeout"} 2\n',
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
