import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, ServiceClient } from '../../src/service/index.js';
import {
  type CreatedUser,
  cents,
  clientFor,
  emulator,
  type RunningEmulator,
  resetRequests,
  SOME_EMAIL,
  seen,
  someUser,
} from './helpers.js';

let emu: RunningEmulator;
let ann: CreatedUser;
let bob: CreatedUser;
let carol: CreatedUser;
let client: ServiceClient;

beforeAll(async () => {
  emu = await emulator();
  ann = await someUser(emu.url, 'Ann', 'Lee');
  bob = await someUser(emu.url, 'Bob', 'Ray');
  carol = await someUser(emu.url, 'Carol', 'Diaz');
  client = clientFor(emu.url, { apiKey: ann.api_key });
});

afterAll(async () => {
  await emu?.close();
});

describe('users', () => {
  it('getCurrentUser returns the caller as a CurrentUser', async () => {
    const me = await client.getCurrentUser();
    expect(me.id).toBe(ann.user.id);
    expect(me.email).toBe(ann.user.email);
    expect(typeof me.default_currency).toBe('string');
  });

  it('getUser returns an acquaintance', async () => {
    await client.createFriend({ email: bob.user.email });
    const user = await client.getUser(bob.user.id);
    expect(user).toMatchObject({ id: bob.user.id, first_name: 'Bob' });
  });

  it('updateUser changes the given fields and returns the user with empty errors', async () => {
    const result = await client.updateUser({ id: ann.user.id, last_name: 'Lee-Park' });
    expect(result.errors).toEqual({});
    expect(result.user?.last_name).toBe('Lee-Park');
    expect((await client.getCurrentUser()).last_name).toBe('Lee-Park');
  });
});

describe('friends', () => {
  it('createFriend, getFriends, getFriend and deleteFriend', async () => {
    const email = SOME_EMAIL('dave');
    const created = await client.createFriend({ email, first_name: 'Dave', last_name: 'Moss' });
    expect(created.errors).toEqual({});
    expect(created.friend).toMatchObject({ first_name: 'Dave', email });
    const id = created.friend!.id;

    expect((await client.getFriends()).map((f) => f.id)).toContain(id);
    const friend = await client.getFriend(id);
    expect(friend.id).toBe(id);
    expect(Array.isArray(friend.balance)).toBe(true);
    expect(friend.groups.some((g) => g.group_id === 0)).toBe(true);

    expect(await client.deleteFriend(id)).toEqual({ success: true, errors: {} });
    expect((await client.getFriends()).map((f) => f.id)).not.toContain(id);
  });
});

describe('groups', () => {
  let group: Group;

  it('createGroup adds the caller and the given members (by id and by e-mail)', async () => {
    const result = await client.createGroup({
      name: 'Lisbon trip',
      group_type: 'trip',
      simplify_by_default: true,
      users: [
        { user_id: bob.user.id },
        { email: carol.user.email, first_name: 'Carol', last_name: 'Diaz' },
      ],
    });
    expect(result.errors).toEqual({});
    group = result.group!;
    expect(group.name).toBe('Lisbon trip');
    expect(group.members.map((m) => m.id).sort()).toEqual(
      [ann.user.id, bob.user.id, carol.user.id].sort(),
    );
    expect(group).not.toHaveProperty('errors');
  });

  it('getGroups lists the non-group pseudo-group first and the new group', async () => {
    const groups = await client.getGroups();
    expect(groups[0]?.id).toBe(0);
    expect(groups.map((g) => g.id)).toContain(group.id);
  });

  it('getGroup reads one group; getGroup() reads group 0', async () => {
    expect((await client.getGroup(group.id)).simplify_by_default).toBe(true);
    const none = await client.getGroup();
    expect(none.id).toBe(0);
    expect(none.members.map((m) => m.id)).toEqual([ann.user.id]);
  });

  it('addUserToGroup by e-mail, then removeUserFromGroup', async () => {
    const email = SOME_EMAIL('erin');
    const added = await client.addUserToGroup(
      { email, first_name: 'Erin', last_name: 'Cho' },
      group.id,
    );
    expect(added.success).toBe(true);
    expect(added.errors).toEqual({});
    expect(added.user?.email).toBe(email);
    const removed = await client.removeUserFromGroup(added.user!.id, group.id);
    expect(removed).toEqual({ success: true, errors: {} });
    expect((await client.getGroup(group.id)).members.map((m) => m.id)).not.toContain(
      added.user!.id,
    );
  });

  it('addUserToGroup by user_id', async () => {
    const frank = await someUser(emu.url, 'Frank');
    await client.createFriend({ email: frank.user.email });
    const added = await client.addUserToGroup({ user_id: frank.user.id }, group.id);
    expect(added).toMatchObject({ success: true, errors: {} });
    expect(added.user?.id).toBe(frank.user.id);
  });

  it('deleteGroup removes it from getGroups', async () => {
    const temp = await client.createGroup({ name: 'Temp' });
    expect(await client.deleteGroup(temp.group!.id)).toEqual({ success: true, errors: {} });
    expect((await client.getGroups()).map((g) => g.id)).not.toContain(temp.group!.id);
  });
});

