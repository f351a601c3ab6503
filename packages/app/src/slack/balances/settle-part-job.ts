/**
 * Carrying out a submitted "Pay part…" form. The submission is a durable job (shared/durable.ts):
 * written to the store before the form closed, run by whichever replica holds it, and taken up
 * again by another replica (or this app once restarted) when its holder dies. Everything the run
 * needs travels in the payload, never in a closure.
 *
 * Once: the job's id is the form's view id, so a double submit or a redelivery adds nothing; every
 * payment carries a marker derived from that id in its notes, and the time of each create is saved
 * before it goes out. A run that finds such a time (its predecessor died after sending) or that
 * never hears back from its own create looks for the marker until the service can no longer apply
 * that create, and only sends again when it certainly was not recorded.
 */
import type { Logger, webApi } from '@slack/bolt';
import { currencyExponent, toWireAmount } from '../../core/money.js';
import { type Expense, ServiceBaseException, type ServiceClient } from '../../service/index.js';
import type { ServiceTokenRecord } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import { bookingMarker, lookUntilSettled, type Once, withMarker } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import { mrkdwn } from '../kit/text.js';
import { type JobHandler, JobMovedError } from '../runtime/durable.js';
import { replyViaResponseUrl } from '../runtime/reply.js';
import { clientOrNothing } from '../runtime/team-clients.js';
import { notice, sentences } from '../shared/balance-blocks.js';
import { middayIn, todayIn } from '../shared/dates.js';
import { describeServiceFailure, serviceMessage } from '../shared/service-failure.js';
import type { SettleRef } from '../shared/settle-ref.js';
import { voiceOf } from '../shared/voice.js';
import { friendOrNone, owedAfter } from './friend.js';
import { type Direction, paymentRecordedText, planPartial } from './partial.js';
import {
  changedText,
  planSettlement,
  recordedText,
  refusedText,
  settle,
  stateText,
} from './settle.js';

export const SETTLE_PART_JOB = 'settle-part';

/** A submitted Pay part form as its job keeps it: all that carrying it out needs, on any replica. */
export interface PartJob {
  team_id: string;
  user_id: string;
  /** The debt as the form showed it (who, which way, the amount owed then). */
  ref: SettleRef;
  /** What was typed, in minor units of `currency`; the whole debt takes Settle up's path. */
  minor: number;
  currency: string;
  /** Where the outcome is told: the message the form came from, the Home tab, or a DM. */
  answer: { via: 'response_url'; url: string } | { via: 'home' } | { via: 'dm' };
}

/** What an earlier run saved: when it last sent a create_expense. */
interface PartProgress {
  sentAt?: number;
}

/** The job's id: one per form, whatever the number of submits or deliveries. */
export function partJobId(team_id: string, viewId: string): string {
  return `settle-part:${team_id}:${viewId}`;
}

/** Tells the person a line of mrkdwn, already written. */
type Tell = (text: string) => Promise<void>;

function teller(
  deps: SlackDeps,
  client: webApi.WebClient,
  job: PartJob,
  voice: Voice,
  logger: Logger,
): Tell {
  const user = { team_id: job.team_id, user_id: job.user_id };
  const dm = async (text: string) => {
    await client.chat.postMessage({ channel: user.user_id, ...notice(text) });
  };
  return async (text) => {
    if (job.answer.via === 'home') return deps.hooks.publishHome(client, user, voice, logger, text);
    if (job.answer.via === 'response_url') {
      try {
        return await replyViaResponseUrl(job.answer.url, deps.http).ephemeral(notice(text));
      } catch (error) {
        // A response_url lasts 30 minutes and five answers: past that, the person hears by DM.
        logger.warn({
          msg: 'pay part: response_url failed: {error}',
          error: (error as Error).message,
        });
      }
    }
    await dm(text);
  };
}

