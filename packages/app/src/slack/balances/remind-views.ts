/**
 * Payment reminders as Block Kit, pure: the DM the person who owes receives (in their voice), and
 * what the sender is told (in theirs); the Remind buttons under a balance are in
 * shared/remind-buttons.ts. A reminder names only what the sender's own account says is owed to
 * the sender; nothing about anyone else.
 */
import type { types } from '@slack/bolt';
import type { Money } from '../../core/balances.js';
import type { Voice } from '../../voice/index.js';
import { ACTIONS, LEDGER_ACTIONS } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  buttonText,
  context,
  mrkdwnObject,
  section,
  sectionBlock,
} from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mention, mrkdwn } from '../kit/text.js';
import { notice, strong } from '../shared/balance-blocks.js';
import { settleButton } from '../shared/settle-views.js';

/** "€10.00 and $5.00". */
function amounts(owed: readonly Money[], voice: Voice): string {
  return voice.list(owed.map((m) => voice.money(m.amount, m.currency)));
}

interface ReminderInput {
  /** The sender's Slack id. */
  sender: string;
  senderName: string;
  /** What the sender's account says is owed to them, per currency (minor units, positive). */
  owed: Money[];
  /** For a person who linked: the sender's service id as a friend, so Settle up can pay it. */
  settle?: { friendId: number } | undefined;
  /** For a person who has not linked: a Connect link. */
  connectUrl?: string | undefined;
}

/** Slack shows at most this many Settle up buttons in the DM; more currencies are rare. */
const MAX_SETTLE_BUTTONS = 4;

/** The reminder DM, in the voice of the person reminded (`voice`). */
export function reminderMessage(input: ReminderInput, voice: Voice): SlackMessage {
  const { owed } = input;
  const text = voice.t('remind.dm', {
    sender: mention(input.sender),
    amounts: amounts(owed, voice),
  });
  const blocks: types.KnownBlock[] = [section(text)];
  const settle = input.settle;
  if (settle) {
    // One row per currency, each with its own Settle up (an action_id appears once per block).
    for (const m of owed.slice(0, MAX_SETTLE_BUTTONS)) {
      blocks.push(
        sectionBlock({
          text: mrkdwnObject({ text: strong(voice.money(m.amount, m.currency)) }),
          accessory: settleButton(
            {
              k: 'f',
              id: settle.friendId,
              c: m.currency,
              a: m.amount,
              p: 1,
              v: 'f',
              n: input.senderName,
            },
            voice,
          ),
        }),
      );
    }
  }
  const elements: types.Button[] = [];
  if (!settle && input.connectUrl) {
    elements.push(
      buttonElement({
        action_id: ACTIONS.connect,
        style: 'primary',
        text: buttonText(voice.t('remind.connect')),
        url: input.connectUrl,
      }),
    );
  }
  elements.push(
    buttonElement({
      action_id: LEDGER_ACTIONS.reminderOff,
      text: buttonText(voice.t('remind.stop')),
      value: 'off',
    }),
  );
  blocks.push(
    actionsBlock({ elements }),
    context(settle ? voice.t('remind.help_connected') : voice.t('remind.help_not_connected')),
  );
  return { text: clip(text, LIMITS.fallbackText), blocks };
}

/** What the sender is told, per outcome (mrkdwn); `name` is the person reminded. */
export function reminderSentText(name: string, owed: readonly Money[], voice: Voice): string {
  return voice.t('remind.sent', { name: mrkdwn(name), amounts: amounts(owed, voice) });
}

export function alreadyRemindedText(name: string, voice: Voice): string {
  return voice.t('remind.already', { name: mrkdwn(name) });
}

export function remindersOffText(name: string, voice: Voice): string {
  return voice.t('remind.turned_off_by_them', { name: mrkdwn(name) });
}

/** `name` undefined: Slack could not say who they are. */
export function nothingOwedText(name: string | undefined, voice: Voice): string {
  return name
    ? voice.t('remind.nothing_owed', { name: mrkdwn(name) })
    : voice.t('remind.nothing_owed_someone');
}

export function notInWorkspaceText(name: string, voice: Voice): string {
  return voice.t('remind.not_in_workspace', { name: mrkdwn(name) });
}

/** The reminder DM after "No more reminders". */
export function remindersOffMessage(voice: Voice): SlackMessage {
  return notice(voice.t('remind.no_more'));
}
