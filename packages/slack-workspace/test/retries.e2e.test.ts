// Events API retries as Slack sends them, on a short schedule: an event the app answers late,
// with an error status or not at all goes again with X-Slack-Retry-Num and X-Slack-Retry-Reason,
// the same event_id, at most three times; commands and interactions never do.
import { afterEach, describe, expect, it } from 'vitest';
import { createDeliverer } from '../src/delivery.js';
import { type EventRig, manifestText, startEventRig } from './event-rig.js';
import type { Received } from './raw-app.js';

let rig: EventRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const FAST = [10, 20, 30];

const retryHeaders = (r: Received) => [
  r.headers['x-slack-retry-num'] ?? null,
  r.headers['x-slack-retry-reason'] ?? null,
];

async function receivedEvents(count: number): Promise<Received[]> {
  const events = () => rig!.app.received.filter((r) => r.payload.type === 'event_callback');
  await expect.poll(() => events().length, { timeout: 3_000 }).toBe(count);
  return events();
}

describe('Events API retries', () => {
  it('retries an event answered with an error three times, the same event each time', async () => {
    rig = await startEventRig(manifestText(), { eventRetryDelaysMs: FAST });
    rig.app.answer = () => ({ status: 500, text: 'boom' });
    await rig.ws.act.homeOpened({ as: 'U0ANN', tab: 'home' });
    const sent = await receivedEvents(4);
    expect(sent.map(retryHeaders)).toEqual([
      [null, null],
      ['1', 'http_error'],
      ['2', 'http_error'],
      ['3', 'http_error'],
    ]);
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);
    const id = sent[0]!.payload.event_id;
    expect(
      rig.ws.deliveries.map((d) => [d.event_id, d.retry_num, d.retry_reason, d.status]),
    ).toEqual([
      [id, undefined, undefined, 500],
      [id, 1, 'http_error', 500],
      [id, 2, 'http_error', 500],
      [id, 3, 'http_error', 500],
    ]);
    // Each retry is signed afresh.
    expect(sent.every((r) => typeof r.headers['x-slack-signature'] === 'string')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await receivedEvents(4)).toHaveLength(4);
  });

  it('stops once the app answers 2xx, and on X-Slack-No-Retry after an error', async () => {
    rig = await startEventRig(manifestText(), { eventRetryDelaysMs: FAST });
    let calls = 0;
    rig.app.answer = () => (++calls === 1 ? { status: 503 } : { status: 200 });
    await rig.ws.act.homeOpened({ as: 'U0ANN', tab: 'home' });
    await receivedEvents(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await receivedEvents(2)).map(retryHeaders)).toEqual([
      [null, null],
      ['1', 'http_error'],
    ]);
    await rig.close();

    rig = await startEventRig(manifestText(), { eventRetryDelaysMs: FAST });
    rig.app.answer = () => ({ status: 500, headers: { 'x-slack-no-retry': '1' } });
    await rig.ws.act.homeOpened({ as: 'U0ANN', tab: 'home' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await receivedEvents(1)).toHaveLength(1);
    expect(rig.ws.deliveries).toMatchObject([{ status: 500 }]);
  });

  it('retries an event not answered in time with http_timeout', async () => {
    rig = await startEventRig(manifestText(), { eventRetryDelaysMs: FAST, ackTimeoutMs: 100 });
    let calls = 0;
    rig.app.answer = () => (++calls === 1 ? { delayMs: 300, status: 200 } : { status: 200 });
    await rig.ws.act.homeOpened({ as: 'U0ANN', tab: 'home' });
    const sent = await receivedEvents(2);
    expect(sent.map(retryHeaders)).toEqual([
      [null, null],
      ['1', 'http_timeout'],
    ]);
    expect(rig.ws.deliveries[0]).toMatchObject({ timedOut: true, status: 0 });
    expect(rig.ws.deliveries[1]).toMatchObject({
      retry_num: 1,
      retry_reason: 'http_timeout',
      status: 200,
    });
  });

  it('never retries commands or interactions, nor events without a schedule', async () => {
    rig = await startEventRig(manifestText(), { eventRetryDelaysMs: FAST });
    rig.app.answer = () => ({ status: 500 });
    await rig.ws.act.message({ as: 'U0ANN', channel: 'C0001', text: '/split 40 lunch' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(rig.app.received.filter((r) => r.payload.command === '/split')).toHaveLength(1);
    expect(rig.ws.notices('U0ANN').at(-1)?.text).toBe(
      '/split failed with the error "dispatch_failed"',
    );
    await rig.close();

    rig = await startEventRig();
    rig.app.answer = () => ({ status: 500 });
    await rig.ws.act.homeOpened({ as: 'U0ANN', tab: 'home' });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await receivedEvents(1)).toHaveLength(1);
  });
});

describe('the retry schedule', () => {
  it('is at most Slack’s three retries, of zero or more milliseconds each', () => {
    expect(() => createDeliverer({ eventRetryDelaysMs: [0, 0, 0, 0], now: Date.now })).toThrow(
      /at most 3 times/,
    );
    expect(() => createDeliverer({ eventRetryDelaysMs: [-1], now: Date.now })).toThrow(
      /zero or more/,
    );
  });
});
