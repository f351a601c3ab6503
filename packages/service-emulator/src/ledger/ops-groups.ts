/** Groups: get_groups, get_group, create_group, delete/undelete_group, add/remove members. */
import type { ApiResult } from '../types.js';
import { type Ctx, ok } from './ctx.js';
import { GROUP_TYPES, type GroupRecord, type GroupType, type UserRecord } from './model.js';
import {
  badRequest,
  boolParam,
  flattened,
  forbidden,
  intParam,
  isEmail,
  isFlatKey,
  notFound,
  pathIdOf,
  rejectUnknown,
} from './params.js';
import { balanceList, groupShape, nonGroupShape, userShape } from './shapes.js';
import type { State } from './state.js';
import { escapeHtml, nameFor } from './text.js';

export function getGroups({ state, actor }: Ctx): ApiResult {
  const groups = [...state.groupsOf(actor.id)]
    .map((id) => state.groups.get(id)!)
    .filter((g) => g.deleted_at === null)
    .sort((a, b) => a.id - b.id)
    .map((g) => groupShape(state, g));
  return ok({ groups: [nonGroupShape(state, actor.id), ...groups] });
}

/** A live group the actor belongs to: 404 when unknown or deleted, 403 when not a member. */
export function memberGroup(state: State, actor: UserRecord, id: number | undefined): GroupRecord {
  const group = id === undefined ? undefined : state.groups.get(id);
  if (!group || group.deleted_at !== null) throw notFound();
  if (!state.isMember(actor.id, group)) throw forbidden();
  return group;
}

export function getGroup({ state, actor, pathId }: Ctx): ApiResult {
  const id = pathIdOf(pathId);
  if (id === 0) return ok({ group: nonGroupShape(state, actor.id) });
  return ok({ group: groupShape(state, memberGroup(state, actor, id)) });
}

/** A person to add: an existing user by id, or an e-mail (existing or to invite) with names. */
type Person =
  | { kind: 'user'; user: UserRecord }
  | { kind: 'new'; email: string; first_name: string; last_name: string | null };

/** Field errors in the service's create_group/add_user_to_group style. */
type FieldErrors = Record<string, string[]>;

function personFromEmail(
  state: State,
  row: {
    email?: string | undefined;
    first_name?: string | undefined;
    last_name?: string | undefined;
  },
  errors: FieldErrors,
): Person | undefined {
  const email = row.email?.trim() ?? '';
  if (!isEmail(email)) {
    errors['memberships.user.email'] = ['is invalid'];
    return undefined;
  }
  const existing = state.userByEmail(email);
  if (existing) return { kind: 'user', user: existing };
  if (!row.first_name?.trim()) {
    errors['memberships.user.first_name'] = ["can't be blank"];
    return undefined;
  }
  return {
    kind: 'new',
    email,
    first_name: row.first_name.trim(),
    last_name: row.last_name?.trim() || null,
  };
}

function materialize(state: State, person: Person): UserRecord {
  if (person.kind === 'user') return person.user;
  return state.userByEmail(person.email) ?? state.addUser({ ...person, status: 'dummy' });
}

/** Adds a member (joined last), befriending every other member. */
function join(state: State, group: GroupRecord, user: UserRecord, at: number): void {
  if (state.isMember(user.id, group)) return;
  for (const other of group.members) state.befriend(user.id, other, at);
  group.members.push(user.id);
  state.groupsOf(user.id).add(group.id);
}

const MEMBER_FIELDS = new Set(['user_id', 'id', 'first_name', 'last_name', 'email']);
const GROUP_FIELDS = new Set([
  'name',
  'group_type',
  'simplify_by_default',
  'whiteboard',
  'country_code',
]);

function failedGroup(errors: FieldErrors) {
  return {
    group: {
      id: null,
      name: null,
      created_at: null,
      updated_at: null,
      members: [],
      simplify_by_default: false,
      original_debts: [],
      simplified_debts: [],
      whiteboard: null,
      group_type: null,
      errors,
    },
  };
}

