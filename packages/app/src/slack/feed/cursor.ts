/**
 * How far a feed has read its owner's notifications. The cursor is the service's own
 * `created_at` of the newest notification handled (so no clock of ours has to agree with the
 * service's), and `updated_after` gives back the notifications at that very moment again: their
 * ids are kept beside the cursor so that they are skipped.
 */
import type { Notification, ServiceClient } from '../../service/index.js';
import type { ChannelFeed } from '../../store/index.js';

type FeedPosition = Pick<ChannelFeed, 'cursor' | 'seen'>;

/** How many notifications are read to find where a new feed starts: only the newest matters. */
const START_PEEK = 20;

/** Where a feed turned on now starts: after everything its owner has been notified of so far. */
export async function startingPoint(client: ServiceClient): Promise<FeedPosition> {
  return advance({ cursor: null, seen: [] }, await client.getNotifications(undefined, START_PEEK));
}

/** Oldest first, so that a feed reads like what happened; ties in id order. */
export function oldestFirst(list: readonly Notification[]): Notification[] {
  return [...list].sort(
    (a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id,
  );
}

/** Those not handled yet. */
export function unseen(position: FeedPosition, list: readonly Notification[]): Notification[] {
  const seen = new Set(position.seen);
  const from = position.cursor === null ? Number.NEGATIVE_INFINITY : Date.parse(position.cursor);
  return list.filter((n) => !seen.has(n.id) && Date.parse(n.created_at) >= from);
}

/** The position after `handled` (any order). */
export function advance(position: FeedPosition, handled: readonly Notification[]): FeedPosition {
  let cursor = position.cursor;
  let seen = [...position.seen];
  for (const n of handled) {
    const at = Date.parse(n.created_at);
    const current = cursor === null ? Number.NEGATIVE_INFINITY : Date.parse(cursor);
    if (at > current) {
      cursor = n.created_at;
      seen = [n.id];
    } else if (at === current && !seen.includes(n.id)) {
      seen.push(n.id);
    }
  }
  return { cursor, seen };
}
