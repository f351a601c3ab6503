/**
 * Unlink, on the DM after linking: removes the person's link, if it is still the account that DM
 * named, and puts what it did in the DM's place. Pressed on a DM whose account is no longer the
 * one linked, it has nothing left to do: the DM says so in its place too, rather than keep a
 * button that can never work. App Home is published again so that it shows the person as not
 * connected. Everything is said in the voice of the person who clicked.
 */

import type { SlackDeps } from '../deps.js';
import type { ButtonArgs } from '../runtime/click.js';
import { clickerOf } from '../runtime/click.js';
import { voiceIn } from '../shared/voice.js';
import { linkingNotice, parseUnlinkRef, unlinkedMessage, unlinkStaleMessage } from './views.js';

export const unlinkClicked =
  (deps: SlackDeps) =>
  async ({ ack, action, body, respond, client, logger, context }: ButtonArgs): Promise<void> => {
    await ack();
    const user = clickerOf(body);
    const ref = parseUnlinkRef(action.value);
    const voice = await voiceIn(context);
    try {
      const record = await deps.tokens.get(user);
      if (!ref || !record || record.service_user_id !== ref.s) {
        await respond({ replace_original: true, ...unlinkStaleMessage(voice, record?.name) });
        return;
      }
      await deps.unlinking.unlink(user);
      logger.info({
        msg: 'unlinked {team_id}:{user_id} from service user {service_user_id}',
        team_id: user.team_id,
        user_id: user.user_id,
        service_user_id: record.service_user_id,
      });
      await respond({ replace_original: true, ...unlinkedMessage(voice, record.name) });
    } catch (error) {
      logger.error({
        msg: 'unlink for {user_id}: {error}',
        user_id: user.user_id,
        error: (error as Error).message,
      });
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        ...linkingNotice(voice.t('linking.unlink_failed')),
      }).catch(() => undefined);
      return;
    }
    await deps.hooks
      .publishHome(client, user, voice, logger)
      .catch((error: Error) =>
        logger.warn({ msg: 'Home after unlink: {error}', error: error.message }),
      );
  };
