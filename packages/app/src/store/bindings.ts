/**
 * Which service group a Slack channel books into (`/split group use Roommates`). A `/split` in a
 * bound channel goes into that group unless the text names another with `in <group>`, and naming
 * nobody means the whole group.
 */
import type Keyv from 'keyv';
import { TtlCache } from './ttl-cache.js';

export interface ChannelKey {
  team_id: string;
  channel_id: string;
}

export interface ChannelBinding {
  group_id: number;
  group_name: string;
  /** Slack user id of whoever bound it; dropped when they remove their data. */
  bound_by?: string;
  /** ISO 8601. */
  bound_at: string;
}

export interface ChannelBindings {
  get(channel: ChannelKey): Promise<ChannelBinding | undefined>;
  set(channel: ChannelKey, binding: ChannelBinding): Promise<void>;
  /** True when the channel was bound. */
  delete(channel: ChannelKey): Promise<boolean>;
}

function key(channel: ChannelKey): string {
  return `${channel.team_id}:${channel.channel_id}`;
}

/**
 * Every `/split` reads its channel's binding, so reads are cached for `ttlMs` (a minute by
 * default). A change made here is seen at once; one made by another replica within the minute.
 */
export function createChannelBindings(
  keyv: Keyv,
  options: { ttlMs?: number } = {},
): ChannelBindings {
  const cache = new TtlCache<ChannelBinding | null>(options.ttlMs ?? 60_000);
  return {
    async get(channel) {
      const found = await cache.getOrLoad(
        key(channel),
        async () => ((await keyv.get(key(channel))) as ChannelBinding | undefined) ?? null,
      );
      return found ?? undefined;
    },
    async set(channel, binding) {
      await keyv.set(key(channel), binding);
      cache.set(key(channel), binding);
    },
    async delete(channel) {
      cache.delete(key(channel));
      return keyv.delete(key(channel));
    },
  };
}
