/**
 * GET /readyz answers 200 only while the store answers: on SQLite, and on a Redis reached through
 * a loopback proxy that the test cuts (503 with a short reason, /healthz still 200) and restores
 * (200 again once the client has reconnected).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.js';
import { REDIS_URL } from '../support/stores.js';

/** A TCP proxy to the run's Redis that can be cut and restored on the same port. */
async function redisProxy(redisUrl: string) {
  const redis = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = createConnection(Number(redis.port || 6379), redis.hostname);
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (server) server.close(() => resolve());
      else resolve();
      server = undefined;
    });
  await listen();
  const auth = redis.username || redis.password ? `${redis.username}:${redis.password}@` : '';
  return { url: () => `redis://${auth}127.0.0.1:${port}/9`, cut, restore: listen };
}

async function ready(h: Harness): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${h.app.url}/readyz`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function until(h: Harness, status: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await ready(h);
    if (answer.status === status || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const open: Harness[] = [];
const proxies: { cut(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(open.map((h) => h.close()));
  await Promise.all(proxies.map((p) => p.cut()));
});

describe('GET /readyz', () => {
  it('answers 200 while the SQLite store answers', async () => {
    const h = await startHarness();
    open.push(h);
    expect(await ready(h)).toEqual({ status: 200, body: { ok: true } });
    expect((await fetch(`${h.app.url}/healthz`)).status).toBe(200);
  });

  it.skipIf(!REDIS_URL)(
    'answers 503 with a reason while Redis is unreachable, and 200 once it is back',
    async () => {
      const proxy = await redisProxy(REDIS_URL!);
      proxies.push(proxy);
      const h = await startHarness({ env: { STORE_URL: proxy.url() } });
      open.push(h);
      expect(await ready(h)).toEqual({ status: 200, body: { ok: true } });

      await proxy.cut();
      const down = await until(h, 503);
      expect(down.status).toBe(503);
      expect(down.body.ok).toBe(false);
      expect(down.body.reason).toMatch(
        /^the store (did not answer within \d+ ms|answered with an error)$/,
      );
      // Liveness is another question: the process is fine, its store is not.
      expect((await fetch(`${h.app.url}/healthz`)).status).toBe(200);

      await proxy.restore();
      expect(await until(h, 200)).toEqual({ status: 200, body: { ok: true } });
    },
  );
});
