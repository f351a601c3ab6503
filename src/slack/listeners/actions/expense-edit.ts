import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../../deps.js';
import { openEditForm } from '../../expenses/open.js';
import { replyWithRespond } from '../../reply.js';
import { parseExpenseRef } from '../../views/expense-message.js';
import { plainNotice } from '../../views/notices.js';

/** Edit on a booked expense: the form opens at once, then fills with the expense as it is now. */
export function editClicked(deps: SlackDeps) {
  return async ({
    ack,
    body,
    action,
    client,
    respond,
    logger,
  }: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const ref = parseExpenseRef(action.value);
    if (!ref) {
      await replyWithRespond(respond).ephemeral(
        plainNotice("This button is damaged, so I can't tell which expense it meant."),
      );
      return;
    }
    await openEditForm({
      deps,
      client,
      logger,
      trigger_id: body.trigger_id,
      user: { team_id: body.team?.id ?? body.user.team_id ?? '', user_id: body.user.id },
      expenseId: ref.e,
      channel: body.channel?.id,
      ts: body.message?.ts,
    });
  };
}
