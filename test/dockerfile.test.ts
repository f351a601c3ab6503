import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// No Docker engine runs here, so the image cannot be built in tests; these checks hold the
// Dockerfile to what the deployment relies on.
const text = readFileSync('Dockerfile', 'utf8');
const instructions = text
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
const stages = instructions.filter((line) => line.startsWith('FROM '));
const runtime = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));

describe('Dockerfile', () => {
  it('builds in one stage and runs from a second on Node 20', () => {
    expect(stages).toEqual(['FROM node:20-bookworm-slim AS build', 'FROM node:20-bookworm-slim']);
  });

  it('installs from the lockfile, builds, and drops dev dependencies', () => {
    expect(instructions).toContain('COPY package.json package-lock.json ./');
    expect(instructions.some((l) => /^RUN npm ci\b/.test(l))).toBe(true);
    expect(instructions).toContain('RUN npm run build && npm prune --omit=dev');
  });

  it('runs dist/main.js as a non-root user with a data volume and a /healthz check', () => {
    expect(runtime).toContain('USER node');
    expect(runtime).toContain('VOLUME /app/data');
    expect(runtime.find((l) => l.startsWith('HEALTHCHECK'))).toMatch(/\/healthz/);
    expect(runtime.at(-1)).toBe('CMD ["node", "dist/main.js"]');
    expect(runtime.some((l) => /COPY --from=build \/app\/dist/.test(l))).toBe(true);
  });

  it('keeps the SQLite store inside the volume', () => {
    expect(runtime.join('\n')).toContain('STORE_URL=sqlite:///app/data/app.sqlite');
  });

  it('has a health check command that passes on 200 from /healthz and fails otherwise', async () => {
    const line = runtime.find((l) => l.startsWith('HEALTHCHECK'))!;
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
