/**
 * Balances, debts and splits, over real HTTP, on examples worked out by hand in the comments.
 */

import {
  actingAs,
  type CallParams,
  type CreatedUser,
  someUser,
} from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/index.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());

const { get, post } = actingAs(() => emu.url);

type Row = [CreatedUser, string, string];
/** users__N__ parameters from [person, paid, owed] rows. */
function shares(rows: Row[]): CallParams {
  const out: CallParams = {};
  rows.forEach(([user, paid, owed], i) => {
    out[`users__${i}__user_id`] = user.user.id;
    out[`users__${i}__paid_share`] = paid;
    out[`users__${i}__owed_share`] = owed;
  });
  return out;
}

async function three() {
  return Promise.all([
    someUser(emu.url, 'Ann'),
    someUser(emu.url, 'Ben'),
    someUser(emu.url, 'Cat'),
  ]);
}

async function groupOf(owner: CreatedUser, others: CreatedUser[], simplify: boolean) {
  const params: CallParams = { name: 'Trip', group_type: 'trip', simplify_by_default: simplify };
  others.forEach((o, i) => {
    params[`users__${i}__email`] = o.user.email;
  });
  const reply = await post(owner, 'create_group', params);
  expect(reply.status).toBe(200);
  return reply.body.group.id as number;
}

async function expense(u: CreatedUser, params: CallParams) {
  const reply = await post(u, 'create_expense', params);
  expect(reply.status).toBe(200);
  expect(reply.body.errors).toEqual({});
  return reply.body.expenses[0];
}

function balanceOf(friends: { id: number; balance: unknown }[], who: CreatedUser) {
  return friends.find((f) => f.id === who.user.id)?.balance;
}

const usd = (amount: string) => [{ currency_code: 'USD', amount }];
const byPair = (a: { from: number; to: number }, b: { from: number; to: number }) =>
  a.from - b.from || a.to - b.to;

describe('A pays 90 for A, B, C; B pays 30 for B and C', () => {
  // Expense 1: each owes 30, so B owes A 30 and C owes A 30.
  // Expense 2: each owes 15, so C owes B 15.
  // Nets: A +60, B +30 - 15 - 30 = -15, C -30 - 15 = -45.
  // Simplified (largest debtor with largest creditor): C pays A 45, then B pays A 15.
  let a: CreatedUser;
  let b: CreatedUser;
  let c: CreatedUser;
  let groupId: number;

  beforeAll(async () => {
    [a, b, c] = await three();
    groupId = await groupOf(a, [b, c], false);
    const first = await expense(a, {
      cost: '90',
      description: 'Dinner',
      group_id: groupId,
      split_equally: true,
      currency_code: 'USD',
    });
    expect(first.repayments).toEqual([
      { from: b.user.id, to: a.user.id, amount: '30.0' },
      { from: c.user.id, to: a.user.id, amount: '30.0' },
    ]);
    await expense(b, {
      cost: '30.00',
      description: 'Taxi',
      group_id: groupId,
      currency_code: 'USD',
      ...shares([
        [b, '30', '15'],
        [c, '0', '15'],
      ]),
    });
  });

  it('gives each member their net in the group', async () => {
    const { group } = (await get(a, `get_group/${groupId}`)).body;
    const nets = Object.fromEntries(
      group.members.map((m: { id: number; balance: unknown }) => [m.id, m.balance]),
    );
    expect(nets).toEqual({
      [a.user.id]: usd('60.0'),
      [b.user.id]: usd('-15.0'),
      [c.user.id]: usd('-45.0'),
    });
  });

  it('lists the pairwise debts, netted per pair, as original_debts', async () => {
    const { group } = (await get(a, `get_group/${groupId}`)).body;
    expect([...group.original_debts].sort(byPair)).toEqual(
      [
        { from: b.user.id, to: a.user.id, amount: '30.0', currency_code: 'USD' },
        { from: c.user.id, to: a.user.id, amount: '30.0', currency_code: 'USD' },
        { from: c.user.id, to: b.user.id, amount: '15.0', currency_code: 'USD' },
      ].sort(byPair),
    );
  });

  it('simplifies to two transfers, largest debtor first', async () => {
    const { group } = (await get(a, `get_group/${groupId}`)).body;
    expect(group.simplified_debts).toEqual([
      { from: c.user.id, to: a.user.id, amount: '45.0', currency_code: 'USD' },
      { from: b.user.id, to: a.user.id, amount: '15.0', currency_code: 'USD' },
    ]);
  });

  it('shows pairwise friend balances when the group does not simplify', async () => {
    const fa = (await get(a, 'get_friends')).body.friends;
    expect(balanceOf(fa, b)).toEqual(usd('30.0'));
    expect(balanceOf(fa, c)).toEqual(usd('30.0'));
    const fb = (await get(b, 'get_friends')).body.friends;
    expect(balanceOf(fb, a)).toEqual(usd('-30.0'));
    expect(balanceOf(fb, c)).toEqual(usd('15.0'));
    const friend = (await get(c, `get_friend/${b.user.id}`)).body.friend;
    expect(friend.balance).toEqual(usd('-15.0'));
    expect(friend.groups).toEqual([
      { group_id: groupId, balance: usd('-15.0') },
      { group_id: 0, balance: [] },
    ]);
  });

  it('refuses to remove a member or drop a friend with a non-zero balance', async () => {
    const removed = await post(a, 'remove_user_from_group', {
      group_id: groupId,
      user_id: c.user.id,
    });
    expect(removed.body).toEqual({
      success: false,
      errors: { base: ['The user has a non-zero balance'] },
    });
    const unfriended = await post(a, `delete_friend/${b.user.id}`);
    expect(unfriended.status).toBe(200);
    expect(unfriended.body.success).toBe(false);
    expect((await get(a, `get_group/${groupId}`)).body.group.members).toHaveLength(3);
  });

  it('settles with payments, which are ordinary rows', async () => {
    await expense(c, {
      cost: '45',
      description: 'Payment',
      payment: true,
      group_id: groupId,
      currency_code: 'USD',
      ...shares([
        [c, '45', '0'],
        [a, '0', '45'],
      ]),
    });
    const { group } = (await get(a, `get_group/${groupId}`)).body;
    expect(group.simplified_debts).toEqual([
      { from: b.user.id, to: a.user.id, amount: '15.0', currency_code: 'USD' },
    ]);
    const cMember = group.members.find((m: { id: number }) => m.id === c.user.id);
    expect(cMember.balance).toEqual(usd('0.0'));
  });
});

