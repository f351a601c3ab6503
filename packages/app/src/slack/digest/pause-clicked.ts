import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { clickerOf } from '../shared/button.js';
import { plainNotice } from '../shared/notices.js';

/** Pause daily DM, on the DM itself: no DM from now on until it is resumed in the Home tab. */
export function digestPauseClicked(deps: SlackDeps) {
  return async ({
    ack,
    body,
    respond,
    logger,
  }: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const user = clickerOf(body);
    let text: string;
    try {
      const paused = await deps.digest.pause(user);
      text = paused
        ? 'Paused: no more daily balance DMs until you resume them in my Home tab.'
        : "You don't have a daily balance DM to pause.";
    } catch (error) {
      logger.error(`digest pause: ${(error as Error).message}`);
      text = "Something went wrong on my side and the DM isn't paused. Try again in a minute.";
    }
    await respond({ response_type: 'ephemeral', replace_original: false, ...plainNotice(text) });
  };
}
