/**
 * The page's API answers only what a web page elsewhere cannot send: requests addressed to the
 * workspace (no DNS rebinding), from no other origin, with JSON bodies (no cross-site form or
 * text/plain post).
 */
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWorkspace, type Workspace } from '../src/index.js';
import { allowedHosts } from '../src/same-origin.js';
import { PEOPLE } from './support.js';

let ws: Workspace;
let port: number;
let resets: number;

beforeEach(async () => {
  resets = 0;
  ws = await startWorkspace({
    controls: {
      reset: async () => {
        resets += 1;
      },
    },
  });
  for (const person of PEOPLE) ws.addUser(person);
  port = Number(new URL(ws.url).port);
});
afterEach(() => ws.close());

/** A request with exactly these headers (node:http lets a test set Host, which fetch does not). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: { ok?: boolean; error?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const own = () => `127.0.0.1:${port}`;
const message = JSON.stringify({ as: 'U0ANN', channel: 'C0001', text: 'Forged 100' });

describe('cross-site requests to the page API', () => {
  it('refuses a text/plain or form post, as a page elsewhere can send without asking', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const reply = await send(
        'POST',
        '/workspace-api/message',
        { host: own(), 'content-type': type },
        message,
      );
      expect(reply.status, type).toBe(415);
      expect(reply.body).toEqual({
        ok: false,
        error: `The workspace takes JSON only: send the body with Content-Type: application/json (got "${type}").`,
      });
    }
    const empty = await send('POST', '/workspace-api/control/reset', {
      host: own(),
      'content-type': 'text/plain',
      'content-length': '0',
    });
    expect(empty.status).toBe(415);
    const bare = await send(
      'POST',
      '/workspace-api/message',
      { host: own(), 'content-length': String(message.length) },
      message,
    );
    expect(bare.status).toBe(415);
    expect(ws.messages('C0001')).toEqual([]);
    expect(resets).toBe(0);
  });

  it('refuses another origin, and takes its own', async () => {
    const json = { host: own(), 'content-type': 'application/json' };
    const foreign = await send(
      'POST',
      '/workspace-api/message',
      { ...json, origin: 'http://evil.example' },
      message,
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe(
      `The workspace refuses cross-origin requests: Origin "http://evil.example" is not http://${own()}.`,
    );
    const reset = await send('POST', '/workspace-api/control/reset', {
      host: own(),
      origin: 'http://evil.example',
    });
    expect(reset.status).toBe(403);
    const read = await send('GET', '/workspace-api/state?as=U0ANN', {
      host: own(),
      origin: 'http://evil.example',
    });
    expect(read.status).toBe(403);
    expect(ws.messages('C0001')).toEqual([]);
    expect(resets).toBe(0);

    const same = await send(
      'POST',
      '/workspace-api/message',
      { ...json, origin: `http://${own()}` },
      message,
    );
    expect(same.status).toBe(200);
    expect(ws.messages('C0001').map((m) => m.text)).toEqual(['Forged 100']);
  });

  it('refuses a Host that is not the workspace, as a rebound DNS name gives', async () => {
    ws.addFile({ id: 'F0SECRET', name: 'secret.csv', mimetype: 'text/csv', content: 'a,b' });
    for (const path of ['/workspace-api/state?as=U0ANN', '/workspace-api/files/F0SECRET']) {
      for (const host of [`rebound.example:${port}`, '127.0.0.1:1', '']) {
        const reply = await send('GET', path, { host });
        expect(reply.status, `${path} ${host}`).toBe(403);
        expect(reply.body.error).toContain(
          `answers only requests addressed to it (localhost:${port}, 127.0.0.1:${port}, [::1]:${port})`,
        );
      }
    }
    const reset = await send('POST', '/workspace-api/control/reset', {
      host: `rebound.example:${port}`,
      'content-type': 'application/json',
      'content-length': '0',
    });
    expect(reset.status).toBe(403);
    expect(resets).toBe(0);
    for (const host of [`localhost:${port}`, own()]) {
      const reply = await send('GET', '/workspace-api/state?as=U0ANN', { host });
      expect(reply.status, host).toBe(200);
    }
    const control = await send('POST', '/workspace-api/control/reset', { host: own() });
    expect(control.status).toBe(200);
    expect(resets).toBe(1);
  });

  it('leaves the Web API to its own rules', async () => {
    const reply = await send('POST', '/api/auth.test', {
      host: `rebound.example:${port}`,
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Bearer ${ws.team.botToken}`,
    });
    expect(reply.body.ok).toBe(true);
  });
});

describe('the addresses the page API answers to', () => {
  it('are the loopback names and the bound host, with the port', () => {
    expect(allowedHosts('127.0.0.1', 3000)).toEqual([
      'localhost:3000',
      '127.0.0.1:3000',
      '[::1]:3000',
    ]);
    expect(allowedHosts('0.0.0.0', 3000)).toHaveLength(3);
    expect(allowedHosts('sandbox.test', 3000)).toContain('sandbox.test:3000');
    expect(allowedHosts('::1', 80)).toContain('[::1]');
  });
});
