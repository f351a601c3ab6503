/**
 * The --data journal: what is on disk at any moment after an answer (copied aside while the
 * emulator still runs, as a crash would leave it) loads back to the same state.
 */
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CreatedUser, call, control, createUser, raw } from '@split/service-emulator/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index.js';

let dir: string;
let file: string;
const running: RunningEmulator[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'emulator-journal-'));
  file = join(dir, 'state.json');
});
afterEach(async () => {
  for (const emu of running.splice(0)) await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(dataFile: string): Promise<RunningEmulator> {
  const emu = await startEmulator({ dataFile });
  running.push(emu);
  return emu;
}

/** Copies the data file and its journal as they are now, as a crash would leave them. */
function crashCopy(name: string): string {
  const target = join(dir, name);
  mkdirSync(target);
  copyFileSync(file, join(target, 'state.json'));
  copyFileSync(`${file}.journal`, join(target, 'state.json.journal'));
  return join(target, 'state.json');
}

async function expenseIds(url: string, user: CreatedUser): Promise<number[]> {
  const reply = await call(url, user.api_key, 'GET', 'get_expenses', { limit: 0 });
  expect(reply.status).toBe(200);
  return reply.body.expenses.map((e: { id: number }) => e.id).sort();
}

describe('--data journal', () => {
  it('loads what a crash leaves to the same records, ignoring a torn last line', async () => {
    const first = await start(file);
    const ann = await createUser(first.url, { email: 'ann@example.com', first_name: 'Ann' });
    const spare = await control(first.url, 'POST', 'api_keys', { user_id: ann.user.id });
    const app = (await control(first.url, 'POST', 'apps', { redirect_uri: 'https://a.example/cb' }))
      .body;
    const token = (
      await control(first.url, 'POST', 'tokens', { user_id: ann.user.id, client_id: app.client_id })
    ).body.access_token;
    expect(
      (await control(first.url, 'POST', 'tokens/revoke', { access_token: spare.body.api_key }))
        .status,
    ).toBe(200);
    const group = await call(first.url, ann.api_key, 'POST', 'create_group', {
      name: 'Flat',
      users__0__email: 'ben@example.com',
      users__0__first_name: 'Ben',
    });
    expect(group.status).toBe(200);
    const form = new FormData();
    form.set('cost', '12.50');
    form.set('description', 'Receipt lunch');
    form.set('group_id', String(group.body.group.id));
    form.set('split_equally', 'true');
    form.set('receipt', new Blob([Buffer.from('fake image')], { type: 'image/png' }), 'r.png');
    const created = await raw(first.url, '/api/v3.0/create_expense', {
      method: 'POST',
      headers: { authorization: `Bearer ${ann.api_key}` },
      body: form,
    });
    expect(created.status).toBe(200);
    const expenseId = created.body.expenses[0].id;
    await call(first.url, ann.api_key, 'POST', 'create_comment', {
      expense_id: expenseId,
      content: 'Paid in cash',
    });
    const before = {
      group: (await call(first.url, ann.api_key, 'GET', `get_group/${group.body.group.id}`)).body,
      expense: (await call(first.url, ann.api_key, 'GET', `get_expense/${expenseId}`)).body,
      notifications: (await call(first.url, token, 'GET', 'get_notifications')).body,
    };

    const copy = crashCopy('crash');
    appendFileSync(`${copy}.journal`, '{"seq":999999,"entry":{"k":"ledger","e":{"op":"api","at');
    const second = await start(copy);
    const url = (text: unknown) =>
      JSON.parse(JSON.stringify(text).replaceAll(second.url, first.url));
    const after = {
      group: (await call(second.url, ann.api_key, 'GET', `get_group/${group.body.group.id}`)).body,
      expense: url((await call(second.url, ann.api_key, 'GET', `get_expense/${expenseId}`)).body),
      notifications: (await call(second.url, token, 'GET', 'get_notifications')).body,
    };
    // Same ids, same instants, same invite link (a random token, drawn again from the journal).
    expect(after).toEqual(before);
    const receipt = await fetch(
      after.expense.expense.receipt.original.replace(first.url, second.url),
      { headers: { authorization: `Bearer ${ann.api_key}` } },
    );
    expect(Buffer.from(await receipt.arrayBuffer()).toString()).toBe('fake image');
    expect((await call(second.url, spare.body.api_key, 'GET', 'get_current_user')).status).toBe(
      401,
    );
  });

  it('does not apply twice what the snapshot already holds', async () => {
    const first = await start(file);
    const ann = await createUser(first.url, { email: 'ann@example.com', first_name: 'Ann' });
    for (let i = 0; i < 3; i++) {
      const reply = await call(first.url, ann.api_key, 'POST', 'create_expense', {
        cost: '5',
        description: `Coffee ${i}`,
        users__0__user_id: ann.user.id,
        users__0__paid_share: '5',
        users__0__owed_share: '5',
      });
      expect(reply.status).toBe(200);
    }
    const ids = await expenseIds(first.url, ann);
    const stale = join(dir, 'stale.journal');
    copyFileSync(`${file}.journal`, stale);
    expect(statSync(stale).size).toBeGreaterThan(0);
    await first.close();
    running.splice(0);
    expect(existsSync(`${file}.journal`)).toBe(false);

    // As if the process died after writing the snapshot and before emptying the journal.
    copyFileSync(stale, `${file}.journal`);
    const second = await start(file);
    expect(await expenseIds(second.url, ann)).toEqual(ids);
  });

  it('replays a reset, and what came after it', async () => {
    const first = await start(file);
    const ann = await createUser(first.url, { email: 'ann@example.com', first_name: 'Ann' });
    expect((await control(first.url, 'POST', 'reset')).status).toBe(200);
    const bea = await createUser(first.url, { email: 'bea@example.com', first_name: 'Bea' });
    const second = await start(crashCopy('crash'));
    expect((await call(second.url, ann.api_key, 'GET', 'get_current_user')).status).toBe(401);
    const me = await call(second.url, bea.api_key, 'GET', 'get_current_user');
    expect(me.body.user.id).toBe(bea.user.id);
  });

  it('folds a large journal into the snapshot and keeps going', async () => {
    const first = await start(file);
    const ann = await createUser(first.url, { email: 'ann@example.com', first_name: 'Ann' });
    const receipt = new Uint8Array(3 * 1024 * 1024).fill(7);
    for (let i = 0; i < 3; i++) {
      const form = new FormData();
      form.set('cost', '1');
      form.set('description', `Scan ${i}`);
      form.set('users__0__user_id', String(ann.user.id));
      form.set('users__0__paid_share', '1');
      form.set('users__0__owed_share', '1');
      form.set('receipt', new Blob([receipt], { type: 'image/png' }), `scan-${i}.png`);
      const reply = await raw(first.url, '/api/v3.0/create_expense', {
        method: 'POST',
        headers: { authorization: `Bearer ${ann.api_key}` },
        body: form,
      });
      expect(reply.status).toBe(200);
    }
    // Three 3 MB receipts (4 MB each in base64) pass the 8 MB mark: the third write compacted.
    expect(statSync(`${file}.journal`).size).toBeLessThan(8 * 1024 * 1024);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.ledger.receipts).toHaveLength(3);
    const second = await start(crashCopy('crash'));
    expect(await expenseIds(second.url, ann)).toEqual(await expenseIds(first.url, ann));
  });
});
