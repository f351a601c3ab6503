/**
 * Carrying out a submitted expense form after its ack: a new expense through the same booking
 * path as `/split` (booking/typed.ts), or an edit that sends the service only what changed (and the
 * shares only when they changed). A submission is queued durably before the form closes, and a
 * form submitted twice (the same root view) acts once.
 */
import type { Logger, webApi } from '@slack/bolt';
import { type LookupBudget, lookupBudget } from '../../accounts/lookups.js';
import { resolvePeople } from '../../accounts/people.js';
import type { BillSummary } from '../../core/itemise.js';
import { currencyExponent, toWireAmount } from '../../core/money.js';
import type { ExactSplitValue, Split } from '../../core/split.js';
import {
  type ExpenseUpdate,
  type PersonRef,
  ServiceBaseException,
  type ServiceClient,
} from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import {
  bookingMarker,
  bookPlan,
  expenseMessage,
  findGroup,
  type GroupChoice,
  type Once,
  shareRows,
} from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import { mention, mrkdwn } from '../kit/text.js';
import { type FormAnswer, formAnswer } from '../runtime/answer.js';
import { type JobHandler, JobMovedError } from '../runtime/durable.js';
import { type Kept, keepInTime } from '../runtime/keep-in-time.js';
import { clientOrNothing } from '../runtime/team-clients.js';
import { breakdownText, joinBreakdown } from '../shared/breakdown.js';
import { middayIn } from '../shared/dates.js';
import { accessFailure, notice, refusal, sentences } from '../shared/expense-access.js';
import { bookedFromExpense, whoIsWho } from '../shared/expense-people.js';
import { connectPrompt, plainNotice } from '../shared/notices.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import { TOLD, type Told, told } from '../shared/told.js';
import { carriedVoice, otherPersonVoice, type Voice } from '../shared/voice.js';
import { changeName } from './change-names.js';
import { type CheckedForm, type EditBase, type FormMeta, sharesUnchanged } from './form.js';
import type { FetchedReceipt } from './receipt/receipt.js';
import { fetchReceipt, ReceiptError, receiptProblem } from './receipt/receipt.js';

/** A submitted form as its job keeps it: all that carrying it out needs, on any replica. */
interface FormJob {
  user: SlackUserKey;
  meta: FormMeta;
  /** The form's first view: the job's id, which makes a double submit act once. */
  rootViewId: string;
  form: CheckedForm;
  split: Split;
  /** Several payers: what each paid (minor units, Slack ids); absent when one paid it all. */
  payers?: ExactSplitValue[];
  edit: EditBase | undefined;
  /** From the Itemise step: the subtotal, tip and tax, shown in the answer and kept in the notes. */
  itemised?: BillSummary | undefined;
}

export const FORM_JOB = 'form';

/**
 * Writes a submission to the durable job queue before the form is closed, then answers Slack:
 * the form closes once the job is kept (a second submit of the same form adds nothing), and
 * stays open with the reason under `field` when the store refused it or did not answer in time.
 */
export async function queueSubmission(
  deps: SlackDeps,
  job: FormJob,
  logger: Logger,
  answer: { ack: (response: ViewResponse) => Promise<void>; field: string },
): Promise<void> {
  const id = `form:${job.user.team_id}:${job.rootViewId}`;
  const voice = await carriedVoice(job.meta);
  // The answer names the button the person presses again, as the form labels it.
  const button = voice.t(job.edit ? 'form.submit_edit' : 'form.submit_new');
  let kept: Kept;
  try {
    kept = await keepInTime(
      deps.durable,
      { id, kind: FORM_JOB, payload: job, by: job.user },
      logger,
    );
  } catch (error) {
    logger.error({
      msg: 'expense form: could not queue the submission: {error}',
      error: (error as Error).message,
    });
    // Under the form: the store cannot keep the submission.
    await answer.ack({
      response_action: 'errors',
      errors: { [answer.field]: voice.t('form.not_kept', { button }) },
    });
    return;
  }
  if (kept === 'slow') {
    // The write goes on, and submitting again is safe either way (it is booked once if the
    // write landed, and tried again if it did not).
    await answer.ack({
      response_action: 'errors',
      errors: { [answer.field]: voice.t('form.slow_to_keep', { button }) },
    });
    return;
  }
  if (kept === 'repeat')
    logger.info({
      msg: 'expense form {rootViewId}: submitted again, ignored',
      rootViewId: job.rootViewId,
    });
  await answer.ack({ response_action: 'clear' });
}

/** The answers to a form's submission that queueSubmission gives. */
type ViewResponse =
  | { response_action: 'clear' }
  | { response_action: 'errors'; errors: Record<string, string> };

