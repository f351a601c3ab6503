import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { encodeMeta } from '../../expenses/form.js';
import { replyWithRespond } from '../../reply.js';
import { headerOf, parseExpenseRef } from '../../views/expense-message.js';
import { commentFormView } from '../../views/expense-modal.js';
import { plainNotice } from '../../views/notices.js';

/** Comment on a booked expense: a small form, opened at once with the click's trigger. */
export async function commentClicked({
  ack,
  body,
  action,
  client,
  respond,
  logger,
}: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs): Promise<void> {
  await ack();
  const reply = replyWithRespond(respond);
  const ref = parseExpenseRef(action.value);
  if (!ref) {
    await reply.ephemeral(
      plainNotice("This button is damaged, so I can't tell which expense it meant."),
    );
    return;
  }
  try {
    await client.views.open({
      trigger_id: body.trigger_id,
      view: commentFormView({
        meta: encodeMeta({
          e: ref.e,
          ...(body.channel?.id ? { c: body.channel.id } : {}),
        }),
        description: headerOf(body.message?.blocks) || `expense #${ref.e}`,
      }),
    });
  } catch (error) {
    logger.warn(`comment form: views.open failed: ${(error as Error).message}`);
    await reply
      .ephemeral(
        plainNotice("Slack didn't let me open the comment form in time. Press Comment again."),
      )
      .catch(() => undefined);
  }
}
