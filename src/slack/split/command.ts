import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { type JobHandler, JobMovedError } from '../shared/durable.js';
import { bookingMarker } from '../shared/marker.js';
import { plainNotice } from '../shared/notices.js';
import { replyLater } from '../shared/reply.js';
import { clientOrNothing } from '../shared/team-clients.js';

/** A `/split` as its job keeps it: all that carrying it out needs, on any replica. */
export interface SplitJob {
  team_id: string;
  user_id: string;
  channel_id: string;
  text: string;
  response_url: string | undefined;
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

/**
 * `/split ...`: the command is written to the durable job queue, then acked; it is carried out
 * after the ack by whichever replica holds it. A repeated delivery of the same invocation (same
 * trigger_id) finds its job already queued and adds nothing.
 */
export function splitCommand(deps: SlackDeps) {
  return async ({
    ack,
    command,
    client,
    logger,
  }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    if (command.text.trim() === '') {
      await ack();
      // The form needs the trigger id, which works once and only for 3 seconds: nothing first.
      await deps.hooks.openNewForm({
        client,
        logger,
        trigger_id: command.trigger_id,
        user: { team_id: command.team_id, user_id: command.user_id },
        channel: command.channel_id,
      });
      return;
    }
    const job: SplitJob = {
      team_id: command.team_id,
      user_id: command.user_id,
      channel_id: command.channel_id,
      text: command.text,
      response_url: command.response_url,
    };
    let queued: boolean;
    try {
      queued = await deps.durable.submit(
        `command:${command.team_id}:${command.trigger_id}`,
        SPLIT_JOB,
        job,
      );
    } catch (error) {
      // Acknowledged work must be kept first: without the store, the person hears so at once.
      logger.error(`/split: could not queue the command: ${(error as Error).message}`);
      await ack({
        response_type: 'ephemeral',
        text: "I couldn't take that command just now: my storage isn't answering. Nothing was booked. Try again in a minute.",
      });
      return;
    }
    await ack();
    if (!queued) logger.info(`/split: repeated delivery of trigger ${command.trigger_id} ignored`);
  };
}

/** Carries out a queued `/split`, answering through its response_url or, later, a DM. */
export function splitJob(deps: SlackDeps): JobHandler {
  return async (payload, run, logger) => {
    const job = payload as SplitJob;
    const client = await clientOrNothing(deps, job.team_id, logger);
    if (!client) return;
    const reply = replyLater({
      client,
      response_url: job.response_url,
      acknowledgedAt: job.typed_at ?? run.createdAt,
      channel: job.channel_id,
      user: job.user_id,
      logger,
    });
    try {
      await deps.hooks.runSplit(
        {
          team_id: job.team_id,
          user_id: job.user_id,
          channel_id: job.channel_id,
          text: job.text,
          response_url: job.response_url,
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
      logger.error(`/split failed: ${(error as Error).stack ?? String(error)}`);
      await reply
        .ephemeral(
          plainNotice(
            'Something went wrong on my side while handling that. Try again in a minute; /split whoami shows whether your account is connected.',
          ),
        )
        .catch((again: Error) =>
          logger.error(`/split: could not tell the person: ${again.message}`),
        );
    }
  };
}
