import { createHash } from 'node:crypto';
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { MAX_COMMAND_CHARS } from '../../core/command/index.js';
import type { SlackUserKey, TypedWhere } from '../../store/index.js';
import type { PendingCommand } from '../../store/link-states.js';
import { voiceFor } from '../../voice/index.js';
import { bookingMarker } from '../booking/index.js';
import type { SlackDeps } from '../deps.js';
import { MAX_PEOPLE, mentionedIds } from '../kit/limits.js';
import { conversationAnswer } from '../runtime/answer.js';
import { type JobHandler, JobMovedError } from '../runtime/durable.js';
import { type Kept, keepInTime } from '../runtime/keep-in-time.js';
import { replyLater, replyViaResponseUrl } from '../runtime/reply.js';
import { clientOrNothing } from '../runtime/team-clients.js';
import { plainNotice } from '../shared/notices.js';
import type { SplitHandlers } from '../shared/split-context.js';
import { type Voice, voiceIn, voiceOf } from '../shared/voice.js';
import type { OpenForm } from './form-offer.js';
import { runSplit } from './run.js';

/** A `/split` as its job keeps it: all that carrying it out needs, on any replica. */
export interface SplitJob {
  team_id: string;
  user_id: string;
  channel_id: string;
  text: string;
  response_url: string | undefined;
  /** Written as a message (a mention, a DM): answered in its conversation and thread. */
  typed?: TypedWhere;
  /**
   * When the command was typed, when that was before the job was queued (a command kept while
   * its author linked their account): its response_url lives 30 minutes from then.
   */
  typed_at?: number;
}

/** What an earlier run of a `/split` job saved: when it sent its create_expense. */
interface SplitProgress {
  sentAt?: number;
}

export const SPLIT_JOB = 'split';

/** What a command naming more people than an expense can have is answered. */
export function tooManyPeople(voice: Voice, named: number): string {
  return voice.t('split.too_many_people', { count: named, max: MAX_PEOPLE });
}

/**
 * The voice of an answer given in the ack, which must not wait for Slack: the person's as the
 * directory has it cached, else the default language.
 */
function ackVoice(deps: SlackDeps, team_id: string, user_id: string): Promise<Voice> {
  const person = deps.directory.knownSlackUser(team_id, user_id);
  return voiceFor({ locale: person?.locale, tz: person?.tz });
}

/**
 * What a command is refused with before anything is kept or asked of Slack: a text too long
 * (before any pattern reads it), or more people named than an expense can have (each is a lookup).
 */
async function refusedAtOnce(
  deps: SlackDeps,
  command: { text: string; team_id: string; user_id: string },
): Promise<string | undefined> {
  const count = command.text.length;
  if (count > MAX_COMMAND_CHARS) {
    const voice = await ackVoice(deps, command.team_id, command.user_id);
    return voice.t('parse.too_long', { count, max: MAX_COMMAND_CHARS });
  }
  const named = mentionedIds(command.text).size;
  if (named <= MAX_PEOPLE) return undefined;
  return tooManyPeople(await ackVoice(deps, command.team_id, command.user_id), named);
}

/**
 * `/split ...`: the command is written to the durable job queue, then acked; it is carried out
 * after the ack by whichever replica holds it. A repeated delivery of the same invocation (same
 * trigger_id) finds its job already queued and adds nothing.
 */
