/**
 * Booking an expense typed as `/split <text>`: the caller's link and profile, the group, the
 * people, exact shares, one create_expense, and the in-channel answer. A create whose outcome is
 * unknown (timeout, lost connection, 5xx) is never sent again: it is looked for, and the person
 * is told whether it was booked.
 */
import type { Logger } from '@slack/bolt';
import { type ResolveProblem, resolvePeople } from '../../accounts/people.js';
import { type ParsedExpense, resolveMe } from '../../core/command.js';
import { currencyExponent, parseMinor, toWireAmount } from '../../core/money.js';
import { computeShares, type Split } from '../../core/split.js';
import {
  type Expense,
  type ExpenseShare,
  type Group,
  type GroupMember,
  type PersonRef,
  type RepeatInterval,
  ServiceBaseException,
  type ServiceClient,
  ServiceNotAllowedException,
  ServiceNotFoundException,
  ServiceServerException,
  ServiceTimeoutException,
} from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { Reply } from '../reply.js';
import { describeServiceFailure, refusedText } from '../service-failure.js';
import { type BookedExpense, expenseMessage, type Who } from '../views/expense-message.js';
import type { SlackMessage } from '../views/message.js';
import { errorNotice, plainNotice } from '../views/notices.js';
import type { BoundGroup, ProfileCurrency, SplitInvocation } from './context.js';
import { middayIn } from './dates.js';

const NOTHING_BOOKED = 'Nothing was booked.';
/** How far before an attempt a found expense may have been created and still be that attempt. */
const RECONCILE_SKEW_MS = 10_000;

export interface BookInput {
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

/** Why a mentioned person can't be on an expense or in a group, and what to do about it. */
export function problemText(problem: ResolveProblem): string {
  switch (problem.kind) {
    case 'bot':
      return `<@${problem.user_id}> is an app, not a person: leave them out.`;
    case 'deleted':
      return `<@${problem.user_id}> is no longer in this workspace: leave them out.`;
    case 'no_email':
      return `I can't see <@${problem.user_id}>'s e-mail address in Slack, and they haven't connected an expense account. Ask them to type \`/split connect\` once, then try again.`;
  }
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

export interface GroupChoice {
  id: number;
  name: string;
  members: GroupMember[] | undefined;
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
    },
    {
      description: expense.description,
      cost: expense.cost,
      currency: expense.currency,
      date: expense.date,
      payer: expense.payer,
      participants: expense.participants,
      wholeGroup: expense.wholeGroup,
      split: expense.split,
      group,
    },
  );
  if (!done) return;
  await reply.inChannel(done.message);
  await deps.expenses
    .rememberBooked(user, { expense_id: done.booked.id, description: done.booked.description })
    .catch((error: Error) =>
      logger.warn(`/split: could not remember the booking: ${error.message}`),
    );
}

/** An expense ready to book: amounts in minor units, people as Slack ids, the group chosen. */
export interface BookPlan {
  description: string;
  cost: number;
  currency: string;
  /** yyyy-MM-dd */
  date: string;
  /** Slack user id. */
  payer: string;
  /** Slack user ids, in the order that gives leftover units first. */
  participants: string[];
  /** Everyone in `group` shares it besides `participants`. */
  wholeGroup: boolean;
  split: Split;
  group: GroupChoice | null;
  category_id?: number | undefined;
  details?: string | undefined;
  repeat_interval?: RepeatInterval | undefined;
  /** Path of a receipt file to attach. */
  receipt?: string | undefined;
}

export interface PlanInput {
  deps: SlackDeps;
  user: SlackUserKey;
  record: ServiceTokenRecord;
  client: ServiceClient;
  tz: string | undefined;
  locale: string | undefined;
  /** Where problems go, privately. */
  reply: Reply;
  logger: Logger;
  /** Reports a failed service call (relinking on a 401). */
  fail(error: unknown): Promise<void>;
  /** How a problem reads: with a `/split` example when typed, plainly from the form. */
  problem(message: string, example: string): SlackMessage;
}

