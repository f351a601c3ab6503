/**
 * Users, friends, groups and reference data over real HTTP: success shapes and every refusal.
 */

import {
  actingAs,
  type CreatedUser,
  call,
  FORBIDDEN,
  NOT_FOUND,
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

const unique = (name: string) =>
  `${name}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 7)}@example.com`;

describe('reference data', () => {
  it('serves currencies and categories without credentials', async () => {
    const currencies = await call(emu.url, undefined, 'GET', 'get_currencies');
    expect(currencies.status).toBe(200);
    expect(currencies.body.currencies).toContainEqual({ currency_code: 'JPY', unit: '¥' });
    expect(currencies.body.currencies[0].currency_code).toBe('AED');
    const categories = (await call(emu.url, undefined, 'GET', 'get_categories')).body.categories;
    const general = categories.find((c: { id: number }) => c.id === 2);
    expect(general).toMatchObject({ name: 'Uncategorized', colors: { light: expect.any(String) } });
    expect(general.subcategories[0]).toMatchObject({
      id: 18,
      name: 'General',
      icon: expect.any(String),
    });
    expect(Object.keys(general.icon_types)).toEqual(
      expect.arrayContaining(['slim', 'square', 'transparent', 'filled_color_dark']),
    );
  });

  it('answers 401 with the real body without credentials', async () => {
    const reply = await call(emu.url, undefined, 'GET', 'get_current_user');
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ error: 'Invalid API request: you are not logged in' });
  });
});

describe('users', () => {
  let ann: CreatedUser;
  let ben: CreatedUser;
  let sam: CreatedUser;
  beforeAll(async () => {
    [ann, ben, sam] = await Promise.all([
      someUser(emu.url, 'Ann'),
      someUser(emu.url, 'Ben'),
      someUser(emu.url, 'Sam'),
    ]);
    await post(ann, 'create_friend', { user_email: ben.user.email });
  });

  it('describes the caller as a CurrentUser', async () => {
    const { user } = (await get(ann, 'get_current_user')).body;
    expect(user).toMatchObject({
      id: ann.user.id,
      first_name: 'Ann',
      registration_status: 'confirmed',
      custom_picture: false,
      default_currency: 'USD',
      locale: 'en',
      default_group_id: -1,
      force_refresh_at: null,
      notifications_count: 1,
      notifications: { expense_added: true, added_as_friend: true },
    });
    expect(Object.keys(user.picture)).toEqual(['small', 'medium', 'large']);
  });

  it('shows acquaintances, refuses strangers (403) and unknown ids (404)', async () => {
    const friend = await get(ann, `get_user/${ben.user.id}`);
    expect(friend.status).toBe(200);
    expect(Object.keys(friend.body.user).sort()).toEqual([
      'custom_picture',
      'email',
      'first_name',
      'id',
      'last_name',
      'picture',
      'registration_status',
    ]);
    expect(await get(ann, `get_user/${sam.user.id}`)).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
    expect(await get(ann, 'get_user/1')).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await get(ann, 'get_user/abc')).status).toBe(404);
  });

  it('lets people edit their own account, by path id or body id', async () => {
    const byPath = await post(ann, `update_user/${ann.user.id}`, {
      first_name: 'Annie',
      default_currency: 'EUR',
    });
    expect(byPath.status).toBe(200);
    expect(byPath.body.user).toMatchObject({ first_name: 'Annie', default_currency: 'EUR' });
    const byBody = await post(ann, 'update_user', {
      id: ann.user.id,
      last_name: 'Smith',
      notification_settings__bills: false,
    });
    expect(byBody.body.user).toMatchObject({
      first_name: 'Annie',
      last_name: 'Smith',
      notifications: { bills: false },
    });
  });

  it('lets acquaintances rename a dummy user, and nothing more', async () => {
    const email = unique('dummy');
    const created = await post(ann, 'create_friend', { user_email: email, user_first_name: 'Dum' });
    const dummyId = created.body.friend.id;
    const renamed = await post(ann, `update_user/${dummyId}`, {
      first_name: 'Dee',
      last_name: 'Mee',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.user).toMatchObject({
      first_name: 'Dee',
      last_name: 'Mee',
      registration_status: 'dummy',
    });
    expect((await post(ann, `update_user/${dummyId}`, { default_currency: 'EUR' })).status).toBe(
      403,
    );
    expect(await post(ann, `update_user/${ben.user.id}`, { first_name: 'X' })).toMatchObject({
      status: 403,
      body: FORBIDDEN,
    });
    expect((await post(sam, `update_user/${dummyId}`, { first_name: 'X' })).status).toBe(403);
    expect((await post(ann, 'update_user/1', { first_name: 'X' })).status).toBe(404);
  });

  it('refuses a taken e-mail with 200 and errors, and unknown fields with 400', async () => {
    const taken = await post(ann, `update_user/${ann.user.id}`, { email: ben.user.email });
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual({ user: null, errors: { base: ['Email has already been taken'] } });
    const stray = await post(ann, `update_user/${ann.user.id}`, { nickname: 'a' });
    expect(stray.status).toBe(400);
    expect(stray.body).toEqual({ errors: { base: ['Unrecognized parameter `nickname`'] } });
    expect((await get(ann, 'get_current_user')).body.user.email).toBe(ann.user.email);
  });
});

