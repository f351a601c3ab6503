import { type ButtonArgs, readClick } from '../shared/button.js';
import { headerOf, parseExpenseRef } from '../shared/expense-message.js';
import { encodeMeta } from '../shared/modal.js';
import { plainNotice } from '../shared/notices.js';
import { commentFormView } from './comment-view.js';

/** Comment on a booked expense: a small form, opened at once with the click's trigger. */
export async function commentClicked(args: ButtonArgs): Promise<void> {
  const click = await readClick(
    args,
    parseExpenseRef,
    "This button is damaged, so I can't tell which expense it meant.",
  );
  if (!click) return;
  const { body, client, logger } = args;
  try {
    await client.views.open({
      trigger_id: body.trigger_id,
      view: commentFormView({
        meta: encodeMeta({
          e: click.ref.e,
          ...(body.channel?.id ? { c: body.channel.id } : {}),
        }),
        description: headerOf(body.message?.blocks) || `expense #${click.ref.e}`,
      }),
    });
  } catch (error) {
    logger.warn(`comment form: views.open failed: ${(error as Error).message}`);
    await click.reply
      .ephemeral(
        plainNotice("Slack didn't let me open the comment form in time. Press Comment again."),
      )
      .catch(() => undefined);
  }
}