/** Carries out a queued Pay part with the bot's own client (the request's is long gone). */
export function settlePartJob(deps: SlackDeps): JobHandler {
  return async (payload, run, logger) => {
    const job = payload as PartJob;
    const client = await clientOrNothing(deps, job.team_id, logger);
    if (!client) return;
    const voice = await voiceOf(deps, { team_id: job.team_id, user_id: job.user_id }, logger);
    const tell = teller(deps, client, job, voice, logger);
    let sent = (run.progress as PartProgress | undefined)?.sentAt !== undefined;
    const once: Once = {
      marker: bookingMarker(run.id),
      sentAt: (run.progress as PartProgress | undefined)?.sentAt,
      sending: async (at) => {
        await run.save({ sentAt: at } satisfies PartProgress);
        sent = true;
      },
    };
    try {
      await tell(await recordPart(deps, job, once, tell, voice, logger));
    } catch (error) {
      if (error instanceof JobMovedError) throw error;
      logger.error({ msg: 'pay part: {error}', error: (error as Error).stack ?? String(error) });
      const text = sent
        ? voice.t('settle.failed_after_send', { name: mrkdwn(job.ref.n) })
        : voice.t('settle.failed');
      await tell(text).catch((again: Error) =>
        logger.error({ msg: 'pay part: could not tell: {again}', again: again.message }),
      );
    }
  };
}

interface Run {
  deps: SlackDeps;
  record: ServiceTokenRecord;
  client: ServiceClient;
  job: PartJob;
  once: Once;
  today: string;
  voice: Voice;
  tell: Tell;
  logger: Logger;
}

/** Records the payment (or finds the one an earlier run recorded); returns what to tell. */
async function recordPart(
  deps: SlackDeps,
  job: PartJob,
  once: Once,
  tell: Tell,
  voice: Voice,
  logger: Logger,
): Promise<string> {
  const user = { team_id: job.team_id, user_id: job.user_id };
  const record = await deps.tokens.get(user);
  if (!record) return voice.t('settle.connect_command');
  const client = deps.service.forLink(record);
  const r: Run = {
    deps,
    record,
    client,
    job,
    once,
    today: todayIn(voice.timeZone, deps.now()),
    voice,
    tell,
    logger,
  };
  try {
    if (once.sentAt !== undefined) {
      // An earlier holder sent a create and stopped before it heard back: it may have been
      // recorded, or may still be, so it is looked for before anything is sent again.
      const found = await lookFor(r, undefined, once.sentAt);
      if (found === 'unknown') return uncheckedText(voice, job.ref.n);
      if (found) {
        logger.info({
          msg: 'pay part: reconciled: payment {found_id} was recorded before a restart',
          found_id: found.id,
        });
        return foundText(r);
      }
    }
    return job.minor === job.ref.a ? await payWhole(r) : await payPart(r);
  } catch (error) {
    const failure = describeServiceFailure(voice, error, voice.t('settle.nothing_recorded'));
    if (failure.relink) await deps.unlinking.unlink(user);
    if (!(error instanceof ServiceBaseException)) throw error;
    logger.warn({ msg: 'pay part failed: {error}', error: error.message });
    return failure.text;
  }
}

/**
 * The payment carrying this job's marker, null when certainly none, or 'unknown'. Without a group
 * it is looked for among the caller's own expenses, which list every payment they are part of.
 */
function lookFor(
  r: Run,
  groupId: number | undefined,
  sentAt: number,
): Promise<Expense | null | 'unknown'> {
  const tell = r.tell;
  return lookUntilSettled(
    {
      deps: r.deps,
      client: r.client,
      marker: r.once.marker,
      // A long wait is announced, so that the person does not record the payment again meanwhile.
      reply: { ephemeral: (m) => tell(m.text) },
      slowNotice: r.voice.t('settle.not_confirmed_yet'),
      logger: r.logger,
    },
    { description: r.voice.t('settle.payment_description'), date: r.today, groupId, sentAt },
  );
}

function uncheckedText(voice: Voice, name: string): string {
  return voice.t('settle.unchecked', { name: mrkdwn(name) });
}

function directionOf(ref: SettleRef): Direction {
  return ref.p === 1 ? 'to' : 'from';
}

