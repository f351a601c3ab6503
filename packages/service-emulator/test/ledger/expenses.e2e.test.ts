/**
 * Expenses, comments, notifications and receipts over real HTTP: success shapes, every error kind,
 * and the rule that a refused request leaves the state as it was.
 */

import {
  actingAs,
  type CallParams,
  type CreatedUser,
  createUser,
  FORBIDDEN,
  type Loose,
  NOT_FOUND,
  raw,
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

const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** A non-group lunch: `payer` paid `cost`, split in half with `other`. */
function lunch(payer: CreatedUser, other: CreatedUser, cost = '20.00', half = '10.00'): CallParams {
  return {
    cost,
    description: 'Lunch',
    users__0__user_id: payer.user.id,
    users__0__paid_share: cost,
    users__0__owed_share: half,
    users__1__email: other.user.email,
    users__1__paid_share: '0',
    users__1__owed_share: half,
  };
}

async function create(u: CreatedUser, params: CallParams) {
  const reply = await post(u, 'create_expense', params);
  expect(reply.status).toBe(200);
  expect(reply.body.errors).toEqual({});
  return reply.body.expenses[0];
}

describe('create_expense and get_expense', () => {
  it('answers the real envelope and shape', async () => {
    const ann = await createUser(emu.url, {
      email: `ann.${Date.now()}@example.com`,
      first_name: 'Ann',
      last_name: 'Lee',
      default_currency: 'GBP',
    });
    const ben = await someUser(emu.url, 'Ben');
    const reply = await post(ann, 'create_expense', {
      ...lunch(ann, ben),
      details: 'with dessert',
    });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['errors', 'expenses']);
    const e = reply.body.expenses[0];
    expect(e.id).toBeGreaterThan(2 ** 31);
    expect(e).toMatchObject({
      group_id: null,
      friendship_id: null,
      expense_bundle_id: null,
      description: 'Lunch',
      details: 'with dessert',
      repeats: false,
      repeat_interval: null,
      comments_count: 0,
      payment: false,
      transaction_method: 'offline',
      cost: '20.0',
      currency_code: 'GBP',
      category: { id: 18, name: 'General' },
      receipt: { large: null, original: null },
      repayments: [{ from: ben.user.id, to: ann.user.id, amount: '10.0' }],
      updated_by: null,
      deleted_at: null,
      deleted_by: null,
    });
    expect(e.date).toMatch(STAMP);
    expect(e.created_at).toMatch(STAMP);
    expect(e.created_by).toMatchObject({
      id: ann.user.id,
      first_name: 'Ann',
      custom_picture: false,
    });
    expect(e.users[0]).toEqual({
      user: {
        id: ann.user.id,
        first_name: 'Ann',
        last_name: 'Lee',
        picture: { medium: expect.any(String) },
      },
      user_id: ann.user.id,
      paid_share: '20.0',
      owed_share: '10.0',
      net_balance: '10.0',
    });
    expect(e).not.toHaveProperty('comments');
    const single = await get(ben, `get_expense/${e.id}`);
    expect(single.status).toBe(200);
    expect(single.body.expense.comments).toEqual([]);
    expect(single.body.expense.id).toBe(e.id);
  });

  it('invites an unknown e-mail as a dummy user and makes them friends', async () => {
    const ann = await someUser(emu.url, 'Ann');
    const email = `zoe.${Date.now()}@example.com`;
    const e = await create(ann, {
      cost: '12',
      description: 'Cinema',
      users__0__user_id: ann.user.id,
      users__0__paid_share: '12',
      users__0__owed_share: '6',
      users__1__email: email,
      users__1__first_name: 'Zoe',
      users__1__last_name: 'Quinn',
      users__1__owed_share: '6',
    });
    const zoe = e.users[1].user;
    expect(zoe.first_name).toBe('Zoe');
    const friends = (await get(ann, 'get_friends')).body.friends;
    expect(friends).toHaveLength(1);
    expect(friends[0]).toMatchObject({ id: zoe.id, email, registration_status: 'dummy' });
    expect(friends[0].balance).toEqual([{ currency_code: 'USD', amount: '6.0' }]);
  });
});

