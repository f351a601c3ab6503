/**
 * Booking a planned expense, shared by `/split <text>`, `/split paid` and the expense form: the
 * people, exact shares, one create_expense, and the answer. Every create carries a marker in its
 * notes, derived from the command; a create whose outcome is unknown (timeout, lost connection,
 * 5xx, a crash) is never sent again while it may still land (reconcile.ts), and the person is
 * told the outcome.
 */

import { randomUUID } from 'node:crypto';
import type { Logger } from '@slack/bolt';
import type { LookupBudget } from '../../accounts/lookups.js';
import { type ResolveProblem, resolvePeople } from '../../accounts/people.js';
import type { BillSummary } from '../../core/itemise.js';
import { currencyExponent, toWireAmount } from '../../core/money.js';
import { computeShares, type ExactSplitValue, type Split } from '../../core/split.js';
import {
  type Expense,
  type ExpenseShare,
  type GroupMember,
  type NewExpense,
  type PersonRef,
  type RepeatInterval,
  ServiceBaseException,
  type ServiceClient,
  ServiceServerException,
  ServiceTimeoutException,
} from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { MessageKey } from '../../voice/index.js';
import type { SlackDeps } from '../deps.js';
import { MAX_PEOPLE } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mention, mrkdwn } from '../kit/text.js';
import type { Reply } from '../runtime/reply.js';
import { middayIn } from '../shared/dates.js';
import { plainNotice } from '../shared/notices.js';
import { refusedText } from '../shared/service-failure.js';
import { TOLD, type Told, told } from '../shared/told.js';
import type { Voice } from '../shared/voice.js';
import { type BookedExpense, expenseMessage, receiptUrlOf, type Who } from './expense-message.js';
import { bookingMarker, type Once, withMarker } from './marker.js';
import { type Lookout, lookUntilSettled, type SentCreate } from './reconcile.js';

const RESOLVE_KEYS: Record<ResolveProblem['kind'], MessageKey> = {
  bot: 'booking.not_a_person',
  deleted: 'booking.left_workspace',
  no_email: 'booking.no_email',
};

/** Why a mentioned person can't be on an expense or in a group, and what to do about it. */
export function problemText(voice: Voice, problem: ResolveProblem): string {
  return voice.t(RESOLVE_KEYS[problem.kind], { person: mention(problem.user_id) });
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
  /** The request's Slack lookups: the people named, and a group's members. */
  lookups: LookupBudget;
  tz: string | undefined;
  /** The booker's: the answer and every problem are written in it. */
  voice: Voice;
  /** Where problems go, privately. */
  reply: Reply;
  logger: Logger;
  /** Reports a failed service call (relinking on a 401). */
  fail(error: unknown): Promise<void>;
  /**
   * How a problem reads (mrkdwn in the booker's voice): with a `/split` form when typed (`@ann`
   * standing for a person), plainly from the form.
   */
  problem(message: string, example: string): SlackMessage | Promise<SlackMessage>;
  once: Once;
}

/** The people on an expense: Slack ids (or `svc:<id>` for members known only to the service). */
interface People {
  /** In the order that gives leftover units first. */
  participants: string[];
  refs: Map<string, PersonRef>;
  whos: Map<string, Who>;
}

type Booked = { booked: Expense; message: SlackMessage };

/** Tells the person privately why nothing was booked. */
async function tell(input: PlanInput, text: string): Promise<Told> {
  await input.reply.ephemeral(plainNotice(text));
  return TOLD;
}

async function tellProblem(input: PlanInput, text: string, example: string): Promise<Told> {
  await input.reply.ephemeral(await input.problem(text, example));
  return TOLD;
}

/**
 * Books a planned expense: the people, exact shares, one create_expense (reconciled when its
 * outcome is unknown). Returns the expense and its message, or TOLD once the person has been
 * told why not. Shared by `/split <text>`, `/split paid` and the expense form.
 */
