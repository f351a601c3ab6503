import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import { errorNotice } from '../../views/notices.js';

/**
 * "Split this" on a message. Until the expense form exists (it opens pre-filled from the message),
 * the person is told privately how to book the same thing with /split, rather than the shortcut
 * failing after three seconds.
 */
export async function splitMessageShortcut({
  ack,
  respond,
  logger,
}: SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs): Promise<void> {
  await ack();
  try {
    await respond({
      response_type: 'ephemeral',
      ...errorNotice(
        "The form for splitting a message isn't available in this version of Split yet. Type the expense with /split instead.",
        '/split 40 lunch @ann',
      ),
    });
  } catch (error) {
    logger.warn(`Split this: could not answer: ${(error as Error).message}`);
  }
}
