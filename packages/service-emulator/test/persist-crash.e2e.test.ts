/**
 * --data durability against a real crash: the emulator CLI in a child process, a burst of creates,
 * SIGKILL in the middle of it, a restart on the same file.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, control, createUser } from '@split/service-emulator/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-crash-'));
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the CLI on a free port with a data file; resolves with its URL once it listens. */
async function startCli(file: string): Promise<{ child: ChildProcess; url: string }> {
  // Node itself with tsx as a loader: the tsx command would run the emulator in a second process,
  // which SIGKILL to the first would leave running.
  const args = [
    '--import',
    'tsx',
    join(import.meta.dirname, '..', 'src', 'cli.ts'),
    '--port',
    '0',
    '--data',
    file,
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`emulator exited (${code}): ${output}`)));
  });
  return { child, url };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

// Two TypeScript processes start in this test; on a busy machine that alone takes seconds.
describe('--data after kill -9', { timeout: 60_000 }, () => {
  it('keeps every acknowledged create, and never hands out an id again', async () => {
    const file = join(dir, 'state.json');
    const first = await startCli(file);
    const ann = await createUser(first.url, { email: 'ann@example.com', first_name: 'Ann' });
    const ben = await createUser(first.url, { email: 'ben@example.com', first_name: 'Ben' });
    const friends = await call(first.url, ann.api_key, 'POST', 'create_friend', {
      user_email: 'ben@example.com',
    });
    expect(friends.status).toBe(200);

    const acknowledged: number[] = [];
    let sent = 0;
    let stop = false;
    const create = (url: string) => {
      sent += 1;
      return call(url, ann.api_key, 'POST', 'create_expense', {
        cost: '10.00',
        description: `Burst ${sent}`,
        users__0__user_id: ann.user.id,
        users__0__paid_share: '10.00',
        users__0__owed_share: '5.00',
        users__1__user_id: ben.user.id,
        users__1__paid_share: '0',
        users__1__owed_share: '5.00',
      });
    };
    const idOf = (reply: Awaited<ReturnType<typeof create>>): number => {
      expect(reply.status).toBe(200);
      expect(reply.body.errors).toEqual({});
      return reply.body.expenses[0].id;
    };
    // Eight clients keep creating; the process is killed as soon as 60 creates were answered,
    // while others are in flight (and some of those applied but not yet answered).
    const workers = Array.from({ length: 8 }, async () => {
      while (!stop) {
        let reply: Awaited<ReturnType<typeof create>>;
        try {
          reply = await create(first.url);
        } catch {
          return; // The connection died with the process: no answer, no promise made.
        }
        acknowledged.push(idOf(reply));
        if (acknowledged.length >= 60 && !stop) {
          stop = true;
          first.child.kill('SIGKILL');
        }
      }
    });
    await Promise.all(workers);
    await killed(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(acknowledged.length).toBeGreaterThanOrEqual(60);

    const second = await startCli(file);
    const listed = await call(second.url, ann.api_key, 'GET', 'get_expenses', { limit: 0 });
    expect(listed.status).toBe(200);
    const kept = new Set(listed.body.expenses.map((e: { id: number }) => e.id));
    expect(acknowledged.filter((id) => !kept.has(id))).toEqual([]);

    const after = idOf(await create(second.url));
    expect(after).toBeGreaterThan(Math.max(...acknowledged));
    const everSeen = Math.max(...acknowledged, ...(kept as Set<number>));
    expect(after).toBeGreaterThan(everSeen);
    // The control plane's answers are durable too: the users and keys made before the burst.
    const again = await control(second.url, 'POST', 'api_keys', { user_id: ben.user.id });
    expect(again.status).toBe(201);
    second.child.kill('SIGKILL');
  });
});
