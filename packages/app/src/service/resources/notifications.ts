/** The caller's activity feed (edition 3): get_notifications. */
import { count, type Operation } from '../operation.js';
import { resource } from '../results.js';
import type { Notification } from '../types.js';

export const getNotifications: Operation<
  { updated_after?: string | Date | undefined; limit: number },
  Notification[]
> = {
  name: 'getNotifications',
  method: 'GET',
  path: 'get_notifications',
  since: 3,
  params: [{ field: 'updated_after' }, { field: 'limit', encode: count }],
  read: resource('notifications'),
};
