import type { AllMiddlewareArgs, BlockButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { DEDUPE_TTL_MS, type SlackDeps } from '../../deps.js';
import { describeServiceFailure, refusedText } from '../../service-failure.js';
import { groupDoneMessage, parseGroupRef } from '../../views/groups.js';
import { mrkdwnEscape } from '../../views/limits.js';
import type { SlackMessage } from '../../views/message.js';
import { connectPrompt, plainNotice } from '../../views/notices.js';

const NOTHING = 'Nothing was deleted.';

/**
 * The confirmed Delete under `/split group delete <name>`: deletes the group with the clicking
 * person's own link, unbinds this channel if it booked into it, and replaces the confirmation.
 */
export function groupDeleteClicked(deps: SlackDeps) {
  return async ({
    ack,
    body,
    action,
    respond,
    logger,
  }: SlackActionMiddlewareArgs<BlockButtonAction> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const tell = (message: SlackMessage) =>
      respond({ response_type: 'ephemeral', replace_original: false, ...message });
    const ref = parseGroupRef(action.value);
    if (!ref) {
      await tell(plainNotice(`This Delete button is damaged. ${NOTHING}`));
      return;
    }
    const user = { team_id: body.team?.id ?? body.user.team_id ?? '', user_id: body.user.id };
    const key = `group-delete:${user.team_id}:${ref.g}`;
    try {
      if (!(await deps.claims.claim(key, DEDUPE_TTL_MS))) {
        logger.info(`group delete ${ref.g}: already under way, click ignored`);
        return;
      }
    } catch (error) {
      logger.error(`group delete: claim failed: ${(error as Error).message}`);
      await tell(plainNotice(`Something went wrong on my side. ${NOTHING} Try again in a minute.`));
      return;
    }
    const giveBack = () =>
      deps.claims.release(key).catch((error: Error) => logger.warn(`release: ${error.message}`));
    try {
      const record = await deps.tokens.get(user);
      if (!record) {
        await giveBack();
        await tell(
          connectPrompt({ url: await deps.linking.connectUrl(user), reason: 'first_time' }),
        );
        return;
      }
      const client = deps.service.forLink(record);
      const result = await client.deleteGroup(ref.g);
      if (!result.success) {
        await giveBack();
        await tell(plainNotice(refusedText(result.errors, NOTHING)));
        return;
      }
      const channel = body.channel?.id;
      if (channel) {
        const bound = await deps.bindings.get({ team_id: user.team_id, channel_id: channel });
        if (bound?.group_id === ref.g)
          await deps.bindings.delete({ team_id: user.team_id, channel_id: channel });
      }
      await deps.preferences.clearGroup(user, ref.g);
      await deps.directory.groups(user, client, true).catch(() => undefined);
      await respond({
        replace_original: true,
        ...groupDoneMessage(`Deleted the group *${mrkdwnEscape(ref.n)}*.`),
      });
    } catch (error) {
      await giveBack();
      const failure = describeServiceFailure(error, NOTHING);
      if (failure.relink) {
        await deps.tokens.delete(user);
        deps.directory.forget(user);
        await tell(connectPrompt({ url: await deps.linking.connectUrl(user), reason: 'revoked' }));
        return;
      }
      logger.warn(`group delete ${ref.g} failed: ${(error as Error).message}`);
      await tell(plainNotice(failure.text));
    }
  };
}
