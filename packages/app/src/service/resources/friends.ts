/** Friends: get_friends, get_friend, create_friend, delete_friend. */
import type { NoInput, Operation } from '../operation.js';
import { applied, resource, succeeded } from '../results.js';
import type { Friend, FriendResult, NewFriend, SuccessResult } from '../types.js';

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
