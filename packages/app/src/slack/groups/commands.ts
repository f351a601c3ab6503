/**
 * `/split groups` and `/split group create|add|delete|use`. People are found as for an expense
 * (their own link, else their Slack e-mail among the caller's friends, else an invitation by
 * e-mail); group names match case-insensitively, and a name that fits several groups or none is
 * answered with the list.
 */
import { resolvePeople } from '../../accounts/people.js';
import { summarizeGroup } from '../../core/balances.js';
import type { Group, PersonRef, ServiceClient } from '../../service/index.js';
import { problemText } from '../booking/index.js';
import { mention } from '../kit/text.js';
import { matchGroup, toGroupInput, unmatchedGroupText } from '../shared/ledger.js';
import { errorNotice, plainNotice } from '../shared/notices.js';
import { refusedText } from '../shared/service-failure.js';
import {
  linked,
  type SplitHandler,
  type SplitRequest,
  tellFailure,
} from '../shared/split-context.js';
import { TOLD, type Told, told } from '../shared/told.js';
import {
  deleteGroupConfirm,
  groupError,
  groupName,
  groupNotice,
  groupsMessage,
  typed,
} from './views.js';

// What other features write (the service's refusals, a name matching no group, a person who
// cannot be added) comes in their own words through their notices; what groups say is written
// here in the voice of the person who typed the command.

/** The named group, read fresh when the cached list does not have it; TOLD once told. */
export async function findGroup(
  c: SplitRequest,
  client: ServiceClient,
  typed: string,
  example: string,
): Promise<Group | Told> {
  let match = matchGroup(await c.deps.directory.groups(c.user, client), typed);
  if (match.kind !== 'found') {
    match = matchGroup(await c.deps.directory.groups(c.user, client, true), typed);
  }
  if (match.kind === 'found') return match.group;
  await c.reply.ephemeral(errorNotice(c.voice, unmatchedGroupText(c.voice, typed, match), example));
  return TOLD;
}

/** Slack mentions -> people the service takes, or TOLD once the problem was told. */
export async function peopleFor(
  c: SplitRequest,
  client: ServiceClient,
  me: number,
  mentions: string[],
): Promise<PersonRef[] | Told> {
  const others = mentions.filter((id) => id !== c.inv.user_id);
  if (others.length === 0) return [];
  const found = await resolvePeople({
    caller: { ...c.user, service_user_id: me },
    ids: others,
    tokens: c.deps.tokens,
    directory: c.deps.directory,
    lookups: c.lookups,
    client,
  });
  if ('problem' in found) {
    await c.reply.ephemeral(
      errorNotice(c.voice, problemText(c.voice, found.problem), '/split group add @ann Roommates'),
    );
    return TOLD;
  }
  return others.map((id) => found.people.get(id)!.ref);
}

export const groupsList: SplitHandler<'groups'> = async (c) => {
  const link = await linked(c);
  if (told(link)) return;
  const voice = c.voice;
  try {
    const [all, bound] = await Promise.all([
      c.deps.directory.groups(c.user, link.client, true),
      // The channel's own binding: c.binding may be the person's default group instead.
      c.deps.bindings.get({ team_id: c.user.team_id, channel_id: c.inv.channel_id }),
    ]);
    const groups = all.filter((g) => g.id !== 0);
    await c.reply.ephemeral(
      groupsMessage(voice, {
        groups: groups.map((g) => ({
          id: g.id,
          name: g.name,
          members: g.members.length,
          balance: summarizeGroup(toGroupInput(g), link.record.service_user_id).myBalance,
        })),
        boundId: bound?.group_id,
      }),
    );
  } catch (error) {
    await tellFailure(c, error, voice.t('groups.nothing_shown'));
  }
};