describe('expenses', () => {
  let group: Group;

  beforeAll(async () => {
    group = (
      await client.createGroup({
        name: 'Flat',
        group_type: 'home',
        users: [{ user_id: bob.user.id }, { user_id: carol.user.id }],
      })
    ).group!;
  });

  it('createExpense splits equally over the group by default, the caller paying', async () => {
    const { expense, errors } = await client.createExpense({
      description: 'Groceries',
      cost: '10.00',
      currency_code: 'USD',
      group_id: group.id,
    });
    expect(errors).toEqual({});
    expect(expense?.group_id).toBe(group.id);
    expect(expense?.cost).toMatch(/^10\.0+$/);
    const users = expense!.users;
    expect(users).toHaveLength(3);
    expect(cents(users.map((u) => u.owed_share))).toBe(1000);
    expect(users.find((u) => u.user_id === ann.user.id)?.paid_share).toMatch(/^10\.0+$/);
  });

  it('createExpense by shares, with every optional field', async () => {
    const { expense, errors } = await client.createExpense({
      description: 'Dinner',
      cost: '25.50',
      currency_code: 'EUR',
      date: new Date('2026-03-01T19:30:00Z'),
      category_id: 13,
      details: 'Tasca do Chico',
      repeat_interval: 'never',
      payment: false,
      users: [
        { user_id: ann.user.id, paid_share: '25.50', owed_share: '12.75' },
        { user_id: bob.user.id, paid_share: '0', owed_share: '12.75' },
      ],
    });
    expect(errors).toEqual({});
    expect(expense).toMatchObject({
      description: 'Dinner',
      currency_code: 'EUR',
      details: 'Tasca do Chico',
      payment: false,
      category: { id: 13 },
    });
    expect(expense?.date.startsWith('2026-03-01')).toBe(true);
    expect(expense?.group_id ?? 0).toBe(0);
    const bobRow = expense!.users.find((u) => u.user_id === bob.user.id)!;
    expect(bobRow.owed_share).toBe('12.75');
  });

  it('createExpense with a new person by e-mail creates them', async () => {
    const email = SOME_EMAIL('gina');
    const { expense, errors } = await client.createExpense({
      description: 'Taxi',
      cost: '9',
      users: [
        { user_id: ann.user.id, paid_share: '9', owed_share: '4.5' },
        { email, first_name: 'Gina', last_name: 'Holt', paid_share: '0', owed_share: '4.5' },
      ],
    });
    expect(errors).toEqual({});
    expect(expense!.users).toHaveLength(2);
    expect((await client.getFriends()).some((f) => f.email === email)).toBe(true);
  });

  it('a refusal (HTTP 200 with errors) resolves with errors and no expense', async () => {
    const result = await client.createExpense({
      description: 'Bad shares',
      cost: '10',
      users: [
        { user_id: ann.user.id, paid_share: '10', owed_share: '3' },
        { user_id: bob.user.id, paid_share: '0', owed_share: '3' },
      ],
    });
    expect(result.expense).toBeUndefined();
    expect(result.errors.base?.[0]).toMatch(/owed shares/i);
  });

  it('createExpense attaches a receipt from a file path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'receipt-'));
    const path = join(dir, 'receipt.png');
    // A 1x1 PNG.
    writeFileSync(
      path,
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    const { expense, errors } = await client.createExpense({
      description: 'With receipt',
      cost: '4',
      group_id: group.id,
      receipt: path,
    });
    expect(errors).toEqual({});
    expect(expense?.receipt?.original ?? expense?.receipt?.large).toBeTruthy();
  });

  it('getExpense includes comments; getExpenses filters by group and friend', async () => {
    const created = await client.createExpense({
      description: 'Coffee',
      cost: '6',
      users: [
        { user_id: ann.user.id, paid_share: '6', owed_share: '3' },
        { user_id: carol.user.id, paid_share: '0', owed_share: '3' },
      ],
    });
    const id = created.expense!.id;
    const expense = await client.getExpense(id);
    expect(expense.id).toBe(id);
    expect(expense.comments).toEqual([]);

    const withCarol = await client.getExpenses({ friend_id: carol.user.id, limit: 0 });
    expect(withCarol.map((e) => e.id)).toContain(id);
    const inGroup = await client.getExpenses({ group_id: group.id, limit: 0 });
    expect(inGroup.length).toBeGreaterThan(0);
    expect(inGroup.every((e) => e.group_id === group.id)).toBe(true);
    expect(inGroup.map((e) => e.id)).not.toContain(id);

    const dated = await client.getExpenses({
      dated_after: '2026-02-28',
      dated_before: new Date('2026-03-02T00:00:00Z'),
      limit: 0,
    });
    expect(dated.map((e) => e.description)).toEqual(['Dinner']);
  });

  it('updateExpense changes only what it is given, and the service logs a System comment', async () => {
    const created = await client.createExpense({
      description: 'Lunch',
      cost: '12',
      group_id: group.id,
    });
    const id = created.expense!.id;
    const { expense, errors } = await client.updateExpense({ id, description: 'Team lunch' });
    expect(errors).toEqual({});
    expect(expense?.description).toBe('Team lunch');
    expect(expense?.cost).toBe(created.expense!.cost);
    const comments = await client.getComments(id);
    expect(comments.some((c) => c.comment_type === 'System')).toBe(true);
  });

  it('updateExpense replaces the shares when users are given', async () => {
    const created = await client.createExpense({
      description: 'Rent',
      cost: '30',
      group_id: group.id,
    });
    const { expense, errors } = await client.updateExpense({
      id: created.expense!.id,
      cost: '40',
      users: [
        { user_id: ann.user.id, paid_share: '40', owed_share: '20' },
        { user_id: bob.user.id, paid_share: '0', owed_share: '20' },
      ],
    });
    expect(errors).toEqual({});
    expect(expense!.users.map((u) => u.user_id).sort()).toEqual([ann.user.id, bob.user.id].sort());
  });

  it('createComment, getComments and deleteComment', async () => {
    const created = await client.createExpense({
      description: 'Wine',
      cost: '15',
      group_id: group.id,
    });
    const id = created.expense!.id;
    const { comment, errors } = await client.createComment(id, 'I will pay you back on Friday');
    expect(errors).toEqual({});
    expect(comment).toMatchObject({
      content: 'I will pay you back on Friday',
      comment_type: 'User',
    });
    expect((await client.getComments(id)).map((c) => c.id)).toContain(comment!.id);
    const deleted = await client.deleteComment(comment!.id);
    expect(deleted.errors).toEqual({});
    expect(deleted.comment?.deleted_at).toBeTruthy();
  });

  it('deleteExpense is soft: visible hides it, a second delete is refused, undelete restores', async () => {
    const created = await client.createExpense({
      description: 'Cinema',
      cost: '18',
      group_id: group.id,
    });
    const id = created.expense!.id;
    expect(await client.deleteExpense(id)).toEqual({ success: true, errors: {} });

    const all = await client.getExpenses({ group_id: group.id, limit: 0 });
    expect(all.find((e) => e.id === id)?.deleted_at).toBeTruthy();
    const visible = await client.getExpenses({ group_id: group.id, limit: 0, visible: true });
    expect(visible.map((e) => e.id)).not.toContain(id);

    const again = await client.deleteExpense(id);
    expect(again.success).toBe(false);
    expect(Object.keys(again.errors).length).toBeGreaterThan(0);

    expect(await client.undeleteExpense(id)).toEqual({ success: true, errors: {} });
    expect((await client.getExpense(id)).deleted_at ?? null).toBeNull();
  });
});

