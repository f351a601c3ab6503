/**
 * `/split` written as a message: the app mentioned in a channel or a thread (`app_mention`), or
 * a message in its Messages tab (`message.im`). The text, the app's own mention taken out, is
 * carried out as the same `/split` job, answered in the thread it was written in (a mention of its
 * own gets its answer threaded under it), or in the DM.
 *
 * Bolt acknowledges an event before its listener runs, and Slack sends it again when that came
 * late, to this replica or another, or after a restart: the job's id is the event's event_id, so
 * a redelivery finds the job already kept and adds nothing, and the booking's marker (from the job
 * id) keeps it to one at the service.
 */
import type { AllMiddlewareArgs, Logger, SlackEventMiddlewareArgs } from '@slack/bolt';
import { isSplitThis } from '../../core/command/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { conversationAnswer } from '../shared/answer.js';
import { MAX_PEOPLE, mentionedIds } from '../shared/limits.js';
import { plainNotice } from '../shared/notices.js';
import { escapeRegex } from '../shared/regex.js';
import { clientOrNothing } from '../shared/team-clients.js';
import { voiceOf } from '../shared/voice.js';
import { SPLIT_JOB, type SplitJob, tooManyPeople } from './command.js';

type MentionArgs = SlackEventMiddlewareArgs<'app_mention'> & AllMiddlewareArgs;
type MessageArgs = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

/**
 * What a message asks of the app: its text with every mention of the app taken out (the app is
 * nobody's share), and "split this" made the empty command, which offers the form.
 */
export function commandText(text: string, botUserId: string | undefined): string {
  const own = botUserId
    ? text.replace(new RegExp(`<@${escapeRegex(botUserId)}(?:\\|[^<>]*)?>`, 'g'), ' ')
    : text;
  const trimmed = own.replace(/\s+/g, ' ').trim();
  return isSplitThis(trimmed) ? '' : trimmed;
}

/** Keeps the command as a job under the event's id; a redelivery of the event adds nothing. */
async function keepTyped(
  deps: SlackDeps,
  event_id: string,
  job: SplitJob,
  logger: Logger,
): Promise<void> {
  const by: SlackUserKey = { team_id: job.team_id, user_id: job.user_id };
  const tell = async (text: (voice: Awaited<ReturnType<typeof voiceOf>>) => string) => {
    const client = await clientOrNothing(deps, job.team_id, logger);
    if (!client || !job.typed) return;
    const voice = await voiceOf(deps, by, logger);
    await conversationAnswer({
      client,
      user: job.user_id,
      channel: job.channel_id,
      typed: job.typed,
      logger,
      voice,
    }).ephemeral(plainNotice(text(voice)));
  };
  // Refused before anything is kept: each person named is a lookup.
  const named = mentionedIds(job.text).size;
  if (named > MAX_PEOPLE) {
    await tell((voice) => tooManyPeople(voice, named)).catch((error: Error) =>
      logger.warn(`${job.typed?.kind} ${event_id}: could not refuse: ${error.message}`),
    );
    return;
  }
  const id = `event:${job.team_id}:${event_id}`;
  try {
    if (!(await deps.durable.submit(id, SPLIT_JOB, job, by)))
      logger.info(`${job.typed?.kind} ${event_id}: already kept, redelivery ignored`);
  } catch (error) {
    logger.error(`${job.typed?.kind} ${event_id}: not kept: ${(error as Error).message}`);
    await tell((voice) => voice.t('split.not_kept')).catch((again: Error) =>
      logger.error(`${job.typed?.kind} ${event_id}: could not tell the person: ${again.message}`),
    );
  }
}

/** `@Split 40 lunch @ann`, in a channel or a thread: answered in that thread. */
export function appMentioned(deps: SlackDeps) {
  return async ({ event, body, context, logger }: MentionArgs): Promise<void> => {
    const team = context.teamId ?? body.team_id;
    // Another app mentioning this one is no person asking.
    if (!team || !event.user || event.bot_id !== undefined) return;
    const inThread = event.thread_ts !== undefined && event.thread_ts !== event.ts;
    await keepTyped(
      deps,
      body.event_id,
      {
        team_id: team,
        user_id: event.user,
        channel_id: event.channel,
        text: commandText(event.text, context.botUserId),
        response_url: undefined,
        typed: {
          kind: 'mention',
          thread_ts: event.thread_ts ?? event.ts,
          ...(inThread ? { in_thread: true } : {}),
        },
      },
      logger,
    );
  };
}

/** The fields of a message event the Messages tab reads. */
interface DirectMessage {
  channel: string;
  channel_type?: string;
  subtype?: string;
  bot_id?: string;
  user?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
}

/**
 * What a person writes in the app's Messages tab: answered in that DM, in its thread when written
 * in one. The app's own messages, other apps' and bots', edits, deletions and every other subtype
 * (a file shared alone, a channel join) are no command, and left alone.
 */
export function directMessage(deps: SlackDeps) {
  return async ({ event, body, context, logger }: MessageArgs): Promise<void> => {
    const m = event as unknown as DirectMessage;
    const team = context.teamId ?? body.team_id;
    if (m.channel_type !== 'im' || m.subtype !== undefined || m.bot_id !== undefined) return;
    if (!team || !m.user || m.user === context.botUserId) return;
    const text = commandText(m.text ?? '', context.botUserId);
    const inThread = m.thread_ts !== undefined && m.thread_ts !== m.ts;
    await keepTyped(
      deps,
      body.event_id,
      {
        team_id: team,
        user_id: m.user,
        channel_id: m.channel,
        text,
        response_url: undefined,
        typed: {
          kind: 'im',
          ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
          ...(inThread ? { in_thread: true } : {}),
        },
      },
      logger,
    );
  };
}
