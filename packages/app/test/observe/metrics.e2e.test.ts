/**
 * GET /metrics scraped around real traffic: Slack requests timed by kind, service requests
 * counted by operation and outcome (a timeout and a retried 503 among them), the queue depth
 * while a booking waits on the service, and daily DMs sent and failed.
 */

import { control } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, type LinkedPerson, startHarness, TEAM } from '../support/harness.js';

let h: Harness;
let ann: LinkedPerson;
let bob: LinkedPerson;

beforeAll(async () => {
  h = await startHarness({ delayProxy: true, serviceRetries: 1, env: { METRICS_PORT: '0' } });
  ann = await h.link({ slackId: 'U0ANN', first_name: 'Ann' });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
});
afterAll(() => h?.close());

type Labels = Record<string, string>;

/** The value of one series in a Prometheus text exposition; 0 when it is not there yet. */
function sample(text: string, name: string, labels: Labels = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    const wanted = Object.entries(labels);
    if (found.size === wanted.length && wanted.every(([k, v]) => found.get(k) === v)) {
      return Number(match[3]);
    }
  }
  return 0;
}

async function scrape(): Promise<string> {
  const response = await fetch(h.app.metricsUrl ?? 'no metrics port');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 8_000;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const requests = (text: string, kind: string) =>
  sample(text, 'split_slack_request_duration_seconds_count', { kind });
const calls = (text: string, operation: string, outcome: string) =>
  sample(text, 'split_service_requests_total', { operation, outcome });

describe('GET /metrics', () => {
  it('declares every series with its help and type', async () => {
    const text = await scrape();
    for (const [name, type] of [
      ['split_slack_request_duration_seconds', 'histogram'],
      ['split_service_requests_total', 'counter'],
      ['split_service_retries_total', 'counter'],
      ['split_queue_depth', 'gauge'],
      ['split_digest_dms_sent_total', 'counter'],
      ['split_digest_dms_failed_total', 'counter'],
    ]) {
      expect(text).toContain(`# TYPE ${name} ${type}\n`);
      expect(text).toMatch(new RegExp(`# HELP ${name} \\S`));
    }
    expect(sample(text, 'split_queue_depth', { queue: 'work' })).toBe(0);
    expect(sample(text, 'split_queue_depth', { queue: 'durable' })).toBe(0);
  });

  it('times Slack requests by kind and counts the service calls they make', async () => {
    const before = await scrape();
    await h.split(`40 lunch <@${bob.slackId}>`);
    await h.app.deps.work.idle();
    await h.sender.appHomeOpened({ user: 'U0ANN' });
    const action = await h.sender.blockActions({
      user_id: 'U0ANN',
      actions: {
        action_id: 'expense_details',
        block_id: 'expense_actions',
        value: JSON.stringify({ v: 1, e: 999_999 }),
      },
      response_url: h.slack.responseUrl({ id: 'details' }),
    });
    expect(action.status).toBe(200);
    const options = await h.sender.blockSuggestion({ action_id: 'form_currency', value: 'eu' });
    expect(options.status).toBe(200);
    const after = await eventually(scrape, (text) => requests(text, 'event') > 0);
    for (const kind of ['command', 'event', 'action', 'options']) {
      expect(requests(after, kind), kind).toBe(requests(before, kind) + 1);
    }
    expect(calls(after, 'create_expense', 'ok')).toBe(calls(before, 'create_expense', 'ok') + 1);
    // Fast on loopback: the command's time falls in the lowest buckets, well under Slack's 3 s.
    expect(
      sample(after, 'split_slack_request_duration_seconds_bucket', { kind: 'command', le: '3' }),
    ).toBe(requests(after, 'command'));
  });

  it('shows a booking waiting on the service in the queue depth, then not', async () => {
    h.proxy!.holdAnswer('create_expense', 700);
    const ack = await h.sender.command({ text: `9 snacks <@${bob.slackId}>` });
    expect(ack.status).toBe(200);
    const busy = await eventually(
      scrape,
      (text) => sample(text, 'split_queue_depth', { queue: 'work' }) >= 1,
    );
    expect(sample(busy, 'split_queue_depth', { queue: 'work' })).toBeGreaterThanOrEqual(1);
    expect(sample(busy, 'split_queue_depth', { queue: 'durable' })).toBeGreaterThanOrEqual(1);
    await h.app.deps.work.idle();
    const idle = await scrape();
    expect(sample(idle, 'split_queue_depth', { queue: 'work' })).toBe(0);
    expect(sample(idle, 'split_queue_depth', { queue: 'durable' })).toBe(0);
  });

  it('counts a create that timed out by its outcome', async () => {
    const before = await scrape();
    // Past the harness's 1.5 s per-call timeout: the outcome is unknown and then looked for.
    h.proxy!.holdAnswer('create_expense', 2_500);
    const out = await h.split(`25 cinema <@${bob.slackId}>`, { timeoutMs: 10_000 });
    expect(out.status).toBe(200);
    await h.app.deps.work.idle();
    const after = await scrape();
    expect(calls(after, 'create_expense', 'timeout')).toBe(
      calls(before, 'create_expense', 'timeout') + 1,
    );
  });

  it('counts daily DMs sent and failed, and a read retried after a 503', async () => {
    const before = await scrape();
    await control(h.emu.url, 'POST', 'faults', {
      path: '/api/v3.0/get_friends',
      status: 503,
      times: 1,
    });
    const annSub = await h.app.deps.digest.enable(
      { team_id: TEAM, user_id: ann.slackId },
      { tz: 'Europe/Paris', hour: 9, always: true },
    );
    expect(await h.app.digest.runner.runOne(annSub)).toBe('sent');
    const bobSub = await h.app.deps.digest.enable(
      { team_id: TEAM, user_id: bob.slackId },
      { tz: 'Europe/Paris', hour: 9, always: true },
    );
    h.slack.httpError('conversations.open', 503);
    expect(await h.app.digest.runner.runOne(bobSub)).toBe('retry_later');
    const after = await scrape();
    expect(sample(after, 'split_digest_dms_sent_total')).toBe(
      sample(before, 'split_digest_dms_sent_total') + 1,
    );
    expect(sample(after, 'split_digest_dms_failed_total')).toBe(
      sample(before, 'split_digest_dms_failed_total') + 1,
    );
    expect(sample(after, 'split_service_retries_total', { operation: 'get_friends' })).toBe(
      sample(before, 'split_service_retries_total', { operation: 'get_friends' }) + 1,
    );
    expect(calls(after, 'get_friends', 'error')).toBe(calls(before, 'get_friends', 'error') + 1);
  });
});
