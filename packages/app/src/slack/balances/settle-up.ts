/**
 * Settle up, from a balance message, the Home tab or the daily DM. Buttons on messages and in
 * Home carry a Block Kit confirm dialog, so a click that arrives here has been confirmed; the DM's
 * own button (digest/settle-up-clicked.ts) leads to a confirmation message first, handled here.
 * A double click acts once (a claim per button and surface), and the payment is recorded only
 * while the balance is still what was confirmed (ledger/settle.ts).
 */
import type { BlockAction, Logger, RespondFn, webApi } from '@slack/bolt';
import { ServiceBaseException, type ServiceClient } from '../../service/index.js';
import type { SlackUserKey } from '../../store/index.js';
import { DEDUPE_TTL_MS, type SlackDeps } from '../deps.js';
import { type ButtonArgs, clickerOf } from '../shared/button.js';
import type { SlackMessage } from '../shared/message.js';
import { connectPrompt, plainNotice } from '../shared/notices.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import { parseSettleRef, type SettleRef } from '../shared/settle-ref.js';
import { voiceOf } from '../shared/voice.js';
import { renderAll, renderFriend, renderGroup } from './render.js';
import { changedText, recordedText, type SettleOutcome, settle } from './settle.js';

const NOTHING = 'Nothing was recorded.';

/** Where the answer goes: the message the button was on, or the Home tab. */
interface Surface {
  home: boolean;
  /** Replaces the message (or republishes Home with `notice`). */
  show(message: () => Promise<SlackMessage>, notice: string): Promise<void>;
  /** A private line next to it (Home: at the top of the tab). */
  tell(message: SlackMessage): Promise<void>;
}

function surfaceOf(
  deps: SlackDeps,
  body: BlockAction,
  respond: RespondFn,
  client: webApi.WebClient,
  logger: Logger,
): Surface {
  const user = clickerOf(body);
  if (body.view?.type === 'home') {
    return {
      home: true,
      show: (_message, notice) => deps.hooks.publishHome(client, user, logger, notice),
      tell: (message) => deps.hooks.publishHome(client, user, logger, message.text),
    };
  }
  return {
    home: false,
    show: async (message) => {
      await respond({ replace_original: true, ...(await message()) });
    },
    tell: async (message) => {
      await respond({ response_type: 'ephemeral', replace_original: false, ...message });
    },
  };
}

async function relink(deps: SlackDeps, user: SlackUserKey, surface: Surface): Promise<void> {
  await deps.unlinking.unlink(user);
  // Home shows the Connect button by itself once the link is gone.
  if (surface.home) {
    await surface.tell(plainNotice('Your connection to the expense account stopped working.'));
    return;
  }
  await surface.tell(
    connectPrompt({ url: await deps.linking.connectUrl(user), reason: 'revoked' }),
  );
}

async function recordSettlement(
  deps: SlackDeps,
  args: ButtonArgs,
  ref: SettleRef,
  surface: Surface,
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
      .catch((error: Error) => logger.warn(`settle up: release failed: ${error.message}`));
  const record = await deps.tokens.get(user).catch(async (error: unknown) => {
    // The button must work again once the store answers.
    await giveBack();
    throw error;
  });
  if (!record) {
    await giveBack();
    await surface.tell(
      connectPrompt({ url: await deps.linking.connectUrl(user), reason: 'first_time' }),
    );
    return;
  }
  const service = deps.service.forLink(record);
  const me = record.service_user_id;
  // Read while the payment is recorded: only the answer needs it.
  const locale = deps.directory
    .slackUser(user.team_id, user.user_id)
    .then((person) => person.locale)
    .catch(() => undefined);
  let notice: string;
  try {
    const outcome = await settle(service, me, ref);
    // Unless everything was recorded, the button must work again.
    if (outcome.kind !== 'recorded') await giveBack();
    notice = outcomeNotice(outcome, ref, await locale, logger);
  } catch (error) {
    await giveBack();
    if (error instanceof ServiceBaseException && error.outcome_unknown) {
      await surface.tell(
        plainNotice(
          "The expense service didn't confirm the payment in time. Press Settle up again: I check the balance first, so it is never paid twice.",
        ),
      );
      return;
    }
    const failure = describeServiceFailure(await voiceOf(deps, user, logger), error, NOTHING);
    if (failure.relink) return relink(deps, user, surface);
    logger.warn(`settle up failed: ${(error as Error).message}`);
    await surface.tell(plainNotice(failure.text));
    return;
  }
  await surface.show(() => balanceAfter(service, me, ref, notice, logger), notice);
}

/** What the person is told of a settling's outcome. */
function outcomeNotice(
  outcome: SettleOutcome,
  ref: SettleRef,
  locale: string | undefined,
  logger: Logger,
): string {
  switch (outcome.kind) {
    case 'recorded':
      logger.info(`settle up: recorded ${outcome.expenseIds.length} payment(s)`);
      return `✅ ${recordedText(ref, locale)}`;
    case 'changed':
      return changedText(ref, outcome.now, locale);
    case 'refused':
      return `The expense service refused the payment: ${outcome.reason}. ${NOTHING}`;
    case 'partial':
      logger.warn(
        `settle up: ${outcome.recorded} of ${outcome.of} recorded, then: ${String(outcome.error)}`,
      );
      return `I recorded ${outcome.recorded} of the ${outcome.of} payments (one per group), then the expense service failed. Press Settle up again to record the rest: I check the balance first, so nothing is paid twice.`;
  }
}

/** The view the button was on, read again, with the outcome on top. */
async function balanceAfter(
  service: ServiceClient,
  me: number,
  ref: SettleRef,
  notice: string,
  logger: Logger,
): Promise<SlackMessage> {
  const options = { notice };
  try {
    if (ref.v === 'g') return await renderGroup(service, ref.id, me, options);
    if (ref.v === 'f')
      return await renderFriend(service, ref.k === 'f' ? ref.id : (ref.o ?? 0), options);
    return await renderAll(service, me, options);
  } catch (error) {
    logger.warn(`settle up: reading the new balance failed: ${(error as Error).message}`);
    return plainNotice(`${notice} (I couldn't read the new balance: /split balance shows it.)`);
  }
}

/** Settle up on a balance message or in Home, and Record payment on a DM's confirmation. */
export function settleUpClicked(deps: SlackDeps) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const ref = parseSettleRef(args.action.value);
    const surface = surfaceOf(deps, args.body, args.respond, args.client, args.logger);
    try {
      if (!ref) {
        args.logger.warn('settle up: a button value that does not parse');
        await surface.tell(
          plainNotice(
            `This Settle up button is damaged, so I can't tell which debt it meant. ${NOTHING}`,
          ),
        );
        return;
      }
      await recordSettlement(deps, args, ref, surface);
    } catch (error) {
      args.logger.error(`settle up: ${(error as Error).stack ?? String(error)}`);
      await surface
        .tell(plainNotice(`Something went wrong on my side. ${NOTHING} Try again in a minute.`))
        .catch((again: Error) => args.logger.error(`settle up: could not tell: ${again.message}`));
    }
  };
}

/** Cancel on a DM's confirmation: the confirmation goes away. */
export async function settleCancelled({ ack, respond }: ButtonArgs): Promise<void> {
  await ack();
  await respond({ delete_original: true });
}
