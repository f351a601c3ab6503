/**
 * The control plane answers only what a web page elsewhere cannot send: requests addressed to this
 * server (no DNS rebinding), from no other origin, with JSON bodies (no cross-site form or
 * text/plain post).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index.js';
import { allowedHosts } from '../src/same-origin.js';
import { call, control, createUser } from '../src/testing.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());

/** A request with exactly these headers (node:http lets a test set Host, which fetch does not). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: { errors?: { base: string[] } } & Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: emu.port, method, path, headers, setHost: false },
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

const own = () => `127.0.0.1:${emu.port}`;

describe('cross-site requests to the control plane', () => {
  it('refuses a text/plain or form post, as a page elsewhere can send without asking', async () => {
    const kept = await createUser(emu.url, { email: 'kept@example.com', first_name: 'Kept' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
      const reply = await send(
        'POST',
        '/__emulator/reset',
        { host: own(), 'content-type': type },
        '{}',
      );
      expect(reply.status, type).toBe(415);
      expect(reply.body.errors?.base[0]).toContain(
        'send the body with Content-Type: application/json',
      );
    }
    const bare = await send(
      'POST',
      '/__emulator/users',
      { host: own(), 'content-length': '2' },
      '{}',
    );
    expect(bare.status).toBe(415);
    expect(bare.body.errors?.base[0]).toContain('(got none)');
    // Nothing was reset.
    expect((await call(emu.url, kept.api_key, 'GET', 'get_current_user')).status).toBe(200);
  });

  it('refuses another origin, and takes its own', async () => {
    const body = JSON.stringify({ email: 'origin@example.com', first_name: 'Origin' });
    const json = { host: own(), 'content-type': 'application/json' };
    const foreign = await send(
      'POST',
      '/__emulator/users',
      { ...json, origin: 'http://evil.example' },
      body,
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors?.base).toEqual([
      `The control plane refuses cross-origin requests: Origin "http://evil.example" is not http://${own()}`,
    ]);
    const opaque = await send('POST', '/__emulator/users', { ...json, origin: 'null' }, body);
    expect(opaque.status).toBe(403);
    const same = await send(
      'POST',
      '/__emulator/users',
      { ...json, origin: `http://${own()}` },
      body,
    );
    expect(same.status).toBe(201);
  });

  it('refuses a Host that is not this server, as a rebound DNS name gives', async () => {
    for (const host of [`evil.example:${emu.port}`, '127.0.0.1:1', 'localhost', '']) {
      const reply = await send('GET', '/__emulator/requests', { host });
      expect(reply.status, host).toBe(403);
      expect(reply.body.errors?.base[0]).toContain(
        `answers only requests addressed to this server (localhost:${emu.port}, 127.0.0.1:${emu.port}, [::1]:${emu.port})`,
      );
    }
    const reset = await send(
      'POST',
      '/__emulator/reset',
      { host: `rebound.example:${emu.port}`, 'content-type': 'application/json' },
      '{}',
    );
    expect(reset.status).toBe(403);
    for (const host of [`localhost:${emu.port}`, `LOCALHOST:${emu.port}`, own()]) {
      expect((await send('GET', '/__emulator/clock', { host })).status, host).toBe(200);
    }
  });

  it('still takes a post with no body at all, and JSON with a charset', async () => {
    const seeded = await send('POST', '/__emulator/seed', { host: own() });
    expect(seeded.status).toBe(201);
    const clock = await send(
      'POST',
      '/__emulator/clock',
      { host: own(), 'content-type': 'application/json; charset=utf-8' },
      '{"advance_ms":0}',
    );
    expect(clock.status).toBe(200);
    expect((await control(emu.url, 'GET', 'faults')).status).toBe(200);
  });

  it('leaves the service API to its own rules', async () => {
    const reply = await send('GET', '/api/v3.0/get_current_user', {
      host: `evil.example:${emu.port}`,
    });
    expect(reply.status).toBe(401);
  });
});

describe('the addresses the control plane answers to', () => {
  it('are the loopback names and the bound host, with the port', () => {
    expect(allowedHosts('127.0.0.1', 4000)).toEqual([
      'localhost:4000',
      '127.0.0.1:4000',
      '[::1]:4000',
    ]);
    expect(allowedHosts('0.0.0.0', 4000)).toEqual([
      'localhost:4000',
      '127.0.0.1:4000',
      '[::1]:4000',
    ]);
    expect(allowedHosts('::', 4000)).toHaveLength(3);
    expect(allowedHosts('::1', 4000)).toHaveLength(3);
    expect(allowedHosts('Emulator.Test', 4000)).toContain('emulator.test:4000');
    expect(allowedHosts('fd00::5', 4000)).toContain('[fd00::5]:4000');
    expect(allowedHosts('127.0.0.1', 80)).toContain('localhost');
  });
});