export async function bookPlan(input: PlanInput, plan: BookPlan): Promise<Booked | Told> {
  const people = await peopleOn(input, plan);
  if (told(people)) return TOLD;
  if (people.participants.length === 0) {
    return tellProblem(input, input.voice.t('booking.nobody_left'), '/split 40 lunch @ann');
  }
  const rows = shareRows({ ...plan, participants: people.participants }, (id) =>
    people.refs.get(id),
  );
  if (!rows) {
    return tellProblem(
      input,
      input.voice.t('parse.does_not_add_up'),
      '/split 40 lunch @ann 25 @bob 15',
    );
  }
  const { shares, users } = rows;
  const booked = await createOnce(input, plan, users);
  if (told(booked)) return TOLD;
  // The message the channel sees is written in the voice of the person who booked it.
  return {
    booked,
    message: expenseMessage(bookedMessage(input, plan, booked, { shares }, people), input.voice),
  };
}

/** Who paid and who shares an expense, and how: what its shares are computed from. */
export interface SharesOf {
  /** Minor units. */
  cost: number;
  currency: string;
  payer: string;
  payers?: ExactSplitValue[] | undefined;
  participants: string[];
  split: Split;
}

/**
 * An expense's rows as the service takes them: exact shares that add up to the cost
 * (core/split.ts), written as wire amounts, each person as `refOf` names them. Undefined when the
 * split does not add up. The one computation a new expense and an edit both send.
 */
export function shareRows(
  of: SharesOf,
  refOf: (id: string) => PersonRef | undefined,
):
  | { shares: Array<{ id: string; paid: number; owed: number }>; users: ExpenseShare[] }
  | undefined {
  const computed = computeShares({
    cost: of.cost,
    payer: of.payer,
    participants: of.participants,
    split: of.split,
    payers: of.payers,
  });
  if ('error' in computed) return undefined;
  const exponent = currencyExponent(of.currency);
  // The shares first and the person's fields copied onto them: new fields after a spread go
  // through V8's runtime on Node 20, and so do later reads of the copy (the encoding of the call).
  const users = computed.shares.map(
    (row): ExpenseShare =>
      Object.assign(
        {
          paid_share: toWireAmount(row.paid, exponent),
          owed_share: toWireAmount(row.owed, exponent),
        },
        refOf(row.id) as PersonRef,
      ),
  );
  return { shares: computed.shares, users };
}

/**
 * Who is on the expense as the service knows them: the Slack users mentioned, then (a whole
 * group) the group's other members; TOLD once the person was told who could not be.
 */
async function peopleOn(input: PlanInput, plan: BookPlan): Promise<People | Told> {
  const mentioned = await lookUpMentioned(input, plan);
  if (told(mentioned)) return TOLD;
  const people: People = { participants: [...plan.participants], refs: new Map(), whos: new Map() };
  for (const [id, person] of mentioned) {
    people.refs.set(id, person.ref);
    people.whos.set(id, { slack: id });
  }
  if (plan.wholeGroup && plan.group?.members) {
    const group = { name: plan.group.name, members: plan.group.members };
    const added = await addOtherMembers(input, group, people, mentioned.size);
    if (told(added)) return TOLD;
  }
  return people;
}

