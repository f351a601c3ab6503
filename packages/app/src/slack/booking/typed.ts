/**
 * Booking an expense typed as `/split <text>`: the caller's link and profile, the group and its
 * currency, who shares it, then the booking (plan.ts) and the in-channel answer.
 */
import {
  type ParsedExpense,
  type ParseResult,
  parseCommand,
  resolveMe,
} from '../../core/command/index.js';
import {
  type Group,
  ServiceBaseException,
  type ServiceClient,
  ServiceNotAllowedException,
  ServiceNotFoundException,
} from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey, SplitDefault } from '../../store/index.js';
import { mrkdwn } from '../kit/text.js';
import { breakdownText } from '../shared/breakdown.js';
import { noGroupCalledText } from '../shared/ledger.js';
import { errorNotice, plainNotice } from '../shared/notices.js';
import { troubleText } from '../shared/parse-problem.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import { relink, type SplitContext, tellProblem } from '../shared/split-context.js';
import { TOLD, type Told, told } from '../shared/told.js';
import {
  type GroupCurrencyChoice,
  groupCurrency,
  groupCurrencyNote,
  withNote,
} from './currency.js';
import { findGroup } from './group.js';
import { bookPlan, type GroupChoice, singleUse } from './plan.js';
import {
  defaultAsSplit,
  leftTheGroup,
  leftTheGroupText,
  namesNobody,
  withDefaultNote,
} from './split-default.js';

type Booking = SplitContext<'expense'>;

const EXAMPLE = '/split 40 lunch @ann';

/**
 * When the group a `/split` would book into no longer exists on the service (get_group answers
 * 404; a group the caller is not in answers 403), forgets it (the channel's binding, or the
 * caller's default group) and tells the person; true if it did.
 */
async function unbindIfDeleted(c: Booking, client: ServiceClient): Promise<boolean> {
  const binding = c.binding;
  if (!binding) return false;
  try {
    await client.getGroup(binding.group_id);
    return false;
  } catch (error) {
    if (error instanceof ServiceNotAllowedException) return false;
    if (!(error instanceof ServiceNotFoundException)) throw error;
  }
  const { deps, inv, logger, voice } = c;
  const group = mrkdwn(binding.group_name);
  if (binding.source === 'default') {
    await deps.preferences.clearGroup(
      { team_id: inv.team_id, user_id: inv.user_id },
      binding.group_id,
    );
    logger.info({
      msg: '/split: default group {group_id} of {user_id} was deleted; cleared',
      group_id: binding.group_id,
      user_id: inv.user_id,
    });
    await tellProblem(c, voice.t('booking.default_group_deleted', { group }), EXAMPLE);
    return true;
  }
  await deps.bindings.delete({ team_id: inv.team_id, channel_id: inv.channel_id });
  logger.info({
    msg: '/split: channel {channel_id} was bound to deleted group {group_id}; unbound',
    channel_id: inv.channel_id,
    group_id: binding.group_id,
  });
  await tellProblem(c, voice.t('booking.channel_group_deleted', { group }), EXAMPLE);
  return true;
}

/** Who shares the expense and how: as typed, or the group's default split. */
interface SplitPeople {
  participants: string[];
  split: ParsedExpense['split'];
  wholeGroup: boolean;
  /** The group's default split, when it decided the people. */
  byDefault?: SplitDefault;
}

