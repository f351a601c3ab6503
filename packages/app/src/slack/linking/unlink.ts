/**
 * Unlink, on the DM after linking: removes the person's link, if it is still the account that DM
 * named, and puts what it did in the DM's place. App Home is published again so that it shows
 * the person as not connected.
 */

import type { SlackDeps } from '../deps.js';
import type { ButtonArgs } from '../shared/button.js';
import { clickerOf } from '../shared/button.js';
import { parseUnlinkRef, unlinkedMessage, unlinkStaleText } from './views.js';

export const unlinkClicked =
  (deps: SlackDeps) =>
  async ({ ack, action, body, respond, client, logger }: ButtonArgs): Promise<void> => {
    await ack();
    const user = clickerOf(body);
    const ref = parseUnlinkRef(action.value);
    try {
      const record = await deps.tokens.get(user);
      if (!ref || !record || record.service_user_id !== ref.s) {
        await respond({
          response_type: 'ephemeral',
          replace_original: false,
          text: unlinkStaleText(record?.name),
        });
        return;
      }
      await deps.unlinking.unlink(user);
      logger.info(
        `unlinked ${user.team_id}:${user.user_id} from service user ${record.service_user_id}`,
      );
      await respond({ replace_original: true, ...unlinkedMessage(record.name) });
    } catch (error) {
      logger.error(`unlink for ${user.user_id}: ${(error as Error).message}`);
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: "I couldn't unlink just now. Please try again, or type /split disconnect.",
      }).catch(() => undefined);
      return;
    }
    await deps.hooks
      .publishHome(client, user, logger)
      .catch((error: Error) => logger.warn(`Home after unlink: ${error.message}`));
  };