/** The payment was recorded, though its create was never answered: what it did, as it stands. */
async function foundText(r: Run): Promise<string> {
  const { ref, minor, currency } = r.job;
  const { voice } = r;
  const name = mrkdwn(ref.n);
  if (minor !== ref.a) {
    const left = await owedAfter(r.client, ref.id, directionOf(ref), currency);
    return `✅ ${paymentRecordedText({ name: ref.n, direction: directionOf(ref), amount: minor, currency, left, group: null }, voice)}`;
  }
  // Settling a friend debt can take one payment per group: were they all recorded?
  const plan = await planSettlement(r.client, r.record.service_user_id, ref).catch(() => undefined);
  if (plan && 'changed' in plan && plan.changed === 0) return `✅ ${recordedText(ref, voice)}`;
  if (plan && 'changed' in plan) {
    return voice.t('settle.found_part', { state: stateText(ref, plan.changed, voice) });
  }
  // Found, yet the balance is as it was shown: the payment was deleted since.
  if (plan) return voice.t('settle.found_deleted', { name });
  return voice.t('settle.found_unread', { name });
}

/** The whole debt: exactly Settle up, with this job's marker on each payment. */
async function payWhole(r: Run): Promise<string> {
  const { ref } = r.job;
  const { voice } = r;
  let sentAt = 0;
  let outcome: Awaited<ReturnType<typeof settle>>;
  try {
    outcome = await settle(
      r.client,
      r.record.service_user_id,
      ref,
      voice.t('settle.payment_description'),
      {
        details: withMarker(undefined, r.once.marker),
        sending: async (at) => {
          sentAt = at;
          await r.once.sending(at);
        },
      },
    );
  } catch (error) {
    if (!(error instanceof ServiceBaseException) || !error.outcome_unknown || sentAt === 0) {
      throw error;
    }
    r.logger.warn({
      msg: 'pay part: settle create outcome unknown ({error_name}); reconciling',
      error_name: error.name,
    });
    const found = await lookFor(r, undefined, sentAt);
    if (found === 'unknown') return uncheckedText(voice, ref.n);
    if (found === null) return voice.t('settle.not_recorded');
    return foundText(r);
  }
  if (outcome.kind === 'recorded') return `✅ ${recordedText(ref, voice)}`;
  if (outcome.kind === 'changed') return changedText(ref, outcome.now, voice);
  if (outcome.kind === 'refused') {
    return refusedText(outcome.reason, voice);
  }
  return voice.t('settle.partial', { recorded: outcome.recorded, of: outcome.of });
}

/** Part of a friend debt: one payment, placed as `/split paid` places it. */
async function payPart(r: Run): Promise<string> {
  const { client, job, voice } = r;
  const { ref, minor, currency } = job;
  const me = r.record.service_user_id;
  const friend = await friendOrNone(client, ref.id);
  if (!friend) return voice.t('settle.no_balance_any_more', { name: mrkdwn(ref.n) });
  const direction = directionOf(ref);
  const name = [friend.first_name, friend.last_name].filter(Boolean).join(' ') || ref.n;
  const plan = planPartial({ friend, name, direction, amount: minor, currency }, voice);
  if (!plan.ok) return sentences(voice, plan.reason, voice.t('settle.nothing_recorded'));
  const [debtor, creditor] = direction === 'to' ? [me, friend.id] : [friend.id, me];
  const amount = toWireAmount(minor, currencyExponent(currency));
  const sentAt = Date.now();
  await r.once.sending(sentAt);
  try {
    const result = await client.createExpense({
      description: voice.t('settle.payment_description'),
      payment: true,
      cost: amount,
      currency_code: currency,
      date: middayIn(r.today, voice.timeZone),
      details: withMarker(undefined, r.once.marker),
      ...(plan.group_id !== 0 ? { group_id: plan.group_id } : {}),
      users: [
        { user_id: debtor, paid_share: amount, owed_share: '0' },
        { user_id: creditor, paid_share: '0', owed_share: amount },
      ],
    });
    if (!result.expense) {
      return refusedText(serviceMessage(result.errors) ?? null, voice);
    }
  } catch (error) {
    if (!(error instanceof ServiceBaseException) || !error.outcome_unknown) throw error;
    r.logger.warn({
      msg: 'pay part: create outcome unknown ({error_name}); reconciling',
      error_name: error.name,
    });
    const found = await lookFor(r, plan.group_id !== 0 ? plan.group_id : undefined, sentAt);
    if (found === 'unknown') return uncheckedText(voice, name);
    if (found === null) return voice.t('settle.not_recorded');
  }
  const left = await owedAfter(client, friend.id, direction, currency);
  return `✅ ${paymentRecordedText({ name, direction, amount: minor, currency, left, group: null }, voice)}`;
}
