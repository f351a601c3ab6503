import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { clickerOf } from '../runtime/click.js';
import { notice } from '../shared/balance-blocks.js';
import { voiceIn } from '../shared/voice.js';

/** Pause daily DM, on the DM itself: no DM from now on until it is resumed in the Home tab. */
export function digestPauseClicked(deps: SlackDeps) {
  return async ({
    ack,
    body,
    respond,
    logger,
    context,
  }: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const user = clickerOf(body);
    const voice = await voiceIn(context);
    let text: string;
    try {
      const paused = await deps.digest.pause(user);
      text = paused ? voice.t('digest.paused') : voice.t('digest.nothing_to_pause');
    } catch (error) {
      logger.error({ msg: 'digest pause: {error}', error: (error as Error).message });
      text = voice.t('digest.pause_failed');
    }
    await respond({ response_type: 'ephemeral', replace_original: false, ...notice(text) });
  };
}
