/**
 * What the buttons that act on something share: the ack, the button's value read with its schema
 * (a damaged one is told, never guessed at), the clicker's key, a claim so that a double click or
 * a redelivery acts once, the person's link, and a private answer for every way the work fails.
 * Each button brings its own parse function, claim, wording of failures and work.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  BlockButtonAction,
  SlackActionMiddlewareArgs,
} from '@slack/bolt';
import { type LookupBudget, lookupBudget } from '../../accounts/lookups.js';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { SlackMessage } from '../kit/message.js';
import { connectPrompt, plainNotice } from '../shared/notices.js';
import { needsRelink } from '../shared/service-failure.js';
import { TOLD, type Told, told } from '../shared/told.js';
import { type Voice, voiceIn } from '../shared/voice.js';
import { type Reply, replyWithRespond } from './reply.js';

export type ButtonArgs = SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs;

/** The person who clicked, as the token store and the claims know them. */
export function clickerOf(body: BlockAction): SlackUserKey {
  return { team_id: body.team?.id ?? body.user.team_id ?? '', user_id: body.user.id };
}

interface Click<Ref> {
  ref: Ref;
  user: SlackUserKey;
  /** Privately, through the click's response_url. */
  reply: Reply;
}

/**
 * What a person reads about a click: written in their voice, or (for the buttons not yet written
 * in one) a fixed text.
 */
export type ClickText = string | ((voice: Voice) => string);

/**
 * Acks, then reads the button's value; a value that does not parse is told to the person (with
 * `damaged`, in their voice) and gives TOLD.
 */
export async function readClick<Ref>(
  args: ButtonArgs,
  parse: (value: string | undefined) => Ref | undefined,
  damaged: ClickText,
): Promise<Click<Ref> | Told> {
  await args.ack();
  const reply = replyWithRespond(args.respond);
  const ref = parse(args.action.value);
  const user = clickerOf(args.body);
  if (!ref) {
    args.logger.warn({
      msg: '{action_id}: a button value that does not parse',
      action_id: args.action.action_id,
    });
    const text = typeof damaged === 'string' ? damaged : damaged(await voiceIn(args.context));
    await reply.ephemeral(plainNotice(text));
    return TOLD;
  }
  return { ref, user, reply };
}

interface ClickWork<Ref> extends Click<Ref> {
  args: ButtonArgs;
  /** The clicker's voice: everything they read about the click is written in it. */
  voice: Voice;
  /** The click's Slack lookups, the clicker's own included: the work spends from it. */
  lookups: LookupBudget;
  /** Gives a kept claim back before a refusal is told, so that the button can be pressed again. */
  giveBack(): Promise<void>;
  /** The clicker's link, or TOLD once they were asked to connect (the claim given back). */
  linked(): Promise<ServiceTokenRecord | Told>;
}

/**
 * What the person reads when the claim or the work fails (a link to renew aside), in their voice:
 * a message, or a text made into a notice.
 */
type FailureSpec =
  | { failure(error: unknown, voice: Voice): SlackMessage }
  | { failureText(error: unknown, voice: Voice): string };

function failureOf(spec: FailureSpec, error: unknown, voice: Voice): SlackMessage {
  return 'failure' in spec
    ? spec.failure(error, voice)
    : plainNotice(spec.failureText(error, voice));
}

type ButtonSpec<Ref> = FailureSpec & {
  /** Names the click in logs ("undo of expense 12"). */
  name(ref: Ref): string;
  parse(value: string | undefined): Ref | undefined;
  /** What the person reads when the button's value does not parse. */
  damaged: ClickText;
  /**
   * Makes a double click or a redelivery act once. A kept claim is taken before the work and
   * stays once it is done, so that the button acts once for good (a failure gives it back); any
   * other is given back whenever the work ends, so that the button works again later (Delete
   * after its Undo), and is taken on the work queue.
   */
  claim?: { key(click: Click<Ref>): string; ttlMs: number; keep: boolean };
  /** Whether the work waits its turn on the work queue rather than running right after the ack. */
  queued: boolean;
  /**
   * Whether a 401 from the service removes the link and asks to connect again; buttons that read
   * the link through accessExpense have had that done there.
   */
  relinks: boolean;
  work(click: ClickWork<Ref>): Promise<void>;
};

export function buttonListener<Ref>(deps: SlackDeps, spec: ButtonSpec<Ref>) {
  return async (args: ButtonArgs): Promise<void> => {
    const click = await readClick(args, spec.parse, spec.damaged);
    if (told(click)) return;
    if (spec.queued) deps.work.push(() => carryOut(deps, spec, args, click));
    else await carryOut(deps, spec, args, click);
  };
}

async function carryOut<Ref>(
  deps: SlackDeps,
  spec: ButtonSpec<Ref>,
  args: ButtonArgs,
  click: Click<Ref>,
): Promise<void> {
  const { logger } = args;
  const { user, reply } = click;
  const name = spec.name(click.ref);
  const lookups = lookupBudget();
  const voice = await voiceIn(args.context, { lookups });
  const key = spec.claim?.key(click);
  if (spec.claim && key !== undefined) {
    let claimed: boolean;
    try {
      claimed = await deps.claims.claim(key, spec.claim.ttlMs);
    } catch (error) {
      // The store that dedupes clicks is down: nothing was done, and the click must still get an
      // answer rather than silence.
      logger.error({ msg: '{name}: claim failed: {error}', name, error: (error as Error).message });
      await reply.ephemeral(failureOf(spec, error, voice)).catch(() => undefined);
      return;
    }
    if (!claimed) {
      logger.info({ msg: '{name}: already under way, click ignored', name });
      return;
    }
  }
  const release = async () => {
    if (key === undefined) return;
    await deps.claims
      .release(key)
      .catch((error: Error) =>
        logger.warn({ msg: '{name}: release failed: {error}', name, error: error.message }),
      );
  };
  const giveBack = spec.claim?.keep ? release : async () => undefined;
  try {
    await spec.work({
      ...click,
      args,
      voice,
      lookups,
      giveBack,
      linked: async () => {
        const record = await deps.tokens.get(user);
        if (record) return record;
        await giveBack();
        const url = await deps.linking.connectUrl(user);
        await reply.ephemeral(connectPrompt(voice, { url, reason: 'first_time' }));
        return TOLD;
      },
    });
  } catch (error) {
    await giveBack();
    logger.warn({ msg: '{name} failed: {error}', name, error: (error as Error).message });
    if (spec.relinks && needsRelink(error)) {
      await deps.unlinking.unlink(user);
      const url = await deps.linking.connectUrl(user);
      await reply.ephemeral(connectPrompt(voice, { url, reason: 'revoked' }));
      return;
    }
    await reply.ephemeral(failureOf(spec, error, voice)).catch(() => undefined);
  } finally {
    if (!spec.claim?.keep) await release();
  }
}
