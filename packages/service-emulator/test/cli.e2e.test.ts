import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const TSX = 'node_modules/.bin/tsx';
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(TSX, [join(import.meta.dirname, '..', 'src', 'cli.ts'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const output = async (pattern: RegExp): Promise<string> => {
    for (let i = 0; i < 600 && !pattern.test(stdout); i++) {
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return stdout;
  };
  return { child, exited, output, stderr: () => stderr };
}

// Each test starts a TypeScript process; on a busy machine that alone can take many seconds.
describe('npm run emulator', { timeout: 45_000 }, () => {
  it('starts on the given port, serves, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const cli = run(['--port', String(port), '--seed']);
    // Wait for a whole key line: the header can arrive in an earlier chunk than the keys.
    const out = await cli.output(/Demo people[^\n]*\n[^\n]*\s[A-Za-z0-9_-]{40}\n/);
    expect(out).toContain(`listening on http://127.0.0.1:${port}`);
    const key = /\s([A-Za-z0-9_-]{40})\s*$/m.exec(out)?.[1];
    expect(key).toBeDefined();
    const me = await fetch(`http://127.0.0.1:${port}/api/v3.0/get_current_user`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(me.status).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });

  it('takes the port from EMULATOR_PORT', async () => {
    const port = await freePort();
    const cli = run([], { EMULATOR_PORT: String(port) });
    expect(await cli.output(/listening on/)).toContain(`:${port}`);
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('exits 2 with a specific message for a bad flag or port', async () => {
    const unknown = run(['--prot', '4000']);
    expect(await unknown.exited).toBe(2);
    expect(unknown.stderr()).toContain("Unknown option '--prot'");
    const badPort = run(['--port', 'eighty']);
    expect(await badPort.exited).toBe(2);
    expect(badPort.stderr()).toContain(
      '--port must be a port number between 0 and 65535, got "eighty"',
    );
  });
});
