/**
 * Groups: the group with its members and debts as the service sends it, and get_groups,
 * get_group, create_group, add_user_to_group, remove_user_from_group, delete_group.
 */
import { type PersonRef, put } from '../encode.js';
import { normaliseErrors, type ServiceErrors, ServiceInputException } from '../errors.js';
import { type Encoder, type NoInput, type Operation, people, type Reader } from '../operation.js';
import {
  asRecord,
  isObjectWithId,
  outcome,
  resource,
  type SuccessResult,
  succeeded,
} from '../results.js';
import type { Balance } from './friends.js';
import type { User } from './users.js';

/** `from` owes `to`. */
export interface Debt {
  from: number;
  to: number;
  amount: string;
  currency_code: string;
}

/** A group member: a user with their net position in the group (positive = is owed). */
export interface GroupMember extends User {
  balance: Balance[];
}

export type GroupType = 'home' | 'trip' | 'couple' | 'other' | 'apartment' | 'house';

export interface Group {
  id: number;
  name: string;
  created_at?: string;
  updated_at?: string;
  members: GroupMember[];
  simplify_by_default?: boolean;
  original_debts: Debt[];
  simplified_debts: Debt[];
  whiteboard?: string | null;
  whiteboard_lock_version?: number;
  whiteboard_updated_at?: string | null;
  whiteboard_updated_by?: number | null;
  group_type?: GroupType | string;
  invite_link?: string;
  group_reminders?: unknown;
  avatar?: Record<string, string | null>;
  tall_avatar?: Record<string, string | null>;
  custom_avatar?: boolean;
  cover_photo?: Record<string, string | null>;
  country_code?: string;
}

export interface NewGroup {
  name: string;
  group_type?: GroupType;
  simplify_by_default?: boolean;
  whiteboard?: string;
  country_code?: string;
  /** Members besides the caller, who is added automatically. */
  users?: PersonRef[];
}

/** The group when the service created it; else `errors` says why. */
export type GroupResult = { group?: Group; errors: ServiceErrors };

/** Whether the person was added, and the member as the group now has them. */
export type MemberResult = { success: boolean; user?: GroupMember; errors: ServiceErrors };

export const getGroups: Operation<NoInput, Group[]> = {
  name: 'getGroups',
  method: 'GET',
  path: 'get_groups',
  read: resource('groups'),
};

/** Group 0 is the pseudo-group of non-group expenses. */
export const getGroup: Operation<{ id: number }, Group> = {
  name: 'getGroup',
  method: 'GET',
  path: 'get_group/{id}',
  read: resource('group'),
};

const createdGroup: Reader<GroupResult> = (body, ctx) => {
  const created = asRecord(asRecord(body).group);
  // The service has reported create_group failures inside the group object, its id null.
  const nested = normaliseErrors({ errors: created.errors });
  const { ok, errors } = outcome(body, ctx, isObjectWithId(created), nested);
  if (!ok) return { errors };
  const { errors: _nested, ...made } = created;
  return { group: made as unknown as Group, errors };
};

/** The caller becomes a member without being listed. */
export const createGroup: Operation<NewGroup, GroupResult> = {
  name: 'createGroup',
  method: 'POST',
  path: 'create_group',
  params: [
    { field: 'name', required: true },
    { field: 'group_type' },
    { field: 'simplify_by_default' },
    { field: 'whiteboard' },
    { field: 'country_code' },
    { field: 'users', encode: people },
  ],
  read: createdGroup,
};

/** add_user_to_group names the person with bare keys, not `users__N__` ones. */
const member: Encoder = (pairs, _name, value, ctx) => {
  const p = value as Partial<{
    user_id: number | null;
    email: string;
    first_name: string;
    last_name: string | null;
  }>;
  if (p.user_id !== undefined && p.user_id !== null) {
    put(pairs, 'user_id', p.user_id);
    return;
  }
  if (!p.email || !p.first_name) {
    throw new ServiceInputException(
      `${ctx.operation}: a person needs a user_id, or an email and a first_name`,
    );
  }
  put(pairs, 'first_name', p.first_name);
  put(pairs, 'last_name', p.last_name);
  put(pairs, 'email', p.email);
};

const membership: Reader<MemberResult> = (body, ctx) => {
  const record = asRecord(body);
  const { ok, errors } = outcome(body, ctx, record.success === true);
  if (!ok) return { success: false, errors };
  return isObjectWithId(record.user)
    ? { success: true, user: record.user as GroupMember, errors }
    : { success: true, errors };
};

export const addUserToGroup: Operation<{ user: PersonRef; group_id: number }, MemberResult> = {
  name: 'addUserToGroup',
  method: 'POST',
  path: 'add_user_to_group',
  params: [{ field: 'group_id' }, { field: 'user', encode: member }],
  read: membership,
};

/** The service refuses while the person's balance in the group is not zero. */
export const removeUserFromGroup: Operation<{ user_id: number; group_id: number }, SuccessResult> =
  {
    name: 'removeUserFromGroup',
    method: 'POST',
    path: 'remove_user_from_group',
    params: [{ field: 'group_id' }, { field: 'user_id' }],
    read: succeeded,
  };

export const deleteGroup: Operation<{ id: number }, SuccessResult> = {
  name: 'deleteGroup',
  method: 'POST',
  path: 'delete_group/{id}',
  read: succeeded,
};