export async function bookExpense(c: Booking, record: ServiceTokenRecord): Promise<void> {
  const { deps, inv, reply, logger, voice } = c;
  const user: SlackUserKey = { team_id: inv.team_id, user_id: inv.user_id };
  const client = deps.service.forLink(record);
  const fail = (error: unknown) => tellServiceFailure(c, error);
  if (!c.profileCurrency.ok) return fail(c.profileCurrency.error);
  let expense = resolveMe(c.parsed.expense, inv.user_id);
  if ('problem' in expense) return tellProblem(c, troubleText(voice, expense.problem), EXAMPLE);
  let group: GroupChoice | null | Told;
  try {
    group = await groupOf(c, client, expense);
  } catch (error) {
    return fail(error);
  }
  if (told(group)) return;
  const inGroup = group === null ? { expense } : await inGroupsCurrency(c, client, expense, group);
  if (told(inGroup)) return;
  expense = inGroup.expense;
  const people = await splitPeople(c, client, expense, group);
  if (told(people)) return;
  const done = await bookPlan(
    {
      deps,
      user,
      record,
      client,
      lookups: c.lookups,
      tz: c.me?.tz,
      voice,
      reply,
      logger,
      // The channel's group can have been deleted since the caller's groups were cached: the
      // create is refused as not found, and that is what the person should hear.
      fail: async (error) => {
        const boundGroup = group !== null && group.id === c.binding?.group_id;
        if (boundGroup && error instanceof ServiceNotFoundException) {
          if (await unbindIfDeleted(c, client).catch(() => false)) return;
        }
        return fail(error);
      },
      problem: async (message, example) =>
        errorNotice(voice, message, example, await c.examplePeople()),
      once: inv.once ?? singleUse(),
    },
    {
      // With no description typed, the expense is named in the booker's words: the service keeps
      // that name, and it is what the message, the list and the feed show.
      description: expense.description || voice.t('split.untitled'),
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
            details: breakdownText(expense.itemised, expense.currency, voice),
          }
        : {}),
    },
  );
  if (told(done)) return;
  let { message } = done;
  if (people.byDefault)
    message = withDefaultNote(voice, message, people.byDefault, group?.name ?? '');
  if (inGroup.currencyNote) message = withNote(message, inGroup.currencyNote);
  await announceBooked(c, user, done.booked, expense, people, message);
}

/**
 * An expense typed without a currency, in a group that has its own: read again in the group's
 * currency, with a note that says so. Told when the group's currency cannot be read or the
 * amount does not fit it.
 */
async function inGroupsCurrency(
  c: Booking,
  client: Parameters<typeof groupOf>[1],
  expense: ParsedExpense,
  group: GroupChoice,
): Promise<{ expense: ParsedExpense; currencyNote?: string } | Told> {
  const { deps, inv, voice } = c;
  if (expense.currencySource !== 'default') return { expense };
  let choice: GroupCurrencyChoice | undefined;
  try {
    choice = await groupCurrency({
      deps,
      group: { team_id: inv.team_id, group_id: group.id },
      client,
    });
  } catch (error) {
    await tellServiceFailure(c, error);
    return TOLD;
  }
  if (!choice || choice.code === expense.currency) return { expense };
  // The amount is read again in the group's currency: its decimals may differ (JPY has none).
  const again = inGroupCurrency(c, choice.code);
  if (again.kind !== 'expense') {
    await tellParseProblem(c, again);
    return TOLD;
  }
  const resolved = resolveMe(again.expense, inv.user_id);
  if ('problem' in resolved) {
    await tellProblem(c, troubleText(voice, resolved.problem), EXAMPLE);
    return TOLD;
  }
  return { expense: resolved, currencyNote: groupCurrencyNote(voice, choice, group.name) };
}

/** The booked expense told to the caller, posted, and remembered for the person's list. */
async function announceBooked(
  c: Booking,
  user: SlackUserKey,
  booked: { id: number; description: string },
  expense: ParsedExpense,
  people: SplitPeople,
  message: Parameters<Booking['reply']['inChannel']>[0],
): Promise<void> {
  const { deps, inv, reply, logger } = c;
  // Told first: the expense is booked whether or not the answer can be posted.
  inv.booked?.({
    id: booked.id,
    description: booked.description || expense.description,
    cost: expense.cost,
    currency: expense.currency,
    participants: people.participants.filter((id) => !id.startsWith('svc:')),
  });
  await reply.inChannel(message);
  await deps.expenses
    .rememberBooked(user, { expense_id: booked.id, description: booked.description })
    .catch((error: Error) =>
      logger.warn({ msg: '/split: could not remember the booking: {error}', error: error.message }),
    );
}

/** The command read again with the group's currency as the one an amount without one is in. */
function inGroupCurrency(c: Booking, code: string): ParseResult {
  return parseCommand(c.inv.text, { ...c.ctx, defaultCurrency: code });
}

async function tellParseProblem(c: Booking, result: ParseResult): Promise<void> {
  if (result.kind !== 'error') {
    // The same text read with another currency is the same kind of command; anything else would
    // be a fault of the parser, and nothing is booked on a guess.
    throw new Error(`/split read as ${result.kind} in the group's currency`);
  }
  const people = await c.examplePeople();
  const message = troubleText(c.voice, result.problem, people);
  await c.reply.ephemeral(errorNotice(c.voice, message, result.problem.example, people));
}

