/**
 * `/split` written as a message: the app mentioned in a channel or a thread (`app_mention`), or
 * a message in its Messages tab (`message.im`). The text, the app's own mention taken out, is
 * carried out as the same `/split` job, answered in the thread it was written in (a mention of its
 * own gets its answer threaded under it), or in the DM.
 *
 * Each message is carried out once, whatever Slack sends about it:
 * - Bolt acknowledges an event before its listener runs, and Slack sends it again when that came
 *   late, to this replica or another, or after a restart: the job's id is the event's event_id, so
 *   a redelivery finds the job already kept and adds nothing, and the booking's marker (from the
 *   job id) keeps it to one at the service.
 * - An edit of a message that mentions the app comes as a new `app_mention`, with a new event_id,
 *   the message's own ts and an `edited` field; in the Messages tab, as `message_changed`. An edit
 *   books nothing: the person is told once, privately where they wrote, how to change what the
 *   message booked. A claim on the message itself (team, author, conversation, ts) keeps any other
 *   delivery of one message, with or without `edited`, from being carried out twice.
 */
import type { AllMiddlewareArgs, Context, Logger, SlackEventMiddlewareArgs } from '@slack/bolt';
import { isSplitThis, MAX_COMMAND_CHARS } from '../../core/command/index.js';
import { escapeRegex } from '../../core/regex.js';
import type { SlackUserKey, TypedWhere } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import { MAX_PEOPLE, mentionedIds } from '../kit/limits.js';
import { conversationAnswer } from '../runtime/answer.js';
import { clientOrNothing } from '../runtime/team-clients.js';
import { filesOf } from '../shared/message-files.js';
import { plainNotice } from '../shared/notices.js';
import { type Voice, voiceIn } from '../shared/voice.js';
import { SPLIT_JOB, type SplitJob, tooManyPeople } from './ack.js';

type MentionArgs = SlackEventMiddlewareArgs<'app_mention'> & AllMiddlewareArgs;
type MessageArgs = SlackEventMiddlewareArgs<'message'> & AllMiddlewareArgs;

/**
 * Longest message read: what a command may hold, with room for the app's own mentions, which the
 * command does not count. A Slack message may hold 40,000 characters; a longer one than this is
 * refused unread, so that no pattern ever runs over it.
 */
export const MAX_MESSAGE_READ = MAX_COMMAND_CHARS + 100;

/**
 * How long a message stays claimed once carried out. Slack's redeliveries of one event come
 * within the hour; an edit, however late, carries `edited` and is never carried out anyway.
 */
export const MESSAGE_CLAIM_MS = 24 * 60 * 60_000;

/** The claim on one message: it names its author, so that it goes with their data. */
const messageClaim = (m: WrittenMessage) =>
  `message:${m.team_id}:${m.user_id}:${m.channel_id}:${m.ts}`;

/** The claim on telling the author once that edits of the message are not read. */
const editClaim = (m: WrittenMessage) =>
  `message-edited:${m.team_id}:${m.user_id}:${m.channel_id}:${m.ts}`;

/**
 * What a message asks of the app: its text with every mention of the app taken out (the app is
 * nobody's share), and "split this" made the empty command, which offers the form. A text longer
 * than MAX_MESSAGE_READ comes back as it is, unread, to be refused for its length.
 */
export function commandText(text: string, botUserId: string | undefined): string {
  if (text.length > MAX_MESSAGE_READ) return text;
  const own = botUserId
    ? text.replace(new RegExp(`<@${escapeRegex(botUserId)}(?:\\|[^<>]*)?>`, 'g'), ' ')
    : text;
  const trimmed = own.replace(/\s+/g, ' ').trim();
  return isSplitThis(trimmed) ? '' : trimmed;
}

/**
 * Where a message is answered. A message of its own (not a reply) that carries an image and asks
 * nothing else is answered under itself with the form offered to read the image: the message
 * is then the thread's first, which the offered form is filled from.
 */
