/**
 * Settle up, from a balance message, the Home tab or the daily DM. Buttons on messages and in
 * Home carry a Block Kit confirm dialog, so a click that arrives here has been confirmed; the DM's
 * own button (digest/settle-up-clicked.ts) leads to a confirmation message first, handled here.
 * A double click acts once (a claim per button and surface), and the payment is recorded only
 * while the balance is still what was confirmed (ledger/settle.ts).
 */
import type { Logger, RespondFn, webApi } from '@slack/bolt';
import { ServiceBaseException, type ServiceClient } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import type { Voice } from '../../voice/index.js';
import { DEDUPE_TTL_MS, type SlackDeps } from '../deps.js';
import type { SlackMessage } from '../kit/message.js';
import { type ButtonArgs, clickerOf } from '../runtime/click.js';
import { notice, sentences } from '../shared/balance-blocks.js';
import { type ConnectReason, connectPrompt } from '../shared/notices.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import { parseSettleRef, type SettleRef } from '../shared/settle-ref.js';
import { voiceIn } from '../shared/voice.js';
import { renderAll, renderFriend, renderGroup } from './render.js';
import { changedText, recordedText, refusedText, type SettleOutcome, settle } from './settle.js';

/** Where the answer goes: the message the button was on, or the Home tab. */
interface Surface {
  /** Replaces the message (or republishes Home with `said` on top). */
  show(message: () => Promise<SlackMessage>, said: string): Promise<void>;
  /** A private line (mrkdwn) next to it (Home: at the top of the tab). */
  tell(text: string): Promise<void>;
  /** Asks to connect: a Connect button by the message; Home shows its own. */
  connect(reason: ConnectReason): Promise<void>;
}

function surfaceOf(deps: SlackDeps, args: ButtonArgs, voice: Voice): Surface {
  const { body, respond, client, logger } = args;
  const user = clickerOf(body);
  if (body.view?.type === 'home') {
    return homeSurface(deps, client, user, logger, voice);
  }
  return messageSurface(deps, user, respond, voice);
}

function homeSurface(
  deps: SlackDeps,
  client: webApi.WebClient,
  user: SlackUserKey,
  logger: Logger,
  voice: Voice,
): Surface {
  return {
    show: (_message, said) => deps.hooks.publishHome(client, user, voice, logger, said),
    tell: (text) => deps.hooks.publishHome(client, user, voice, logger, text),
    connect: (reason) =>
      deps.hooks.publishHome(
        client,
        user,
        voice,
        logger,
        reason === 'revoked' ? voice.t('settle.connection_lost') : voice.t('settle.connect_first'),
      ),
  };
}

function messageSurface(
  deps: SlackDeps,
  user: SlackUserKey,
  respond: RespondFn,
  voice: Voice,
): Surface {
  const tell = async (message: SlackMessage) => {
    await respond({ response_type: 'ephemeral', replace_original: false, ...message });
  };
  return {
    show: async (message) => {
      await respond({ replace_original: true, ...(await message()) });
    },
    tell: (text) => tell(notice(text)),
    connect: async (reason) =>
      tell(connectPrompt(voice, { url: await deps.linking.connectUrl(user), reason })),
  };
}

