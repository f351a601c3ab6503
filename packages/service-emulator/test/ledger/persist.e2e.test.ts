/**
 * The ledger's snapshot keeps records only; indexes and balances are rebuilt on load. A restart
 * must answer exactly as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, createUser, raw } from '@split/service-emulator/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'ledger-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a restart with --data', () => {
  it('answers listings, balances, comments and receipts as before', async () => {
    const file = join(dir, 'state.json');
    const first = await startEmulator({ dataFile: file });
    const ann = await createUser(first.url, { email: 'ann@keep.example', first_name: 'Ann' });
    const ben = await createUser(first.url, { email: 'ben@keep.example', first_name: 'Ben' });
    const group = (
      await call(first.url, ann.api_key, 'POST', 'create_group', {
        name: 'Kept',
        simplify_by_default: true,
        users__0__email: ben.user.email,
      })
    ).body.group;
    const form = new FormData();
    const params = {
      cost: '30',
      description: 'Dinner',
      group_id: String(group.id),
      split_equally: 'true',
    };
    for (const [key, value] of Object.entries(params)) form.append(key, value);
    form.append(
      'receipt',
      new Blob([Buffer.from('receipt bytes')], { type: 'image/jpeg' }),
      'r.jpg',
    );
    const created = await fetch(`${first.url}/api/v3.0/create_expense`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ann.api_key}` },
      body: form,
    });
    const expenseId = ((await created.json()) as { expenses: { id: number }[] }).expenses[0]!.id;
    await call(first.url, ben.api_key, 'POST', 'create_comment', {
      expense_id: expenseId,
      content: 'ok',
    });
    await call(first.url, ann.api_key, 'POST', 'create_expense', {
      cost: '5',
      description: 'Gone',
      users__0__user_id: ann.user.id,
      users__0__paid_share: '5',
      users__0__owed_share: '0',
      users__1__user_id: ben.user.id,
      users__1__owed_share: '5',
    });
    const gone = (await call(first.url, ann.api_key, 'GET', 'get_expenses', { limit: 1 })).body
      .expenses[0];
    await call(first.url, ann.api_key, 'POST', `delete_expense/${gone.id}`);

    const read = async (url: string) => ({
      expenses: (await call(url, ann.api_key, 'GET', 'get_expenses', { limit: 0 })).body,
      visible: (await call(url, ann.api_key, 'GET', 'get_expenses', { visible: true })).body,
      friends: (await call(url, ben.api_key, 'GET', 'get_friends')).body,
      group: (await call(url, ann.api_key, 'GET', `get_group/${group.id}`)).body.group
        .simplified_debts,
      expense: (await call(url, ben.api_key, 'GET', `get_expense/${expenseId}`)).body,
      notifications: (await call(url, ben.api_key, 'GET', 'get_notifications')).body,
    });
    const before = await read(first.url);
    await first.close();

    const second = await startEmulator({ dataFile: file });
    try {
      const after = await read(second.url);
      // Receipt URLs name the server they were read from.
      expect(after).toEqual(JSON.parse(JSON.stringify(before).replaceAll(first.url, second.url)));
      expect(after.friends.friends[0].balance).toEqual([{ currency_code: 'USD', amount: '-15.0' }]);
      const receipt = await raw(second.url, new URL(after.expense.expense.receipt.large).pathname, {
        headers: { authorization: `Bearer ${ben.api_key}` },
      });
      expect(receipt.body).toBe('receipt bytes');
      const next = await call(second.url, ann.api_key, 'POST', 'create_expense', params);
      expect(next.body.expenses[0].id).toBeGreaterThan(expenseId);
    } finally {
      await second.close();
    }
  });
});
