/**
 * The app holds the work that follows an ack while other Slack requests wait for theirs
 * (src/slack/work-queue.ts). A request whose body never arrives stands for one still waiting.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.js';

const MAX_DEFER_MS = 1_500;
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ work: { maxDeferMs: MAX_DEFER_MS } });
  await h.link({ slackId: 'U0ANN', first_name: 'Ann' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
});

afterAll(async () => {
  await h?.close();
});

/** Sends the headers of a Slack request and none of its body, so it waits for its ack. */
async function unansweredRequest(): Promise<Socket> {
  const { port } = new URL(h.eventsUrl);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    'POST /slack/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n',
  );
  // The server has read the headers once it has counted the request; give it a moment.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return socket;
}

describe('acks before the work that follows them', () => {
  it('books a /split only once no other Slack request is waiting, or after maxDeferMs', async () => {
    const waiting = await unansweredRequest();
    const sent = Date.now();
    const held = await h.split('12 coffee <@U0BOB>', { user_id: 'U0ANN', timeoutMs: 10_000 });
    expect(held.status).toBe(200);
    expect(held.answer.at - sent).toBeGreaterThanOrEqual(MAX_DEFER_MS - 50);
    expect(JSON.stringify(held.answer.body)).toContain('coffee');

    waiting.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const start = Date.now();
    const prompt = await h.split('8 tea <@U0BOB>', { user_id: 'U0ANN', timeoutMs: 10_000 });
    expect(prompt.answer.at - start).toBeLessThan(MAX_DEFER_MS - 200);
    expect(JSON.stringify(prompt.answer.body)).toContain('tea');
  });
});