describe('validation', () => {
  let ann: CreatedUser;
  let ben: CreatedUser;
  let stranger: CreatedUser;
  beforeAll(async () => {
    [ann, ben, stranger] = await Promise.all([
      someUser(emu.url, 'Ann'),
      someUser(emu.url, 'Ben'),
      someUser(emu.url, 'Sam'),
    ]);
    await create(ann, lunch(ann, ben));
  });

  async function snapshot() {
    const [expenses, notifications, friends] = await Promise.all([
      get(ann, 'get_expenses', { limit: 0 }),
      get(ann, 'get_notifications'),
      get(ann, 'get_friends'),
    ]);
    return [expenses.body, notifications.body, friends.body];
  }

  const cases: [string, () => CallParams, string | RegExp][] = [
    ['no cost', () => ({ ...lunch(ann, ben), cost: undefined }), 'You must enter an amount'],
    [
      'a non-numeric cost',
      () => ({ ...lunch(ann, ben), cost: 'abc' }),
      /The cost "abc" is not a valid amount/,
    ],
    [
      'an exponent',
      () => ({ ...lunch(ann, ben), cost: '1e20' }),
      /The cost "1e20" is not a valid amount/,
    ],
    ['three decimals', () => lunch(ann, ben, '10.005', '5.0025'), /not a valid amount/],
    ['a comma', () => ({ ...lunch(ann, ben), cost: '20,00' }), /not a valid amount/],
    ['a negative cost', () => lunch(ann, ben, '-20', '-10'), 'The cost must be greater than zero'],
    [
      'an absurd cost',
      () => lunch(ann, ben, '99999999999999', '49999999999999.5'),
      'The cost is too large',
    ],
    [
      'no description',
      () => ({ ...lunch(ann, ben), description: ' ' }),
      "Description can't be blank",
    ],
    [
      'owed shares that do not add up',
      () => ({ ...lunch(ann, ben), users__1__owed_share: '9.99' }),
      "The total of everyone's owed shares ($19.99) is different than the total cost ($20.00)",
    ],
    [
      'paid shares that do not add up',
      () => ({ ...lunch(ann, ben), users__0__paid_share: '15' }),
      "The total of everyone's paid shares ($15.00) is different than the total cost ($20.00)",
    ],
    [
      'nobody on it',
      () => ({ cost: '5', description: 'x' }),
      'There are zero people involved in this expense! Make sure to add some before saving.',
    ],
    [
      'the same person twice',
      () => ({ ...lunch(ann, ben), users__1__email: undefined, users__1__user_id: ann.user.id }),
      'A person was included on this expense multiple times',
    ],
    [
      'an expense without the caller',
      () => ({
        ...lunch(ben, ann),
        users__1__email: `x.${Date.now()}@example.com`,
        users__1__first_name: 'X',
      }),
      'You cannot add an expense that does not involve yourself, unless that expense is in a group',
    ],
    [
      'an unknown user id',
      () => ({ ...lunch(ann, ben), users__1__email: undefined, users__1__user_id: 999999999 }),
      'You cannot add unknown users to an expense by user_id',
    ],
    [
      'a stranger by user id',
      () => ({
        ...lunch(ann, ben),
        users__1__email: undefined,
        users__1__user_id: stranger.user.id,
      }),
      'You cannot add unknown users to an expense by user_id',
    ],
    ['an unknown currency', () => ({ ...lunch(ann, ben), currency_code: 'XYZ' }), /XYZ/],
    ['a bad date', () => ({ ...lunch(ann, ben), date: 'yesterday' }), /not a valid ISO 8601 date/],
    ['a parent category', () => ({ ...lunch(ann, ben), category_id: 1 }), /not a subcategory/],
    [
      'a negative share',
      () => ({ ...lunch(ann, ben), users__1__owed_share: '-10', users__0__owed_share: '30' }),
      /cannot be negative/,
    ],
  ];

  for (const [name, params, message] of cases) {
    it(`refuses ${name} with 200 and errors, changing nothing`, async () => {
      const before = await snapshot();
      const reply = await post(ann, 'create_expense', params());
      expect(reply.status).toBe(200);
      expect(reply.body.expenses).toEqual([]);
      if (typeof message === 'string') expect(reply.body.errors.base).toContain(message);
      else expect(reply.body.errors.base.join('\n')).toMatch(message);
      expect(await snapshot()).toEqual(before);
    });
  }

  it('answers 400 for unknown parameters, with the real text', async () => {
    const before = await snapshot();
    const stray = await post(ann, 'create_expense', { ...lunch(ann, ben), category: 'food' });
    expect(stray.status).toBe(400);
    expect(stray.body).toEqual({ errors: { base: ['Unrecognized parameter `category`'] } });
    const leftover = await post(ann, 'create_expense', {
      ...lunch(ann, ben),
      users__0__net_balance: '10',
    });
    expect(leftover.body).toEqual({
      errors: { base: ['Unrecognized parameter `users__0__net_balance`'] },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400 for values of the wrong type', async () => {
    const id = await post(ann, 'create_expense', { ...lunch(ann, ben), group_id: 'abc' });
    expect(id.status).toBe(400);
    expect(id.body.errors.base[0]).toMatch(/group_id/);
    const flag = await post(ann, 'create_expense', { ...lunch(ann, ben), payment: 'yes' });
    expect(flag.status).toBe(400);
  });

  it('answers 404 for an unknown group and 403 for a group of others', async () => {
    const unknown = await post(ann, 'create_expense', { ...lunch(ann, ben), group_id: 999999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
    const theirs = (await post(stranger, 'create_group', { name: 'Private' })).body.group.id;
    const other = await post(ann, 'create_expense', {
      cost: '9',
      description: 'x',
      group_id: theirs,
      split_equally: true,
    });
    expect(other.status).toBe(403);
    expect(other.body).toEqual(FORBIDDEN);
  });

  it('accepts JSON bodies with numeric values', async () => {
    const response = await fetch(`${emu.url}/api/v3.0/create_expense`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ann.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        cost: 385,
        description: 'json',
        users__0__user_id: ann.user.id,
        users__0__paid_share: 385,
        users__0__owed_share: 192.5,
        users__1__user_id: ben.user.id,
        users__1__owed_share: 192.5,
      }),
    });
    const body = (await response.json()) as Loose;
    expect(body.errors).toEqual({});
    expect(body.expenses[0].users[1].owed_share).toBe('192.5');
  });
});

describe('update, delete, undelete and comments', () => {
  let ann: CreatedUser;
  let ben: CreatedUser;
  let eve: CreatedUser;
  let id: number;
  beforeAll(async () => {
    [ann, ben, eve] = await Promise.all([
      someUser(emu.url, 'Ann'),
      someUser(emu.url, 'Ben'),
      someUser(emu.url, 'Eve'),
    ]);
    id = (await create(ann, lunch(ann, ben))).id;
  });

  it('changes only the fields given and adds a System comment', async () => {
    const reply = await post(ann, `update_expense/${id}`, { description: 'Brunch' });
    expect(reply.status).toBe(200);
    expect(reply.body.errors).toEqual({});
    const e = reply.body.expenses[0];
    expect(e).toMatchObject({ description: 'Brunch', cost: '20.0', comments_count: 1 });
    expect(e.updated_by.id).toBe(ann.user.id);
    const comments = (await get(ben, 'get_comments', { expense_id: id })).body.comments;
    expect(comments).toEqual([
      {
        id: expect.any(Number),
        content: expect.stringMatching(
          /^Ann updated this transaction:\n- Description changed from 'Lunch' to 'Brunch'$/,
        ),
        comment_type: 'System',
        relation_type: 'ExpenseComment',
        relation_id: id,
        created_at: expect.stringMatching(STAMP),
        deleted_at: null,
        user: { id: 0, first_name: 'Splitwise', last_name: null, picture: { medium: null } },
      },
    ]);
  });

  it('refuses split_equally and a cost change without balanced shares', async () => {
    const split = await post(ann, `update_expense/${id}`, { split_equally: true });
    expect(split.status).toBe(400);
    expect(split.body).toEqual({ errors: { base: ['Unrecognized parameter `split_equally`'] } });
    const cost = await post(ann, `update_expense/${id}`, { cost: '30' });
    expect(cost.status).toBe(200);
    expect(cost.body.expenses).toEqual([]);
    expect(cost.body.errors.base[0]).toMatch(
      /owed shares \(\$20\.00\) is different than the total cost \(\$30\.00\)/,
    );
    expect((await get(ann, `get_expense/${id}`)).body.expense).toMatchObject({
      cost: '20.0',
      comments_count: 1,
    });
  });

  it('replaces all shares when any users__ key is given', async () => {
    const reply = await post(ann, `update_expense/${id}`, {
      cost: '30',
      users__0__user_id: ann.user.id,
      users__0__paid_share: '30',
      users__0__owed_share: '0',
      users__1__user_id: ben.user.id,
      users__1__owed_share: '30',
    });
    const e = reply.body.expenses[0];
    expect(e.users.map((u: { owed_share: string }) => u.owed_share)).toEqual(['0.0', '30.0']);
    expect(e.repayments).toEqual([{ from: ben.user.id, to: ann.user.id, amount: '30.0' }]);
    expect(e.comments_count).toBe(2);
    const friend = (await get(ben, `get_friend/${ann.user.id}`)).body.friend;
    expect(friend.balance).toEqual([{ currency_code: 'USD', amount: '-30.0' }]);
  });

  it('counts user comments and deletes only your own', async () => {
    const created = await post(ben, 'create_comment', { expense_id: id, content: 'Thanks!' });
    expect(created.status).toBe(200);
    expect(created.body.comment).toMatchObject({
      content: 'Thanks!',
      comment_type: 'User',
      relation_id: id,
      user: { id: ben.user.id },
    });
    expect((await get(ann, `get_expense/${id}`)).body.expense.comments_count).toBe(3);
    const blank = await post(ben, 'create_comment', { expense_id: id, content: '  ' });
    expect(blank.body).toEqual({ comment: {}, errors: { base: ["Content can't be blank"] } });
    const notYours = await post(ann, `delete_comment/${created.body.comment.id}`);
    expect(notYours.status).toBe(403);
    const deleted = await post(ben, `delete_comment/${created.body.comment.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.comment.deleted_at).toMatch(STAMP);
    const e = (await get(ann, `get_expense/${id}`)).body.expense;
    expect(e.comments_count).toBe(2);
    expect(e.comments.map((c: { comment_type: string }) => c.comment_type)).toEqual([
      'System',
      'System',
    ]);
    expect((await post(ben, `delete_comment/${created.body.comment.id}`)).status).toBe(404);
    expect((await post(eve, 'create_comment', { expense_id: id, content: 'hi' })).status).toBe(403);
    expect((await get(ann, 'get_comments', { expense_id: 1 })).status).toBe(404);
  });

  it('refuses someone else’s expense with 403 and an unknown one with 404', async () => {
    expect(await get(eve, `get_expense/${id}`)).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await post(eve, `update_expense/${id}`, { description: 'mine' })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
    expect(await post(eve, `delete_expense/${id}`)).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await get(eve, 'get_expense/123')).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await post(eve, 'update_expense/123', { description: 'x' })).status).toBe(404);
    expect((await get(ann, `get_expense/${id}`)).body.expense.description).toBe('Brunch');
  });

  it('deletes softly, refuses a second delete, and undeletes', async () => {
    const deleted = await post(ben, `delete_expense/${id}`);
    expect(deleted.body).toEqual({ success: true, errors: {} });
    const e = (await get(ann, `get_expense/${id}`)).body.expense;
    expect(e.deleted_at).toMatch(STAMP);
    expect(e.deleted_by.id).toBe(ben.user.id);
    expect(e.updated_at).toBe(e.deleted_at);
    expect((await post(ben, `delete_expense/${id}`)).body).toEqual({
      success: false,
      errors: { expense: ['does not exist, or has already been deleted'] },
    });
    expect((await post(ben, 'delete_expense/42')).body.success).toBe(false);
    expect((await post(ann, `update_expense/${id}`, { description: 'x' })).body.expenses).toEqual(
      [],
    );
    const listed = (await get(ann, 'get_expenses')).body.expenses.map((x: { id: number }) => x.id);
    expect(listed).toContain(id);
    const visible = (await get(ann, 'get_expenses', { visible: true })).body.expenses.map(
      (x: { id: number }) => x.id,
    );
    expect(visible).not.toContain(id);
    expect((await post(ann, `undelete_expense/${id}`)).body).toEqual({ success: true });
    const restored = (await get(ann, `get_expense/${id}`)).body.expense;
    expect(restored.deleted_at).toBeNull();
    expect((await post(ann, `undelete_expense/${id}`)).body.success).toBe(false);
  });

  it('notifies everyone on the expense, newest first', async () => {
    const all = (await get(ben, 'get_notifications')).body.notifications;
    expect(all.map((n: { type: number }) => n.type)).toEqual([13, 2, 3, 1, 1, 0]);
    const latest = all[0];
    expect(latest).toMatchObject({
      type: 13,
      created_by: ann.user.id,
      source: { type: 'Expense', id, url: null },
      image_shape: 'square',
    });
    expect(latest.content).toContain('restored');
    expect(latest.created_at).toMatch(STAMP);
    expect((await get(ben, 'get_notifications', { limit: 2 })).body.notifications).toHaveLength(2);
    emu.clock.advance(5_000);
    const since = new Date(emu.clock.now().getTime() - 1000).toISOString();
    await post(ben, 'create_comment', { expense_id: id, content: 'later' });
    const fresh = (await get(ann, 'get_notifications', { updated_after: since })).body
      .notifications;
    expect(fresh.map((n: { type: number }) => n.type)).toEqual([3]);
    expect(fresh[0].content).toContain('commented on');
  });
});

describe('payment notifications', () => {
  it("say who paid whom, from each reader's side, and who changed it", async () => {
    const [ann, ben, eve] = await Promise.all([
      someUser(emu.url, 'Ann'),
      someUser(emu.url, 'Ben'),
      someUser(emu.url, 'Eve'),
    ]);
    const payment = (payer: CreatedUser, to: CreatedUser): CallParams => ({
      cost: '6.00',
      currency_code: 'EUR',
      description: 'Payment',
      payment: 'true',
      users__0__user_id: payer.user.id,
      users__0__paid_share: '6.00',
      users__0__owed_share: '0',
      users__1__email: to.user.email,
      users__1__paid_share: '0',
      users__1__owed_share: '6.00',
    });
    const latest = async (u: CreatedUser) =>
      (await get(u, 'get_notifications')).body.notifications[0].content;
    const { id } = await create(ann, payment(ann, ben));
    expect(await latest(ann)).toBe('<strong>You</strong> paid <strong>Ben P.</strong> €6.00.');
    expect(await latest(ben)).toBe('<strong>Ann P.</strong> paid you €6.00.');
    // Eve records what Ben paid her: she is told who recorded it, and Ben is told too.
    const { users__0__user_id: _, ...byEve } = payment(ben, eve);
    await create(eve, {
      ...byEve,
      users__0__email: ben.user.email,
      users__1__user_id: eve.user.id,
      users__1__email: undefined,
    });
    expect(await latest(eve)).toBe(
      '<strong>You</strong> added a payment: <strong>Ben P.</strong> paid you €6.00.',
    );
    expect(await latest(ben)).toBe(
      '<strong>Eve P.</strong> added a payment: <strong>You</strong> paid <strong>Eve P.</strong> €6.00.',
    );
    expect((await post(ben, `delete_expense/${id}`)).body.success).toBe(true);
    expect(await latest(ann)).toBe(
      '<strong>Ben P.</strong> deleted a payment: <strike><strong>You</strong> paid <strong>Ben P.</strong> €6.00</strike>.',
    );
  });
});

describe('get_expenses', () => {
  let ann: CreatedUser;
  let ben: CreatedUser;
  let cat: CreatedUser;
  let groupId: number;
  const ids: number[] = [];
  beforeAll(async () => {
    [ann, ben, cat] = await Promise.all([
      someUser(emu.url, 'Ann'),
      someUser(emu.url, 'Ben'),
      someUser(emu.url, 'Cat'),
    ]);
    groupId = (await post(ann, 'create_group', { name: 'Home', users__0__email: cat.user.email }))
      .body.group.id;
    // 25 expenses dated one day apart, created oldest first; every fifth is in the group.
    for (let i = 0; i < 25; i++) {
      const date = new Date(Date.UTC(2026, 0, 1 + i, 12)).toISOString();
      const params =
        i % 5 === 0
          ? { cost: '3', description: `g${i}`, group_id: groupId, split_equally: true, date }
          : { ...lunch(ann, ben), description: `e${i}`, date };
      ids.push((await create(ann, params)).id);
    }
  });

  const idsOf = (reply: { body: { expenses: { id: number }[] } }) =>
    reply.body.expenses.map((e) => e.id);

  it('returns 20 by default, newest date first', async () => {
    const page = await get(ann, 'get_expenses');
    expect(idsOf(page)).toEqual([...ids].reverse().slice(0, 20));
  });

  it('pages with offset and limit, and limit=0 returns everything', async () => {
    expect(idsOf(await get(ann, 'get_expenses', { limit: 5, offset: 5 }))).toEqual(
      [...ids].reverse().slice(5, 10),
    );
    expect(idsOf(await get(ann, 'get_expenses', { limit: 0 }))).toEqual([...ids].reverse());
    expect(idsOf(await get(ann, 'get_expenses', { limit: 10, offset: 30 }))).toEqual([]);
    expect((await get(ann, 'get_expenses', { limit: -1 })).status).toBe(400);
    expect((await get(ann, 'get_expenses', { offset: 'x' })).status).toBe(400);
  });

  it('filters by group, friend (and the older friendship_id) and dates', async () => {
    const inGroup = ids.filter((_, i) => i % 5 === 0).reverse();
    expect(idsOf(await get(ann, 'get_expenses', { group_id: groupId, limit: 0 }))).toEqual(inGroup);
    expect(idsOf(await get(cat, 'get_expenses', { limit: 0 }))).toEqual(inGroup);
    const withBen = ids.filter((_, i) => i % 5 !== 0).reverse();
    expect(idsOf(await get(ann, 'get_expenses', { friend_id: ben.user.id, limit: 0 }))).toEqual(
      withBen,
    );
    expect(idsOf(await get(ann, 'get_expenses', { friendship_id: ben.user.id, limit: 0 }))).toEqual(
      withBen,
    );
    expect(idsOf(await get(ann, 'get_expenses', { group_id: 0, limit: 0 }))).toEqual(withBen);
    const dated = await get(ann, 'get_expenses', {
      dated_after: '2026-01-10',
      dated_before: '2026-01-12T23:59:59Z',
    });
    expect(idsOf(dated)).toEqual([ids[11], ids[10], ids[9]]);
    expect((await get(ann, 'get_expenses', { dated_after: 'soon' })).status).toBe(400);
  });

  it('filters by updated_after', async () => {
    emu.clock.advance(60_000);
    const since = emu.clock.now().toISOString();
    // Both bounds are inclusive: keep the update out of the millisecond `since` names.
    emu.clock.advance(1_000);
    await post(ann, `update_expense/${ids[3]}`, { description: 'changed' });
    expect(idsOf(await get(ann, 'get_expenses', { updated_after: since }))).toEqual([ids[3]]);
    expect(
      idsOf(await get(ann, 'get_expenses', { updated_before: since, limit: 0 })),
    ).not.toContain(ids[3]);
  });

  it('refuses a group you are not in and an unknown group', async () => {
    expect((await get(ben, 'get_expenses', { group_id: groupId })).status).toBe(403);
    expect((await get(ben, 'get_expenses', { group_id: 1 })).status).toBe(404);
  });
});

describe('receipts', () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

  async function withReceipt(u: CreatedUser, op: string, params: CallParams, name: string) {
    const form = new FormData();
    for (const [key, value] of Object.entries(params)) form.append(key, String(value));
    form.append('receipt', new Blob([png], { type: 'image/png' }), name);
    const response = await fetch(`${emu.url}/api/v3.0/${op}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.api_key}` },
      body: form,
    });
    const body = (await response.json()) as Loose;
    expect(body.errors).toEqual({});
    return body.expenses[0] as Loose;
  }

  const fetchAs = (url: string, authorization?: string) =>
    raw(emu.url, new URL(url).pathname, authorization ? { headers: { authorization } } : {});

  it('stores a multipart receipt and serves it back to the uploader', async () => {
    const [ann, ben] = await Promise.all([someUser(emu.url, 'Ann'), someUser(emu.url, 'Ben')]);
    const { receipt } = await withReceipt(ann, 'create_expense', lunch(ann, ben), 'bill.png');
    expect(receipt.original).toMatch(
      new RegExp(`^${emu.url}/__emulator/receipts/[A-Za-z0-9_-]{22}/bill\\.png$`),
    );
    expect(receipt.large).toBe(receipt.original);
    const served = await fetchAs(receipt.large, `Bearer ${ann.api_key}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('serves one only with the credentials of someone who may see its expense, never by a guessed id', async () => {
    const [ann, ben, cat] = await Promise.all([
      someUser(emu.url, 'Ann'),
      someUser(emu.url, 'Ben'),
      someUser(emu.url, 'Cat'),
    ]);
    const expense = await withReceipt(ann, 'create_expense', lunch(ann, ben), 'bill.png');
    const url: string = expense.receipt.original;

    const anonymous = await fetchAs(url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'Invalid API request: you are not logged in' });
    expect((await fetchAs(url, 'Bearer not-a-key')).status).toBe(401);
    expect((await fetchAs(url, `Bearer ${cat.api_key}`)).status).toBe(404);
    // The ids a counter would try, and a key of the right shape that was never handed out.
    for (const guess of ['1', '2', String(expense.id), 'A'.repeat(22)]) {
      const guessed = await raw(emu.url, `/__emulator/receipts/${guess}/bill.png`, {
        headers: { authorization: `Bearer ${ann.api_key}` },
      });
      expect(guessed.status, guess).toBe(404);
    }

    expect((await fetchAs(url, `Bearer ${ann.api_key}`)).status).toBe(200);
    // Ben is on the expense; an OAuth token of Ann's works as her API key does.
    expect((await fetchAs(url, `Bearer ${ben.api_key}`)).status).toBe(200);
    const app = (
      await raw(emu.url, '/__emulator/apps', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uri: 'http://app.test/cb' }),
      })
    ).body as { client_id: string };
    const token = (
      await raw(emu.url, '/__emulator/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: ann.user.id, client_id: app.client_id }),
      })
    ).body as { access_token: string };
    expect((await fetchAs(url, `Bearer ${token.access_token}`)).status).toBe(200);

    // A receipt replaced by a newer one is no longer served.
    const updated = await withReceipt(ann, `update_expense/${expense.id}`, {}, 'new.png');
    expect(updated.receipt.original).not.toBe(url);
    expect((await fetchAs(url, `Bearer ${ann.api_key}`)).status).toBe(404);
    expect((await fetchAs(updated.receipt.original, `Bearer ${ben.api_key}`)).status).toBe(200);
  });
});