describe('simplify_by_default', () => {
  it('makes friend balances follow the simplified debts', async () => {
    const [a, b, c] = await three();
    const groupId = await groupOf(a, [b, c], true);
    await expense(a, {
      cost: '90',
      description: 'Dinner',
      group_id: groupId,
      split_equally: true,
      currency_code: 'USD',
    });
    await expense(b, {
      cost: '30',
      description: 'Taxi',
      group_id: groupId,
      currency_code: 'USD',
      ...shares([
        [b, '30', '15'],
        [c, '0', '15'],
      ]),
    });
    const fa = (await get(a, 'get_friends')).body.friends;
    expect(balanceOf(fa, b)).toEqual(usd('15.0'));
    expect(balanceOf(fa, c)).toEqual(usd('45.0'));
    // B and C owe each other 15 pairwise, but nothing once simplified.
    const fb = (await get(b, `get_friend/${c.user.id}`)).body.friend;
    expect(fb.balance).toEqual([]);
    expect(fb.groups).toEqual([
      { group_id: groupId, balance: [] },
      { group_id: 0, balance: [] },
    ]);
  });

  it('can create a debt between two people who had none', async () => {
    // A pays 10 for B (B owes A 10); B pays 10 for C (C owes B 10).
    // Simplified: C pays A 10, although C never owed A anything directly.
    const [a, b, c] = await three();
    const groupId = await groupOf(a, [b, c], true);
    await expense(a, {
      cost: '10',
      description: 'Book',
      group_id: groupId,
      currency_code: 'USD',
      ...shares([
        [a, '10', '0'],
        [b, '0', '10'],
      ]),
    });
    await expense(b, {
      cost: '10',
      description: 'Cake',
      group_id: groupId,
      currency_code: 'USD',
      ...shares([
        [b, '10', '0'],
        [c, '0', '10'],
      ]),
    });
    const { group } = (await get(a, `get_group/${groupId}`)).body;
    expect([...group.original_debts].sort(byPair)).toEqual(
      [
        { from: b.user.id, to: a.user.id, amount: '10.0', currency_code: 'USD' },
        { from: c.user.id, to: b.user.id, amount: '10.0', currency_code: 'USD' },
      ].sort(byPair),
    );
    expect(group.simplified_debts).toEqual([
      { from: c.user.id, to: a.user.id, amount: '10.0', currency_code: 'USD' },
    ]);
    const friendC = (await get(a, `get_friend/${c.user.id}`)).body.friend;
    expect(friendC.balance).toEqual(usd('10.0'));
    const friendB = (await get(a, `get_friend/${b.user.id}`)).body.friend;
    expect(friendB.balance).toEqual([]);
  });
});