async function recordSettlement(
  deps: SlackDeps,
  args: ButtonArgs,
  ref: SettleRef,
  surface: Surface,
  voice: Voice,
): Promise<void> {
  const { body, action, logger } = args;
  const user = clickerOf(body);
  const where = body.message?.ts ?? body.view?.hash ?? body.view?.id ?? body.trigger_id;
  const key = `settle:${user.team_id}:${user.user_id}:${where}:${action.value}`;
  if (!(await deps.claims.claim(key, DEDUPE_TTL_MS))) {
    logger.info('settle up: already under way for this button, click ignored');
    return;
  }
  const giveBack = () =>
    deps.claims
      .release(key)
      .catch((error: Error) =>
        logger.warn({ msg: 'settle up: release failed: {error}', error: error.message }),
      );
  const record = await deps.tokens.get(user).catch(async (error: unknown) => {
    // The button must work again once the store answers.
    await giveBack();
    throw error;
  });
  if (!record) {
    await giveBack();
    await surface.connect('first_time');
    return;
  }
  const service = deps.service.forLink(record);
  const me = record.service_user_id;
  const nothing = voice.t('settle.nothing_recorded');
  let said: string;
  try {
    // The person settling is the payer, or records what a friend paid them: the friend may not be
    // in Slack at all, so the payment is named in the words of whoever records it.
    const outcome = await settle(service, me, ref, voice.t('settle.payment_description'));
    // Unless everything was recorded, the button must work again.
    if (outcome.kind !== 'recorded') await giveBack();
    said = outcomeText(outcome, ref, voice, logger);
  } catch (error) {
    await giveBack();
    if (error instanceof ServiceBaseException && error.outcome_unknown) {
      await surface.tell(voice.t('settle.unconfirmed'));
      return;
    }
    const failure = describeServiceFailure(voice, error, nothing);
    if (failure.relink) {
      await deps.unlinking.unlink(user);
      await surface.connect('revoked');
      return;
    }
    logger.warn({ msg: 'settle up failed: {error}', error: (error as Error).message });
    await surface.tell(failure.text);
    return;
  }
  await surface.show(() => balanceAfter(service, me, ref, said, voice, logger), said);
}

/** What the person is told of a settling's outcome, in mrkdwn. */
export function outcomeText(
  outcome: SettleOutcome,
  ref: SettleRef,
  voice: Voice,
  logger: Pick<Logger, 'info' | 'warn'>,
): string {
  switch (outcome.kind) {
    case 'recorded':
      logger.info({
        msg: 'settle up: recorded {outcome_count} payment(s)',
        outcome_count: outcome.expenseIds.length,
      });
      return `✅ ${recordedText(ref, voice)}`;
    case 'changed':
      return changedText(ref, outcome.now, voice);
    case 'refused':
      return refusedText(outcome.reason, voice);
    case 'partial':
      logger.warn({
        msg: 'settle up: {recorded} of {of} recorded, then: {error}',
        recorded: outcome.recorded,
        of: outcome.of,
        error: String(outcome.error),
      });
      return voice.t('settle.partial', { recorded: outcome.recorded, of: outcome.of });
  }
}

/** The view the button was on, read again, with the outcome on top. */
async function balanceAfter(
  service: ServiceClient,
  me: number,
  ref: SettleRef,
  said: string,
  voice: Voice,
  logger: Logger,
): Promise<SlackMessage> {
  const options = { notice: said };
  try {
    if (ref.v === 'g') return await renderGroup(service, ref.id, me, options, voice);
    if (ref.v === 'f')
      return await renderFriend(service, ref.k === 'f' ? ref.id : (ref.o ?? 0), options, voice);
    return await renderAll(service, me, options, voice);
  } catch (error) {
    logger.warn({
      msg: 'settle up: reading the new balance failed: {error}',
      error: (error as Error).message,
    });
    return notice(sentences(voice, said, voice.t('settle.balance_unread')));
  }
}

/** Settle up on a balance message or in Home, and Record payment on a DM's confirmation. */
export function settleUpClicked(deps: SlackDeps) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const voice = await voiceIn(args.context);
    const ref = parseSettleRef(args.action.value);
    const surface = surfaceOf(deps, args, voice);
    try {
      if (!ref) {
        args.logger.warn('settle up: a button value that does not parse');
        await surface.tell(voice.t('settle.damaged'));
        return;
      }
      await recordSettlement(deps, args, ref, surface, voice);
    } catch (error) {
      args.logger.error({
        msg: 'settle up: {error}',
        error: (error as Error).stack ?? String(error),
      });
      await surface
        .tell(voice.t('settle.failed'))
        .catch((again: Error) =>
          args.logger.error({ msg: 'settle up: could not tell: {again}', again: again.message }),
        );
    }
  };
}

/** Cancel on a DM's confirmation: the confirmation goes away. */
export async function settleCancelled({ ack, respond }: ButtonArgs): Promise<void> {
  await ack();
  await respond({ delete_original: true });
}
