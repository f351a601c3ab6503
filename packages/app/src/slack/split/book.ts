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
import { voiceFor } from '../../voice/index.js';
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

const EXAMPLE = '/split 40 lunch @ann';

/** Who shares the expense and how: as typed, or the group's default split. */
interface SplitPeople {
  participants: string[];
  split: ParsedExpense['split'];
  wholeGroup: boolean;
  /** The group's default split, when it decided the people. */
  byDefault?: SplitDefault;
}

export async function bookExpense(input: BookInput): Promise<void> {
  const { deps, inv, record, reply, logger } = input;
  const user: SlackUserKey = { team_id: inv.team_id, user_id: inv.user_id };
  const client = deps.service.forLink(record);
  const fail = (error: unknown) => tellServiceFailure(input, error);
  if (!input.profileCurrency.ok) return fail(input.profileCurrency.error);
  const expense = resolveMe(input.expense, inv.user_id);
  if ('error' in expense) return reply.ephemeral(errorNotice(expense.error, EXAMPLE));
  let group: GroupChoice | null | undefined;
  try {
    group = await groupOf(input, client, expense);
  } catch (error) {
    return fail(error);
  }
  if (group === undefined) return;
  const people = await splitPeople(input, client, expense, group);
  if (!people) return;
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
      participants: people.participants,
      split: people.split,
      wholeGroup: people.wholeGroup,
      group,
      repeat_interval: expense.repeat,
      ...(expense.itemised
        ? {
            itemised: expense.itemised,
            details: breakdownText(
              expense.itemised,
              expense.currency,
              await voiceFor({ locale: input.locale }),
            ),
          }
        : {}),
    },
  );
  if (!done) return;
  const { message } = done;
  await reply.inChannel(
    people.byDefault ? withDefaultNote(message, people.byDefault, group?.name ?? '') : message,
  );
  await deps.expenses
    .rememberBooked(user, { expense_id: done.booked.id, description: done.booked.description })
    .catch((error: Error) =>
      logger.warn(`/split: could not remember the booking: ${error.message}`),
    );
}

/** A failed service call told to the person (a 401 removes the link and asks to connect again). */
async function tellServiceFailure(input: BookInput, error: unknown): Promise<void> {
  const failure = describeServiceFailure(error, NOTHING_BOOKED);
  if (failure.relink) return input.relink();
  if (!(error instanceof ServiceBaseException)) throw error;
  input.logger.warn(`/split: service call failed: ${error.name}: ${error.message}`);
  await input.reply.ephemeral(plainNotice(failure.text));
}

/**
 * The group the expense goes into: the one named in the text, else the channel's (or the
 * caller's default); null for none; undefined once the person was told why not.
 */
async function groupOf(
  input: BookInput,
  client: ServiceClient,
  expense: ParsedExpense,
): Promise<GroupChoice | null | undefined> {
  if (expense.group !== null) return namedGroup(input, client, expense.group);
  const binding = input.binding;
  if (!binding) return null;
  const user = { team_id: input.inv.team_id, user_id: input.inv.user_id };
  const bound = (list: Group[]) => list.find((g) => g.id === binding.group_id);
  const found =
    bound(await input.deps.directory.groups(user, client)) ??
    // Cached before the caller joined, perhaps.
    bound(await input.deps.directory.groups(user, client, true));
  if (found) {
    return {
      id: found.id,
      name: found.name,
      members: expense.wholeGroup ? found.members : undefined,
    };
  }
  if (await unbindIfDeleted(input, client)) return undefined;
  await input.reply.ephemeral(
    errorNotice(
      binding.source === 'channel'
        ? `This channel books into the group "${binding.group_name}", which your account can't see. Mention the people instead, or name one of your groups with "in".`
        : `Your default group "${binding.group_name}" is not one of your groups any more. Mention the people instead, or choose another default in App Home.`,
      EXAMPLE,
    ),
  );
  return undefined;
}

/** The caller's group called `name` (a fresh list when the cached one lacks it), or told not. */
async function namedGroup(
  input: BookInput,
  client: ServiceClient,
  name: string,
): Promise<GroupChoice | undefined> {
  const user = { team_id: input.inv.team_id, user_id: input.inv.user_id };
  const wanted = name.trim().toLowerCase();
  const named = (list: Group[]) =>
    list.filter((g) => g.id !== 0).find((g) => g.name.trim().toLowerCase() === wanted);
  let groups = await input.deps.directory.groups(user, client);
  let found = named(groups);
  if (!found) {
    groups = await input.deps.directory.groups(user, client, true);
    found = named(groups);
  }
  if (found) return { id: found.id, name: found.name, members: found.members };
  const names = groups
    .filter((g) => g.id !== 0)
    .map((g) => g.name)
    .slice(0, 10);
  await input.reply.ephemeral(
    errorNotice(
      names.length > 0
        ? `You have no group called "${name}". Your groups: ${names.join(', ')}.`
        : `You have no group called "${name}" (you're in no groups yet).`,
      names[0] ? `/split 40 lunch in ${names[0]}` : EXAMPLE,
    ),
  );
  return undefined;
}

/**
 * Who shares the expense: as typed, unless it goes into a group and names nobody, when the
 * group's default split (if it has one) decides. Undefined once the person was told why not.
 */
async function splitPeople(
  input: BookInput,
  client: ServiceClient,
  expense: ParsedExpense,
  group: GroupChoice | null,
): Promise<SplitPeople | undefined> {
  const typed = {
    participants: expense.participants,
    split: expense.split,
    wholeGroup: expense.wholeGroup,
  };
  const namesNobody = expense.wholeGroup && expense.participants.includes(input.inv.user_id);
  if (!group?.members || !namesNobody) return typed;
  const saved = await input.deps.splitDefaults.get({
    team_id: input.inv.team_id,
    group_id: group.id,
  });
  if (!saved) return typed;
  // Read fresh: the cached group can predate someone leaving it.
  let members: Group['members'];
  try {
    members = (await client.getGroup(group.id)).members;
  } catch (error) {
    await tellServiceFailure(input, error);
    return undefined;
  }
  const gone = leftTheGroup(saved, members);
  if (gone.length > 0) {
    await input.reply.ephemeral(errorNotice(leftTheGroupText(saved, gone), EXAMPLE));
    return undefined;
  }
  return { ...defaultAsSplit(saved), wholeGroup: false, byDefault: saved };
}
