/**
 * A mention Slack sends again: the workspace's own retry schedule (X-Slack-Retry-Num 1, 2, 3 with
 * the same event_id) delivers one mention four times, because the app's acknowledgements reach it
 * late (held by a proxy); the app books once and answers once.
 */
import { readFileSync } from 'node:fs';
import { readManifest } from '@split/slack-workspace';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type DelayProxy,
  type Harness,
  SIGNING_SECRET,
  startDelayProxy,
  startHarness,
} from '../../support/harness.js';

const BOT = 'U0BOT0001';
const manifest = readManifest(readFileSync('manifest.yml', 'utf8'));

let h: Harness;
let proxy: DelayProxy;

beforeAll(async () => {
  // Acknowledgements are awaited 300 ms, and a late one is retried after 10, 20 and 30 ms.
  h = await startHarness({ slack: { ackTimeoutMs: 300, eventRetryDelaysMs: [10, 20, 30] } });
  proxy = await startDelayProxy(h.app.url);
  h.slack.setApp(manifest);
  h.slack.connectApp({ appUrl: `${proxy.url}/slack/events`, signingSecret: SIGNING_SECRET });
  await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'EUR' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
}, 30_000);
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

it('books and answers once, however many times the mention is delivered', async () => {
  await h.slack.act.message({ as: 'U0ANN', channel: 'C0001', text: 'Dinner on Friday' });
  const parent = h.slack.messages('C0001').at(-1)!;
  // The first three deliveries are answered after the workspace stopped waiting.
  proxy.holdAnswer('/slack/events', 600, 3);
  await h.slack.act.message({
    as: 'U0ANN',
    channel: 'C0001',
    text: `<@${BOT}> 60 dinner <@U0BOB>`,
    thread_ts: parent.ts,
  });
  const mentions = () => h.slack.deliveries.filter((d) => d.kind === 'event');
  await expect.poll(() => mentions().length, { timeout: 5_000 }).toBe(4);
  expect(mentions().map((d) => [d.retry_num, d.timedOut])).toEqual([
    [undefined, true],
    [1, true],
    [2, true],
    [3, false],
  ]);
  expect(new Set(mentions().map((d) => d.event_id)).size).toBe(1);
  const answers = () =>
    h.slack.messages('C0001').filter((m) => m.user === BOT && m.thread_ts === parent.ts);
  await expect.poll(() => answers().length, { timeout: 8_000 }).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 700));
  await h.app.deps.work.idle();
  expect(answers()).toHaveLength(1);
  const counts = await h.serviceCounts();
  const creates = Object.entries(counts)
    .filter(([route]) => route.includes('create_expense'))
    .reduce((sum, [, n]) => sum + n, 0);
  expect(creates).toBe(1);
});
