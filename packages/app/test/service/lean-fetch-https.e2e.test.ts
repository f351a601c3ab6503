/**
 * The lean fetch over TLS, as production uses it (Slack's and the service's APIs are https): a
 * loopback https server with a throwaway certificate made by openssl for this run. The certificate
 * is trusted only when given as `ca`, so the check of the server's certificate is proven too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeanFetch } from '../../src/service/index.js';

let dir: string;
let cert: Buffer;
let server: Server;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lean-fetch-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  cert = readFileSync(join(dir, 'cert.pem'));
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          method: req.method,
          auth: req.headers.authorization ?? null,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the lean fetch over https', () => {
  it('posts and reads the answer over TLS, on a kept-alive connection', async () => {
    const lean = createLeanFetch({ ca: cert });
    try {
      for (const n of [1, 2]) {
        const response = await lean(url, {
          method: 'POST',
          headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
          body: JSON.stringify({ n }),
        });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({
          method: 'POST',
          auth: 'Bearer t',
          body: JSON.stringify({ n }),
        });
      }
    } finally {
      lean.close();
    }
  });

  it('refuses a server whose certificate it does not trust, as fetch does', async () => {
    const lean = createLeanFetch();
    try {
      const failure = await lean(url).then(
        () => undefined,
        (error: unknown) => error as Error & { cause?: { code?: string } },
      );
      expect(failure).toBeInstanceOf(TypeError);
      expect(failure?.message).toBe('fetch failed');
      expect(failure?.cause?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    } finally {
      lean.close();
    }
  });
});
