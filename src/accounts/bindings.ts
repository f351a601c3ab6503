/**
 * Which service group a Slack channel books into (`/split group use Roommates`). A `/split` in a
 * bound channel goes into that group unless the text names another with `in <group>`, and naming
 * nobody means the whole group.
 */
import type Keyv from 'keyv';

export interface ChannelKey {
  team_id: string;
  channel_id: string;
}

export interface ChannelBinding {
  group_id: number;
  group_name: string;
  /** Slack user id of whoever bound it. */
  bound_by: string;
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

export function createChannelBindings(keyv: Keyv): ChannelBindings {
  return {
    async get(channel) {
      return ((await keyv.get(key(channel))) as ChannelBinding | undefined) ?? undefined;
    },
    async set(channel, binding) {
      await keyv.set(key(channel), binding);
    },
    delete: (channel) => keyv.delete(key(channel)),
  };
}
