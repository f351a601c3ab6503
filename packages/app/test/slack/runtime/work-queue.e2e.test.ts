/** The ack gate (src/slack/runtime/work-queue.ts) watching a real HTTP server's requests. */
import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createAckGate } from '../../../src/slack/runtime/work-queue.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A server on loopback for the length of `use`, closed after it whatever happens. */
async function withServer(
  listener: RequestListener,
  use: (server: Server) => Promise<void>,
): Promise<void> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await use(server);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('ack gate', () => {
  it('holds while a Slack request is unanswered and for quietMs after, and ignores other paths', async () => {
    const answers: (() => void)[] = [];
    await withServer(
      (_req, res) => {
        answers.push(() => res.end('ok'));
      },
      async (server) => {
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
      },
    );
  });

  it("by default outlasts the pauses between a burst's requests", async () => {
    await withServer(
      (_req, res) => res.end('ok'),
      async (server) => {
        const gate = createAckGate(server, '/slack/events');
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        await (await fetch(`${base}/slack/events`, { method: 'POST', body: 'x' })).text();
        // Gaps of up to 30 ms came between the requests of a burst of 50 at a time.
        const quiet = gate.holdFor();
        expect(quiet).toBeGreaterThan(30);
        expect(quiet).toBeLessThanOrEqual(50);
        await sleep(60);
        expect(gate.holdFor()).toBe(0);
      },
    );
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
    await withServer(
      (_req, res) => {
        answers.push(() => res.end('ok'));
      },
      async (server) => {
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
      },
    );
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await sleep(5);
  expect(condition()).toBe(true);
}