export function createGroup({ state, actor, params }: Ctx): ApiResult {
  rejectUnknown(params, (key) => GROUP_FIELDS.has(key) || isFlatKey(key, 'users', MEMBER_FIELDS));
  const simplify = boolParam(params, 'simplify_by_default') ?? false;
  const rows = flattened(params, 'users');
  const errors: FieldErrors = {};
  const people: Person[] = [];
  for (const [index, row] of rows) {
    const idText = row.user_id ?? row.id;
    if (idText !== undefined && idText.trim() !== '') {
      const id = intParam({ [`users__${index}__user_id`]: idText }, `users__${index}__user_id`)!;
      const user = state.users.get(id);
      if (!user || !state.acquainted(actor.id, id)) {
        throw badRequest('You cannot add unknown users to a group by user_id');
      }
      people.push({ kind: 'user', user });
    } else {
      const person = personFromEmail(state, row, errors);
      if (person) people.push(person);
    }
  }
  const name = params.name?.trim() ?? '';
  if (name === '') errors.name = ["can't be blank"];
  const groupType = params.group_type?.trim() || 'other';
  if (!GROUP_TYPES.has(groupType)) errors.group_type = ['is not included in the list'];
  if (Object.keys(errors).length > 0) return ok(failedGroup(errors));

  const now = state.now();
  const group: GroupRecord = {
    id: state.next('group'),
    name,
    group_type: groupType as GroupType,
    simplify_by_default: simplify,
    whiteboard: params.whiteboard ?? null,
    whiteboard_updated_at: params.whiteboard ? now : null,
    whiteboard_updated_by: params.whiteboard ? actor.id : null,
    whiteboard_lock_version: params.whiteboard ? 1 : 0,
    country_code: params.country_code?.trim().toUpperCase() || null,
    invite_token: state.randomToken(9),
    members: [],
    created_at: now,
    updated_at: now,
    deleted_at: null,
    deleted_by: null,
  };
  state.groups.set(group.id, group);
  join(state, group, actor, now);
  for (const person of people) join(state, group, materialize(state, person), now);
  state.notify(
    group.members,
    {
      type: 4,
      created_by: actor.id,
      source: { type: 'Group', id: group.id },
      image_shape: 'circle',
    },
    (reader) =>
      reader === actor.id
        ? `<strong>You</strong> created the group <strong>“${escapeHtml(group.name)}”</strong>.`
        : `<strong>${nameFor(state, reader, actor.id)}</strong> added you to the group <strong>“${escapeHtml(group.name)}”</strong>.`,
  );
  return ok({ group: groupShape(state, group), metadata: {} });
}

export function deleteGroup({ state, actor, pathId }: Ctx): ApiResult {
  const group = state.groups.get(pathIdOf(pathId));
  if (!group) throw notFound();
  if (!state.isMember(actor.id, group)) throw forbidden();
  if (group.deleted_at !== null) {
    return ok({ success: false, errors: { base: ['This group has already been deleted'] } });
  }
  const now = state.now();
  group.deleted_at = now;
  group.deleted_by = actor.id;
  group.updated_at = now;
  state.notify(
    group.members,
    {
      type: 6,
      created_by: actor.id,
      source: { type: 'Group', id: group.id },
      image_shape: 'circle',
    },
    (reader) =>
      `<strong>${nameFor(state, reader, actor.id)}</strong> deleted the group <strike>“${escapeHtml(group.name)}”</strike>.`,
  );
  return ok({ success: true });
}