/** The Slack users the plan names (participants and payers), resolved to service people. */
async function lookUpMentioned(
  input: PlanInput,
  plan: BookPlan,
): Promise<Map<string, { ref: PersonRef }> | Told> {
  const { user, record, deps } = input;
  const ids = [
    ...new Set([...plan.participants, plan.payer, ...(plan.payers ?? []).map((p) => p.id)]),
  ];
  // Each person is a Slack lookup: more than an expense can have is refused before any.
  if (ids.length > MAX_PEOPLE) {
    const text = input.voice.t('booking.too_many', { count: ids.length, max: MAX_PEOPLE });
    return tellProblem(input, text, '/split 40 lunch @ann');
  }
  try {
    const found = await resolvePeople({
      caller: {
        team_id: user.team_id,
        user_id: user.user_id,
        service_user_id: record.service_user_id,
      },
      ids,
      tokens: deps.tokens,
      directory: deps.directory,
      lookups: input.lookups,
      client: input.client,
    });
    if ('problem' in found) {
      return tellProblem(input, problemText(input.voice, found.problem), '/split 40 lunch @ann');
    }
    return found.people;
  } catch (error) {
    if (error instanceof ServiceBaseException) return input.fail(error).then(() => TOLD);
    input.logger.warn({
      msg: '/split: Slack lookup failed: {error}',
      error: (error as Error).message,
    });
    return tell(input, input.voice.t('booking.lookup_failed'));
  }
}

/**
 * The group's members not already on the expense (nor the caller): those in this workspace are
 * mentioned (and so notified), the rest are named. TOLD once the person was told that the
 * group has more members than an expense can have.
 */
async function addOtherMembers(
  input: PlanInput,
  group: { name: string; members: GroupMember[] },
  people: People,
  named: number,
): Promise<true | Told> {
  const taken = new Set<number>([input.record.service_user_id]);
  for (const ref of people.refs.values()) if ('user_id' in ref) taken.add(ref.user_id);
  const others = group.members.filter((m) => !taken.has(m.id));
  const everyone = named + others.length;
  if (everyone > MAX_PEOPLE) {
    const text = input.voice.t('booking.too_many_in_group', {
      count: everyone,
      max: MAX_PEOPLE,
      group: mrkdwn(group.name),
      members: group.members.length,
    });
    return tellProblem(input, text, '/split 40 lunch @ann');
  }
  const slackIds = await Promise.all(
    others.map((m) =>
      m.email
        ? input.deps.directory
            .slackIdByEmail(input.user.team_id, m.email, input.lookups)
            .catch(() => null)
        : null,
    ),
  );
  others.forEach((member, i) => {
    const key = `svc:${member.id}`;
    const slackId = slackIds[i];
    people.participants.push(key);
    people.refs.set(key, { user_id: member.id });
    people.whos.set(
      key,
      slackId
        ? { slack: slackId }
        : { name: [member.first_name, member.last_name].filter(Boolean).join(' ') },
    );
  });
  return true;
}

/**
 * The plan's create_expense, made once however many runs it takes: a create an earlier run sent
 * is looked for before anything is sent again. TOLD once the person was told why not.
 */
async function createOnce(
  input: PlanInput,
  plan: BookPlan,
  users: ExpenseShare[],
): Promise<Expense | Told> {
  const { sentAt } = input.once;
  if (sentAt !== undefined) {
    // An earlier run sent this create and stopped before it heard back (a crash): it may have
    // been applied, or may still be, so it is looked for until it can no longer land.
    const found = await lookUntilSettled(lookout(input, plan), sentCreate(plan, sentAt));
    if (found === 'unknown') {
      return tell(input, input.voice.t('booking.unchecked', { what: mrkdwn(plan.description) }));
    }
    if (found) {
      input.logger.info({
        msg: '/split: reconciled: expense {found_id} was created before a restart',
        found_id: found.id,
      });
      return found;
    }
  }
  return sendCreate(input, plan, users);
}

async function sendCreate(
  input: PlanInput,
  plan: BookPlan,
  users: ExpenseShare[],
): Promise<Expense | Told> {
  const sentAt = Date.now();
  // Recorded before the create goes out, so that whoever resumes this work after a crash looks
  // for the expense before sending it again.
  await input.once.sending(sentAt);
  try {
    const result = await input.client.createExpense(newExpense(input, plan, users));
    if (result.expense) return result.expense;
    return tell(
      input,
      refusedText(input.voice, result.errors, input.voice.t('common.nothing_booked')),
    );
  } catch (error) {
    if (!(error instanceof ServiceBaseException) || !error.outcome_unknown) {
      await input.fail(error);
      return TOLD;
    }
    return settleUnknownCreate(input, plan, error, sentAt);
  }
}

