/**
 * Settle up on a balance: the button that asks before it records anything, and what a DM's
 * Settle up leads to (the debt as it stands, with Record a payment, Record part… and Cancel). Pure,
 * in the voice of the person who sees them.
 */
import type { types } from '@slack/bolt';
import type { Voice } from '../../voice/index.js';
import { LEDGER_ACTIONS } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  mrkdwnObject,
  plainTextObject,
  section,
} from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn, plainText } from '../kit/text.js';
import { strong, who } from './balance-blocks.js';
import { type SettleRef, settleRefValue, settleRefValueIn } from './settle-ref.js';

/** Slack's limits on a confirm dialog: a 100-character title, a 300-character text. */
const CONFIRM_TITLE = 100;
const CONFIRM_TEXT = 300;

function plain(text: string, max: number = LIMITS.buttonText): types.PlainTextElement {
  return plainTextObject({ text: clip(plainText(text), max), emoji: true });
}

function confirmFor(ref: SettleRef, voice: Voice): types.ConfirmationDialog {
  const values = {
    name: strong(mrkdwn(clip(ref.n, 60))),
    amount: strong(voice.money(ref.a, ref.c)),
    scope: ref.k === 'g' ? 'group' : 'friend',
  };
  return {
    title: plain(voice.t('settle.confirm_title'), CONFIRM_TITLE),
    text: mrkdwnObject({
      text: clip(
        ref.p === 1
          ? voice.t('settle.confirm_you_paid', values)
          : voice.t('settle.confirm_they_paid', values),
        CONFIRM_TEXT,
      ),
    }),
    confirm: plain(voice.t('settle.record_payment')),
    deny: plain(voice.t('settle.cancel')),
  };
}

/** A Settle up button that asks before it records anything. */
export function settleButton(ref: SettleRef, voice: Voice): types.Button {
  return buttonElement({
    action_id: LEDGER_ACTIONS.settleUp,
    text: plain(voice.t('settle.settle_up')),
    value: settleRefValue(ref),
    confirm: confirmFor(ref, voice),
  });
}

/** What a DM's Settle up leads to: the debt as it stands now, and a button to record it. */
export function settleConfirmMessage(ref: SettleRef, voice: Voice): SlackMessage {
  const amount = voice.money(ref.a, ref.c);
  const text =
    ref.p === 1
      ? voice.t('settle.confirm_you_paid_all', {
          name: who(ref.n),
          amount: strong(amount),
          currency: ref.c,
        })
      : voice.t('settle.confirm_they_paid_all', {
          name: who(ref.n),
          amount: strong(amount),
          currency: ref.c,
        });
  const fallback = { name: mrkdwn(ref.n), amount };
  return {
    text:
      ref.p === 1
        ? voice.t('settle.confirm_fallback_you_owe', fallback)
        : voice.t('settle.confirm_fallback_owes_you', fallback),
    blocks: [
      section(text),
      actionsBlock({
        elements: [
          buttonElement({
            action_id: LEDGER_ACTIONS.settleConfirm,
            style: 'primary',
            text: plain(voice.t('settle.record_payment')),
            value: settleRefValue(ref),
          }),
          buttonElement({
            action_id: LEDGER_ACTIONS.settlePart,
            text: plain(voice.t('settle.pay_part')),
            value: settleRefValueIn(ref, voice.locale, LIMITS.buttonValue),
          }),
          buttonElement({
            action_id: LEDGER_ACTIONS.settleCancel,
            text: plain(voice.t('settle.cancel')),
            value: 'cancel',
          }),
        ],
      }),
    ],
  };
}
