/**
 * Settle up on a balance: the button that asks before it records anything, and what a DM's
 * Settle up leads to (the debt as it stands, with Record payment, Pay part… and Cancel).
 */
import type { types } from '@slack/bolt';
import { LEDGER_ACTIONS } from '../ids.js';
import { section, who } from './balance-blocks.js';
import { money } from './format.js';
import { clip, LIMITS, mrkdwnEscape } from './limits.js';
import type { SlackMessage } from './message.js';
import { type SettleRef, settleRefValue, settleRefValueIn } from './settle-ref.js';

function confirmFor(ref: SettleRef, locale?: string): types.ConfirmationDialog {
  const amount = money(ref.a, ref.c, locale);
  const name = mrkdwnEscape(clip(ref.n, 60));
  const where = ref.k === 'g' ? ' in this group' : '';
  return {
    title: { type: 'plain_text', text: 'Record a payment?' },
    text: {
      type: 'mrkdwn',
      text: clip(
        ref.p === 1
          ? `Record that you paid *${name}* *${amount}*${where}? It settles that debt in the expense service.`
          : `Record that *${name}* paid you *${amount}*${where}? It settles that debt in the expense service.`,
        300,
      ),
    },
    confirm: { type: 'plain_text', text: 'Record payment' },
    deny: { type: 'plain_text', text: 'Cancel' },
  };
}

/** A Settle up button that asks before it records anything. */
export function settleButton(ref: SettleRef, locale?: string): types.Button {
  return {
    type: 'button',
    action_id: LEDGER_ACTIONS.settleUp,
    text: { type: 'plain_text', text: 'Settle up', emoji: true },
    value: settleRefValue(ref),
    confirm: confirmFor(ref, locale),
  };
}

/** What a DM's Settle up leads to: the debt as it stands now, and a button to record it. */
export function settleConfirmMessage(ref: SettleRef, locale?: string): SlackMessage {
  const amount = money(ref.a, ref.c, locale);
  const name = who(ref.n);
  const text =
    ref.p === 1
      ? `Record that you paid ${name} *${amount}*? That is everything you owe them in ${ref.c}.`
      : `Record that ${name} paid you *${amount}*? That is everything they owe you in ${ref.c}.`;
  return {
    text: `Settle up: ${ref.p === 1 ? `you owe ${ref.n}` : `${ref.n} owes you`} ${amount}.`,
    blocks: [
      section(text),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: LEDGER_ACTIONS.settleConfirm,
            style: 'primary',
            text: { type: 'plain_text', text: 'Record payment', emoji: true },
            value: settleRefValue(ref),
          },
          {
            type: 'button',
            action_id: LEDGER_ACTIONS.settlePart,
            text: { type: 'plain_text', text: 'Pay part…', emoji: true },
            value: settleRefValueIn(ref, locale, LIMITS.buttonValue),
          },
          {
            type: 'button',
            action_id: LEDGER_ACTIONS.settleCancel,
            text: { type: 'plain_text', text: 'Cancel', emoji: true },
            value: 'cancel',
          },
        ],
      },
    ],
  };
}
