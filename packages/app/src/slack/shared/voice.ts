/**
 * The voice a Slack user is answered in: their Slack locale and time zone (users.info with
 * include_locale, through the directory's cache). When Slack cannot say (or the lookup is not
 * made: the request's budget spent, the method rate-limited), the person still gets an answer, in
 * English with amounts en-US style and instants in UTC.
 *
 * A handler answering the person who acted (typed, clicked, submitted, wrote) takes their voice
 * from its request's context, `voiceIn(context)`: a global middleware (`voiceMiddleware`) puts it
 * there, read the first time a handler asks and shared by every later ask of the request. Work
 * with no Bolt request (a durable job, the OAuth callback) reads its person's voice with
 * `voiceOf`; a voice for someone other than who acted (a DM to them) is `otherPersonVoice`, one a
 * form or a job carries is `carriedVoice`. The files allowed to read a voice themselves are listed
 * in `scripts/architecture.ts` (VOICE_READERS), each with its reason.
 */
import type { AnyMiddlewareArgs, Context, Logger, Middleware } from '@slack/bolt';
import type { Directory } from '../../accounts/directory.js';
import { type LookupBudget, lookupBudget } from '../../accounts/lookups.js';
import type { SlackUserKey } from '../../store/index.js';
import { type Voice, voiceFor } from '../../voice/index.js';

export type { Voice };

type VoiceDeps = { directory: Pick<Directory, 'slackUser'> };

/**
 * The person's voice, read from their Slack profile. `lookups` is the budget of the work that
 * reads it, when that work looks up anyone else; without one, this person's profile is the only
 * lookup made.
 */
export async function voiceOf(
  deps: VoiceDeps,
  user: SlackUserKey,
  logger?: Pick<Logger, 'warn'>,
  lookups: LookupBudget = lookupBudget(1),
): Promise<Voice> {
  const person = await deps.directory
    .slackUser(user.team_id, user.user_id, lookups)
    .catch((error: Error) => {
      logger?.warn({
        msg: 'users.info for {user_id} failed, answering in English: {error}',
        user_id: user.user_id,
        error: error.message,
      });
      return undefined;
    });
  return voiceFor({ locale: person?.locale, tz: person?.tz });
}

/**
 * The voice of someone other than the person who acted (the one a reminder or a notice is sent
 * to): read as `voiceOf` reads it, named apart so that no handler answers its own person in it.
 */
export const otherPersonVoice: typeof voiceOf = (deps, person, logger, lookups) =>
  voiceOf(deps, person, logger, lookups);

/**
 * The voice a form, a control or a job carries (`l`: the locale, `z`: the zone, as they were
 * when it was made): read without asking Slack, so that an answer due within 3 seconds never
 * waits, and what the person typed is read as the form showed it.
 */
export function carriedVoice(carrier: { l?: string | undefined; z?: string | undefined }) {
  return voiceFor({ locale: carrier.l, tz: carrier.z });
}

/** The voice where no person is known (a workflow step with nobody behind it): English, UTC. */
export function defaultVoice(): Promise<Voice> {
  return voiceFor({});
}

/** Where the middleware keeps the acting person's voice on Bolt's context. */
const CONTEXT_KEY = 'actingVoice';

/** What a request's context carries: its person, and their voice once asked for. */
interface ActingVoice {
  user: SlackUserKey;
  read(lookups: LookupBudget | undefined): Promise<Voice>;
  logger: Logger;
  /** How long an answer due within 3 seconds waits for the voice (QUICK_VOICE_MS). */
  quickMs: number;
}

/** What an answer due within 3 seconds may wait for the voice: a trigger id lives 3 s. */
const QUICK_VOICE_MS = 800;

