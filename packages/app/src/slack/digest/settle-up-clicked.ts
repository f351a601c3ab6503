import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { minorOf } from '../../core/balances.js';
import type { SlackDeps } from '../deps.js';
import { mrkdwn } from '../kit/text.js';
import { clickerOf } from '../runtime/click.js';
import { replyWithRespond } from '../runtime/reply.js';
import { notice } from '../shared/balance-blocks.js';
import { connectPrompt } from '../shared/notices.js';
import { describeServiceFailure } from '../shared/service-failure.js';
import { settleConfirmMessage } from '../shared/settle-views.js';
import { voiceIn } from '../shared/voice.js';
import { parseSettleUpValue } from './views.js';

/**
 * Settle up in the daily DM: the DM's button names the friend and currency only, so the debt is
 * read as it stands now and offered for confirmation, in the voice of the person who clicked.
 * Nothing is recorded here, so a double click only shows the confirmation twice.
 */
export function digestSettleUpClicked(deps: SlackDeps) {
  return async (
    args: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs,
  ): Promise<void> => {
    await args.ack();
    const { logger } = args;
    const user = clickerOf(args.body);
    const reply = replyWithRespond(args.respond);
    const voice = await voiceIn(args.context);
    const nothing = voice.t('settle.nothing_recorded');
    const value = parseSettleUpValue(args.action.value);
    if (!value) {
      logger.warn({
        msg: '{action_id}: a button value that does not parse',
        action_id: args.action.action_id,
      });
      await reply.ephemeral(notice(voice.t('digest.damaged')));
      return;
    }
    try {
      const record = await deps.tokens.get(user);
      if (!record) {
        const url = await deps.linking.connectUrl(user);
        await reply.ephemeral(connectPrompt(voice, { url, reason: 'first_time' }));
        return;
      }
      const friend = await deps.service.forLink(record).getFriend(value.friend_id);
      const name = [friend.first_name, friend.last_name].filter(Boolean).join(' ');
      const owed = friend.balance
        .filter((b) => b.currency_code.toUpperCase() === value.currency)
        .reduce((sum, b) => sum + minorOf(b), 0);
      if (owed === 0) {
        await reply.ephemeral(
          notice(
            voice.t('digest.already_settled', { name: mrkdwn(name), currency: value.currency }),
          ),
        );
        return;
      }
      await reply.ephemeral(
        settleConfirmMessage(
          {
            k: 'f',
            id: friend.id,
            c: value.currency,
            a: Math.abs(owed),
            p: owed < 0 ? 1 : 0,
            v: 'f',
            n: name.slice(0, 60),
          },
          voice,
        ),
      );
    } catch (error) {
      logger.warn({ msg: 'DM settle up failed: {error}', error: (error as Error).message });
      const failure = describeServiceFailure(voice, error, nothing);
      if (failure.relink) {
        await deps.unlinking.unlink(user);
        const url = await deps.linking.connectUrl(user);
        await reply.ephemeral(connectPrompt(voice, { url, reason: 'revoked' }));
        return;
      }
      await reply.ephemeral(notice(failure.text)).catch(() => undefined);
    }
  };
}
