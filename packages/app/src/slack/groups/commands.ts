/**
 * `/split groups` and `/split group create|add|delete|use`. People are found as for an expense
 * (their own link, else their Slack e-mail among the caller's friends, else an invitation by
 * e-mail); group names match case-insensitively, and a name that fits several groups or none is
 * answered with the list.
 */
import { resolvePeople } from '../../accounts/people.js';
import { summarizeGroup } from '../../core/balances.js';
import type { Group, PersonRef, ServiceClient } from '../../service/index.js';
import { problemText } from '../shared/booking.js';
import { groupMatchProblem, matchGroup, toGroupInput } from '../shared/ledger.js';
import { mrkdwnEscape } from '../shared/limits.js';
import { errorNotice, plainNotice } from '../shared/notices.js';
import { refusedText } from '../shared/service-failure.js';
import {
  linked,
  type SplitHandler,
  type SplitRequest,
  tellFailure,
} from '../shared/split-context.js';
import { deleteGroupConfirm, groupDoneMessage, groupsMessage } from './views.js';

const NOTHING_CHANGED = 'Nothing was changed.';

/** The named group, read fresh when the cached list does not have it; undefined once told. */
export async function findGroup(
  c: SplitRequest,
  client: ServiceClient,
  typed: string,
  example: string,
): Promise<Group | undefined> {
  let match = matchGroup(await c.deps.directory.groups(c.user, client), typed);
  if (match.kind !== 'found') {
    match = matchGroup(await c.deps.directory.groups(c.user, client, true), typed);
  }
  if (match.kind === 'found') return match.group;
  await c.reply.ephemeral(errorNotice(c.voice, groupMatchProblem(typed, match), example));
  return undefined;
}

/** Slack mentions -> people the service takes, or undefined once the problem was told. */
export async function peopleFor(
  c: SplitRequest,
  client: ServiceClient,
  me: number,
  mentions: string[],
): Promise<PersonRef[] | undefined> {
  const others = mentions.filter((id) => id !== c.inv.user_id);
  if (others.length === 0) return [];
  const found = await resolvePeople({
    caller: { ...c.user, service_user_id: me },
    ids: others,
    tokens: c.deps.tokens,
    directory: c.deps.directory,
    client,
  });
  if ('problem' in found) {
    await c.reply.ephemeral(
      errorNotice(c.voice, problemText(c.voice, found.problem), '/split group add @ann Roommates'),
    );
    return undefined;
  }
  return others.map((id) => found.people.get(id)!.ref);
}

export const groupsList: SplitHandler<'groups'> = async (c) => {
  const link = await linked(c);
  if (!link) return;
  try {
    const [all, bound] = await Promise.all([
      c.deps.directory.groups(c.user, link.client, true),
      // The channel's own binding: c.binding may be the person's default group instead.
      c.deps.bindings.get({ team_id: c.user.team_id, channel_id: c.inv.channel_id }),
    ]);
    const groups = all.filter((g) => g.id !== 0);
    await c.reply.ephemeral(
      groupsMessage({
        groups: groups.map((g) => ({
          id: g.id,
          name: g.name,
          members: g.members.length,
          balance: summarizeGroup(toGroupInput(g), link.record.service_user_id).myBalance,
        })),
        boundId: bound?.group_id,
        locale: c.me?.locale,
      }),
    );
  } catch (error) {
    await tellFailure(c, error, 'Nothing was shown.');
  }
};

export const groupCreate: SplitHandler<'group_create'> = async (c) => {
  const { name, mentions } = c.parsed;
  const link = await linked(c);
  if (!link) return;
  const { client, record } = link;
  try {
    const existing = (await c.deps.directory.groups(c.user, client, true)).find(
      (g) => g.id !== 0 && g.name.trim().toLowerCase() === name.trim().toLowerCase(),
    );
    if (existing) {
      await c.reply.ephemeral(
        errorNotice(
          c.voice,
          `You already have a group called "${existing.name}". Pick another name, or add people to it.`,
          `/split group add @ann ${existing.name}`,
        ),
      );
      return;
    }
    const users = await peopleFor(c, client, record.service_user_id, mentions);
    if (!users) return;
    const result = await client.createGroup({ name, simplify_by_default: true, users });
    if (!result.group) {
      await c.reply.ephemeral(
        plainNotice(refusedText(c.voice, result.errors, 'No group was created.')),
      );
      return;
    }
    await c.deps.directory.groups(c.user, client, true).catch(() => undefined);
    const others = mentions.filter((id) => id !== c.inv.user_id);
    await c.reply.inChannel(
      groupDoneMessage(
        `<@${c.inv.user_id}> created the group *${mrkdwnEscape(result.group.name)}*${
          others.length > 0 ? ` with ${others.map((id) => `<@${id}>`).join(', ')}` : ''
        }.`,
        `\`/split 40 lunch in ${result.group.name}\` books into it; \`/split group use ${result.group.name}\` makes this channel book into it.`,
      ),
    );
  } catch (error) {
    await tellFailure(c, error, 'No group was created.');
  }
};

export const groupAdd: SplitHandler<'group_add'> = async (c) => {
  const { group: typed, mentions } = c.parsed;
  const link = await linked(c);
  if (!link) return;
  const { client, record } = link;
  try {
    const group = await findGroup(c, client, typed, '/split group add @ann Roommates');
    if (!group) return;
    const people = await peopleFor(c, client, record.service_user_id, mentions);
    if (!people) return;
    const others = mentions.filter((id) => id !== c.inv.user_id);
    if (others.length === 0) {
      await c.reply.ephemeral(
        errorNotice(
          c.voice,
          "You're in it already: mention who should join.",
          `/split group add @ann ${group.name}`,
        ),
      );
      return;
    }
    const added: string[] = [];
    for (const [i, person] of people.entries()) {
      const result = await client.addUserToGroup(person, group.id);
      if (!result.success) {
        const done = added.length > 0 ? ` (${added.join(', ')} joined before that)` : '';
        await c.reply.ephemeral(
          plainNotice(refusedText(c.voice, result.errors, `<@${others[i]}> was not added${done}.`)),
        );
        return;
      }
      added.push(`<@${others[i]}>`);
    }
    await c.deps.directory.groups(c.user, client, true).catch(() => undefined);
    await c.reply.inChannel(
      groupDoneMessage(
        `<@${c.inv.user_id}> added ${added.join(', ')} to *${mrkdwnEscape(group.name)}*.`,
      ),
    );
  } catch (error) {
    await tellFailure(c, error, NOTHING_CHANGED);
  }
};

export const groupDelete: SplitHandler<'group_delete'> = async (c) => {
  const link = await linked(c);
  if (!link) return;
  try {
    const group = await findGroup(c, link.client, c.parsed.name, '/split group delete Roommates');
    if (!group) return;
    await c.reply.ephemeral(deleteGroupConfirm({ g: group.id, n: group.name }));
  } catch (error) {
    await tellFailure(c, error, NOTHING_CHANGED);
  }
};

export const groupUse: SplitHandler<'group_use'> = async (c) => {
  const link = await linked(c);
  if (!link) return;
  try {
    const group = await findGroup(c, link.client, c.parsed.name, '/split group use Roommates');
    if (!group) return;
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
      groupDoneMessage(
        `<@${c.inv.user_id}> set this channel to book into *${mrkdwnEscape(group.name)}*.`,
        `\`/split 30 pizza\` here now splits among the whole group; mention people to share with only them.`,
      ),
    );
  } catch (error) {
    await tellFailure(c, error, NOTHING_CHANGED);
  }
};