/**
 * Books a planned expense: the people, exact shares, one create_expense (reconciled when its
 * outcome is unknown). Returns the expense and its message, or undefined once the person has been
 * told why not. Shared by `/split <text>` and the expense form.
 */
export async function bookPlan(
  input: PlanInput,
  plan: BookPlan,
): Promise<{ booked: Expense; message: SlackMessage } | undefined> {
  const { deps, user, record, client, reply, logger, fail } = input;
  const inv = { team_id: user.team_id, user_id: user.user_id };
  const expense = plan;
  const group = plan.group;
  const problem = (message: string, example: string) =>
    reply.ephemeral(input.problem(message, example)).then(() => undefined);
  // People: Slack users first, then (whole group) the group's other members.
  const slackIds = [...new Set([...expense.participants, expense.payer])];
  let people: Awaited<ReturnType<typeof resolvePeople>>;
  try {
    people = await resolvePeople({
      caller: { ...user, service_user_id: record.service_user_id },
      ids: slackIds,
      tokens: deps.tokens,
      directory: deps.directory,
      client,
    });
  } catch (error) {
    if (error instanceof ServiceBaseException) return fail(error).then(() => undefined);
    logger.warn(`/split: Slack lookup failed: ${(error as Error).message}`);
    await reply.ephemeral(
      plainNotice(
        `I couldn't look up the people you mentioned in Slack. ${NOTHING_BOOKED} Try again in a minute.`,
      ),
    );
    return undefined;
  }
  if ('problem' in people) return problem(problemText(people.problem), '/split 40 lunch @ann');
  const refs = new Map<string, PersonRef>();
  const whos = new Map<string, Who>();
  for (const [id, person] of people.people) {
    refs.set(id, person.ref);
    whos.set(id, { slack: id });
  }
  const participants = [...expense.participants];
  if (expense.wholeGroup && group?.members) {
    const taken = new Set<number>([record.service_user_id]);
    for (const ref of refs.values()) if ('user_id' in ref) taken.add(ref.user_id);
    const others = group.members.filter((m) => !taken.has(m.id));
    // Members who are in this workspace are mentioned (and so notified); the rest are named.
    const slackIds = await Promise.all(
      others.map((m) =>
        m.email ? deps.directory.slackIdByEmail(inv.team_id, m.email).catch(() => null) : null,
      ),
    );
    others.forEach((member, i) => {
      const key = `svc:${member.id}`;
      participants.push(key);
      refs.set(key, { user_id: member.id });
      const slackId = slackIds[i];
      whos.set(
        key,
        slackId
          ? { slack: slackId }
          : { name: [member.first_name, member.last_name].filter(Boolean).join(' ') },
      );
    });
  }
  if (participants.length === 0) {
    return problem('Nobody is left to share it: mention someone.', '/split 40 lunch @ann');
  }

  const shares = computeShares({
    cost: expense.cost,
    payer: expense.payer,
    participants,
    split: expense.split,
  });
  if ('error' in shares) {
    return problem(`That doesn't add up: ${shares.error}.`, '/split 40 lunch @ann 25 @bob 15');
  }
  const exponent = currencyExponent(expense.currency);
  const users: ExpenseShare[] = shares.shares.map((row) => ({
    ...(refs.get(row.id) as PersonRef),
    paid_share: toWireAmount(row.paid, exponent),
    owed_share: toWireAmount(row.owed, exponent),
  }));

  const startedAt = deps.now();
  let booked: Expense;
  try {
    const result = await client.createExpense({
      description: expense.description,
      cost: toWireAmount(expense.cost, exponent),
      currency_code: expense.currency,
      date: middayIn(expense.date, input.tz),
      ...(group ? { group_id: group.id } : {}),
      ...(plan.category_id ? { category_id: plan.category_id } : {}),
      ...(plan.details ? { details: plan.details } : {}),
      ...(plan.repeat_interval && plan.repeat_interval !== 'never'
        ? { repeat_interval: plan.repeat_interval }
        : {}),
      ...(plan.receipt ? { receipt: plan.receipt } : {}),
      users,
    });
    if (!result.expense) {
      await reply.ephemeral(plainNotice(refusedText(result.errors, NOTHING_BOOKED)));
      return undefined;
    }
    booked = result.expense;
    deps.booked.set(String(booked.id), true);
  } catch (error) {
    if (!(error instanceof ServiceBaseException) || !error.outcome_unknown) {
      await fail(error);
      return undefined;
    }
    logger.warn(`/split: create_expense outcome unknown (${error.name}); reconciling`);
    const found = await reconcile(client, deps, {
      startedAt,
      description: expense.description,
      cost: expense.cost,
      currency: expense.currency,
      creator: record.service_user_id,
    });
    const what = `"${expense.description}"`;
    const cause =
      error instanceof ServiceServerException
        ? `The expense service failed while booking ${what} (HTTP ${error.http_status}).`
        : error instanceof ServiceTimeoutException
          ? `The expense service didn't answer in time while booking ${what}.`
          : `The connection to the expense service broke while booking ${what}.`;
    if (found === 'unknown') {
      await reply.ephemeral(
        plainNotice(
          `${cause} I couldn't check whether it was booked: look at your recent expenses before trying again, so that it isn't booked twice.`,
        ),
      );
      return undefined;
    }
    if (found === null) {
      await reply.ephemeral(
        plainNotice(`${cause} I checked: it was not booked, so it's safe to try again.`),
      );
      return undefined;
    }
    logger.info(`/split: reconciled: expense ${found.id} was created`);
    booked = found;
    deps.booked.set(String(booked.id), true);
  }

  const message: BookedExpense = {
    id: booked.id,
    description: booked.description || expense.description,
    cost: expense.cost,
    currency: expense.currency,
    date: expense.date,
    payer: whos.get(expense.payer) ?? { slack: expense.payer },
    lines: shares.shares.map((row) => ({
      who: whos.get(row.id) ?? { slack: row.id },
      paid: row.paid,
      owed: row.owed,
    })),
    group: group?.name ?? null,
    split: expense.split.kind,
    bookedBy: inv.user_id,
    locale: input.locale,
  };
  return { booked, message: expenseMessage(message) };
}

