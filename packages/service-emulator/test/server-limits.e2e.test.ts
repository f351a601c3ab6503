/**
 * Input the emulator bounds, each refused with the service's error envelope over real HTTP rather
 * than a crash, a 500 or a dropped connection.
 */
import { connect } from 'node:net';
import {
  type CreatedUser,
  call,
  callJson,
  control,
  createUser,
  raw,
} from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index.js';

let emu: RunningEmulator;
let ann: CreatedUser;

beforeAll(async () => {
  emu = await startEmulator();
  ann = await createUser(emu.url, { email: 'ann@example.com', first_name: 'Ann' });
});
afterAll(() => emu.close());

interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Writes `request` on one raw connection, as a client that sends its whole request before it
 * reads, and reads one HTTP response to its Content-Length. Settles once both are done; rejects on
 * any socket error (a reset, or EPIPE while still writing), which is what a refused upload looks
 * like when the server closes the connection instead of reading it.
 */
function exchange(request: Buffer[]): Promise<RawResponse> {
  const { port } = new URL(emu.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let data = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed after ${data.length} bytes`)));
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const length = Number(headers.get('content-length') ?? 0);
      if (data.length < end + 4 + length) return;
      response = {
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: data.subarray(end + 4, end + 4 + length).toString('utf8'),
      };
      settle();
    });
    let response: RawResponse | undefined;
    let sent = false;
    const settle = () => {
      if (!response || !sent) return;
      socket.removeAllListeners('close');
      socket.destroy();
      resolve(response);
    };
    request.forEach((part, i) => {
      socket.write(part, (error) => {
        if (error || i < request.length - 1) return;
        sent = true;
        settle();
      });
    });
  });
}

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('JSON nesting', () => {
  it('refuses 50,000 levels with 400 on the API and on the control plane', async () => {
    const api = await callJson(
      emu.url,
      ann.api_key,
      'create_group',
      `{"name":"Deep","users":${nested(50_000)}}`,
    );
    expect(api.status).toBe(400);
    expect(api.body).toEqual({
      errors: { base: ['Malformed JSON in request body: nested deeper than 100 levels'] },
    });
    const fault = await raw(emu.url, '/__emulator/faults', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"path":"/api/v3.0/*","status":500,"body":${nested(50_000)}}`,
    });
    expect(fault.status).toBe(400);
    expect(fault.body.errors.base).toEqual([
      'Malformed JSON in request body: nested deeper than 100 levels',
    ]);
    expect((await control(emu.url, 'GET', 'faults')).body.faults).toEqual([]);
    expect((await call(emu.url, ann.api_key, 'GET', 'get_groups')).body.groups).toHaveLength(1);
  });

  it('reads 100 levels, the most the service accepts, and refuses 101', async () => {
    // The outer object is level 1; the arrays inside it make the rest.
    const deep = (levels: number) => `${'['.repeat(levels - 1)}1${']'.repeat(levels - 1)}`;
    const accepted = await callJson(emu.url, ann.api_key, 'create_group', `{"x":${deep(100)}}`);
    expect(accepted.status).toBe(400);
    expect(accepted.body.errors.base[0]).toBe(`Unrecognized parameter \`x${'__0'.repeat(99)}\``);
    const refused = await callJson(emu.url, ann.api_key, 'create_group', `{"x":${deep(101)}}`);
    expect(refused.body.errors.base[0]).toBe(
      'Malformed JSON in request body: nested deeper than 100 levels',
    );
  });
});

describe('clock bounds', () => {
  const RANGE = 'the clock must stay between 1970-01-01T00:00:00.000Z and 9999-01-01T00:00:00.000Z';

  it('refuses to move the clock out of what timestamps can show, and keeps working', async () => {
    const before = (await control(emu.url, 'GET', 'clock')).body.now as string;
    for (const body of [
      { advance_ms: 1e300 },
      { advance_ms: -1e300 },
      { now: '+275760-09-13T00:00:00.000Z' },
      { now: '1969-12-31T23:59:59Z' },
      { now: '9999-06-01T00:00:00Z' },
      { now: '2030-01-01T00:00:00Z', advance_ms: 1e300 },
    ]) {
      const reply = await control(emu.url, 'POST', 'clock', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toEqual({ errors: { base: [RANGE] } });
    }
    const after = await control(emu.url, 'GET', 'clock');
    expect(after.status).toBe(200);
    expect(Math.abs(Date.parse(after.body.now) - Date.parse(before))).toBeLessThan(60_000);
    const me = await call(emu.url, ann.api_key, 'GET', 'get_current_user');
    expect(me.status).toBe(200);
  });

  it('still takes an instant far out but inside the range, and comes back', async () => {
    const far = await control(emu.url, 'POST', 'clock', { now: '9998-12-31T00:00:00Z' });
    expect(far.status).toBe(200);
    expect(far.body.now).toMatch(/^9998-12-31T00:00:0\d\.\d{3}Z$/);
    const back = await control(emu.url, 'POST', 'clock', { now: new Date().toISOString() });
    expect(back.status).toBe(200);
  });
});

describe('body size', () => {
  const TEN_MB = 10 * 1024 * 1024;
  const TOO_LARGE = { errors: { base: ['Request body is too large (the limit is 1024 KB)'] } };

  it('answers a 10 MB control-plane body with 413 while the client is still sending it', async () => {
    const body = Buffer.concat([
      Buffer.from('{"email":"'),
      Buffer.alloc(TEN_MB, 'a'),
      Buffer.from('"}'),
    ]);
    const reply = await exchange([
      Buffer.from(
        `POST /__emulator/users HTTP/1.1\r\nHost: 127.0.0.1:${emu.port}\r\n` +
          'Content-Type: application/json\r\n' +
          `Content-Length: ${body.length}\r\n\r\n`,
      ),
      body,
    ]);
    expect(reply.status).toBe(413);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(reply.body)).toEqual(TOO_LARGE);
  });

  it('does the same for a chunked body of unknown length, and on the API', async () => {
    const chunk = Buffer.alloc(1024 * 1024, ' ');
    const chunked = [Buffer.from('{"name":"'), ...Array.from({ length: 10 }, () => chunk)].map(
      (part) =>
        Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]),
    );
    const reply = await exchange([
      Buffer.from(
        'POST /api/v3.0/create_group HTTP/1.1\r\nHost: emulator\r\n' +
          `Authorization: Bearer ${ann.api_key}\r\nContent-Type: application/json\r\n` +
          'Transfer-Encoding: chunked\r\n\r\n',
      ),
      ...chunked,
      Buffer.from('0\r\n\r\n'),
    ]);
    expect(reply.status).toBe(413);
    expect(JSON.parse(reply.body)).toEqual(TOO_LARGE);
    expect((await call(emu.url, ann.api_key, 'GET', 'get_groups')).body.groups).toHaveLength(1);
  });
});

describe('request headers', () => {
  it('answers a 100 KB header with 431 and a JSON body', async () => {
    const reply = await exchange([
      Buffer.from(
        `GET /api/v3.0/get_current_user HTTP/1.1\r\nHost: emulator\r\nX-Padding: ${'a'.repeat(100 * 1024)}\r\n\r\n`,
      ),
    ]);
    expect(reply.status).toBe(431);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(reply.body)).toEqual({
      errors: { base: ['Request headers are too large (the limit is 16 KB)'] },
    });
  });

  it('answers a malformed request line with 400 and a JSON body', async () => {
    const reply = await exchange([Buffer.from('NOT AN HTTP REQUEST\r\n\r\n')]);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({ errors: { base: ['Malformed HTTP request'] } });
  });
});
