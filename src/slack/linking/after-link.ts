/**
 * What happens once someone has linked their account: a DM naming the expense account now linked,
 * with an Unlink button, then the command that sent them to link is carried out where they typed it. Its response_url is always
 * fresh enough here (a link state lives 10 minutes, a response_url 30); if posting through it
 * fails anyway, the answer goes to the channel instead.
 */
import type { Logger, webApi } from '@slack/bolt';
import type { ServiceTokenRecord, SlackUserKey } from '../../store/index.js';
import type { PendingCommand } from '../../store/link-states.js';
import type { SlackDeps } from '../deps.js';
import { linkedDm as connectedNotice } from '../shared/notices.js';
import { type Reply, replyInChannel, replyViaResponseUrl, withFallback } from '../shared/reply.js';
import { linkedDm } from './views.js';

export function afterLink(
  deps: SlackDeps,
  client: (team_id: string) => Promise<webApi.WebClient>,
  logger: Logger,
) {
  return async (
    user: SlackUserKey,
    record: ServiceTokenRecord,
    pending?: PendingCommand,
    serviceEmail?: string,
  ) => {
    const web = await client(user.team_id);
    try {
      await web.chat.postMessage({
        channel: user.user_id,
        ...linkedDm({
          name: record.name,
          email: serviceEmail,
          serviceUserId: record.service_user_id,
          pendingText: pending?.text,
        }),
      });
    } catch (error) {
      logger.warn(`could not DM ${user.user_id} after linking: ${(error as Error).message}`);
    }
    if (!pending) return;
    const inChannel = replyInChannel(web, pending.channel_id, user.user_id);
    const reply: Reply = pending.response_url
      ? withFallback(replyViaResponseUrl(pending.response_url), inChannel, logger)
      : inChannel;
    try {
      await deps.hooks.runSplit(
        {
          ...user,
          channel_id: pending.channel_id,
          text: pending.text,
          response_url: pending.response_url,
        },
        reply,
        logger,
      );
    } catch (error) {
      logger.error(`carrying out the pending /split failed: ${(error as Error).message}`);
      await reply
        .ephemeral(connectedNotice({ name: record.name, failedText: pending.text }))
        .catch((again: Error) => logger.error(`could not say so either: ${again.message}`));
    }
  };
}
