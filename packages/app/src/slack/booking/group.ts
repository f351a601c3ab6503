/**
 * Which group a booking goes into when the person names none: the channel's group (`/split group
 * use`), else the person's default group (App Home), else none. One choice for `/split`, its
 * mention and DM forms, and the expense form, so that a command and a form in the same channel
 * book into the same group.
 */
import type { Group, ServiceClient } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';

/** The group a conversation books into when none is named. */
export interface BoundGroup {
  group_id: number;
  group_name: string;
  /** Bound to the channel (`/split group use`), or the person's default group (App Home). */
  source: 'channel' | 'default';
}

/**
 * The channel's group, else the person's default group, else undefined. A failed store read is
 * thrown: `/split` tells the person, the form opens without a group. The caller checks that the
 * person is still in a default group: one chosen before they left is stale.
 */
export async function boundGroup(
  deps: Pick<SlackDeps, 'bindings' | 'preferences'>,
  user: SlackUserKey,
  channel: string | undefined,
): Promise<BoundGroup | undefined> {
  const [bound, preferences] = await Promise.all([
    channel ? deps.bindings.get({ team_id: user.team_id, channel_id: channel }) : undefined,
    deps.preferences.get(user),
  ]);
  if (bound) return { group_id: bound.group_id, group_name: bound.group_name, source: 'channel' };
  const chosen = preferences.default_group;
  return chosen ? { group_id: chosen.id, group_name: chosen.name, source: 'default' } : undefined;
}

/**
 * The person's group with this id, from the directory's cached list, else a fresh one (the cache
 * can predate their joining it); undefined when they are not in it.
 */
export async function findGroup(
  deps: Pick<SlackDeps, 'directory'>,
  user: SlackUserKey,
  client: ServiceClient,
  id: number,
): Promise<Group | undefined> {
  const find = async (fresh: boolean) =>
    (await deps.directory.groups(user, client, fresh)).find((g) => g.id === id);
  return (await find(false)) ?? (await find(true));
}
