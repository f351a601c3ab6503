/**
 * The caller and other users as the service sends them, and get_current_user, get_user,
 * update_user.
 */
import type { ServiceErrors } from '../errors.js';
import type { NoInput, Operation, Reader } from '../operation.js';
import { asRecord, isObjectWithId, outcome, resource } from '../results.js';

export interface Picture {
  small?: string | null;
  medium?: string | null;
  large?: string | null;
}

export type RegistrationStatus = 'confirmed' | 'dummy' | 'invited' | 'unsubscribed';

export interface User {
  id: number;
  first_name: string;
  last_name?: string | null;
  email?: string;
  registration_status?: RegistrationStatus | string;
  picture?: Picture;
  custom_picture?: boolean;
}

export interface NotificationSettings {
  added_as_friend?: boolean;
  added_to_group?: boolean;
  expense_added?: boolean;
  expense_updated?: boolean;
  bills?: boolean;
  payments?: boolean;
  monthly_summary?: boolean;
  announcements?: boolean;
}

export interface CurrentUser extends User {
  force_refresh_at?: string | null;
  locale?: string;
  country_code?: string;
  date_format?: string;
  default_currency?: string;
  default_group_id?: number | null;
  notifications_read?: string;
  notifications_count?: number;
  notifications?: NotificationSettings;
  add_friend_url?: string;
}

/** The reduced user shape inside expenses and comments. */
export interface UserSummary {
  id: number;
  first_name: string;
  last_name?: string | null;
  picture?: Picture;
  custom_picture?: boolean;
}

export interface UserUpdate {
  id: number;
  first_name?: string;
  last_name?: string;
  email?: string;
  password?: string;
  locale?: string;
  default_currency?: string;
  date_format?: string;
  default_group_id?: number;
}

/** The user when the service applied the change; else `errors` says why. */
export type UserResult = { user?: CurrentUser; errors: ServiceErrors };

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
