/**
 * `npm start` as a newcomer runs it: with no Slack app configured it starts the sandbox, prints
 * where the page and the emulator are, serves both, keeps its data in --data across restarts,
 * starts over with --fresh, and stops everything on SIGTERM. In production the same missing
 * configuration is an error listing every problem.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILT_PAGE_DIR } from '@split/slack-workspace';
import { buildPage } from '@split/slack-workspace/build-page';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const entry = resolve(import.meta.dirname, '..', '..', 'app', 'src', 'main.ts');
// The child runs in a directory of its own (no .env of the checkout), so tsx is given by path.
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

interface Started {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

function start(cwd: string, args: string[], env: Record<string, string> = {}): Started {
  const child = spawn(process.execPath, ['--conditions=source', '--import', tsx, entry, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const add = (chunk: Buffer) => {
    text += chunk.toString();
  };
  child.stdout!.on('data', add);
  child.stderr!.on('data', add);
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => text, exit };
}

async function addresses(run: Started): Promise<{ page: string; emulator: string }> {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    const page = /^Sandbox: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(run.output());
    const emulator = /^Service emulator: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(run.output());
    if (page && emulator) return { page: page[1]!, emulator: emulator[1]! };
    if (run.child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error(`no Sandbox line; the process printed:\n${run.output()}`);
}

async function stop(run: Started): Promise<number | null> {
  run.child.kill('SIGTERM');
  const code = await Promise.race([
    run.exit,
    new Promise<'hung'>((done) => setTimeout(() => done('hung'), 10_000)),
  ]);
  if (code === 'hung') {
    run.child.kill('SIGKILL');
    throw new Error('SIGTERM did not stop the sandbox within 10 s');
  }
  return code;
}

async function state(page: string, as = 'U0ADA') {
  const response = await fetch(`${page}workspace-api/state?as=${as}`);
  return (await response.json()) as {
    people: { id: string; display_name: string; email: string }[];
    messages: Record<string, { text: string; files?: { name: string }[] }[]>;
  };
}

async function say(page: string, channel: string, text: string): Promise<void> {
  const response = await fetch(`${page}workspace-api/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ as: 'U0ADA', channel, text }),
  });
  expect(response.status).toBe(200);
}

let dir: string;
let built = false;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-sandbox-start-'));
  // `npm ci` builds the page; a checkout that has not been built yet gets it here.
  if (!existsSync(join(BUILT_PAGE_DIR, 'index.html'))) {
    await buildPage(BUILT_PAGE_DIR);
    built = true;
  }
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  if (built) await rm(BUILT_PAGE_DIR, { recursive: true, force: true });
});

describe('npm start with nothing configured', () => {
  it('starts the sandbox, serves the page and the emulator, and stops on SIGTERM', async () => {
    const data = join(dir, 'first');
    const run = start(dir, ['--data', data]);
    try {
      const { page, emulator } = await addresses(run);
      const html = await fetch(page);
      expect(html.status).toBe(200);
      expect(await html.text()).toContain('<title>Split sandbox</title>');
      const people = (await state(page)).people;
      expect(people.length).toBeGreaterThanOrEqual(4);
      for (const person of people) {
        expect(person.display_name).not.toBe('');
        expect(person.email).toMatch(/@example\.com$/);
      }
      // The emulator holds the demo people's accounts: its sign-in knows their e-mails.
      const currencies = await fetch(`${emulator}/api/v3.0/get_currencies`);
      expect(currencies.status).toBe(200);
      expect(await stop(run)).toBe(0);
      await expect(fetch(page)).rejects.toThrow();
      await expect(fetch(emulator)).rejects.toThrow();
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('keeps the workspace and the emulator in --data across a restart, and --fresh starts over', async () => {
    const data = join(dir, 'kept');
    const first = start(dir, ['--data', data]);
    try {
      const { page } = await addresses(first);
      await say(page, 'C0LUNCH', 'who is in for ramen?');
      // Saved a moment after the change.
      await new Promise((done) => setTimeout(done, 600));
      expect(await stop(first)).toBe(0);
    } finally {
      first.child.kill('SIGKILL');
    }
    expect(statSync(data).mode & 0o777).toBe(0o700);
    for (const name of ['workspace.json', 'emulator.json', 'encryption.key']) {
      expect(statSync(join(data, name)).mode & 0o077).toBe(0);
    }

    const again = start(dir, ['--data', data]);
    try {
      const { page } = await addresses(again);
      const lunch = (await state(page)).messages.C0LUNCH ?? [];
      expect(lunch.map((m) => m.text)).toContain('who is in for ramen?');
      expect(await stop(again)).toBe(0);
    } finally {
      again.child.kill('SIGKILL');
    }

    const fresh = start(dir, ['--data', data, '--fresh']);
    try {
      const { page } = await addresses(fresh);
      // The demo data again: #lunch holds the demo receipts only.
      const lunch = (await state(page)).messages.C0LUNCH ?? [];
      expect(lunch.map((m) => m.text)).not.toContain('who is in for ramen?');
      expect(lunch.flatMap((m) => (m.files ?? []).map((f) => f.name))).toEqual([
        'restaurant.jpg',
        'groceries.jpg',
        'taxi.jpg',
      ]);
      expect(await stop(fresh)).toBe(0);
    } finally {
      fresh.child.kill('SIGKILL');
    }
  });

  it('reads .env: a Slack bot token there means the real app, not the sandbox', async () => {
    const cwd = await mkdtemp(join(dir, 'dotenv-'));
    await writeFile(join(cwd, '.env'), 'SLACK_BOT_TOKEN=not-a-token\n');
    const run = start(cwd, []);
    expect(await run.exit).toBe(1);
    expect(run.output()).not.toContain('Sandbox:');
    expect(run.output()).toContain('SLACK_BOT_TOKEN (from .env)');
  });

  it('in production, lists every missing setting and exits 1 instead', async () => {
    const run = start(dir, [], { NODE_ENV: 'production' });
    expect(await run.exit).toBe(1);
    const text = run.output();
    expect(text).not.toContain('Sandbox:');
    for (const name of [
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'SERVICE_CLIENT_ID',
      'SERVICE_CLIENT_SECRET',
      'PUBLIC_URL',
    ]) {
      expect(text).toContain(name);
    }
  });

  it('refuses an unknown option with its usage', async () => {
    const run = start(dir, ['--sandbx']);
    expect(await run.exit).toBe(1);
    expect(run.output()).toContain("Unknown option '--sandbx'");
    expect(run.output()).toContain('Usage: npm start');
  });
});
