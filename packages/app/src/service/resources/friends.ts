/**
 * Friends: the friend with their balances as the service sends them, and get_friends, get_friend,
 * create_friend, delete_friend.
 */
import type { ServiceErrors } from '../errors.js';
import type { NoInput, Operation } from '../operation.js';
import { applied, resource, type SuccessResult, succeeded } from '../results.js';
import type { User } from './users.js';

export interface Balance {
  currency_code: string;
  amount: string;
}

export interface FriendGroup {
  group_id: number;
  balance: Balance[];
}

export interface Friend extends User {
  /** Per currency, from the caller's view: positive means the friend owes the caller. */
  balance: Balance[];
  groups: FriendGroup[];
  updated_at?: string;
}

export interface NewFriend {
  email: string;
  first_name?: string;
  last_name?: string;
}

/** The friend when the service added them; else `errors` says why. */
export type FriendResult = { friend?: Friend; errors: ServiceErrors };

export const getFriends: Operation<NoInput, Friend[]> = {
  name: 'getFriends',
  method: 'GET',
  path: 'get_friends',
  read: resource('friends'),
};

export const getFriend: Operation<{ id: number }, Friend> = {
  name: 'getFriend',
  method: 'GET',
  path: 'get_friend/{id}',
  read: resource('friend'),
};

export const createFriend: Operation<NewFriend, FriendResult> = {
  name: 'createFriend',
  method: 'POST',
  path: 'create_friend',
  params: [
    { field: 'email', wire: 'user_email', required: true },
    { field: 'first_name', wire: 'user_first_name' },
    { field: 'last_name', wire: 'user_last_name' },
  ],
  read: applied<'friend', Friend>('friend'),
};

export const deleteFriend: Operation<{ id: number }, SuccessResult> = {
  name: 'deleteFriend',
  method: 'POST',
  path: 'delete_friend/{id}',
  read: succeeded,
};
