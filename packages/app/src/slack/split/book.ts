/**
 * Booking an expense typed as `/split <text>`: the caller's link and profile, the group, then
 * the shared booking (shared/booking.ts) and the in-channel answer.
 */
import type { Logger } from '@slack/bolt';
import { type ParsedExpense, resolveMe } from '../../core/command/index.js';
import {
  type Group,
  ServiceBaseException,
  type ServiceClient,
  ServiceNotAllowedException,
  ServiceNotFoundException,
} from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey, SplitDefault } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { bookPlan, type GroupChoice, NOTHING_BOOKED, singleUse } from '../shared/booking.js';
import { breakdownText } from '../shared/breakdown.js';
import { errorNotice, plainNotice } from '../shared/notices.js';
import type { Reply } from '../shared/reply.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import type { BoundGroup, ProfileCurrency, SplitInvocation } from '../shared/split-context.js';
import {
  defaultAsSplit,
  leftTheGroup,
  leftTheGroupText,
  withDefaultNote,
} from '../shared/split-default.js';

interface BookInput {
  deps: SlackDeps;
  inv: SplitInvocation;
  /** As parsed with the caller's own default currency. */
  expense: ParsedExpense;
  /** How reading that currency went: a failure is reported before anything is booked. */
  profileCurrency: ProfileCurrency;
  locale: string | undefined;
  /** The group a `/split` naming none books into: the channel's, or the caller's default. */
  binding: BoundGroup | undefined;
  tz: string | undefined;
  record: ServiceTokenRecord;
  reply: Reply;
  logger: Logger;
  /** Removes the link and asks to connect again (a 401 from the service). */
  relink(): Promise<void>;
}

/**
 * When the group a `/split` would book into no longer exists on the service (get_group answers
 * 404; a group the caller is not in answers 403), forgets it (the channel's binding, or the
 * caller's default group) and tells the person; true if it did.
 */
async function unbindIfDeleted(input: BookInput, client: ServiceClient): Promise<boolean> {
  const binding = input.binding;
  if (!binding) return false;
  try {
    await client.getGroup(binding.group_id);
    return false;
  } catch (error) {
    if (error instanceof ServiceNotAllowedException) return false;
    if (!(error instanceof ServiceNotFoundException)) throw error;
  }
  const { deps, inv, logger, reply } = input;
  if (binding.source === 'default') {
    await deps.preferences.clearGroup(
      { team_id: inv.team_id, user_id: inv.user_id },
      binding.group_id,
    );
    logger.info(`/split: default group ${binding.group_id} of ${inv.user_id} was deleted; cleared`);
    await reply.ephemeral(
      errorNotice(
        `Your default group "${binding.group_name}" has been deleted, so I've cleared it (App Home sets another). ${NOTHING_BOOKED} Mention the people instead.`,
        '/split 40 lunch @ann',
      ),
    );
    return true;
  }
  await deps.bindings.delete({ team_id: inv.team_id, channel_id: inv.channel_id });
  logger.info(
    `/split: channel ${inv.channel_id} was bound to deleted group ${binding.group_id}; unbound`,
  );
  await reply.ephemeral(
    errorNotice(
      `The group "${binding.group_name}" that this channel booked into has been deleted, so this channel no longer books into a group. ${NOTHING_BOOKED} Mention the people, or pick another group with /split group use.`,
      '/split 40 lunch @ann',
    ),
  );
  return true;
}