export const groupCreate: SplitHandler<'group_create'> = async (c) => {
  const { name, mentions } = c.parsed;
  const link = await linked(c);
  if (told(link)) return;
  const { client, record } = link;
  const voice = c.voice;
  try {
    const existing = (await c.deps.directory.groups(c.user, client, true)).find(
      (g) => g.id !== 0 && g.name.trim().toLowerCase() === name.trim().toLowerCase(),
    );
    if (existing) {
      await c.reply.ephemeral(
        groupError(
          voice,
          voice.t('groups.exists', { group: groupName(existing.name) }),
          `/split group add @ann ${existing.name}`,
        ),
      );
      return;
    }
    const users = await peopleFor(c, client, record.service_user_id, mentions);
    if (told(users)) return;
    const result = await client.createGroup({ name, simplify_by_default: true, users });
    if (!result.group) {
      await c.reply.ephemeral(
        plainNotice(refusedText(voice, result.errors, voice.t('groups.not_created'))),
      );
      return;
    }
    await c.deps.directory.groups(c.user, client, true).catch(() => undefined);
    const others = mentions.filter((id) => id !== c.inv.user_id);
    const made = result.group.name;
    await c.reply.inChannel(
      groupNotice(
        others.length > 0
          ? voice.t('groups.created_with', {
              person: mention(c.inv.user_id),
              group: groupName(made),
              people: voice.list(others.map(mention)),
            })
          : voice.t('groups.created', { person: mention(c.inv.user_id), group: groupName(made) }),
        voice.t('groups.created_detail', {
          book: typed(voice.t('groups.created_book', { group: made })),
          use: typed(`/split group use ${made}`),
        }),
      ),
    );
  } catch (error) {
    await tellFailure(c, error, voice.t('groups.not_created'));
  }
};

export const groupAdd: SplitHandler<'group_add'> = async (c) => {
  const { group: named, mentions } = c.parsed;
  const link = await linked(c);
  if (told(link)) return;
  const { client, record } = link;
  const voice = c.voice;
  try {
    const group = await findGroup(c, client, named, voice.t('groups.add_example'));
    if (told(group)) return;
    const people = await peopleFor(c, client, record.service_user_id, mentions);
    if (told(people)) return;
    const others = mentions.filter((id) => id !== c.inv.user_id);
    if (others.length === 0) {
      await c.reply.ephemeral(
        groupError(voice, voice.t('groups.in_it_already'), `/split group add @ann ${group.name}`),
      );
      return;
    }
    const added: string[] = [];
    for (const [i, person] of people.entries()) {
      const result = await client.addUserToGroup(person, group.id);
      if (!result.success) {
        const notAdded = voice.t('groups.not_added', {
          person: mention(others[i]!),
          count: added.length,
          joined: voice.list(added),
        });
        await c.reply.ephemeral(plainNotice(refusedText(voice, result.errors, notAdded)));
        return;
      }
      added.push(mention(others[i]!));
    }
    await c.deps.directory.groups(c.user, client, true).catch(() => undefined);
    await c.reply.inChannel(
      groupNotice(
        voice.t('groups.added', {
          person: mention(c.inv.user_id),
          people: voice.list(added),
          group: groupName(group.name),
        }),
      ),
    );
  } catch (error) {
    await tellFailure(c, error, voice.t('groups.nothing_changed'));
  }
};

export const groupDelete: SplitHandler<'group_delete'> = async (c) => {
  const link = await linked(c);
  if (told(link)) return;
  const voice = c.voice;
  try {
    const group = await findGroup(c, link.client, c.parsed.name, voice.t('groups.delete_example'));
    if (told(group)) return;
    await c.reply.ephemeral(deleteGroupConfirm(voice, { g: group.id, n: group.name }));
  } catch (error) {
    await tellFailure(c, error, voice.t('groups.nothing_changed'));
  }
};

export const groupUse: SplitHandler<'group_use'> = async (c) => {
  const link = await linked(c);
  if (told(link)) return;
  const voice = c.voice;
  try {
    const group = await findGroup(c, link.client, c.parsed.name, voice.t('groups.use_example'));
    if (told(group)) return;
    await c.deps.bindings.set(
      { team_id: c.user.team_id, channel_id: c.inv.channel_id },
      {
        group_id: group.id,
        group_name: group.name,
        bound_by: c.inv.user_id,
        bound_at: c.deps.now().toISOString(),
      },
    );
    await c.reply.inChannel(
      groupNotice(
        voice.t('groups.used', { person: mention(c.inv.user_id), group: groupName(group.name) }),
        voice.t('groups.used_detail'),
      ),
    );
  } catch (error) {
    await tellFailure(c, error, voice.t('groups.nothing_changed'));
  }
};