describe('notifications and reference data', () => {
  it('getNotifications lists the caller’s notifications, newest first', async () => {
    const all = await client.getNotifications();
    expect(all.length).toBeGreaterThan(0);
    const times = all.map((n) => n.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(await client.getNotifications(new Date(Date.now() + 3_600_000))).toEqual([]);
    expect((await client.getNotifications(undefined, 1)).length).toBe(1);
  });

  it('getCurrencies and getCategories need no credential', async () => {
    const anonymous = clientFor(emu.url);
    const currencies = await anonymous.getCurrencies();
    expect(currencies).toContainEqual({ currency_code: 'USD', unit: '$' });
    const categories = await anonymous.getCategories();
    const uncategorized = categories.find((c) => c.id === 2);
    expect(uncategorized?.subcategories.map((s) => s.id)).toContain(18);
  });
});

describe('iterateExpenses', () => {
  let groupId: number;
  let ids: number[];

  beforeAll(async () => {
    groupId = (await client.createGroup({ name: 'Paging', users: [{ user_id: bob.user.id }] }))
      .group!.id;
    for (let i = 0; i < 7; i += 1) {
      const day = String(10 + i).padStart(2, '0');
      await client.createExpense({
        description: `Item ${i}`,
        cost: '2',
        group_id: groupId,
        date: `2026-01-${day}T12:00:00Z`,
      });
    }
    ids = (await client.getExpenses({ group_id: groupId, limit: 0 })).map((e) => e.id);
    expect(ids).toHaveLength(7);
  });

  it('yields every expense once, in the service’s order, one request per page', async () => {
    await resetRequests(emu.url);
    const got: number[] = [];
    for await (const expense of client.iterateExpenses({ group_id: groupId }, { pageSize: 3 })) {
      got.push(expense.id);
    }
    expect(got).toEqual(ids);
    // Pages of 3, 3 and 1: the short page ends it.
    expect(await seen(emu.url, 'GET /api/v3.0/get_expenses')).toBe(3);
  });

  it('stops after an empty page when the total is a multiple of the page size', async () => {
    await resetRequests(emu.url);
    const got: number[] = [];
    for await (const expense of client.iterateExpenses({ group_id: groupId }, { pageSize: 7 })) {
      got.push(expense.id);
    }
    expect(got).toEqual(ids);
    expect(await seen(emu.url, 'GET /api/v3.0/get_expenses')).toBe(2);
  });

  it('starts at filters.offset and caps the total at filters.limit', async () => {
    const got: number[] = [];
    for await (const expense of client.iterateExpenses(
      { group_id: groupId, offset: 2, limit: 4 },
      { pageSize: 3 },
    )) {
      got.push(expense.id);
    }
    expect(got).toEqual(ids.slice(2, 6));
  });

  it('never yields an expense twice when one is created mid-iteration', async () => {
    const got: number[] = [];
    let added = false;
    for await (const expense of client.iterateExpenses({ group_id: groupId }, { pageSize: 3 })) {
      got.push(expense.id);
      if (!added) {
        added = true;
        // Newest first: this one lands on page 1 and pushes every later item one place down.
        await client.createExpense({
          description: 'Late arrival',
          cost: '1',
          group_id: groupId,
          date: '2026-02-01T12:00:00Z',
        });
      }
    }
    expect(new Set(got).size).toBe(got.length);
    for (const id of ids) expect(got).toContain(id);
  });
});
