import type { AllMiddlewareArgs, MessageShortcut, SlackShortcutMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import type { GroupCurrency } from './group-currency.js';
import type { MessageFile } from './message-receipt.js';
import { openNewForm } from './open.js';

/** The message's files as the payload carries them; anything else there is ignored. */
function filesOf(message: unknown): MessageFile[] {
  const files = (message as { files?: unknown }).files;
  if (!Array.isArray(files)) return [];
  return files
    .filter((f): f is Record<string, unknown> => typeof f === 'object' && f !== null)
    .map((f) => ({
      ...(typeof f.id === 'string' ? { id: f.id } : {}),
      ...(typeof f.name === 'string' ? { name: f.name } : {}),
      ...(typeof f.title === 'string' ? { title: f.title } : {}),
      ...(typeof f.mimetype === 'string' ? { mimetype: f.mimetype } : {}),
      ...(typeof f.size === 'number' ? { size: f.size } : {}),
    }));
}

/**
 * "Split this" on a message: the expense form, pre-filled from the message (its text, an amount
 * in it, its author and the people it mentions, its image as the receipt); the booked expense goes
 * to the message's thread.
 */
export function splitMessageShortcut(deps: SlackDeps, groupCurrency?: GroupCurrency) {
  return async ({
    ack,
    shortcut,
    client,
    logger,
  }: SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    await openNewForm({
      deps,
      groupCurrency,
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