describe('equal splits', () => {
  let a: CreatedUser;
  let b: CreatedUser;
  let c: CreatedUser;
  let groupId: number;
  beforeAll(async () => {
    [a, b, c] = await three();
    groupId = await groupOf(a, [b, c], false);
  });
  const owed = (e: { users: { user_id: number; owed_share: string }[] }) =>
    [a, b, c].map((u) => e.users.find((row) => row.user_id === u.user.id)?.owed_share);

  it('gives the remainder cent to the first members in member order: 10.00 / 3', async () => {
    const e = await expense(b, {
      cost: '10.00',
      description: 'x',
      group_id: groupId,
      split_equally: true,
      currency_code: 'USD',
    });
    expect(owed(e)).toEqual(['3.34', '3.33', '3.33']);
    expect(e.users.find((row: { user_id: number }) => row.user_id === b.user.id).paid_share).toBe(
      '10.0',
    );
    expect(e.cost).toBe('10.0');
  });

  it('splits 0.01 three ways as 0.01, 0, 0', async () => {
    const e = await expense(a, {
      cost: '0.01',
      description: 'x',
      group_id: groupId,
      split_equally: true,
      currency_code: 'USD',
    });
    expect(owed(e)).toEqual(['0.01', '0.0', '0.0']);
    expect(e.repayments).toEqual([]);
  });

  it('splits yen, which has no minor unit: 1000 / 3', async () => {
    const e = await expense(a, {
      cost: '1000',
      description: 'Ramen',
      group_id: groupId,
      split_equally: true,
      currency_code: 'JPY',
    });
    expect(e.cost).toBe('1000.0');
    expect(owed(e)).toEqual(['334.0', '333.0', '333.0']);
    expect(e.repayments).toEqual([
      { from: b.user.id, to: a.user.id, amount: '333.0' },
      { from: c.user.id, to: a.user.id, amount: '333.0' },
    ]);
  });

  it('refuses decimals in yen and splitting equally outside a group', async () => {
    const yen = await post(a, 'create_expense', {
      cost: '10.5',
      description: 'x',
      group_id: groupId,
      split_equally: true,
      currency_code: 'JPY',
    });
    expect(yen.status).toBe(200);
    expect(yen.body.expenses).toEqual([]);
    expect(yen.body.errors.base[0]).toMatch(/JPY has no minor unit/);
    const nonGroup = await post(a, 'create_expense', {
      cost: '10',
      description: 'x',
      group_id: 0,
      split_equally: true,
    });
    expect(nonGroup.body.expenses).toEqual([]);
    expect(nonGroup.body.errors.base).toHaveLength(1);
  });
});

describe('several payers, currencies and the non-group pseudo-group', () => {
  it('matches the largest debtor with the largest creditor inside one expense', async () => {
    // A paid 60, B paid 40; A owes 20, B owes 20, C owes 60: nets A +40, B +20, C -60.
    const [a, b, c] = await three();
    const groupId = await groupOf(a, [b, c], false);
    const e = await expense(a, {
      cost: '100',
      description: 'Boat',
      group_id: groupId,
      currency_code: 'USD',
      ...shares([
        [a, '60', '20'],
        [b, '40', '20'],
        [c, '0', '60'],
      ]),
    });
    expect(e.repayments).toEqual([
      { from: c.user.id, to: a.user.id, amount: '40.0' },
      { from: c.user.id, to: b.user.id, amount: '20.0' },
    ]);
    expect(e.users.map((u: { net_balance: string }) => u.net_balance)).toEqual([
      '40.0',
      '20.0',
      '-60.0',
    ]);
  });

  it('keeps balances per currency and shows non-group debts under group 0', async () => {
    const [a, b] = await Promise.all([someUser(emu.url, 'Dee'), someUser(emu.url, 'Eve')]);
    const lunch = (currency: string, cost: string, owed: string) => ({
      cost,
      description: 'Lunch',
      currency_code: currency,
      users__0__user_id: a.user.id,
      users__0__paid_share: cost,
      users__0__owed_share: owed,
      users__1__email: b.user.email,
      users__1__paid_share: '0',
      users__1__owed_share: owed,
    });
    await expense(a, lunch('USD', '20', '10'));
    await expense(a, lunch('EUR', '7.5', '3.75'));
    const friend = (await get(a, `get_friend/${b.user.id}`)).body.friend;
    expect(friend.balance).toEqual([
      { currency_code: 'EUR', amount: '3.75' },
      { currency_code: 'USD', amount: '10.0' },
    ]);
    const group0 = (await get(b, 'get_group/0')).body.group;
    expect(group0.id).toBe(0);
    expect(group0.name).toBe('Non-group expenses');
    expect(group0.members.map((m: { id: number }) => m.id)).toEqual([b.user.id]);
    expect(group0.members[0].balance).toEqual([
      { currency_code: 'EUR', amount: '-3.75' },
      { currency_code: 'USD', amount: '-10.0' },
    ]);
    expect(group0.original_debts).toEqual([
      { from: b.user.id, to: a.user.id, amount: '3.75', currency_code: 'EUR' },
      { from: b.user.id, to: a.user.id, amount: '10.0', currency_code: 'USD' },
    ]);
  });

  it('drops deleted expenses from balances and restores them on undelete', async () => {
    const [a, b] = await Promise.all([someUser(emu.url, 'Fay'), someUser(emu.url, 'Gus')]);
    const e = await expense(a, {
      cost: '8',
      description: 'Coffee',
      currency_code: 'USD',
      users__0__user_id: a.user.id,
      users__0__paid_share: '8',
      users__0__owed_share: '4',
      users__1__email: b.user.email,
      users__1__owed_share: '4',
    });
    const balance = async () => (await get(a, `get_friend/${b.user.id}`)).body.friend.balance;
    expect(await balance()).toEqual(usd('4.0'));
    expect((await post(a, `delete_expense/${e.id}`)).body).toEqual({ success: true, errors: {} });
    expect(await balance()).toEqual([]);
    expect((await post(a, `undelete_expense/${e.id}`)).body).toEqual({ success: true });
    expect(await balance()).toEqual(usd('4.0'));
  });
});
