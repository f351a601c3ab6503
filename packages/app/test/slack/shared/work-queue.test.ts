import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  createAckGate,
  createLoopMonitor,
  createWorkQueue,
} from '../../../src/slack/shared/work-queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('work queue after acks', () => {
  it('runs quick jobs at most `slots` at a time, in order, and reports idle', async () => {
    const queue = createWorkQueue({ slots: 2, slotMs: 1_000 });
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    for (let i = 0; i < 6; i++) {
      queue.push(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await sleep(5);
        order.push(i);
        running -= 1;
      });
    }
    expect(queue.size).toBe(6);
    await queue.idle();
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(queue.size).toBe(0);
  });

  it('lets a job waiting on the network give its slot away after slotMs, up to maxRunning', async () => {
    const queue = createWorkQueue({ slots: 1, slotMs: 10, maxRunning: 3 });
    let running = 0;
    let peak = 0;
    for (let i = 0; i < 5; i++) {
      queue.push(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await sleep(60);
        running -= 1;
      });
    }
    await queue.idle();
    expect(peak).toBe(3);
  });

  it('keeps going after a job fails', async () => {
    const queue = createWorkQueue();
    let done = false;
    queue.push(() => Promise.reject(new Error('boom')));
    queue.push(async () => {
      done = true;
    });
    await queue.idle();
    expect(done).toBe(true);
  });
});

describe('work queue holding back for acks', () => {
  it('starts nothing while the gate holds, then everything once it opens', async () => {
    let hold = 20;
    const queue = createWorkQueue({ holdFor: () => hold, maxDeferMs: 10_000 });
    const started: number[] = [];
    for (let i = 0; i < 3; i++) {
      queue.push(async () => {
        started.push(i);
      });
    }
    await sleep(60);
    expect(started).toEqual([]);
    hold = 0;
    await queue.idle();
    expect(started).toEqual([0, 1, 2]);
  });

  it('starts a job that has waited maxDeferMs even while the gate still holds', async () => {
    const queue = createWorkQueue({ holdFor: () => 5, maxDeferMs: 80 });
    const pushed = performance.now();
    let startedAfter = -1;
    queue.push(async () => {
      startedAfter = performance.now() - pushed;
    });
    await sleep(40);
    expect(startedAfter).toBe(-1);
    await queue.idle();
    expect(startedAfter).toBeGreaterThanOrEqual(75);
  });
  it('while acks arrive, lets jobs waiting on the network make room only if the loop has time to spare', async () => {
    const peakOf = async (loopBusy: boolean) => {
      const queue = createWorkQueue({
        slots: 1,
        slotMs: 5,
        maxRunning: 3,
        holdFor: () => 5,
        maxDeferMs: 0,
        loopBusy: () => loopBusy,
      });
      let running = 0;
      let peak = 0;
      for (let i = 0; i < 3; i++) {
        queue.push(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await sleep(30);
          running -= 1;
        });
      }
      await queue.idle();
      return peak;
    };
    // Time to spare (a slow service): the waiting jobs give their slot away.
    expect(await peakOf(false)).toBe(3);
    // No time to spare: one job at a time.
    expect(await peakOf(true)).toBe(1);
  });
});

describe('loop monitor', () => {
  it('reads the event loop as busy after a spin and idle after a wait', async () => {
    const busy = createLoopMonitor(50);
    const until = performance.now() + 120;
    while (performance.now() < until) {
      // Spins: the loop does nothing else meanwhile.
    }
    expect(busy()).toBe(true);
    await sleep(120);
    expect(busy()).toBe(false);
  });
});

describe('ack gate', () => {
  it('holds while a Slack request is unanswered and for quietMs after, and ignores other paths', async () => {
    const answers: (() => void)[] = [];
    const server = createServer((_req, res) => {
      answers.push(() => res.end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const gate = createAckGate(server, '/slack/events', 30);
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(gate.holdFor()).toBe(0);

      const other = fetch(`${base}/oauth/callback?code=x`);
      await until(() => answers.length === 1);
      expect(gate.holdFor()).toBe(0);
      answers.shift()!();
      await (await other).text();

      const slack = fetch(`${base}/slack/events`, { method: 'POST', body: 'x' });
      await until(() => answers.length === 1);
      expect(gate.holdFor()).toBe(30);
      answers.shift()!();
      await (await slack).text();
      const quiet = gate.holdFor();
      expect(quiet).toBeGreaterThan(0);
      expect(quiet).toBeLessThanOrEqual(30);
      await sleep(40);
      expect(gate.holdFor()).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('ack gate paths', () => {
  it.each([
    '/slack/%2e/events',
    '/slack/./events',
    '/slack/x/../events',
    '/slack/events#frag',
    '/slack/events?a=1',
  ])('counts %s, which Bolt routes to its events, as a Slack request', async (target) => {
    const answers: (() => void)[] = [];
    const server = createServer((_req, res) => {
      answers.push(() => res.end('ok'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const gate = createAckGate(server, '/slack/events', 30);
      // node:http sends the path as given; fetch() would tidy it first.
      const sent = new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: (server.address() as AddressInfo).port,
            method: 'POST',
            path: target,
          },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end('x');
      });
      await until(() => answers.length === 1);
      expect(gate.holdFor()).toBe(30);
      answers.shift()!();
      await sent;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await sleep(5);
  expect(condition()).toBe(true);
}