/** Carries out a queued submission, with the bot's own client (the request's is long gone). */
export function formJob(deps: SlackDeps): JobHandler {
  return async (payload, run, logger) => {
    const job = payload as FormJob;
    const client = await clientOrNothing(deps, job.user.team_id, logger);
    if (!client) return;
    await carryOut({
      ...job,
      deps,
      client,
      botToken: client.token,
      logger,
      voice: await carriedVoice(job.meta),
      lookups: lookupBudget(),
      once: {
        marker: bookingMarker(run.id),
        sentAt: (run.progress as { sentAt?: number } | undefined)?.sentAt,
        sending: (at) => run.save({ sentAt: at }),
      },
    });
  };
}

interface Submission extends FormJob {
  deps: SlackDeps;
  client: webApi.WebClient;
  botToken: string | undefined;
  logger: Logger;
  once: Once;
  /** The voice of the person who submitted it: everything they are told is written in it. */
  voice: Voice;
  /** The submission's Slack lookups: newcomers to the expense, and who is who on it after. */
  lookups: LookupBudget;
}

/**
 * The notes typed, then an itemised bill's breakdown (in the booker's words), so that the service
 * keeps both.
 */
function notesWith(
  notes: string,
  itemised: BillSummary | undefined,
  currency: string,
  voice: Voice,
): string | undefined {
  const breakdown = itemised ? breakdownText(itemised, currency, voice) : undefined;
  return joinBreakdown(notes, breakdown) || undefined;
}

/** Books the submitted expense or applies the edit; the person hears the outcome either way. */
async function carryOut(s: Submission): Promise<void> {
  const { logger } = s;
  const answer = formAnswer({
    client: s.client,
    user: s.user.user_id,
    channel: s.meta.c,
    thread_ts: s.meta.t,
    logger,
    voice: s.voice,
  });
  let receipt: FetchedReceipt | undefined;
  const { voice } = s;
  const nothingDone = voice.t(s.edit ? 'expense.nothing_changed' : 'expense.nothing_booked');
  try {
    const link = await linkOrPrompt(s, answer, nothingDone);
    if (told(link)) return;
    receipt = await receiptOrLeaveOut(s, answer);
    const group = await chosenGroup(s, link, answer, nothingDone);
    if (told(group)) return;
    const c: EditContext = { ...link, answer, group, receipt: receipt?.path };
    if (s.edit) await applyEdit(s, s.edit, c);
    else await bookNew(s, c);
  } catch (error) {
    if (error instanceof JobMovedError) throw error;
    logger.error({
      msg: 'expense form failed: {error}',
      error: (error as Error).stack ?? String(error),
    });
    await answer
      .ephemeral(notice(voice.t('expense.failed_our_side', { nothingDone })))
      .catch((again: Error) =>
        logger.error({ msg: 'expense form: could not tell: {again}', again: again.message }),
      );
  } finally {
    await receipt?.remove().catch(() => undefined);
  }
}

type Link = Pick<EditContext, 'record' | 'client' | 'fail'>;

/**
 * The person's link, a client for it, and how a failed service call is told (a 401 removes the
 * link and asks to connect again); TOLD once they were asked to connect.
 */
async function linkOrPrompt(
  s: Submission,
  answer: FormAnswer,
  nothingDone: string,
): Promise<Link | Told> {
  const { deps, logger, user } = s;
  const record = await deps.tokens.get(user);
  if (!record) {
    const url = await deps.linking.connectUrl(user);
    await answer.ephemeral(connectPrompt(s.voice, { url, reason: 'first_time' }));
    return TOLD;
  }
  const fail = async (error: unknown) => {
    const failure = describeServiceFailure(s.voice, error, nothingDone);
    if (failure.relink) {
      await deps.unlinking.unlink(user);
      const url = await deps.linking.connectUrl(user);
      await answer.ephemeral(connectPrompt(s.voice, { url, reason: 'revoked' }));
      return;
    }
    if (!(error instanceof ServiceBaseException)) throw error;
    logger.warn({
      msg: 'expense form: service call failed: {error_name}: {error}',
      error_name: error.name,
      error: error.message,
    });
    await answer.ephemeral(notice(accessFailure(error, nothingDone, s.voice)));
  };
  return { record, client: deps.service.forLink(record), fail };
}

/**
 * The receipt attached in the form, fetched from Slack. One that can't be fetched is named to the
 * person with the reason, and the expense goes on without it: the form's other work is not lost.
 */
