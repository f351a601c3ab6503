/** The caller's activity feed (edition 3): the notification, and get_notifications. */
import { count, type Operation } from '../operation.js';
import { resource } from '../results.js';

export interface NotificationSource {
  type: string;
  id: number;
  url?: string | null;
}

export interface Notification {
  id: number;
  type: number;
  created_at: string;
  created_by: number;
  source?: NotificationSource;
  image_url?: string;
  image_shape?: 'square' | 'circle' | string;
  content: string;
}

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
