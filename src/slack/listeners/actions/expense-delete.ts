import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { ServiceBaseException } from '../../../service/index.js';
import type { SlackDeps } from '../../deps.js';
import { accessExpense, accessFailure } from '../../expenses/access.js';
import { replyWithRespond } from '../../reply.js';
import { refusedText } from '../../service-failure.js';
import { deletedMessage, headerOf, parseExpenseRef } from '../../views/expense-message.js';
import { connectPrompt, plainNotice } from '../../views/notices.js';

const NOTHING = 'Nothing was deleted.';
/** Long enough to swallow a double click, short enough that Delete works again after an Undo. */
const CLICK_CLAIM_MS = 30_000;

/**
 * Delete (after Slack's confirmation dialog): with the clicker's own token, only when they are on
 * the expense; the message then shows it deleted, with an Undo that restores it.
 */
export function deleteClicked(deps: SlackDeps) {
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
      await reply.ephemeral(plainNotice(`This button is damaged. ${NOTHING}`));
      return;
    }
    const user = { team_id: body.team?.id ?? body.user.team_id ?? '', user_id: body.user.id };
    const key = `delete:${user.team_id}:${ref.e}`;
    deps.work.push(async () => {
      if (!(await deps.claims.claim(key, CLICK_CLAIM_MS))) return;
      try {
        const access = await accessExpense(deps, user, ref.e, NOTHING);
        if (!access.ok) {
          await reply.ephemeral(
            access.kind === 'connect'
              ? connectPrompt({ url: access.url, reason: access.reason })
              : plainNotice(access.text),
          );
          return;
        }
        const result = await access.client.deleteExpense(ref.e);
        if (!result.success) {
          await reply.ephemeral(plainNotice(refusedText(result.errors, NOTHING)));
          return;
        }
        await deps.expenses.forgetBooked(user, ref.e).catch(() => undefined);
        await respond({
          replace_original: true,
          ...deletedMessage({
            expenseId: ref.e,
            deletedBy: user.user_id,
            what: headerOf(body.message?.blocks) || access.expense.description,
          }),
        });
      } catch (error) {
        logger.warn(`delete of expense ${ref.e} failed: ${(error as Error).message}`);
        await reply
          .ephemeral(
            plainNotice(
              error instanceof ServiceBaseException
                ? accessFailure(error, NOTHING)
                : `Something went wrong on my side. ${NOTHING}`,
            ),
          )
          .catch(() => undefined);
      } finally {
        await deps.claims.release(key).catch(() => undefined);
      }
    });
  };
}
