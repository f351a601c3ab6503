import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { DEDUPE_TTL_MS, type SlackDeps } from '../deps.js';
import { plainNotice } from '../shared/notices.js';
import { replyInChannel, replyWithRespond, withFallback } from '../shared/reply.js';

/**
 * `/split ...`: ack first with nothing before it, then everything else on the work queue. A
 * repeated delivery of the same invocation (same trigger_id) is recognised through a claim shared
 * by every replica.
 */
export function splitCommand(deps: SlackDeps) {
  return async ({
    ack,
    command,
    respond,
    client,
    logger,
  }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    await ack();
    if (command.text.trim() === '') {
      // The form needs the trigger id, which works once and only for 3 seconds: nothing first.
      await deps.hooks.openNewForm({
        client,
        logger,
        trigger_id: command.trigger_id,
        user: { team_id: command.team_id, user_id: command.user_id },
        channel: command.channel_id,
      });
      return;
    }
    deps.work.push(async () => {
      const reply = withFallback(
        replyWithRespond(respond),
        replyInChannel(client, command.channel_id, command.user_id),
        logger,
      );
      try {
        const first = await deps.claims.claim(
          `command:${command.team_id}:${command.trigger_id}`,
          DEDUPE_TTL_MS,
        );
        if (!first) {
          logger.info(`/split: repeated delivery of trigger ${command.trigger_id} ignored`);
          return;
        }
        await deps.hooks.runSplit(
          {
            team_id: command.team_id,
            user_id: command.user_id,
            channel_id: command.channel_id,
            text: command.text,
            response_url: command.response_url,
          },
          reply,
          logger,
        );
      } catch (error) {
        logger.error(`/split failed: ${(error as Error).stack ?? String(error)}`);
        await reply
          .ephemeral(
            plainNotice(
              'Something went wrong on my side while handling that. Try again in a minute; /split whoami shows whether your account is connected.',
            ),
          )
          .catch((again: Error) =>
            logger.error(`/split: could not tell the person: ${again.message}`),
          );
      }
    });
  };
}
