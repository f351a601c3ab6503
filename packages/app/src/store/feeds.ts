/**
 * Channels that follow their group's activity (`/split feed on`): who turned the feed on (their
 * token polls the service's notifications, which are per person), and how far the feed has read.
 * The poller walks this namespace whole, so nothing else lives in it.
 */
import type Keyv from 'keyv';
import type { ChannelKey } from './bindings.js';

export interface ChannelFeed {
  team_id: string;
  channel_id: string;
  group_id: number;
  group_name: string;
  /** Slack user whose linked account's notifications are read. */
  user_id: string;
  /** ISO 8601. */
  started_at: string;
  /**
   * The service's `created_at` of the newest notification handled (its own clock, never ours),
   * sent back as `updated_after`; null until there is one.
   */
  cursor: string | null;
  /** Ids of the notifications handled at `cursor`: `updated_after` returns those again. */
  seen: number[];
}

export interface ChannelFeeds {
  get(channel: ChannelKey): Promise<ChannelFeed | undefined>;
  set(feed: ChannelFeed): Promise<void>;
  /** True when there was one. */
  delete(channel: ChannelKey): Promise<boolean>;
  /** Every feed; the poller's walk. */
  all(): AsyncIterable<ChannelFeed>;
}

const key = (channel: ChannelKey) => `${channel.team_id}:${channel.channel_id}`;

export function createChannelFeeds(keyv: Keyv): ChannelFeeds {
  return {
    async get(channel) {
      return (await keyv.get(key(channel))) as ChannelFeed | undefined;
    },
    async set(feed) {
      await keyv.set(key(feed), feed);
    },
    delete: (channel) => keyv.delete(key(channel)),
    async *all() {
      if (!keyv.iterator) throw new Error('this store cannot be walked');
      // Collected first: SQLite's iterator pages by offset, and feeds change under the walk.
      const feeds: ChannelFeed[] = [];
      for await (const [, value] of keyv.iterator(undefined)) {
        if (value && typeof value === 'object') feeds.push(value as ChannelFeed);
      }
      yield* feeds;
    },
  };
}