function answeredWhere(
  typed: TypedWhere,
  m: { ts: string; text: string; inThread: boolean; files: unknown },
): TypedWhere {
  const image = filesOf({ files: m.files }).some((f) => f.mimetype?.startsWith('image/'));
  if (!image || m.inThread || m.text !== '') return typed;
  return { kind: typed.kind, thread_ts: m.ts, in_thread: true, photo: true };
}

/** A message written to the app, as the mention and the DM listeners read it. */
interface WrittenMessage {
  event_id: string;
  team_id: string;
  user_id: string;
  channel_id: string;
  ts: string;
  /** What it asks of the app (commandText). */
  text: string;
  /** The event is an edit of the message. */
  edited: boolean;
  typed: TypedWhere;
}

/** A written message with its event's context, whose voice its author is told things in. */
interface Told extends WrittenMessage {
  context: Context;
}

/** Tells the author privately, where they wrote; a failure is logged, never thrown. */
async function tell(
  deps: SlackDeps,
  m: Told,
  logger: Logger,
  text: (voice: Voice) => string,
): Promise<void> {
  try {
    const client = await clientOrNothing(deps, m.team_id, logger);
    if (!client) return;
    const voice = await voiceIn(m.context);
    await conversationAnswer({
      client,
      user: m.user_id,
      channel: m.channel_id,
      typed: m.typed,
      logger,
      voice,
    }).ephemeral(plainNotice(text(voice)));
  } catch (error) {
    logger.warn({
      msg: '{kind} {event_id}: could not tell the person: {error}',
      kind: m.typed.kind,
      event_id: m.event_id,
      error: (error as Error).message,
    });
  }
}

/** An edit books nothing; its author hears so once per message. */
async function editedMessage(deps: SlackDeps, m: Told, logger: Logger): Promise<void> {
  logger.info({
    msg: '{kind} {event_id}: an edit of message {ts}, not carried out',
    kind: m.typed.kind,
    event_id: m.event_id,
    ts: m.ts,
  });
  if (!(await deps.claims.claim(editClaim(m), MESSAGE_CLAIM_MS))) return;
  await tell(deps, m, logger, (voice) => voice.t('talk.edit_not_read'));
}

/**
 * Keeps the command as a job under the event's id, once per message: a redelivery of the event,
 * or another event about the same message, adds nothing. A text too long, or naming too many
 * people, is refused before anything is kept or asked of Slack.
 */
async function keepTyped(deps: SlackDeps, m: Told, logger: Logger): Promise<void> {
  const what = `${m.typed.kind} ${m.event_id}`;
  const claim = messageClaim(m);
  try {
    if (m.edited) return await editedMessage(deps, m, logger);
    if (!(await deps.claims.claim(claim, MESSAGE_CLAIM_MS))) {
      logger.info({ msg: '{what}: message {ts} already carried out, ignored', what, ts: m.ts });
      return;
    }
  } catch (error) {
    logger.error({ msg: '{what}: not kept: {error}', what, error: (error as Error).message });
    await tell(deps, m, logger, (voice) => voice.t('split.not_kept'));
    return;
  }
  if (m.text.length > MAX_COMMAND_CHARS) {
    const count = m.text.length;
    await tell(deps, m, logger, (v) => v.t('parse.too_long', { count, max: MAX_COMMAND_CHARS }));
    return;
  }
  // Each person named is a lookup.
  const named = mentionedIds(m.text).size;
  if (named > MAX_PEOPLE) {
    await tell(deps, m, logger, (voice) => tooManyPeople(voice, named));
    return;
  }
  const job: SplitJob = {
    team_id: m.team_id,
    user_id: m.user_id,
    channel_id: m.channel_id,
    text: m.text,
    response_url: undefined,
    typed: m.typed,
  };
  const by: SlackUserKey = { team_id: m.team_id, user_id: m.user_id };
  try {
    if (!(await deps.durable.submit(`event:${m.team_id}:${m.event_id}`, SPLIT_JOB, job, by)))
      logger.info({ msg: '{what}: already kept, redelivery ignored', what });
  } catch (error) {
    logger.error({ msg: '{what}: not kept: {error}', what, error: (error as Error).message });
    // Not carried out: a redelivery may try again.
    await deps.claims.release(claim).catch(() => undefined);
    await tell(deps, m, logger, (voice) => voice.t('split.not_kept'));
  }
}

