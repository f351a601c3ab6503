/**
 * Socket Mode (SLACK_APP_TOKEN set): the app dials Slack's WebSocket, receives a /split there and
 * acks it over the socket, and still serves /healthz and the OAuth routes over HTTP on PORT.
 *
 * Slack's side is a loopback stand-in: apps.connections.open answered in front of the fake Web
 * API, and a minimal WebSocket endpoint (RFC 6455 handshake and text frames, enough for Slack's
 * protocol) that says hello, sends an envelope and reads the ack.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../src/compose.js';
import { loadConfig } from '../../src/config.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { quietLogger } from '../support/harness.js';

function frame(text: string): Buffer {
  const payload = Buffer.from(text);
  const head =
    payload.length < 126
      ? Buffer.from([0x81, payload.length])
      : Buffer.from([0x81, 126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([head, payload]);
}

/** Reads the client's (masked) frames; calls `onText` for each complete text frame. */
function readFrames(socket: Socket, onText: (text: string) => void): void {
  let buffered = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 2) {
      const opcode = buffered[0]! & 0x0f;
      let length = buffered[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffered.length < 4) return;
        length = buffered.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffered.length < 10) return;
        length = Number(buffered.readBigUInt64BE(2));
        offset = 10;
      }
      const masked = (buffered[1]! & 0x80) !== 0;
      const mask = masked ? buffered.subarray(offset, offset + 4) : undefined;
      if (masked) offset += 4;
      if (buffered.length < offset + length) return;
      const payload = Buffer.from(buffered.subarray(offset, offset + length));
      if (mask) for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
      buffered = buffered.subarray(offset + length);
      if (opcode === 0x1) onText(payload.toString('utf8'));
      if (opcode === 0x8) socket.end();
    }
  });
}

let fake: FakeSlack;
let emu: RunningEmulator;
let front: Server;
let app: RunningApp;
let dir: string;
let port: number;
const sockets = new Set<Socket>();
const received: unknown[] = [];
let connected: (socket: Socket) => void;
const connection = new Promise<Socket>((resolve) => {
  connected = resolve;
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: found } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return found;
}

beforeAll(async () => {
  fake = await startFakeSlack();
  emu = await startEmulator();
  const fakeApi = new URL(fake.url);
  // Slack's front door: apps.connections.open here (with the app-level token), the rest forwarded.
  front = createServer((req, res) => {
    if (req.url === '/api/apps.connections.open') {
      const ok = req.headers.authorization === 'Bearer xapp-1-test';
      res.writeHead(200, { 'content-type': 'application/json' });
      const { port: own } = front.address() as AddressInfo;
      res.end(
        JSON.stringify(
          ok
            ? { ok: true, url: `ws://127.0.0.1:${own}/link` }
            : { ok: false, error: 'invalid_auth' },
        ),
      );
      req.resume();
      return;
    }
    const forward = httpRequest(
      {
        host: fakeApi.hostname,
        port: fakeApi.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  front.on('upgrade', (req, socket: Socket) => {
    const accept = createHash('sha1')
      .update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    sockets.add(socket);
    readFrames(socket, (text) => received.push(JSON.parse(text)));
    socket.write(frame(JSON.stringify({ type: 'hello', num_connections: 1 })));
    connected(socket);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));

  dir = await mkdtemp(join(tmpdir(), 'split-socket-'));
  port = await freePort();
  const config = loadConfig({
    SLACK_BOT_TOKEN: fake.team.botToken,
    SLACK_APP_TOKEN: 'xapp-1-test',
    SLACK_CLIENT_ID: '1111.2222',
    SLACK_CLIENT_SECRET: 'slack-client',
    SLACK_API_URL: `http://127.0.0.1:${(front.address() as AddressInfo).port}/api/`,
    SERVICE_API_URL: `${emu.url}/api/v3.0`,
    SERVICE_CLIENT_ID: 'id',
    SERVICE_CLIENT_SECRET: 'secret',
    PUBLIC_URL: 'http://split.test',
    PORT: String(port),
    STORE_URL: `sqlite://${join(dir, 'app.sqlite')}`,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  });
  app = await startApp({ config, logger: quietLogger(), slackRetries: 0 });
});

afterAll(async () => {
  await app?.stop();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => {
    front?.close(() => resolve());
    front?.closeAllConnections();
  });
  await Promise.allSettled([fake?.close(), emu?.close()]);
  await rm(dir, { recursive: true, force: true });
});

it('acks a /split received over the socket and answers on its response_url', async () => {
  const socket = await connection;
  const responseUrl = fake.responseUrl({ id: 'socket-help' });
  socket.write(
    frame(
      JSON.stringify({
        envelope_id: 'env-1',
        type: 'slash_commands',
        accepts_response_payload: true,
        payload: {
          team_id: 'T0001',
          team_domain: 'acme',
          channel_id: 'C0001',
          channel_name: 'general',
          user_id: 'U0ANN',
          user_name: 'ann',
          command: '/split',
          text: 'help',
          api_app_id: 'A0FAKEAPP',
          is_enterprise_install: 'false',
          response_url: responseUrl,
          trigger_id: fake.issueTrigger(),
        },
      }),
    ),
  );
  const until = Date.now() + 5_000;
  while (
    !received.some((m) => (m as { envelope_id?: string }).envelope_id === 'env-1') &&
    Date.now() < until
  ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(received).toContainEqual({ envelope_id: 'env-1', payload: {} });
  const answer = await fake.waitForResponse((p) => p.id === 'socket-help');
  expect(answer.body.response_type).toBe('ephemeral');
  expect(String(answer.body.text)).toContain('Split help');
});

it('serves /healthz and the OAuth routes over HTTP on PORT', async () => {
  const health = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(health.status).toBe(200);
  const start = await fetch(`http://127.0.0.1:${port}/oauth/start?state=${'A'.repeat(43)}`);
  expect(start.status).toBe(400);
  expect(await start.text()).toContain('This link is not valid');
});
