import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { parsePendingRun } from '../../after-link.js';
import { DEDUPE_TTL_MS, type SlackDeps } from '../../deps.js';
import { replyInChannel, replyWithRespond, withFallback } from '../../reply.js';
import { runSplit } from '../../split/run.js';
import { plainNotice } from '../../views/notices.js';

/** "Book it now" in the after-linking DM: carries out the saved command in its channel, once. */
export function runPendingClicked(deps: SlackDeps) {
  return async ({
    ack,
    body,
    action,
    respond,
    client,
    logger,
  }: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const pending = parsePendingRun(action.value);
    if (!pending) {
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        ...plainNotice('This button is damaged. Type the command again.'),
      });
      return;
    }
    const team_id = body.team?.id ?? body.user.team_id ?? '';
    const messageTs = body.container?.message_ts ?? action.action_ts;
    if (
      !(await deps.claims.claim(`pending:${team_id}:${body.user.id}:${messageTs}`, DEDUPE_TTL_MS))
    )
      return;
    await respond({
      replace_original: true,
      ...plainNotice(`Carrying out /split ${pending.t} in the channel where you typed it…`),
    });
    const reply = withFallback(
      replyInChannel(client, pending.c, body.user.id),
      replyWithRespond(respond),
      logger,
    );
    try {
      await runSplit(
        deps,
        { team_id, user_id: body.user.id, channel_id: pending.c, text: pending.t },
        reply,
        logger,
      );
    } catch (error) {
      logger.error(`pending /split failed: ${(error as Error).message}`);
      await reply.ephemeral(
        plainNotice('Something went wrong on my side. Type the command again in the channel.'),
      );
    }
  };
}
