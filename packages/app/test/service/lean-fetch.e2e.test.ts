/**
 * The app's lean fetch against real servers on loopback: what a server receives and what the
 * caller reads back are those of the global fetch, case by case.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeanFetch } from '../../src/service/index.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

async function listen(
  handle: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handle(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe('createLeanFetch', () => {
  const lean = createLeanFetch();
  let main: Awaited<ReturnType<typeof listen>>;
  let other: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    other = await listen((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ at: 'other', auth: req.headers.authorization ?? null }));
    });
    main = await listen((req, res, body) => {
      const path = req.url ?? '';
      if (path === '/json') {
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-many', ['a', 'b']);
        res.end(JSON.stringify({ ok: true, body }));
      } else if (path === '/bom') {
        res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"bom":true}')]));
      } else if (path === '/gzip') {
        res.setHeader('content-encoding', 'gzip');
        res.end(gzipSync(Buffer.from('{"packed":true}')));
      } else if (path === '/empty') {
        res.statusCode = 204;
        res.end();
      } else if (path.startsWith('/redirect/')) {
        const [, , status, ...to] = path.split('/');
        res.statusCode = Number(status);
        res.setHeader('location', to[0] === 'other' ? `${other.url}/x` : '/json');
        res.end('moving');
      } else if (path === '/slow') {
        setTimeout(() => res.end('late'), 2_000).unref();
      } else if (path === '/teapot') {
        res.statusCode = 418;
        res.statusMessage = 'Short and stout';
        res.setHeader('retry-after', '7');
        res.end('no coffee');
      } else {
        res.setHeader('content-type', 'text/plain');
        res.end(`${req.method} ${body}`);
      }
    });
  });

  afterAll(async () => {
    lean.close();
    await close(main.server);
    await close(other.server);
  });

  it('answers a GET with the status, headers, body and url the global fetch gives', async () => {
    const mine = await lean(`${main.url}/json`, { headers: { 'X-Trace': 't1' } });
    const theirs = await fetch(`${main.url}/json`, { headers: { 'X-Trace': 't1' } });
    expect(mine.status).toBe(200);
    expect(mine.url).toBe(theirs.url);
    expect(mine.redirected).toBe(false);
    expect(mine.headers.get('content-type')).toBe('application/json');
    expect(mine.headers.get('x-many')).toBe(theirs.headers.get('x-many'));
    expect(await mine.json()).toEqual(await theirs.json());
    const [sentByLean, sentByFetch] = main.seen.slice(-2);
    expect(sentByLean!.headers['x-trace']).toBe('t1');
    expect(sentByLean!.headers.accept).toBe(sentByFetch!.headers.accept);
    expect(sentByLean!.headers['user-agent']).toBe(sentByFetch!.headers['user-agent']);
    expect(sentByLean!.headers['accept-encoding']).toBe(sentByFetch!.headers['accept-encoding']);
  });

  it('sends a string body with its length, and text/plain only when no type is given', async () => {
    const typed = await lean(`${main.url}/echo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=%C3%A9',
    });
    expect(await typed.text()).toBe('POST a=1&b=%C3%A9');
    expect(main.seen.at(-1)!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(main.seen.at(-1)!.headers['content-length']).toBe('12');

    await lean(`${main.url}/echo`, { method: 'POST', body: 'héllo' });
    await fetch(`${main.url}/echo`, { method: 'POST', body: 'héllo' });
    const [byLean, byFetch] = main.seen.slice(-2);
    expect(byLean!.headers['content-type']).toBe(byFetch!.headers['content-type']);
    expect(byLean!.headers['content-length']).toBe(byFetch!.headers['content-length']);
    expect(byLean!.body).toBe('héllo');

    await lean(`${main.url}/echo`, { method: 'POST' });
    expect(main.seen.at(-1)!.headers['content-length']).toBe('0');
  });

  it('reads the body once, by any means, as a Response does', async () => {
    const read = await lean(`${main.url}/bom`);
    expect(read.bodyUsed).toBe(false);
    expect(await read.text()).toBe('{"bom":true}');
    expect(read.bodyUsed).toBe(true);
    await expect(read.json()).rejects.toThrow(TypeError);
    await expect(read.arrayBuffer()).rejects.toThrow(TypeError);
    expect(() => read.clone()).toThrow(TypeError);

    expect(await (await lean(`${main.url}/bom`)).json()).toEqual({ bom: true });
    const bytes = new Uint8Array(await (await lean(`${main.url}/bom`)).arrayBuffer());
    expect(bytes.slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));

    const streamed = await lean(`${main.url}/bom`);
    const twin = streamed.clone();
    expect(twin.url).toBe(`${main.url}/bom`);
    expect(await new Response(streamed.body).text()).toBe('{"bom":true}');
    expect(streamed.bodyUsed).toBe(true);
    await expect(streamed.text()).rejects.toThrow(TypeError);
    expect(await twin.json()).toEqual({ bom: true });
    expect(await (await lean(`${main.url}/bom`)).blob()).toHaveProperty('size', 15);
  });

  it('decodes a gzip answer', async () => {
    expect(await (await lean(`${main.url}/gzip`)).json()).toEqual({ packed: true });
  });

  it('gives no body for a 204, and the status text and headers of an error status', async () => {
    const empty = await lean(`${main.url}/empty`, { method: 'POST', body: 'x' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    expect([await empty.text(), await empty.text(), empty.bodyUsed]).toEqual(['', '', false]);
    const teapot = await lean(`${main.url}/teapot`);
    expect([teapot.status, teapot.statusText, teapot.headers.get('retry-after')]).toEqual([
      418,
      'Short and stout',
      '7',
    ]);
    expect(await teapot.text()).toBe('no coffee');
  });

  it('follows redirects as fetch does: 302 turns a POST into a GET, 307 keeps it', async () => {
    const moved = await lean(`${main.url}/redirect/302/json`, { method: 'POST', body: 'x=1' });
    expect(moved.redirected).toBe(true);
    expect(moved.url).toBe(`${main.url}/json`);
    expect(main.seen.at(-1)!.method).toBe('GET');
    expect(await moved.json()).toEqual({ ok: true, body: '' });

    const kept = await lean(`${main.url}/redirect/307/json`, { method: 'POST', body: 'x=1' });
    expect(main.seen.at(-1)!.method).toBe('POST');
    expect(await kept.json()).toEqual({ ok: true, body: 'x=1' });
  });

  it('drops Authorization when a redirect leaves the origin', async () => {
    const headers = { Authorization: 'Bearer secret-token' };
    const mine = await lean(`${main.url}/redirect/302/other`, { headers });
    const theirs = await fetch(`${main.url}/redirect/302/other`, { headers });
    expect(await mine.json()).toEqual({ at: 'other', auth: null });
    expect(await theirs.json()).toEqual({ at: 'other', auth: null });
  });

  it("rejects a redirect under redirect: 'error' and returns it under 'manual'", async () => {
    await expect(
      lean(`${main.url}/redirect/302/json`, { method: 'POST', redirect: 'error' }),
    ).rejects.toThrow(TypeError);
    const manual = await lean(`${main.url}/redirect/302/json`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe('/json');
  });

  it('rejects with the signal’s reason when it aborts, before or during the call', async () => {
    const before = new AbortController();
    before.abort(new Error('not wanted'));
    await expect(lean(`${main.url}/json`, { signal: before.signal })).rejects.toThrow('not wanted');
    const started = performance.now();
    const timedOut = lean(`${main.url}/slow`, { signal: AbortSignal.timeout(100) });
    await expect(timedOut).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('fails as fetch does when nothing listens, with the socket error code in the cause', async () => {
    const gone = await listen(() => undefined);
    await close(gone.server);
    const failure = await lean(`${gone.url}/json`).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as Error).message).toBe('fetch failed');
    expect(((failure as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('hands a body other than a string (a form with a file) to the global fetch', async () => {
    const form = new FormData();
    form.set('receipt', new Blob(['%PDF-1.4']), 'r.pdf');
    const answer = await lean(`${main.url}/echo`, { method: 'POST', body: form });
    expect(await answer.text()).toContain('%PDF-1.4');
    expect(main.seen.at(-1)!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('reuses its connections between calls', async () => {
    const ports = new Set<number>();
    const server = await listen((req, res) => res.end(String(req.socket.remotePort)));
    try {
      for (let i = 0; i < 5; i++) ports.add(Number(await (await lean(server.url)).text()));
      expect(ports.size).toBe(1);
    } finally {
      await close(server.server);
    }
  });
});
