/**
 * Per-person settings the app keeps itself (the daily DM's live in the digest preferences, the
 * default currency on the service): the default group, which a `/split` outside a bound channel
 * books into, and whether others may send the person payment reminders. Kept by name as well as id so that a message can name it without a service call.
 */
import type Keyv from 'keyv';
import type { SlackUserKey } from './token-store.js';
import { TtlCache } from './ttl-cache.js';

export interface UserPreferences {
  default_group: { id: number; name: string } | null;
  /** True once the person asked for no more payment reminders from others. */
  reminders_off: boolean;
}

export interface UserPreferenceStore {
  get(user: SlackUserKey): Promise<UserPreferences>;
  setDefaultGroup(user: SlackUserKey, group: { id: number; name: string } | null): Promise<void>;
  /** Turns payment reminders from others off (true) or back on. */
  setRemindersOff(user: SlackUserKey, off: boolean): Promise<void>;
  /** Forgets a default group that no longer exists (deleted), for everyone who chose it here. */
  clearGroup(user: SlackUserKey, groupId: number): Promise<void>;
  /** Forgets the person's settings; true when there were any. */
  delete(user: SlackUserKey): Promise<boolean>;
}

const EMPTY: UserPreferences = { default_group: null, reminders_off: false };

const key = (user: SlackUserKey) => `${user.team_id}:${user.user_id}`;

/**
 * Every `/split` reads the caller's default group, so reads are cached for `ttlMs` (a minute by
 * default), as channel bindings are: a change made here is seen at once, one made by another
 * replica within the minute.
 */
export function createUserPreferences(
  keyv: Keyv,
  options: { ttlMs?: number } = {},
): UserPreferenceStore {
  const cache = new TtlCache<UserPreferences>(options.ttlMs ?? 60_000);
  const load = async (user: SlackUserKey): Promise<UserPreferences> => ({
    ...EMPTY,
    ...(((await keyv.get(key(user))) as UserPreferences | undefined) ?? {}),
  });
  const write = async (user: SlackUserKey, value: UserPreferences) => {
    await keyv.set(key(user), value);
    cache.set(key(user), value);
  };
  return {
    get: (user) => cache.getOrLoad(key(user), () => load(user)),
    async setDefaultGroup(user, group) {
      const current = await load(user);
      await write(user, {
        ...current,
        default_group: group ? { id: group.id, name: group.name } : null,
      });
    },
    async setRemindersOff(user, off) {
      const current = await load(user);
      await write(user, { ...current, reminders_off: off });
    },
    async delete(user) {
      cache.delete(key(user));
      return keyv.delete(key(user));
    },
    async clearGroup(user, groupId) {
      const current = await load(user);
      if (current.default_group?.id === groupId) {
        await write(user, { ...current, default_group: null });
      }
    },
  };
}