/** `@Split 40 lunch @ann`, in a channel or a thread: answered in that thread. */
export function appMentioned(deps: SlackDeps) {
  return async ({ event, body, context, logger }: MentionArgs): Promise<void> => {
    const team = context.teamId ?? body.team_id;
    // Another app mentioning this one is no person asking.
    if (!team || !event.user || event.bot_id !== undefined) return;
    const inThread = event.thread_ts !== undefined && event.thread_ts !== event.ts;
    const edited = event.edited !== undefined;
    const text = edited ? '' : commandText(event.text, context.botUserId);
    await keepTyped(
      deps,
      {
        event_id: body.event_id,
        context,
        team_id: team,
        user_id: event.user,
        channel_id: event.channel,
        ts: event.ts,
        text,
        edited,
        typed: answeredWhere(
          {
            kind: 'mention',
            thread_ts: event.thread_ts ?? event.ts,
            ...(inThread ? { in_thread: true } : {}),
          },
          { ts: event.ts, text, inThread, files: (event as { files?: unknown }).files },
        ),
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
  edited?: unknown;
  files?: unknown;
  /** message_changed: the message as it now is. */
  message?: Omit<DirectMessage, 'channel' | 'channel_type' | 'message'>;
}

/**
 * A person's message in the DM, as written or as edited (`message_changed` with `edited`: Slack
 * also sends message_changed when it adds a link's preview, which is no edit). The app's own
 * messages, other apps' and bots', deletions and every other subtype (a file shared alone, a
 * channel join) are none, and left alone.
 */
function personWrote(
  m: DirectMessage,
  botUserId: string | undefined,
): { written: Omit<DirectMessage, 'message'>; edited: boolean } | undefined {
  if (m.channel_type !== 'im') return undefined;
  const changed = m.subtype === 'message_changed' ? m.message : undefined;
  // A photo sent to the app (file_share) is a message written to it.
  const shared = m.subtype === 'file_share';
  if (m.subtype !== undefined && !shared && (!changed || changed.edited === undefined))
    return undefined;
  const written = changed ? { ...changed, channel: m.channel } : m;
  if ((written.subtype !== undefined && !shared) || written.bot_id !== undefined) return undefined;
  if (!written.user || written.user === botUserId) return undefined;
  return { written, edited: written.edited !== undefined };
}

/**
 * What a person writes in the app's Messages tab: answered in that DM, in its thread when written
 * in one.
 */
export function directMessage(deps: SlackDeps) {
  return async ({ event, body, context, logger }: MessageArgs): Promise<void> => {
    const team = context.teamId ?? body.team_id;
    const found = personWrote(event as unknown as DirectMessage, context.botUserId);
    if (!team || !found) return;
    const { written: m, edited } = found;
    const inThread = m.thread_ts !== undefined && m.thread_ts !== m.ts;
    const text = edited ? '' : commandText(m.text ?? '', context.botUserId);
    await keepTyped(
      deps,
      {
        event_id: body.event_id,
        context,
        team_id: team,
        user_id: m.user as string,
        channel_id: m.channel,
        ts: m.ts,
        text,
        edited,
        typed: answeredWhere(
          {
            kind: 'im',
            ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
            ...(inThread ? { in_thread: true } : {}),
          },
          { ts: m.ts, text, inThread, files: m.files },
        ),
      },
      logger,
    );
  };
}