export async function bookExpense(input: BookInput): Promise<void> {
  const { deps, inv, record, reply, logger } = input;
  const user: SlackUserKey = { team_id: inv.team_id, user_id: inv.user_id };
  const client = deps.service.forLink(record);

  const fail = async (error: unknown) => {
    const failure = describeServiceFailure(error, NOTHING_BOOKED);
    if (failure.relink) return input.relink();
    if (!(error instanceof ServiceBaseException)) throw error;
    logger.warn(`/split: service call failed: ${error.name}: ${error.message}`);
    await reply.ephemeral(plainNotice(failure.text));
  };

  if (!input.profileCurrency.ok) return fail(input.profileCurrency.error);
  const resolved = resolveMe(input.expense, inv.user_id);
  if ('error' in resolved)
    return reply.ephemeral(errorNotice(resolved.error, '/split 40 lunch @ann'));
  const expense = resolved;

  // The group: named in the text, else the channel's.
  let group: GroupChoice | null = null;
  try {
    if (expense.group !== null) {
      const wanted = expense.group.trim().toLowerCase();
      const named = (list: Group[]) =>
        list.filter((g) => g.id !== 0).find((g) => g.name.trim().toLowerCase() === wanted);
      let groups = await deps.directory.groups(user, client);
      let found = named(groups);
      if (!found) {
        groups = await deps.directory.groups(user, client, true);
        found = named(groups);
      }
      groups = groups.filter((g) => g.id !== 0);
      if (!found) {
        const names = groups.map((g) => g.name).slice(0, 10);
        return reply.ephemeral(
          errorNotice(
            names.length > 0
              ? `You have no group called "${expense.group}". Your groups: ${names.join(', ')}.`
              : `You have no group called "${expense.group}" (you're in no groups yet).`,
            names[0] ? `/split 40 lunch in ${names[0]}` : '/split 40 lunch @ann',
          ),
        );
      }
      group = { id: found.id, name: found.name, members: found.members };
    } else if (input.binding) {
      const binding = input.binding;
      const bound = (list: Group[]) => list.find((g) => g.id === binding.group_id);
      const found =
        bound(await deps.directory.groups(user, client)) ??
        // Cached before the caller joined, perhaps.
        bound(await deps.directory.groups(user, client, true));
      if (!found) {
        if (await unbindIfDeleted(input, client)) return;
        return reply.ephemeral(
          errorNotice(
            binding.source === 'channel'
              ? `This channel books into the group "${binding.group_name}", which your account can't see. Mention the people instead, or name one of your groups with "in".`
              : `Your default group "${binding.group_name}" is not one of your groups any more. Mention the people instead, or choose another default in App Home.`,
            '/split 40 lunch @ann',
          ),
        );
      }
      group = {
        id: found.id,
        name: found.name,
        members: expense.wholeGroup ? found.members : undefined,
      };
    }
  } catch (error) {
    return fail(error);
  }

  // A `/split` into a group that names nobody uses the group's default split, if it has one.
  let people = {
    participants: expense.participants,
    split: expense.split,
    wholeGroup: expense.wholeGroup,
  };
  let byDefault: SplitDefault | undefined;
  if (group?.members && expense.wholeGroup && expense.participants.includes(inv.user_id)) {
    const saved = await deps.splitDefaults.get({ team_id: inv.team_id, group_id: group.id });
    if (saved) {
      // Read fresh: the cached group can predate someone leaving it.
      let members: Group['members'];
      try {
        members = (await client.getGroup(group.id)).members;
      } catch (error) {
        return fail(error);
      }
      const gone = leftTheGroup(saved, members);
      if (gone.length > 0)
        return reply.ephemeral(errorNotice(leftTheGroupText(saved, gone), '/split 40 lunch @ann'));
      people = { ...defaultAsSplit(saved), wholeGroup: false };
      byDefault = saved;
    }
  }

  const done = await bookPlan(
    {
      deps,
      user,
      record,
      client,
      tz: input.tz,
      locale: input.locale,
      reply,
      logger,
      // The channel's group can have been deleted since the caller's groups were cached: the
      // create is refused as not found, and that is what the person should hear.
      fail: async (error) => {
        const boundGroup = group !== null && group.id === input.binding?.group_id;
        if (boundGroup && error instanceof ServiceNotFoundException) {
          if (await unbindIfDeleted(input, client).catch(() => false)) return;
        }
        return fail(error);
      },
      problem: errorNotice,
      once: inv.once ?? singleUse(),
    },
    {
      description: expense.description,
      cost: expense.cost,
      currency: expense.currency,
      date: expense.date,
      payer: expense.payer,
      payers: expense.payers,
      ...people,
      group,
      repeat_interval: expense.repeat,
      ...(expense.itemised
        ? {
            itemised: expense.itemised,
            details: breakdownText(expense.itemised, expense.currency, input.locale),
          }
        : {}),
    },
  );
  if (!done) return;
  await reply.inChannel(
    byDefault ? withDefaultNote(done.message, byDefault, group?.name ?? '') : done.message,
  );
  await deps.expenses
    .rememberBooked(user, { expense_id: done.booked.id, description: done.booked.description })
    .catch((error: Error) =>
      logger.warn(`/split: could not remember the booking: ${error.message}`),
    );
}