describe('moving expenses and deleted groups', () => {
  it('re-expresses amounts on a currency change and moves an expense between groups', async () => {
    const [ann, ben] = await Promise.all([someUser(emu.url, 'Ann'), someUser(emu.url, 'Ben')]);
    const trip = (
      await post(ann, 'create_group', { name: 'Trip', users__0__email: ben.user.email })
    ).body.group.id;
    const e = await create(ann, {
      cost: '1000',
      description: 'Sushi',
      group_id: trip,
      split_equally: true,
    });
    const yen = await post(ann, `update_expense/${e.id}`, { currency_code: 'JPY' });
    expect(yen.body.expenses[0]).toMatchObject({ cost: '1000.0', currency_code: 'JPY' });
    const cents = await post(ann, `update_expense/${e.id}`, { currency_code: 'EUR' });
    expect(cents.body.expenses[0]).toMatchObject({ cost: '1000.0', currency_code: 'EUR' });
    const odd = await create(ann, {
      cost: '10.01',
      description: 'x',
      group_id: trip,
      split_equally: true,
    });
    const refused = await post(ann, `update_expense/${odd.id}`, { currency_code: 'JPY' });
    expect(refused.body.expenses).toEqual([]);
    const moved = await post(ann, `update_expense/${e.id}`, { group_id: 0 });
    expect(moved.body.expenses[0]).toMatchObject({ group_id: null, friendship_id: null });
    const comments = (await get(ann, 'get_comments', { expense_id: e.id })).body.comments;
    expect(comments.at(-1).content).toContain(
      '- The group changed from Trip to Non-group expenses',
    );
    expect(comments[0].content).toContain('- The currency changed from USD to JPY');
  });

  it('lists the expenses of a deleted group unless visible=true, and leaves them out of balances', async () => {
    const [ann, ben] = await Promise.all([someUser(emu.url, 'Ann'), someUser(emu.url, 'Ben')]);
    const flat = (
      await post(ann, 'create_group', { name: 'Flat', users__0__email: ben.user.email })
    ).body.group.id;
    const e = await create(ann, {
      cost: '50',
      description: 'Rent',
      group_id: flat,
      split_equally: true,
    });
    expect((await get(ann, `get_friend/${ben.user.id}`)).body.friend.balance).toEqual([
      { currency_code: 'USD', amount: '25.0' },
    ]);
    expect((await post(ann, `delete_group/${flat}`)).body).toEqual({ success: true });
    const ids = async (params: CallParams) =>
      (await get(ben, 'get_expenses', params)).body.expenses.map((x: { id: number }) => x.id);
    expect(await ids({})).toEqual([e.id]);
    expect(await ids({ visible: true })).toEqual([]);
    const friend = (await get(ann, `get_friend/${ben.user.id}`)).body.friend;
    expect(friend.balance).toEqual([]);
    expect(friend.groups).toEqual([{ group_id: 0, balance: [] }]);
    await post(ben, `undelete_group/${flat}`);
    expect((await get(ann, `get_friend/${ben.user.id}`)).body.friend.balance).toEqual([
      { currency_code: 'USD', amount: '25.0' },
    ]);
  });
});