async function receiptOrLeaveOut(
  s: Submission,
  answer: FormAnswer,
): Promise<FetchedReceipt | undefined> {
  const fileId = s.form.files[0];
  if (!fileId) return undefined;
  const { voice } = s;
  try {
    if (!s.botToken) throw new ReceiptError({ kind: 'no_token' });
    return await fetchReceipt(s.client, s.botToken, fileId, {
      hosts: s.deps.fileHosts,
      mayRead: (file) => file.id === s.meta.f || file.user === s.user.user_id,
    });
  } catch (error) {
    const refused = error instanceof ReceiptError ? error : undefined;
    s.logger.warn({
      msg: 'expense form: receipt {fileId} left out: {error}',
      fileId,
      error: (error as Error).message,
    });
    await answer.ephemeral(
      notice(
        voice.t('form.receipt_left_out', {
          named: refused?.fileName ? 'yes' : 'no',
          file: mrkdwn(refused?.fileName ?? ''),
          reason: refused
            ? mrkdwn(receiptProblem(refused.problem, voice))
            : voice.t('form.receipt_our_side'),
          edit: s.edit ? 'yes' : 'no',
        }),
      ),
    );
    return undefined;
  }
}

/** The group chosen in the form (null for none); TOLD once the person was told why not. */
async function chosenGroup(
  s: Submission,
  link: Link,
  answer: FormAnswer,
  nothingDone: string,
): Promise<GroupChoice | null | Told> {
  const groupId = s.form.group_id;
  if (!groupId) return null;
  try {
    const found = await findGroup(s.deps, s.user, link.client, groupId);
    if (found) return { id: found.id, name: found.name, members: found.members };
    await answer.ephemeral(notice(sentences(s.voice, s.voice.t('form.group_gone'), nothingDone)));
    return TOLD;
  } catch (error) {
    await link.fail(error);
    return TOLD;
  }
}

/** A new expense, through the same booking as `/split`, posted where the form was opened. */
async function bookNew(s: Submission, c: EditContext): Promise<void> {
  const { deps, logger, user } = s;
  const done = await bookPlan(
    {
      deps,
      user,
      record: c.record,
      client: c.client,
      lookups: s.lookups,
      tz: s.meta.z,
      voice: s.voice,
      reply: c.answer,
      logger,
      fail: c.fail,
      problem: (message) => plainNotice(message),
      once: s.once,
    },
    {
      description: s.form.description,
      cost: s.form.cost,
      currency: s.form.currency,
      date: s.form.date,
      payer: s.form.payer,
      payers: s.payers,
      participants: s.form.participants,
      wholeGroup: false,
      split: s.split,
      group: c.group,
      category_id: s.form.category_id ?? undefined,
      details: notesWith(s.form.notes, s.itemised, s.form.currency, s.voice),
      ...(s.itemised ? { itemised: s.itemised } : {}),
      repeat_interval: s.form.repeat,
      receipt: c.receipt,
    },
  );
  if (told(done)) return;
  const where = await c.answer.post(done.message);
  await deps.expenses
    .rememberBooked(user, {
      expense_id: done.booked.id,
      description: done.booked.description,
      ...(where ? { channel: where.channel, ts: where.ts } : {}),
    })
    .catch((error: Error) =>
      logger.warn({ msg: 'expense form: could not remember: {error}', error: error.message }),
    );
}

interface EditContext {
  record: ServiceTokenRecord;
  client: ServiceClient;
  answer: FormAnswer;
  fail(error: unknown): Promise<void>;
  group: GroupChoice | null;
  receipt: string | undefined;
}

