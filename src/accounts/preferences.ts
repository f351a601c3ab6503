/**
 * Per-person settings the app keeps itself (the daily DM's live in the digest preferences, the
 * default currency on the service): the default group, which a `/split` outside a bound channel
 * books into. Kept by name as well as id so that a message can name it without a service call.
 */
import type Keyv from 'keyv';
import type { SlackUserKey } from '../store/index.js';

export interface UserPreferences {
  default_group: { id: number; name: string } | null;
}

export interface UserPreferenceStore {
  get(user: SlackUserKey): Promise<UserPreferences>;
  setDefaultGroup(user: SlackUserKey, group: { id: number; name: string } | null): Promise<void>;
  /** Forgets a default group that no longer exists (deleted), for everyone who chose it here. */
  clearGroup(user: SlackUserKey, groupId: number): Promise<void>;
}

const EMPTY: UserPreferences = { default_group: null };

const key = (user: SlackUserKey) => `${user.team_id}:${user.user_id}`;

export function createUserPreferences(keyv: Keyv): UserPreferenceStore {
  const read = async (user: SlackUserKey): Promise<UserPreferences> => ({
    ...EMPTY,
    ...(((await keyv.get(key(user))) as UserPreferences | undefined) ?? {}),
  });
  return {
    get: read,
    async setDefaultGroup(user, group) {
      const current = await read(user);
      await keyv.set(key(user), {
        ...current,
        default_group: group ? { id: group.id, name: group.name } : null,
      });
    },
    async clearGroup(user, groupId) {
      const current = await read(user);
      if (current.default_group?.id === groupId) {
        await keyv.set(key(user), { ...current, default_group: null });
      }
    },
  };
}