export function splitCommand(deps: SlackDeps, openForm: OpenForm) {
  return async ({
    ack,
    command,
    client,
    context,
    logger,
  }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    if (command.text.trim() === '') {
      await ack();
      // The form needs the trigger id, which works once and only for 3 seconds: nothing first.
      await openForm({
        context,
        client,
        logger,
        trigger_id: command.trigger_id,
        user: { team_id: command.team_id, user_id: command.user_id },
        channel: command.channel_id,
      });
      return;
    }
    const refused = await refusedAtOnce(deps, command);
    if (refused !== undefined) {
      await ack({ response_type: 'ephemeral', text: refused });
      return;
    }
    const job: SplitJob = {
      team_id: command.team_id,
      user_id: command.user_id,
      channel_id: command.channel_id,
      text: command.text,
      response_url: command.response_url,
    };
    const id = `command:${command.team_id}:${command.trigger_id}`;
    let kept: Kept;
    try {
      const by = { team_id: command.team_id, user_id: command.user_id };
      kept = await keepInTime(deps.durable, { id, kind: SPLIT_JOB, payload: job, by }, logger, {
        // Answered "slow" already: a write that failed in the end is told through the
        // response_url; one that landed is carried out and answers for itself.
        late: async (outcome) => {
          if (outcome.kept) return;
          const voice = await voiceIn(context);
          await replyViaResponseUrl(command.response_url, deps.http).ephemeral(
            plainNotice(voice.t('split.not_kept')),
          );
        },
      });
    } catch (error) {
      // Acknowledged work must be kept first: without the store, the person hears so at once.
      logger.error({
        msg: '/split: could not queue the command: {error}',
        error: (error as Error).message,
      });
      const voice = await ackVoice(deps, command.team_id, command.user_id);
      await ack({ response_type: 'ephemeral', text: voice.t('split.not_kept') });
      return;
    }
    if (kept === 'slow') {
      const voice = await ackVoice(deps, command.team_id, command.user_id);
      await ack({ response_type: 'ephemeral', text: voice.t('split.slow') });
      return;
    }
    await ack();
    if (kept === 'repeat')
      logger.info({
        msg: '/split: repeated delivery of trigger {trigger_id} ignored',
        trigger_id: command.trigger_id,
      });
  };
}

/** Carries out a queued `/split`, answering through its response_url or, later, a DM. */
export function splitJob(deps: SlackDeps, handlers: SplitHandlers): JobHandler {
  return async (payload, run, logger) => {
    const job = payload as SplitJob;
    const client = await clientOrNothing(deps, job.team_id, logger);
    if (!client) return;
    const reply = job.typed
      ? conversationAnswer({
          client,
          user: job.user_id,
          channel: job.channel_id,
          typed: job.typed,
          logger,
          voice: await voiceOf(deps, { team_id: job.team_id, user_id: job.user_id }, logger),
        })
      : replyLater({
          client,
          response_url: job.response_url,
          acknowledgedAt: job.typed_at ?? run.createdAt,
          channel: job.channel_id,
          user: job.user_id,
          logger,
          http: deps.http,
        });
    try {
      await runSplit(
        handlers,
        deps,
        {
          team_id: job.team_id,
          user_id: job.user_id,
          channel_id: job.channel_id,
          text: job.text,
          response_url: job.response_url,
          typed: job.typed,
          once: {
            marker: bookingMarker(run.id),
            sentAt: (run.progress as SplitProgress | undefined)?.sentAt,
            sending: (at) => run.save({ sentAt: at } satisfies SplitProgress),
          },
        },
        reply,
        logger,
      );
    } catch (error) {
      if (error instanceof JobMovedError) throw error;
      logger.error({
        msg: '/split failed: {error}',
        error: (error as Error).stack ?? String(error),
      });
      const user = { team_id: job.team_id, user_id: job.user_id };
      await voiceOf(deps, user, logger)
        .then((voice) => reply.ephemeral(plainNotice(voice.t('split.failed'))))
        .catch((again: Error) =>
          logger.error({ msg: '/split: could not tell the person: {again}', again: again.message }),
        );
    }
  };
}

/**
 * Keeps the command typed before linking as a `/split` job, before the linking page promises it
 * will be carried out, so that a crash or a restart after the page does not lose it; it is then
 * booked once like any `/split`. Its id comes from the linking's one-use state,
 * hashed so that the state itself never appears where job ids do (logs).
 */
export function keepPending(deps: Pick<SlackDeps, 'durable'>) {
  return async (user: SlackUserKey, pending: PendingCommand, key: string): Promise<void> => {
    const id = createHash('sha256').update(key).digest('base64url').slice(0, 22);
    const job: SplitJob = {
      team_id: user.team_id,
      user_id: user.user_id,
      channel_id: pending.channel_id,
      text: pending.text,
      response_url: pending.response_url,
      ...(pending.typed ? { typed: pending.typed } : {}),
      typed_at: pending.at,
    };
    await deps.durable.submit(`linked:${user.team_id}:${id}`, SPLIT_JOB, job, user);
  };
}
