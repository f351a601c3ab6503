/**
 * Booking a planned expense, shared by `/split <text>` and the expense form: the people, exact
 * shares, one create_expense, and the answer. Every create carries a marker in its notes, derived
 * from the command; a create whose outcome is unknown (timeout, lost connection, 5xx, a crash) is
 * never sent again while it may still land: its marker is looked for until the service can no
 * longer apply it, and the person is told the outcome.
 */

import { randomUUID } from 'node:crypto';
import type { Logger } from '@slack/bolt';
import { type ResolveProblem, resolvePeople } from '../../accounts/people.js';
import type { BillSummary } from '../../core/itemise.js';
import { currencyExponent, toWireAmount } from '../../core/money.js';
import { computeShares, type ExactSplitValue, type Split } from '../../core/split.js';
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
import { type BookedExpense, expenseMessage, receiptUrlOf, type Who } from './expense-message.js';
import { bookingMarker, carriesMarker, type Once, withMarker } from './marker.js';
import type { SlackMessage } from './message.js';
import { plainNotice } from './notices.js';
import type { Reply } from './reply.js';
import { refusedText } from './service-failure.js';

export const NOTHING_BOOKED = 'Nothing was booked.';

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
interface BookPlan {
  description: string;
  cost: number;
  currency: string;
  /** yyyy-MM-dd */
  date: string;
  /** Slack user id; the first of several payers. */
  payer: string;
  /** When several paid: what each paid (minor units, Slack ids), adding up to `cost`. */
  payers?: ExactSplitValue[] | undefined;
  /** Slack user ids, in the order that gives leftover units first. */
  participants: string[];
  /** Everyone in `group` shares it besides `participants`. */
  wholeGroup: boolean;
  split: Split;
  group: GroupChoice | null;
  category_id?: number | undefined;
  details?: string | undefined;
  /** An itemised bill's subtotal, tip and tax, shown in the answer. */
  itemised?: BillSummary | undefined;
  repeat_interval?: RepeatInterval | undefined;
  /** Path of a receipt file to attach. */
  receipt?: string | undefined;
  /** A payment between two people (the payer pays the one participant back), not an expense. */
  payment?: boolean | undefined;
}

interface PlanInput {
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
  once: Once;
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
  const slackIds = [
    ...new Set([
      ...expense.participants,
      expense.payer,
      ...(expense.payers ?? []).map((p) => p.id),
    ]),
  ];
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
    payers: expense.payers,
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

