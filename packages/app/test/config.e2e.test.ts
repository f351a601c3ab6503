/** main.ts started as a process, configured from a .env in its working directory. */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from './support/fake-slack.js';

describe('src/main.ts with a .env in its working directory', () => {
  // tsx is resolved here because the child runs in a temporary directory with no node_modules.
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const entry = resolve(import.meta.dirname, '..', 'src', 'main.ts');
  let dir: string;
  let slack: FakeSlack;
  let emu: RunningEmulator;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'split-dotenv-'));
    [slack, emu] = await Promise.all([startFakeSlack(), startEmulator()]);
  });
  afterAll(async () => {
    await Promise.allSettled([slack.close(), emu.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  async function start(name: string, dotenv: string, env: Record<string, string> = {}) {
    const cwd = join(dir, name);
    await mkdir(cwd);
    await writeFile(join(cwd, '.env'), dotenv);
    const child = spawn(process.execPath, ['--import', tsx, entry], {
      cwd,
      // Only what is given: the machine's own environment must not leak into the test.
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    return { child, cwd, exit, output: () => output };
  }

  it('starts from the .env alone and serves /healthz', async () => {
    const key = randomBytes(32).toString('hex');
    const dotenv = [
      '# everything the app needs, nothing from the environment',
      `SLACK_BOT_TOKEN=${slack.team.botToken}`,
      'SLACK_SIGNING_SECRET="signing secret with spaces"',
      `SLACK_API_URL=${slack.url}`,
      'SLACK_CLIENT_ID=1111.2222',
      'SLACK_CLIENT_SECRET=slack-client',
      `SERVICE_API_URL=${emu.url}/api/v3.0`,
      'SERVICE_CLIENT_ID=id',
      "SERVICE_CLIENT_SECRET='client-secret'",
      'PUBLIC_URL=http://split.test',
      'PORT=0',
      'STORE_URL=sqlite://./state/app.sqlite',
      `export ENCRYPTION_KEY=${key}`,
    ].join('\n');
    const { child, cwd, exit, output } = await start('healthy', dotenv);
    try {
      const until = Date.now() + 15_000;
      let port: string | undefined;
      while (port === undefined && Date.now() < until) {
        port = /running \(HTTP\) on port (\d+)/.exec(output())?.[1];
        if (port === undefined) await new Promise((done) => setTimeout(done, 50));
      }
      expect(port, output()).toBeDefined();
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      // STORE_URL from the file is resolved against the working directory the file sits in.
      expect(readFileSync(join(cwd, 'state', 'app.sqlite')).length).toBeGreaterThan(0);
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(output()).not.toContain(key);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('exits 1 naming each variable and where it came from, echoing no value', async () => {
    const dotenv = [
      'SLACK_BOT_TOKEN=xoxp-user-token-secret',
      'SLACK_SIGNING_SECRET=from-file',
      'SLACK_CLIENT_ID=1111.2222',
      'SLACK_CLIENT_SECRET=slack-client',
      'SERVICE_CLIENT_SECRET=client-secret',
      'PORT=4000',
    ].join('\n');
    const { exit, output } = await start('bad-values', dotenv, {
      PORT: 'eighty-secret',
      PUBLIC_URL: 'split.example.com/secret-path',
    });
    expect(await exit).toBe(1);
    const text = output();
    expect(text).toContain('SLACK_BOT_TOKEN (from .env) must be a bot token starting with xoxb-');
    expect(text).toContain('SERVICE_CLIENT_ID is not set (in the environment or .env)');
    expect(text).toContain('PUBLIC_URL (from the environment) must be an http(s) URL');
    expect(text).toContain('PORT (from the environment) must be a whole number');
    expect(text).not.toContain('secret');
  });

  it('exits 1 on a malformed .env, naming the line and not its text', async () => {
    const { exit, output } = await start('malformed', 'PORT=3000\npasted xoxb-secret-token\n');
    expect(await exit).toBe(1);
    expect(output()).toContain('.env line 2 is not NAME=value');
    expect(output()).not.toContain('secret');
  });
});