interface Fields {
  command?: unknown;
  type?: unknown;
  team_id?: unknown;
  user_id?: unknown;
  team?: { id?: unknown } | null;
  user?: { id?: unknown; team_id?: unknown } | null;
  view?: { team_id?: unknown } | null;
  event?: { user?: unknown; message?: { user?: unknown } };
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * Who acted in a request, keyed as its handlers key them: the one who typed a command, clicked,
 * submitted a form or used a shortcut, the author of an event (of the message as edited, for an
 * edit). Undefined where no person acted (an uninstall, a workflow step's run).
 */
export function actingPerson(body: unknown, context: Context): SlackUserKey | undefined {
  const f = (body ?? {}) as Fields;
  if (typeof f.command === 'string') {
    const team_id = text(f.team_id);
    const user_id = text(f.user_id);
    return team_id && user_id ? { team_id, user_id } : undefined;
  }
  if (f.event !== undefined) {
    const team_id = text(context.teamId) ?? text(f.team_id);
    const user_id = text(f.event?.user) ?? text(f.event?.message?.user);
    return team_id && user_id ? { team_id, user_id } : undefined;
  }
  const user_id = text(f.user?.id);
  if (!user_id) return undefined;
  // A form's submission names its team on the view; a click or a shortcut on its person.
  const viewed = f.type === 'view_submission' || f.type === 'view_closed';
  const team_id =
    text(f.team?.id) ?? (viewed ? text(f.view?.team_id) : text(f.user?.team_id)) ?? '';
  return { team_id, user_id };
}

/**
 * Puts the voice of the person who acted in `body` on `context`: nothing is read until a handler
 * asks, so an ack that needs no words costs nothing, and the first ask is the request's only one.
 */
export function putActingVoice(
  deps: VoiceDeps,
  args: { body: unknown; context: Context; logger: Logger },
  quickMs = QUICK_VOICE_MS,
): void {
  const { body, context, logger } = args;
  const user = actingPerson(body, context);
  if (user) actAs(deps, context, user, logger, quickMs);
}

/** Makes `user` the acting person of `context`, their voice read the first time it is asked. */
function actAs(
  deps: VoiceDeps,
  context: Context,
  user: SlackUserKey,
  logger: Logger,
  quickMs: number,
): void {
  let voice: Promise<Voice> | undefined;
  const acting: ActingVoice = {
    user,
    logger,
    quickMs,
    read: (lookups) => {
      voice ??= voiceOf(deps, user, logger, lookups);
      return voice;
    },
  };
  context[CONTEXT_KEY] = acting;
}

/**
 * A context whose acting person is `user`, as the middleware would make it, for an opener called
 * with no Bolt request around it (a test opening the form directly).
 */
export function contextActingAs(deps: VoiceDeps, user: SlackUserKey, logger: Logger): Context {
  const context: Context = { isEnterpriseInstall: false };
  actAs(deps, context, user, logger, QUICK_VOICE_MS);
  return context;
}

/** The global middleware that gives every request its acting person's voice (putActingVoice). */
export function voiceMiddleware(deps: VoiceDeps): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    putActingVoice(deps, args);
    await args.next();
  };
}

/**
 * The voice of the person who acted in this request, from its context. `lookups`: the request's
 * budget, when it looks up anyone else (the first ask spends from it). `quick`: the answer is
 * due within 3 seconds (a modal opened with a trigger id, which dies 3 seconds after the click;
 * an error under a form's field), so the profile (usually in the directory's cache) is waited for
 * a moment only: past it, the answer is in English rather than not at all.
 */
export async function voiceIn(
  context: Context,
  options: { lookups?: LookupBudget; quick?: boolean } = {},
): Promise<Voice> {
  const acting = context[CONTEXT_KEY] as ActingVoice | undefined;
  // A handler asking where nobody acted, or that the middleware never saw, is a bug.
  if (!acting) throw new Error('no acting person on this context (voiceMiddleware put none)');
  if (!options.quick) return acting.read(options.lookups);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), acting.quickMs);
  });
  try {
    const voice = await Promise.race([acting.read(options.lookups), late]);
    if (voice) return voice;
    acting.logger.warn({
      msg: 'the profile of {user_id} was slow to come: the form opens in English',
      user_id: acting.user.user_id,
    });
    return defaultVoice();
  } finally {
    clearTimeout(timer);
  }
}