describe('friends', () => {
  it('creates, lists, shows and deletes friends', async () => {
    const [ann, ben] = await Promise.all([someUser(emu.url, 'Ann'), someUser(emu.url, 'Ben')]);
    const existing = await post(ann, 'create_friend', {
      user_email: ben.user.email,
      user_first_name: 'Ignored',
    });
    expect(existing.status).toBe(200);
    expect(existing.body.friend).toMatchObject({
      id: ben.user.id,
      first_name: 'Ben',
      balance: [],
      groups: [{ group_id: 0, balance: [] }],
      updated_at: expect.stringMatching(/Z$/),
    });
    const email = unique('newbie');
    const invited = await post(ann, 'create_friend', {
      user_email: email,
      user_first_name: 'New',
      user_last_name: 'Bie',
    });
    expect(invited.body.friend).toMatchObject({
      email,
      registration_status: 'dummy',
      last_name: 'Bie',
    });
    expect((await get(ann, 'get_friends')).body.friends.map((f: { id: number }) => f.id)).toEqual([
      ben.user.id,
      invited.body.friend.id,
    ]);
    expect((await get(ben, `get_friend/${ann.user.id}`)).body.friend.id).toBe(ann.user.id);
    const notifications = (await get(ben, 'get_notifications')).body.notifications;
    expect(notifications[0]).toMatchObject({ type: 8, created_by: ann.user.id });
    expect(await post(ann, `delete_friend/${ben.user.id}`)).toMatchObject({
      status: 200,
      body: { success: true, error: null },
    });
    expect((await get(ann, 'get_friends')).body.friends).toHaveLength(1);
    const again = await post(ann, `delete_friend/${ben.user.id}`);
    expect(again.body.success).toBe(false);
    expect(again.body.errors.base[0]).toBe('There was an issue deleting that friendship');
    expect((await post(ann, 'delete_friend/1')).status).toBe(404);
    expect((await get(ann, `get_friend/${ben.user.id}`)).status).toBe(403);
  });

  it('refuses a friend without a name or an e-mail, and yourself', async () => {
    const ann = await someUser(emu.url, 'Ann');
    const noName = await post(ann, 'create_friend', { user_email: unique('x') });
    expect(noName.status).toBe(400);
    expect(noName.body.errors.base).toEqual(['Please supply a name for this user']);
    expect(
      (await post(ann, 'create_friend', { user_email: 'not-an-email', user_first_name: 'X' }))
        .status,
    ).toBe(400);
    expect((await post(ann, 'create_friend', { user_email: ann.user.email })).status).toBe(400);
    expect((await get(ann, 'get_friends')).body.friends).toEqual([]);
  });

  it('creates several friends with users__ or friends__ keys, all or nothing', async () => {
    const ann = await someUser(emu.url, 'Ann');
    const bad = await post(ann, 'create_friends', {
      users__0__email: unique('a'),
      users__0__first_name: 'A',
      users__1__email: unique('b'),
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { users: [], errors: { base: ['Please supply a name for this user'] } },
    });
    expect((await get(ann, 'get_friends')).body.friends).toEqual([]);
    const good = await post(ann, 'create_friends', {
      users__0__email: unique('a'),
      users__0__first_name: 'A',
      friends__0__user_email: unique('b'),
      friends__0__user_first_name: 'B',
    });
    expect(good.status).toBe(200);
    expect(good.body.errors).toEqual({});
    expect(good.body.users.map((u: { first_name: string }) => u.first_name)).toEqual(['A', 'B']);
    expect((await post(ann, 'create_friends', { users__0__nickname: 'x' })).status).toBe(400);
  });
});