/** The update to send: the fields that differ from what the form started with. */
async function changesOf(
  s: Submission,
  base: EditBase,
  c: EditContext,
): Promise<ExpenseUpdate | { problem: string }> {
  const f = s.form;
  const b = base.form;
  const changes: ExpenseUpdate = { id: base.expense_id };
  if (f.description !== b.description) changes.description = f.description;
  if (f.date !== b.date) changes.date = middayIn(f.date, s.meta.z);
  if (f.category_id !== b.category_id && f.category_id !== null)
    changes.category_id = f.category_id;
  if (f.group_id !== b.group_id) changes.group_id = f.group_id ?? 0;
  if (f.repeat !== b.repeat) changes.repeat_interval = f.repeat;
  if (f.currency !== b.currency) changes.currency_code = f.currency;
  const exponent = currencyExponent(f.currency);
  const costChanged = f.cost !== b.cost || f.currency !== b.currency;
  if (costChanged) changes.cost = toWireAmount(f.cost, exponent);
  if (c.receipt) changes.receipt = c.receipt;
  // An itemised bill's breakdown stays in the notes only while the amounts it describes do.
  const notesAfter = (amountsChanged: boolean) => {
    const was = joinBreakdown(b.notes, base.breakdown);
    const now = joinBreakdown(f.notes, amountsChanged ? undefined : base.breakdown);
    if (now !== was) changes.details = now;
    return changes;
  };
  if (!base.peopleEditable) return notesAfter(costChanged);

  // People already on it keep their account; only newcomers are looked up (or invited).
  const everyone = [...new Set([...f.participants, f.payer, ...(f.alsoPaid ?? [])])];
  const people = await resolvePeople({
    caller: { ...s.user, service_user_id: c.record.service_user_id },
    ids: everyone.filter((id) => base.ids[id] === undefined),
    tokens: s.deps.tokens,
    directory: s.deps.directory,
    lookups: s.lookups,
    client: c.client,
  });
  if ('problem' in people)
    return { problem: s.voice.t('form.cannot_be_on', { who: mention(people.problem.user_id) }) };
  const refOf = (id: string): PersonRef | undefined => {
    const known = base.ids[id];
    return known !== undefined ? { user_id: known } : people.people.get(id)?.ref;
  };
  const rows = shareRows({ ...f, split: s.split, payers: s.payers }, refOf);
  if (!rows) return { problem: s.voice.t('form.split_failed') };
  const { users } = rows;
  const sameShares = sharesUnchanged(users, base.shares, exponent);
  // The service checks the shares against the cost, so a new cost always takes its shares along.
  if (!sameShares || costChanged) changes.users = users;
  return notesAfter(!sameShares || costChanged);
}

async function applyEdit(s: Submission, base: EditBase, c: EditContext): Promise<void> {
  const { deps, logger, user, voice } = s;
  const nothingChanged = voice.t('expense.nothing_changed');
  let changes: ExpenseUpdate | { problem: string };
  try {
    changes = await changesOf(s, base, c);
  } catch (error) {
    if (error instanceof ServiceBaseException) return c.fail(error);
    throw error;
  }
  if ('problem' in changes) {
    await c.answer.ephemeral(notice(sentences(voice, changes.problem, nothingChanged)));
    return;
  }
  const changed = (Object.keys(changes) as (keyof ExpenseUpdate)[]).filter((k) => k !== 'id');
  if (changed.length === 0) {
    await c.answer.ephemeral(notice(voice.t('form.nothing_to_send')));
    return;
  }
  let updated: Awaited<ReturnType<ServiceClient['updateExpense']>>;
  try {
    updated = await c.client.updateExpense(changes);
  } catch (error) {
    if (error instanceof ServiceBaseException && error.outcome_unknown) {
      await c.answer.ephemeral(notice(voice.t('form.edit_unconfirmed')));
      return;
    }
    return c.fail(error);
  }
  if (!updated.expense) {
    await c.answer.ephemeral(notice(refusal(voice, updated.errors, nothingChanged)));
    return;
  }
  const expense = updated.expense;
  logger.info({
    msg: 'expense {expense_id} edited: {changed}',
    expense_id: expense.id,
    changed: changed.join(', '),
  });
  // The message in the channel is the app's own; it cannot always be rewritten (the app is not
  // in that conversation, or the message is gone), and the person must hear that it still shows
  // the old version rather than find out later.
  let stale: string | undefined;
  if (s.meta.c && s.meta.m) {
    try {
      const [who, booker] = await Promise.all([
        whoIsWho(deps, user, c.record.service_user_id, c.client, expense, s.lookups),
        base.bookedBy === user.user_id
          ? voice
          : otherPersonVoice(deps, { ...user, user_id: base.bookedBy }, logger, s.lookups),
      ]);
      // Written again as the booking was, in the booker's voice, so that the message the whole
      // channel reads keeps its words, amounts and dates.
      const message = expenseMessage(
        bookedFromExpense(expense, who, { bookedBy: base.bookedBy, group: c.group?.name ?? null }),
        booker,
      );
      await s.client.chat.update({ channel: s.meta.c, ts: s.meta.m, ...message });
    } catch (error) {
      const data = (error as { data?: { error?: unknown } }).data;
      stale = typeof data?.error === 'string' ? data.error : (error as Error).message;
      logger.warn({ msg: 'edit: could not update the message: {stale}', stale });
    }
  }
  const saved = voice.t('form.saved', {
    description: mrkdwn(expense.description),
    what: voice.list(changed.map((k) => changeName(k, voice))),
  });
  await c.answer.ephemeral(
    notice(
      stale === undefined
        ? saved
        : sentences(voice, saved, voice.t('form.saved_stale', { error: mrkdwn(stale) })),
    ),
  );
}