  let booked: Expense | undefined;
  if (input.once.sentAt !== undefined) {
    // An earlier run sent this create and stopped before it heard back (a crash): it may have
    // been applied, or may still be, so it is looked for until it can no longer land.
    const found = await settle(
      input,
      expense.description,
      expense.date,
      group?.id,
      input.once.sentAt,
    );
    if (found === 'unknown') {
      await reply.ephemeral(plainNotice(uncheckedText(`"${expense.description}"`, undefined)));
      return undefined;
    }
    if (found) {
      logger.info(`/split: reconciled: expense ${found.id} was created before a restart`);
      booked = found;
    }
  }
  if (!booked) {
    const sentAt = Date.now();
    // Recorded before the create goes out, so that whoever resumes this work after a crash
    // looks for the expense before sending it again.
    await input.once.sending(sentAt);
    try {
      const result = await client.createExpense({
        description: expense.description,
        ...(plan.payment ? { payment: true } : {}),
        cost: toWireAmount(expense.cost, exponent),
        currency_code: expense.currency,
        date: middayIn(expense.date, input.tz),
        ...(group ? { group_id: group.id } : {}),
        ...(plan.category_id ? { category_id: plan.category_id } : {}),
        details: withMarker(plan.details, input.once.marker),
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
    } catch (error) {
      if (!(error instanceof ServiceBaseException) || !error.outcome_unknown) {
        await fail(error);
        return undefined;
      }
      logger.warn(`/split: create_expense outcome unknown (${error.name}); reconciling`);
      const found = await settle(input, expense.description, expense.date, group?.id, sentAt);
      const what = `"${expense.description}"`;
      const cause =
        error instanceof ServiceServerException
          ? `The expense service failed while booking ${what} (HTTP ${error.http_status}).`
          : error instanceof ServiceTimeoutException
            ? `The expense service didn't answer in time while booking ${what}.`
            : `The connection to the expense service broke while booking ${what}.`;
      if (found === 'unknown') {
        await reply.ephemeral(plainNotice(uncheckedText(what, cause)));
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
    }
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
    repeat: plan.repeat_interval && plan.repeat_interval !== 'never' ? plan.repeat_interval : null,
    ...(plan.itemised ? { itemised: plan.itemised } : {}),
    receiptUrl: receiptUrlOf(booked.receipt),
  };
  return { booked, message: expenseMessage(message) };
}

function uncheckedText(what: string, cause: string | undefined): string {
  const whether = cause
    ? `${cause} I couldn't check whether it`
    : `I couldn't check whether ${what}`;
  return `${whether} was booked: look at your recent expenses before trying again, so that it isn't booked twice.`;
}

/** For a booking no durable job carries (a command run after linking): a marker of its own. */
export function singleUse(): Once {
  return { marker: bookingMarker(randomUUID()), sentAt: undefined, sending: async () => undefined };
}

/** Past this, a person waiting for the outcome is told it is being checked (once). */
const SLOW_NOTICE_MS = 5_000;

/**
 * Settles a create whose outcome is unknown: looks for its marker until it is found, or until
 * the service can no longer apply a request sent at `sentAt` (`settleMs` later) and a look after
 * that moment still does not find it. Returns the expense, null when it certainly was not booked,
 * or 'unknown' when the service could not be read for long after that moment either.
 */
async function settle(
  input: PlanInput,
  description: string,
  date: string,
  groupId: number | undefined,
  sentAt: number,
): Promise<Expense | null | 'unknown'> {
  const { deps, client, reply, logger } = input;
  const horizon = sentAt + deps.settleMs;
  // Reads that fail past the horizon are tried a while longer: the answer must be certain.
  const giveUp = horizon + Math.max(deps.settleMs, 10 * deps.reconcileDelayMs);
  const pause = Math.max(deps.reconcileDelayMs, 100);
  let told = false;
  let wait = deps.reconcileDelayMs;
  for (;;) {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    wait = pause;
    const lookedAt = Date.now();
    const found = await findBooking(client, input.once.marker, date, groupId);
    if (found !== null && found !== 'unknown') return found;
    if (found === null && lookedAt >= horizon) return null;
    if (lookedAt >= giveUp) return 'unknown';
    if (!told && horizon - lookedAt > SLOW_NOTICE_MS) {
      told = true;
      logger.info(`/split: create of "${description}" not settled yet; told the person`);
      await reply
        .ephemeral(
          plainNotice(
            `The expense service hasn't confirmed "${description}" yet. Please don't book it again: I'm checking, and I'll tell you here whether it was booked.`,
          ),
        )
        .catch((error: Error) => logger.warn(`/split: could not tell: ${error.message}`));
    }
  }
}

/**
 * The expense carrying `marker`, among the expenses dated around `date` (the date this app sent,
 * so no clock needs to agree) in the group it was booked into, else among the caller's own; null
 * when none does, 'unknown' when the read failed.
 */
export async function findBooking(
  client: ServiceClient,
  marker: string,
  date: string,
  groupId: number | undefined,
): Promise<Expense | null | 'unknown'> {
  const day = Date.parse(`${date}T00:00:00Z`);
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  let around: Expense[];
  try {
    around = await client.getExpenses({
      // Two days either side: the service compares dates in its own time zone.
      dated_after: iso(day - 2 * DAY_MS),
      dated_before: iso(day + 3 * DAY_MS),
      // A group expense the caller only booked (not shares in) is listed under its group only.
      ...(groupId ? { group_id: groupId } : {}),
      limit: 0,
    });
  } catch {
    return 'unknown';
  }
  const marked = around.filter((e) => carriesMarker(e.details, marker));
  // A booking deleted since still was booked: it is reported, never booked again.
  return marked.find((e) => !e.deleted_at) ?? marked[0] ?? null;
}

const DAY_MS = 24 * 60 * 60_000;

/** For a create made outside `bookPlan` (a payment of part of a debt): the same settling. */
export { settle as settleUnknown };