describe('groups', () => {
  let ann: CreatedUser;
  let ben: CreatedUser;
  let cat: CreatedUser;
  let sam: CreatedUser;
  beforeAll(async () => {
    [ann, ben, cat, sam] = await Promise.all([
      someUser(emu.url, 'Ann'),
      someUser(emu.url, 'Ben'),
      someUser(emu.url, 'Cat'),
      someUser(emu.url, 'Sam'),
    ]);
    await post(ann, 'create_friends', {
      users__0__email: ben.user.email,
      users__1__email: cat.user.email,
    });
  });

  it('creates a group with members by user_id, id and e-mail', async () => {
    const email = unique('guest');
    const reply = await post(ann, 'create_group', {
      name: 'Ski trip',
      group_type: 'trip',
      simplify_by_default: 'True',
      whiteboard: 'Bring gloves',
      users__0__user_id: ben.user.id,
      users__1__id: cat.user.id,
      users__2__email: email,
      users__2__first_name: 'Gus',
    });
    expect(reply.status).toBe(200);
    const { group } = reply.body;
    expect(reply.body.metadata).toEqual({});
    expect(group).toMatchObject({
      name: 'Ski trip',
      group_type: 'trip',
      simplify_by_default: true,
      whiteboard: 'Bring gloves',
      original_debts: [],
      simplified_debts: [],
      custom_avatar: false,
      group_reminders: null,
    });
    expect(group.members.map((m: { first_name: string }) => m.first_name)).toEqual([
      'Ann',
      'Ben',
      'Cat',
      'Gus',
    ]);
    expect(group.members[3]).toMatchObject({ email, registration_status: 'dummy', balance: [] });
    expect(group.invite_link).toMatch(/^https:\/\/www\.splitwise\.com\/join\//);
    // Members of one group are friends with each other.
    const catFriends = (await get(cat, 'get_friends')).body.friends.map(
      (f: { first_name: string }) => f.first_name,
    );
    expect(catFriends).toEqual(expect.arrayContaining(['Ann', 'Ben', 'Gus']));
    const created = (await get(ben, 'get_notifications')).body.notifications[0];
    expect(created).toMatchObject({
      type: 4,
      source: { type: 'Group', id: group.id },
      image_shape: 'circle',
    });
  });

  it('reports field errors inside the group, and unknown user ids with 400', async () => {
    const blank = await post(ann, 'create_group', { name: ' ' });
    expect(blank.status).toBe(200);
    expect(blank.body.group).toMatchObject({ id: null, errors: { name: ["can't be blank"] } });
    const badType = await post(ann, 'create_group', { name: 'x', group_type: 'castle' });
    expect(badType.body.group.errors).toEqual({ group_type: ['is not included in the list'] });
    const unknown = await post(ann, 'create_group', { name: 'x', users__0__user_id: 1 });
    expect(unknown).toMatchObject({
      status: 400,
      body: { errors: { base: ['You cannot add unknown users to a group by user_id'] } },
    });
    const stranger = await post(ann, 'create_group', { name: 'x', users__0__user_id: sam.user.id });
    expect(stranger.status).toBe(400);
    const noName = await post(ann, 'create_group', { name: 'x', users__0__email: unique('n') });
    expect(noName.body.group.errors).toEqual({ 'memberships.user.first_name': ["can't be blank"] });
    expect(
      (await get(ann, 'get_groups')).body.groups.map((g: { name: string }) => g.name),
    ).not.toContain('x');
  });

  it('lists the non-group pseudo-group first and guards membership', async () => {
    const id = (
      await post(ann, 'create_group', {
        name: 'Flat',
        group_type: 'home',
        users__0__user_id: ben.user.id,
      })
    ).body.group.id;
    const groups = (await get(ann, 'get_groups')).body.groups;
    expect(groups[0]).toMatchObject({
      id: 0,
      name: 'Non-group expenses',
      simplify_by_default: false,
    });
    expect(groups.map((g: { id: number }) => g.id)).toContain(id);
    expect(
      (await get(ann, 'get_group/0')).body.group.members.map((m: { id: number }) => m.id),
    ).toEqual([ann.user.id]);
    expect(await get(sam, `get_group/${id}`)).toMatchObject({ status: 403, body: FORBIDDEN });
    expect(await get(sam, 'get_group/1')).toMatchObject({ status: 404, body: NOT_FOUND });
    expect((await post(sam, `delete_group/${id}`)).status).toBe(403);
  });

  it('adds and removes members', async () => {
    const id = (await post(ann, 'create_group', { name: 'Band' })).body.group.id;
    const byId = await post(ann, 'add_user_to_group', { group_id: id, user_id: ben.user.id });
    expect(byId.body).toMatchObject({
      success: true,
      errors: {},
      user: { id: ben.user.id, balance: [] },
    });
    const email = unique('drummer');
    const byEmail = await post(ann, 'add_user_to_group', {
      group_id: id,
      email,
      first_name: 'Dru',
      last_name: 'M',
    });
    expect(byEmail.body.user).toMatchObject({ email, registration_status: 'dummy' });
    const refused = await post(ann, 'add_user_to_group', { group_id: id, user_id: sam.user.id });
    expect(refused.body).toEqual({
      success: false,
      user: null,
      errors: { base: ['That user cannot be a member of this group'] },
    });
    const noName = await post(ann, 'add_user_to_group', { group_id: id, email: unique('z') });
    expect(noName.body).toEqual({
      success: false,
      user: null,
      errors: { 'memberships.user.first_name': ["can't be blank"] },
    });
    expect(
      (await post(sam, 'add_user_to_group', { group_id: id, user_id: sam.user.id })).status,
    ).toBe(403);
    expect(
      (await post(ann, 'add_user_to_group', { group_id: 1, user_id: ben.user.id })).status,
    ).toBe(404);
    const removed = await post(ann, 'remove_user_from_group', {
      group_id: id,
      user_id: byEmail.body.user.id,
    });
    expect(removed.body).toEqual({ success: true, errors: {} });
    const again = await post(ann, 'remove_user_from_group', {
      group_id: id,
      user_id: byEmail.body.user.id,
    });
    expect(again.body.success).toBe(false);
    const members = (await get(ben, `get_group/${id}`)).body.group.members.map(
      (m: { id: number }) => m.id,
    );
    expect(members).toEqual([ann.user.id, ben.user.id]);
  });

  it('deletes and undeletes a group softly', async () => {
    const id = (await post(ann, 'create_group', { name: 'Old', users__0__user_id: ben.user.id }))
      .body.group.id;
    expect((await post(ben, `delete_group/${id}`)).body).toEqual({ success: true });
    expect(
      (await get(ann, 'get_groups')).body.groups.map((g: { id: number }) => g.id),
    ).not.toContain(id);
    expect((await get(ann, `get_group/${id}`)).status).toBe(404);
    expect((await post(ann, `delete_group/${id}`)).body.success).toBe(false);
    expect((await post(sam, `undelete_group/${id}`)).body).toEqual({
      success: false,
      errors: ['You do not have permission to undelete this group.'],
    });
    expect((await post(ann, `undelete_group/${id}`)).body).toEqual({ success: true });
    expect((await get(ann, `get_group/${id}`)).body.group.name).toBe('Old');
    const types = (await get(ben, 'get_notifications', { limit: 2 })).body.notifications.map(
      (n: { type: number }) => n.type,
    );
    expect(types).toEqual([12, 6]);
  });
});

describe('the demo data set', () => {
  it('seeds people, groups, expenses and a comment', async () => {
    const { users } = emu.ledger.seedDemo();
    expect(users.map((u) => u.first_name)).toEqual(['Ada', 'Grace', 'Alan']);
    const ada = users[0]!;
    const result = emu.ledger.handle({
      op: 'get_groups',
      method: 'GET',
      params: {},
      files: [],
      actorId: ada.id,
    });
    const groups = (result.body as { groups: { name: string; simplify_by_default: boolean }[] })
      .groups;
    expect(groups.map((g) => g.name)).toEqual(['Non-group expenses', 'Lisbon trip', 'Flat 4B']);
    expect(groups[1]!.simplify_by_default).toBe(true);
    expect(emu.ledger.seedDemo().users.map((u) => u.id)).toEqual(users.map((u) => u.id));
  });
});
