/**
 * `npm start` with SLACK_STATE_SECRET (an app installed into many workspaces, so without a bot
 * token) starts the real app, not the sandbox.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const entry = join(resolve(import.meta.dirname, '..', '..', '..'), 'src', 'main.ts');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-install-main-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm start with SLACK_STATE_SECRET', () => {
  it('means the real app: its configuration is checked, and no sandbox starts', async () => {
    await writeFile(join(dir, '.env'), 'SLACK_STATE_SECRET=too-short\n');
    const child = spawn(process.execPath, ['--import', tsx, entry], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(1);
    expect(output).not.toContain('Sandbox:');
    expect(output).toContain('SLACK_STATE_SECRET (from .env) must be at least 32 characters');
    expect(output).not.toContain('SLACK_BOT_TOKEN is not set');
  });
});