/** A failed service call told to the person (a 401 removes the link and asks to connect again). */
async function tellServiceFailure(c: Booking, error: unknown): Promise<void> {
  const failure = describeServiceFailure(c.voice, error, c.voice.t('common.nothing_booked'));
  if (failure.relink) return relink(c);
  if (!(error instanceof ServiceBaseException)) throw error;
  c.logger.warn({
    msg: '/split: service call failed: {error_name}: {error}',
    error_name: error.name,
    error: error.message,
  });
  await c.reply.ephemeral(plainNotice(failure.text));
}

/**
 * The group the expense goes into: the one named in the text, else the channel's (or the
 * caller's default); null for none; TOLD once the person was told why not.
 */
async function groupOf(
  c: Booking,
  client: ServiceClient,
  expense: ParsedExpense,
): Promise<GroupChoice | null | Told> {
  if (expense.group !== null) return namedGroup(c, client, expense.group);
  if (expense.noGroup) return null;
  const binding = c.binding;
  if (!binding) return null;
  const found = await findGroup(c.deps, c.user, client, binding.group_id);
  if (found) {
    return {
      id: found.id,
      name: found.name,
      members: expense.wholeGroup ? found.members : undefined,
    };
  }
  if (await unbindIfDeleted(c, client)) return TOLD;
  const group = mrkdwn(binding.group_name);
  const none = c.voice.t('booking.no_group_words');
  await tellProblem(
    c,
    binding.source === 'channel'
      ? c.voice.t('booking.channel_group_hidden', { group, none })
      : c.voice.t('booking.default_group_gone', { group, none }),
    outsideExample(c.inv.text, expense, none),
  );
  return TOLD;
}

/**
 * The way out of a group the person cannot book into: what they typed with `no group` added, so
 * that the example books it (a long command gets the short example with the words instead).
 */
function outsideExample(typed: string, expense: ParsedExpense, none: string): string {
  const own = typed.trim();
  if (expense.wholeGroup || own.length > 200) return `${EXAMPLE} ${none}`;
  return `/split ${own} ${none}`;
}

/** The caller's group called `name` (a fresh list when the cached one lacks it), or told not. */
async function namedGroup(
  c: Booking,
  client: ServiceClient,
  name: string,
): Promise<GroupChoice | Told> {
  const user = { team_id: c.inv.team_id, user_id: c.inv.user_id };
  const wanted = name.trim().toLowerCase();
  const named = (list: Group[]) =>
    list.filter((g) => g.id !== 0).find((g) => g.name.trim().toLowerCase() === wanted);
  let groups = await c.deps.directory.groups(user, client);
  let found = named(groups);
  if (!found) {
    groups = await c.deps.directory.groups(user, client, true);
    found = named(groups);
  }
  if (found) return { id: found.id, name: found.name, members: found.members };
  const real = groups.filter((g) => g.id !== 0);
  await tellProblem(
    c,
    noGroupCalledText(c.voice, name, real),
    real[0] ? `/split 40 lunch in ${real[0].name}` : EXAMPLE,
  );
  return TOLD;
}

/**
 * Who shares the expense: as typed, unless it goes into a group and names nobody, when the
 * group's default split (if it has one) decides. TOLD once the person was told why not.
 */
async function splitPeople(
  c: Booking,
  client: ServiceClient,
  expense: ParsedExpense,
  group: GroupChoice | null,
): Promise<SplitPeople | Told> {
  const typed = {
    participants: expense.participants,
    split: expense.split,
    wholeGroup: expense.wholeGroup,
  };
  const nobody =
    expense.wholeGroup &&
    expense.participants.includes(c.inv.user_id) &&
    namesNobody(expense.participants, c.inv.user_id);
  if (!group?.members || !nobody) return typed;
  const saved = await c.deps.splitDefaults.get({
    team_id: c.inv.team_id,
    group_id: group.id,
  });
  if (!saved) return typed;
  // Read fresh: the cached group can predate someone leaving it.
  let members: Group['members'];
  try {
    members = (await client.getGroup(group.id)).members;
  } catch (error) {
    await tellServiceFailure(c, error);
    return TOLD;
  }
  const gone = leftTheGroup(saved, members);
  if (gone.length > 0) {
    await tellProblem(c, leftTheGroupText(c.voice, saved, gone), EXAMPLE);
    return TOLD;
  }
  return { ...defaultAsSplit(saved), wholeGroup: false, byDefault: saved };
}
