import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The image's health check command, run against a real server: it is the one line of the
// Dockerfile that is a program.
const instructions = readFileSync('Dockerfile', 'utf8')
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

describe('Dockerfile', () => {
  it('has a health check command that passes on 200 from /healthz and fails otherwise', async () => {
    const line = instructions.find((l) => l.startsWith('HEALTHCHECK'))!;
    const script = /CMD node -e "(.*)"$/.exec(line)?.[1];
    expect(script).toBeDefined();
    const run = (port: number) =>
      promisify(execFile)(process.execPath, ['-e', script!], { env: { PORT: String(port) } }).then(
        () => 0,
        (error: { code?: number }) => error.code ?? -1,
      );
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(req.url === '/healthz' ? 200 : 404).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      expect(await run(port)).toBe(0);
      expect(paths).toEqual(['/healthz']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await run(port)).toBe(1);
  });
});
