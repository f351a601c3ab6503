/**
 * The process entry (src/main.ts) as a person runs it: a bad configuration exits 1 with one line
 * per problem; a good one serves /healthz and stops cleanly with exit 0 on SIGTERM, and on Node
 * 22 and later leaves the compiled code of its start in the user's cache folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from './support/fake-slack.js';

function run(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '..', 'src', 'main.ts')],
    {
      // Only what is given: the test must not depend on the machine's own environment.
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => text, exit };
}

async function waitFor(
  check: () => RegExpMatchArray | null,
  timeoutMs: number,
): Promise<RegExpMatchArray> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const found = check();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out');
}

describe('npm start (src/main.ts)', () => {
  let emu: RunningEmulator;
  let slack: FakeSlack;
  let dir: string;
  beforeAll(async () => {
    emu = await startEmulator();
    slack = await startFakeSlack();
    dir = await mkdtemp(join(tmpdir(), 'split-main-'));
  });
  afterAll(async () => {
    await Promise.allSettled([emu.close(), slack.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 1 listing every configuration problem', async () => {
    const { output, exit } = run({ SLACK_BOT_TOKEN: 'not-a-token', PORT: 'eighty' });
    expect(await exit).toBe(1);
    const text = output();
    expect(text).toContain('Split cannot start');
    for (const name of [
      'SLACK_BOT_TOKEN',
      'SLACK_CLIENT_ID',
      'SLACK_CLIENT_SECRET',
      'SERVICE_CLIENT_ID',
      'PUBLIC_URL',
      'PORT',
      'SLACK_SIGNING_SECRET',
    ]) {
      expect(text).toContain(name);
    }
  });

  it('exits 1 when Slack refuses the bot token', async () => {
    const { output, exit } = run({
      SLACK_BOT_TOKEN: 'xoxb-wrong',
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.url,
      SLACK_CLIENT_ID: '1111.2222',
      SLACK_CLIENT_SECRET: 'slack-client',
      SERVICE_CLIENT_ID: 'id',
      SERVICE_CLIENT_SECRET: 'secret',
      PUBLIC_URL: 'http://split.test',
      PORT: '0',
      STORE_URL: `sqlite://${join(dir, 'refused.sqlite')}`,
    });
    expect(await exit).toBe(1);
    expect(output()).toContain('invalid_auth');
  });

  it('serves /healthz and stops cleanly on SIGTERM', async () => {
    const { child, output, exit } = run({
      SLACK_BOT_TOKEN: slack.team.botToken,
      SLACK_SIGNING_SECRET: 'secret',
      SLACK_API_URL: slack.url,
      SERVICE_API_URL: `${emu.url}/api/v3.0`,
      SLACK_CLIENT_ID: '1111.2222',
      SLACK_CLIENT_SECRET: 'slack-client',
      SERVICE_CLIENT_ID: 'id',
      SERVICE_CLIENT_SECRET: 'secret',
      PUBLIC_URL: 'http://split.test',
      PORT: '0',
      STORE_URL: `sqlite://${join(dir, 'app.sqlite')}`,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      HOME: join(dir, 'home'),
    });
    try {
      const [, port] = await waitFor(() => /running \(HTTP\) on port (\d+)/.exec(output()), 15_000);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(output()).toContain('SIGTERM received: shutting down');
      const cache = join(dir, 'home', '.cache', 'split', 'node-compile-cache');
      const files = await readdir(cache, { recursive: true }).catch(() => []);
      if ('enableCompileCache' in module) expect(files.length).toBeGreaterThan(0);
      else expect(files).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
