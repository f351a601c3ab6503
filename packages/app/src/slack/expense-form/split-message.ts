import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { filesOf } from '../shared/message-files.js';
import { openNewForm } from './open.js';

/**
 * "Split this" on a message: the expense form, pre-filled from the message (its text, an amount
 * in it, its author and the people it mentions, its image as the receipt); the booked expense goes
 * to the message's thread.
 */
export function splitMessageShortcut(deps: SlackDeps) {
  return async ({
    ack,
    shortcut,
    client,
    logger,
    context,
  }: SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    await openNewForm({
      deps,
      context,
      client,
      logger,
      trigger_id: shortcut.trigger_id,
      user: {
        team_id: shortcut.team?.id ?? shortcut.user.team_id ?? '',
        user_id: shortcut.user.id,
      },
      channel: shortcut.channel.id,
      thread_ts: shortcut.message.thread_ts ?? shortcut.message.ts,
      message: {
        text: shortcut.message.text ?? '',
        author: shortcut.message.user,
        files: filesOf(shortcut.message),
      },
    });
  };
}
