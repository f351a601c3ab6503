import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { ServiceBaseException } from '../../../service/index.js';
import { DEDUPE_TTL_MS, type SlackDeps } from '../../deps.js';
import { replyWithRespond } from '../../reply.js';
import { describeServiceFailure, refusedText } from '../../service-failure.js';
import { parseExpenseRef, undoneMessage } from '../../views/expense-message.js';
import { connectPrompt, plainNotice } from '../../views/notices.js';

const NOTHING_CHANGED = 'Nothing was changed.';

/**
 * Undo on a booked expense: deletes it with the clicking person's own link and replaces the
 * message. A double click (or a redelivery) finds the expense already claimed and does nothing
 * more; a failure gives the claim back so that the button can be pressed again.
 */
export function undoClicked(deps: SlackDeps) {
  return async ({
    ack,
    body,
    action,
    respond,
    logger,
  }: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const reply = replyWithRespond(respond);
    const ref = parseExpenseRef(action.value);
    if (!ref) {
      logger.warn('undo: a button value that does not parse');
      await reply.ephemeral(
        plainNotice(
          "This Undo button is damaged, so I can't tell which expense it meant. Nothing was changed.",
        ),
      );
      return;
    }
    const team_id = body.team?.id ?? body.user.team_id ?? '';
    const user = { team_id, user_id: body.user.id };
    const key = `undo:${team_id}:${ref.e}`;
    try {
      if (!(await deps.claims.claim(key, DEDUPE_TTL_MS))) {
        logger.info(`undo of expense ${ref.e}: already under way, click ignored`);
        return;
      }
    } catch (error) {
      logger.error(`undo: claim failed: ${(error as Error).message}`);
      await reply.ephemeral(
        plainNotice(`Something went wrong on my side. ${NOTHING_CHANGED} Try again in a minute.`),
      );
      return;
    }
    const giveBack = () =>
      deps.claims
        .release(key)
        .catch((error: Error) => logger.warn(`undo: release failed: ${error.message}`));
    try {
      const record = await deps.tokens.get(user);
      if (!record) {
        await giveBack();
        const url = await deps.linking.connectUrl(user);
        await reply.ephemeral(connectPrompt({ url, reason: 'first_time' }));
        return;
      }
      const result = await deps.service.forLink(record).deleteExpense(ref.e);
      if (!result.success) {
        await giveBack();
        await reply.ephemeral(plainNotice(refusedText(result.errors, NOTHING_CHANGED)));
        return;
      }
      await respond({
        replace_original: true,
        ...undoneMessage({
          expenseId: ref.e,
          undoneBy: user.user_id,
          original: body.message?.text ?? '',
        }),
      });
    } catch (error) {
      await giveBack();
      if (error instanceof ServiceBaseException && error.outcome_unknown) {
        await reply.ephemeral(
          plainNotice(
            "The expense service didn't confirm the undo in time. Press Undo again to make sure it's done.",
          ),
        );
        return;
      }
      const failure = describeServiceFailure(error, NOTHING_CHANGED);
      if (failure.relink) {
        await deps.tokens.delete(user);
        deps.directory.forget(user);
        const url = await deps.linking.connectUrl(user);
        await reply.ephemeral(connectPrompt({ url, reason: 'revoked' }));
        return;
      }
      logger.warn(`undo of expense ${ref.e} failed: ${(error as Error).message}`);
      await reply.ephemeral(plainNotice(failure.text));
    }
  };
}
