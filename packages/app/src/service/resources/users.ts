/** The caller and other users: get_current_user, get_user, update_user. */
import type { NoInput, Operation, Reader } from '../operation.js';
import { asRecord, isObjectWithId, outcome, resource } from '../results.js';
import type { CurrentUser, User, UserResult, UserUpdate } from '../types.js';

export const getCurrentUser: Operation<NoInput, CurrentUser> = {
  name: 'getCurrentUser',
  method: 'GET',
  path: 'get_current_user',
  read: resource('user'),
};

export const getUser: Operation<{ id: number }, User> = {
  name: 'getUser',
  method: 'GET',
  path: 'get_user/{id}',
  read: resource('user'),
};

const updatedUser: Reader<UserResult> = (body, ctx) => {
  const record = asRecord(body);
  // The published schema has the user come back bare; clients have seen it wrapped. Accept both.
  const user = 'user' in record ? record.user : isObjectWithId(record) ? record : undefined;
  const { ok, errors } = outcome(body, ctx, isObjectWithId(user));
  return ok ? { user: user as CurrentUser, errors } : { errors };
};

export const updateUser: Operation<UserUpdate, UserResult> = {
  name: 'updateUser',
  method: 'POST',
  path: 'update_user/{id}',
  since: 2,
  params: [
    { field: 'first_name' },
    { field: 'last_name' },
    { field: 'email' },
    { field: 'password' },
    { field: 'locale' },
    { field: 'default_currency' },
    { field: 'date_format' },
    { field: 'default_group_id' },
  ],
  requireChange: true,
  read: updatedUser,
};
