/**
 * Booking a planned expense, shared by `/split <text>` and the expense form: the people, exact
 * shares, one create_expense, and the answer. A create whose outcome is unknown (timeout, lost
 * connection, 5xx) is never sent again: it is looked for, and the person is told whether it was
 * booked.
 */
import type { Logger } from '@slack/bolt';
import { type ResolveProblem, resolvePeople } from '../../accounts/people.js';
import { currencyExponent, parseMinor, toWireAmount } from '../../core/money.js';
import { computeShares, type Split } from '../../core/split.js';
import {
  type Expense,
  type ExpenseShare,
  type GroupMember,
  type PersonRef,
  type RepeatInterval,
  ServiceBaseException,
  type ServiceClient,
  ServiceServerException,
  ServiceTimeoutException,
} from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { middayIn } from './dates.js';
import { type BookedExpense, expenseMessage, type Who } from './expense-message.js';
import type { SlackMessage } from './message.js';
import { plainNotice } from './notices.js';
import type { Reply } from './reply.js';
import { refusedText } from './service-failure.js';

export const NOTHING_BOOKED = 'Nothing was booked.';
/** How far before an attempt a found expense may have been created and still be that attempt. */
const RECONCILE_SKEW_MS = 10_000;

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

export interface GroupChoice {
  id: number;
  name: string;
  members: GroupMember[] | undefined;
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
