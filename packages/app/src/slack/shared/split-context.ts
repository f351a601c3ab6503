/**
 * What `/split` handlers share: their context (the parse result narrowed to their kind, the
 * caller's voice), the caller's link, the prompt to connect (remembering what was typed, so that
 * it is carried out afterwards), problems told with a form that works, and service failures told
 * to the person (a 401 removes the link and asks to connect again).
 */
import type { Logger } from '@slack/bolt';
import type { SlackPerson } from '../../accounts/directory.js';
import type { LookupBudget } from '../../accounts/lookups.js';
import {
  MAX_COMMAND_CHARS,
  type ParseContext,
  type ParseResult,
} from '../../core/command/index.js';
import { ServiceBaseException, type ServiceClient } from '../../service/index.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { BoundGroup } from '../booking/group.js';
import type { SlackDeps } from '../deps.js';
import { MAX_PEOPLE } from '../kit/limits.js';
import type { Reply } from '../runtime/reply.js';
import type { SplitInvocation } from './invocation.js';
import { type ConnectReason, connectPrompt, errorNotice, plainNotice } from './notices.js';
import { describeServiceFailure } from './service-failure.js';
import { TOLD, type Told } from './told.js';
import type { Voice } from './voice.js';

export type { BookedSummary, SplitInvocation } from './invocation.js';

export type SplitKind = ParseResult['kind'];

/**
 * The caller's default currency as the parse read it: from their service profile (cached by the
 * directory), or the reason it could not be read (booking reports it; other kinds go on).
 */
export type ProfileCurrency =
  /** `link`: the caller's link as read for it (null: none), so that booking need not read it again. */
  | { ok: true; code: string | undefined; link?: ServiceTokenRecord | null }
  | { ok: false; error: unknown };

/** What every handler gets, whatever its kind; shared helpers take this. */
export interface SplitRequest {
  deps: SlackDeps;
  inv: SplitInvocation;
  user: SlackUserKey;
  parsed: ParseResult;
  ctx: ParseContext;
  profileCurrency: ProfileCurrency;
  binding: BoundGroup | undefined;
  me: SlackPerson | undefined;
  /** How the caller is answered: their language, and amounts and dates written their way. */
  voice: Voice;
  /** The command's Slack lookups, the caller's own included: each handler spends from it. */
  lookups: LookupBudget;
  /**
   * Slack ids the caller can mention, for the forms an answer shows (see example-people.ts).
   * Looked up the first time an answer asks, then kept for the request.
   */
  examplePeople(): Promise<readonly string[]>;
  reply: Reply;
  logger: Logger;
}

/** A handler's context: the parse result is narrowed to the kind it handles. */
export type SplitContext<K extends SplitKind = SplitKind> = SplitRequest & {
  parsed: Extract<ParseResult, { kind: K }>;
};

export type SplitHandler<K extends SplitKind = SplitKind> = (c: SplitContext<K>) => Promise<void>;

/** Every kind the parser can return, each with the handler that receives exactly that kind. */
export type SplitHandlers = { [K in SplitKind]: SplitHandler<K> };

/** A mention without a name, as a mention or a DM carries it: `<@U1>`. */
const BARE_MENTION = /<@([UW][A-Z0-9]+)>/g;

/**
 * The text with each bare mention given its name, as a slash command's text carries them
 * (`<@U1|ann>`): a mention or a DM arrives as `<@U1>`, which a quoted command would show as an id.
 * Names come from the directory's cache or users.info; a person it cannot read keeps the id.
 */
async function withNames(c: SplitRequest, text: string): Promise<string> {
  const ids = [...new Set(Array.from(text.matchAll(BARE_MENTION), (m) => m[1]!))];
  // More than a command may name is refused anyway: no lookups for it.
  if (ids.length === 0 || ids.length > MAX_PEOPLE) return text;
  const names = new Map<string, string>();
  await Promise.all(
    ids.map(async (id) => {
      const person = await c.deps.directory
        .slackUser(c.user.team_id, id, c.lookups)
        .catch(() => undefined);
      // A name holding `|` or `>` would end the mention early: such a person keeps the id.
      if (person?.name && !/[|<>]/.test(person.name)) names.set(id, person.name);
    }),
  );
  return text.replace(BARE_MENTION, (whole, id: string) => {
    const name = names.get(id);
    return name ? `<@${id}|${name}>` : whole;
  });
}

/** Asks the person to connect; with `carry`, what they typed is carried out once they have. */
export async function promptConnect(
  c: SplitRequest,
  reason: ConnectReason,
  carry: boolean,
): Promise<void> {
  const named = carry ? await withNames(c, c.inv.text) : c.inv.text;
  // Names make the text longer; one the parser would refuse after linking keeps its ids instead.
  const text = named.length <= MAX_COMMAND_CHARS ? named : c.inv.text;
  // Linking keeps no command longer than that: the prompt promises only one that is kept.
  const keep = carry && c.inv.carry !== false && text.length <= MAX_COMMAND_CHARS;
  const pending = keep
    ? {
        text,
        channel_id: c.inv.channel_id,
        ...(c.inv.response_url ? { response_url: c.inv.response_url } : {}),
        ...(c.inv.typed ? { typed: c.inv.typed } : {}),
        at: c.deps.now().getTime(),
      }
    : undefined;
  const url = await c.deps.linking.connectUrl(c.user, pending);
  const voice = c.voice;
  await c.reply.ephemeral(
    connectPrompt(voice, { url, reason, pendingText: keep ? text : undefined }),
  );
}

/** The caller's link and a client for it, or TOLD after asking them to connect. */
export async function linked(
  c: SplitRequest,
): Promise<{ record: ServiceTokenRecord; client: ServiceClient } | Told> {
  const record = await c.deps.tokens.get(c.user);
  if (!record) {
    await promptConnect(c, 'first_time', true);
    return TOLD;
  }
  return { record, client: c.deps.service.forLink(record) };
}

/** Removes a link the service no longer takes (a 401) and asks to connect again. */
export async function relink(c: SplitRequest): Promise<void> {
  await c.deps.unlinking.unlink(c.user);
  c.logger.info({
    msg: 'removed the link of {team_id}:{user_id}: the service answered 401',
    team_id: c.user.team_id,
    user_id: c.user.user_id,
  });
  await promptConnect(c, 'revoked', true);
}

/**
 * Tells the person privately what is wrong (mrkdwn written in their voice), with a `/split` form
 * that works, naming people they can mention in place of `@ann`.
 */
export async function tellProblem(c: SplitRequest, message: string, example?: string) {
  const people = example ? await c.examplePeople() : [];
  await c.reply.ephemeral(errorNotice(c.voice, message, example, people));
}

/**
 * Tells the person what failed; `nothingDone` finishes the sentence ("Nothing was changed."),
 * written in their voice.
 */
export async function tellFailure(
  c: SplitRequest,
  error: unknown,
  nothingDone: string,
): Promise<void> {
  const failure = describeServiceFailure(c.voice, error, nothingDone);
  if (failure.relink) {
    await relink(c);
    return;
  }
  if (!(error instanceof ServiceBaseException)) throw error;
  c.logger.warn({
    msg: '/split {kind}: service call failed: {error_name}: {error}',
    kind: c.parsed.kind,
    error_name: error.name,
    error: error.message,
  });
  await c.reply.ephemeral(plainNotice(failure.text));
}