function newExpense(input: PlanInput, plan: BookPlan, users: ExpenseShare[]): NewExpense {
  const repeats = plan.repeat_interval && plan.repeat_interval !== 'never';
  // One literal, then the optional fields: conditional spreads in a literal make V8 define every
  // later field through its runtime.
  const expense: NewExpense = {
    description: plan.description,
    cost: toWireAmount(plan.cost, currencyExponent(plan.currency)),
    currency_code: plan.currency,
    date: middayIn(plan.date, input.tz),
    details: withMarker(plan.details, input.once.marker),
    users,
  };
  if (plan.payment) expense.payment = true;
  if (plan.group) expense.group_id = plan.group.id;
  if (plan.category_id) expense.category_id = plan.category_id;
  if (repeats) expense.repeat_interval = plan.repeat_interval;
  if (plan.receipt) expense.receipt = plan.receipt;
  return expense;
}

/** A create that timed out, lost its connection or met a 5xx: booked or not, the person hears. */
async function settleUnknownCreate(
  input: PlanInput,
  plan: BookPlan,
  error: ServiceBaseException,
  sentAt: number,
): Promise<Expense | Told> {
  input.logger.warn({
    msg: '/split: create_expense outcome unknown ({error_name}); reconciling',
    error_name: error.name,
  });
  const found = await lookUntilSettled(lookout(input, plan), sentCreate(plan, sentAt));
  const { voice } = input;
  const what = mrkdwn(plan.description);
  const cause =
    error instanceof ServiceServerException
      ? voice.t('booking.failed_server', { what })
      : error instanceof ServiceTimeoutException
        ? voice.t('booking.failed_timeout', { what })
        : voice.t('booking.failed_connection', { what });
  if (found === 'unknown') return tell(input, voice.t('booking.unchecked_after', { cause }));
  if (found === null) return tell(input, voice.t('booking.not_booked_after', { cause }));
  input.logger.info({
    msg: '/split: reconciled: expense {found_id} was created',
    found_id: found.id,
  });
  return found;
}

function lookout(input: PlanInput, plan: BookPlan): Lookout {
  const { deps, client, reply, logger, voice } = input;
  const slowNotice = voice.t('booking.not_confirmed_yet', { what: mrkdwn(plan.description) });
  return { deps, client, reply, logger, marker: input.once.marker, slowNotice };
}

function sentCreate(plan: BookPlan, sentAt: number): SentCreate {
  return { description: plan.description, date: plan.date, groupId: plan.group?.id, sentAt };
}

function bookedMessage(
  input: PlanInput,
  plan: BookPlan,
  booked: Expense,
  shares: { shares: Array<{ id: string; paid: number; owed: number }> },
  people: People,
): BookedExpense {
  const who = (id: string): Who => people.whos.get(id) ?? { slack: id };
  const message: BookedExpense = {
    id: booked.id,
    description: booked.description || plan.description,
    cost: plan.cost,
    currency: plan.currency,
    date: plan.date,
    payer: who(plan.payer),
    lines: shares.shares.map((row) => ({ who: who(row.id), paid: row.paid, owed: row.owed })),
    group: plan.group?.name ?? null,
    split: plan.split.kind,
    bookedBy: input.user.user_id,
    repeat: plan.repeat_interval && plan.repeat_interval !== 'never' ? plan.repeat_interval : null,
    receiptUrl: receiptUrlOf(booked.receipt),
  };
  // After the literal: a conditional spread in it made V8 define every later field at run time.
  if (plan.itemised) message.itemised = plan.itemised;
  return message;
}

/** For a booking no durable job carries (a command run after linking): a marker of its own. */
export function singleUse(): Once {
  return { marker: bookingMarker(randomUUID()), sentAt: undefined, sending: async () => undefined };
}
