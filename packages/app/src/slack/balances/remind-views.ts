/**
 * Payment reminders as Block Kit, pure: the DM the person who owes receives, and what the sender
 * is told (the Remind buttons under a balance are in shared/remind-buttons.ts). A reminder names only what the sender's own
 * account says is owed to the sender; nothing about anyone else.
 */
import type { types } from '@slack/bolt';
import type { Money } from '../../core/balances.js';
import { ACTIONS, LEDGER_ACTIONS } from '../ids.js';
import { money } from '../shared/format.js';
import { clip, LIMITS, mrkdwnEscape } from '../shared/limits.js';
import type { SlackMessage } from '../shared/message.js';
import { settleButton } from '../shared/settle-views.js';

function amounts(owed: readonly Money[], locale?: string): string {
  return owed.map((m) => money(m.amount, m.currency, locale)).join(' and ');
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
  locale?: string | undefined;
}

/** Slack shows at most this many Settle up buttons in the DM; more currencies are rare. */
const MAX_SETTLE_BUTTONS = 4;

export function reminderMessage(input: ReminderInput): SlackMessage {
  const { owed, locale } = input;
  const total = amounts(owed, locale);
  const text = `<@${input.sender}> sent you a reminder: according to their expense account, you owe them ${total}.`;
  const blocks: types.KnownBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: clip(text, LIMITS.sectionText) } },
  ];
  const settle = input.settle;
  if (settle) {
    // One row per currency, each with its own Settle up (an action_id appears once per block).
    for (const m of owed.slice(0, MAX_SETTLE_BUTTONS)) {
      blocks.push({
        type: 'section',
        text: { type: 'mrkdwn', text: `*${money(m.amount, m.currency, locale)}*` },
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
          locale,
        ),
      });
    }
  }
  const elements: types.Button[] = [];
  if (!settle && input.connectUrl) {
    elements.push({
      type: 'button',
      action_id: ACTIONS.connect,
      style: 'primary',
      text: { type: 'plain_text', text: 'Connect account', emoji: true },
      url: input.connectUrl,
    });
  }
  elements.push({
    type: 'button',
    action_id: LEDGER_ACTIONS.reminderOff,
    text: { type: 'plain_text', text: 'No more reminders', emoji: true },
    value: 'off',
  });
  const help = settle
    ? 'Settle up records a payment after you confirm it; `/split paid @someone 15` records part of it.'
    : 'Connect your expense account to settle up from Slack (the link works once, for 10 minutes; `/split connect` gives a new one). Or pay them as you usually do.';
  blocks.push(
    { type: 'actions', elements },
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `${help} "No more reminders" stops reminders from everyone; App Home turns them back on.`,
        },
      ],
    },
  );
  return { text: clip(text, LIMITS.fallbackText), blocks };
}

/** What the sender is told, per outcome; `name` is the person reminded. */
export function reminderSentText(name: string, owed: readonly Money[], locale?: string): string {
  return `Reminder sent to ${name}: they owe you ${amounts(owed, locale)}. You can remind them again tomorrow.`;
}

export function alreadyRemindedText(name: string): string {
  return `You already reminded ${name} today, so I didn't send another. You can remind them again tomorrow.`;
}

export function remindersOffText(name: string): string {
  return `${name} has turned payment reminders off, so I didn't send one.`;
}

export function nothingOwedText(name: string): string {
  return `${name} doesn't owe you anything, so there is nothing to remind them of.`;
}

export function notInWorkspaceText(name: string): string {
  return `I can't find ${name} in this Slack workspace, so I can't remind them here.`;
}

/** The reminder DM after "No more reminders". */
export function remindersOffMessage(): SlackMessage {
  const text = "You won't get payment reminders from anyone any more. App Home turns them back on.";
  return {
    text,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: mrkdwnEscape(text) } }],
  };
}
