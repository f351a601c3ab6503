/**
 * `npm start` with NODE_ENV=production, as a log collector sees it: every line on stdout, from
 * start-up through a signed /split to the SIGTERM shutdown, is one JSON object with level, time
 * and msg; the /split's lines carry its request id; no configured secret is printed anywhere.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { send, slashCommand } from '../support/slack-requests.js';

let emu: RunningEmulator;
let slack: FakeSlack;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator();
  slack = await startFakeSlack();
  dir = await mkdtemp(join(tmpdir(), 'split-observe-'));
});
afterAll(async () => {
  await Promise.allSettled([emu.close(), slack.close()]);
  await rm(dir, { recursive: true, force: true });
});

async function waitFor<T>(check: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('npm start with NODE_ENV=production', () => {
  it('writes only JSON lines to stdout, and no secret anywhere', async () => {
    const secrets = {
      SLACK_SIGNING_SECRET: `signing-${randomBytes(12).toString('hex')}`,
      SLACK_CLIENT_SECRET: `slack-client-${randomBytes(12).toString('hex')}`,
      SERVICE_CLIENT_SECRET: `service-client-${randomBytes(12).toString('hex')}`,
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    };
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '..', '..', 'src', 'main.ts')],
      {
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'production',
          LOG_LEVEL: 'debug',
          SLACK_BOT_TOKEN: slack.team.botToken,
          SLACK_API_URL: slack.url,
          SLACK_WEB_URL: slack.origin,
          SLACK_CLIENT_ID: '1111.2222',
          SERVICE_API_URL: `${emu.url}/api/v3.0`,
          SERVICE_CLIENT_ID: 'id',
          PUBLIC_URL: 'http://split.test',
          PORT: '0',
          STORE_URL: `sqlite://${join(dir, 'app.sqlite')}`,
          ...secrets,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const port = await waitFor(() => /running \(HTTP\) on port (\d+)/.exec(stdout)?.[1]);
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      // Neither METRICS_PORT nor METRICS_TOKEN: the public port serves no metrics.
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      const ack = await send(
        `${base}/slack/events`,
        secrets.SLACK_SIGNING_SECRET,
        slashCommand({ text: 'help', response_url: slack.responseUrl({ id: 'help' }) }),
      );
      expect(ack.status).toBe(200);
      await slack.waitForResponse((post) => post.id === 'help');
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }

    const lines = stdout.split('\n').filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(5);
    const records = lines.map((line) => {
      const record = JSON.parse(line) as Record<string, unknown>;
      expect(record).toEqual(
        expect.objectContaining({
          level: expect.any(String),
          time: expect.any(String),
          msg: expect.any(String),
        }),
      );
      return record;
    });
    expect(records.map((r) => r.msg)).toContain('SIGTERM received: shutting down');
    const ofCommand = records.filter((r) => r.kind === 'command');
    expect(ofCommand.length).toBeGreaterThan(0);
    expect(new Set(ofCommand.map((r) => r.requestId)).size).toBe(1);
    for (const [name, value] of Object.entries({ ...secrets, bot: slack.team.botToken })) {
      expect(stdout.includes(value) || stderr.includes(value), name).toBe(false);
    }
  });
});
