/**
 * `/split connect`, `/split disconnect` and `/split whoami`: the person's link to their expense
 * account, as far as the `/split` command shows it. Disconnecting removes everything the app
 * keeps about the person, not only the token: nothing kept would be of use without it.
 */

import { mrkdwn } from '../kit/text.js';
import { plainNotice } from '../shared/notices.js';
import type { SplitHandlers } from '../shared/split-context.js';
import { promptConnect } from '../shared/split-context.js';
import { forgottenText } from './kept.js';
import { linkingNotice, whoamiMessage } from './views.js';

export const LINKING_COMMANDS: Pick<SplitHandlers, 'connect' | 'disconnect' | 'whoami'> = {
  connect: async (c) => {
    const record = await c.deps.tokens.get(c.user);
    if (record) {
      const voice = c.voice;
      await c.reply.ephemeral(
        linkingNotice(voice.t('linking.already_connected', { name: mrkdwn(record.name) })),
      );
      return;
    }
    await promptConnect(c, 'asked', false);
  },

  disconnect: async (c) => {
    const removed = await c.deps.unlinking.forgetPerson(c.user);
    await c.reply.ephemeral(plainNotice(forgottenText(removed, c.voice)));
  },

  whoami: async (c) => {
    const record = await c.deps.tokens.get(c.user);
    if (!record) return promptConnect(c, 'asked', false);
    await c.reply.ephemeral(
      whoamiMessage(c.voice, {
        name: record.name,
        serviceUserId: record.service_user_id,
        linkedAt: record.linked_at,
      }),
    );
  },
};