/**
 * Looks for the expense a create with an unknown outcome may have made: same creator,
 * description, cost and currency, updated since shortly before the attempt. Returns it, null when
 * it is certainly not there, or 'unknown' when the service cannot be asked either.
 */
export async function reconcile(
  client: ServiceClient,
  deps: Pick<SlackDeps, 'reconcileDelayMs' | 'booked'>,
  attempt: {
    startedAt: Date;
    description: string;
    cost: number;
    currency: string;
    creator: number;
  },
): Promise<Expense | null | 'unknown'> {
  if (deps.reconcileDelayMs > 0) {
    await new Promise((resolve) => setTimeout(resolve, deps.reconcileDelayMs));
  }
  // A little before the attempt, for clock skew between this app and the service; not more, so
  // that the same expense booked on purpose a minute earlier is not taken for this one.
  const since = attempt.startedAt.getTime() - RECONCILE_SKEW_MS;
  let recent: Expense[];
  try {
    recent = await client.getExpenses({
      updated_after: new Date(since),
      limit: 100,
      visible: true,
    });
  } catch {
    return 'unknown';
  }
  const exponent = currencyExponent(attempt.currency);
  const matches = recent.filter((e) => {
    if (e.deleted_at || e.payment || deps.booked.get(String(e.id))) return false;
    if (e.description.trim() !== attempt.description.trim()) return false;
    if (e.currency_code !== attempt.currency) return false;
    if ((e.created_by?.id ?? attempt.creator) !== attempt.creator) return false;
    if (Date.parse(e.created_at) < since) return false;
    try {
      return parseMinor(e.cost, exponent) === attempt.cost;
    } catch {
      return false;
    }
  });
  matches.sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
  return matches[0] ?? null;
}