export function undeleteGroup({ state, actor, pathId }: Ctx): ApiResult {
  const group = state.groups.get(pathIdOf(pathId));
  if (!group) throw notFound();
  if (!state.isMember(actor.id, group)) {
    return ok({ success: false, errors: ['You do not have permission to undelete this group.'] });
  }
  if (group.deleted_at === null)
    return ok({ success: false, errors: ['This group is not deleted.'] });
  group.deleted_at = null;
  group.deleted_by = null;
  group.updated_at = state.now();
  state.notify(
    group.members,
    {
      type: 12,
      created_by: actor.id,
      source: { type: 'Group', id: group.id },
      image_shape: 'circle',
    },
    (reader) =>
      `<strong>${nameFor(state, reader, actor.id)}</strong> restored the group <strong>“${escapeHtml(group.name)}”</strong>.`,
  );
  return ok({ success: true });
}

export function addUserToGroup({ state, actor, params }: Ctx): ApiResult {
  rejectUnknown(params, (k) =>
    ['group_id', 'user_id', 'first_name', 'last_name', 'email'].includes(k),
  );
  const groupId = intParam(params, 'group_id');
  const userId = intParam(params, 'user_id');
  const group = memberGroup(state, actor, groupId);
  const failure = (errors: Record<string, string[]>) => ok({ success: false, user: null, errors });
  let person: Person | undefined;
  if (userId !== undefined) {
    const user = state.users.get(userId);
    if (!user || !state.acquainted(actor.id, user.id)) {
      return failure({ base: ['That user cannot be a member of this group'] });
    }
    person = { kind: 'user', user };
  } else {
    const errors: FieldErrors = {};
    if (params.email === undefined) {
      return failure({ base: ['Please supply a user_id, or an email and a first_name'] });
    }
    person = personFromEmail(state, params, errors);
    if (!person) return failure(errors);
  }
  const now = state.now();
  const user = materialize(state, person);
  const isNew = !state.isMember(user.id, group);
  if (isNew) {
    join(state, group, user, now);
    group.updated_at = now;
    state.notify(
      group.members,
      {
        type: 4,
        created_by: actor.id,
        source: { type: 'Group', id: group.id },
        image_shape: 'circle',
      },
      (reader) => {
        const who = `<strong>${nameFor(state, reader, actor.id)}</strong>`;
        const where = `<strong>“${escapeHtml(group.name)}”</strong>`;
        return reader === user.id
          ? `${who} added you to the group ${where}.`
          : `${who} added <strong>${nameFor(state, reader, user.id)}</strong> to the group ${where}.`;
      },
    );
  }
  const balance = balanceList(state.ledgers.get(group.id)?.nets.get(user.id) ?? new Map(), true);
  return ok({ success: true, user: { ...userShape(user), balance }, errors: {} });
}

export function removeUserFromGroup({ state, actor, params }: Ctx): ApiResult {
  rejectUnknown(params, (k) => k === 'group_id' || k === 'user_id');
  const groupId = intParam(params, 'group_id');
  const userId = intParam(params, 'user_id');
  const group = memberGroup(state, actor, groupId);
  const failure = (message: string) => ok({ success: false, errors: { base: [message] } });
  const user = userId === undefined ? undefined : state.users.get(userId);
  if (!user || !state.isMember(user.id, group)) {
    return failure('That user is not a member of this group');
  }
  if (state.ledgers.get(group.id)?.hasBalance(user.id))
    return failure('The user has a non-zero balance');
  const recipients = [...group.members];
  group.members = group.members.filter((id) => id !== user.id);
  state.groupsOf(user.id).delete(group.id);
  group.updated_at = state.now();
  state.notify(
    recipients,
    {
      type: 5,
      created_by: actor.id,
      source: { type: 'Group', id: group.id },
      image_shape: 'circle',
    },
    (reader) => {
      const who = `<strong>${nameFor(state, reader, actor.id)}</strong>`;
      const where = `<strong>“${escapeHtml(group.name)}”</strong>`;
      if (reader === user.id && user.id !== actor.id)
        return `${who} removed you from the group ${where}.`;
      if (user.id === actor.id) return `${who} left the group ${where}.`;
      return `${who} removed <strong>${nameFor(state, reader, user.id)}</strong> from the group ${where}.`;
    },
  );
  return ok({ success: true, errors: {} });
}
