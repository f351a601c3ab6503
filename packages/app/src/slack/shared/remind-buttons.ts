/**
 * The controls under a balance (a message or App Home) besides each row's Settle up: "Pay
 * part…" (a menu of the debts, each opening the amount form) and Remind (the people who owe me).
 * Pure, in the reader's voice; Remind asks before it sends, as Settle up does.
 */
import type { types } from '@slack/bolt';
import { type Infer, int, object, string } from '../../core/schema.js';
import type { Voice } from '../../voice/index.js';
import { LEDGER_ACTIONS } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  mrkdwnObject,
  plainTextObject,
  staticSelect,
} from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import { mrkdwn, plainText } from '../kit/text.js';
import { type SettleRef, settleRefValueIn } from './settle-ref.js';

/** What a Remind button carries: the friend's service id and name. */
const remindRefSchema = object({
  id: int({ min: 1 }),
  n: string({ max: 60 }),
});
type RemindRef = Infer<typeof remindRefSchema>;

export function parseRemindRef(value: string | undefined): RemindRef | undefined {
  return remindRefSchema.readJson(value);
}

/** A static select holds at most 100 options (Slack's limit). */
const MAX_OPTIONS = 100;
/** An option's value holds at most 150 characters: the name in it is cut shorter. */
const OPTION_VALUE = 150;
const NAME_IN_OPTION = 40;
/** An option's text holds at most 75 characters. */
const OPTION_TEXT = 75;
/** A confirm dialog's text holds at most 300 characters. */
const CONFIRM_TEXT = 300;

function plain(text: string, max: number): types.PlainTextElement {
  return plainTextObject({ text: clip(plainText(text), max), emoji: true });
}

function refValue(p: { id: number; name: string }, nameLength: number): string {
  return JSON.stringify(remindRefSchema.parse({ id: p.id, n: p.name.slice(0, nameLength) }));
}

/**
 * "Record part…": a menu of the debts (friend-wide ones: a group's own debts are settled whole),
 * each option carrying its SettleRef with the name cut to fit an option's 150 characters.
 */
function payPartMenu(refs: readonly SettleRef[], voice: Voice): types.StaticSelect {
  return staticSelect({
    action_id: LEDGER_ACTIONS.settlePart,
    placeholder: plain(voice.t('remind.pay_part_placeholder'), OPTION_TEXT),
    options: refs.slice(0, MAX_OPTIONS).map((ref) => {
      const values = { name: ref.n, amount: voice.money(ref.a, ref.c) };
      return {
        text: plain(
          ref.p === 1 ? voice.t('balances.you_owe', values) : voice.t('balances.owes_you', values),
          OPTION_TEXT,
        ),
        value: settleRefValueIn(
          { ...ref, n: ref.n.slice(0, NAME_IN_OPTION) },
          voice.locale,
          OPTION_VALUE,
        ),
      };
    }),
  });
}

/**
 * One actions block under a balance: "Record part…" when something is owed either way, and Remind
 * (a button for one person who owes me, a menu for several: Slack wants each action_id once per
 * block); nothing when neither applies.
 */
export function remindActions(
  people: ReadonlyArray<{ id: number; name: string }>,
  debts: readonly SettleRef[],
  voice: Voice,
): types.ActionsBlock[] {
  const seen = new Set<number>();
  const unique = people.filter((p) => !seen.has(p.id) && seen.add(p.id));
  const parts = debts.filter((d) => d.k === 'f');
  const pay: types.ActionsBlockElement[] = parts.length > 0 ? [payPartMenu(parts, voice)] : [];
  const [only] = unique;
  if (!only) return pay.length > 0 ? [actionsBlock({ elements: pay })] : [];
  if (unique.length === 1) {
    return [
      actionsBlock({
        elements: [
          ...pay,
          buttonElement({
            action_id: LEDGER_ACTIONS.remind,
            text: plain(voice.t('remind.button', { name: only.name }), LIMITS.buttonText),
            value: refValue(only, 60),
            confirm: {
              title: plain(voice.t('remind.confirm_title'), OPTION_TEXT),
              text: mrkdwnObject({
                text: clip(
                  voice.t('remind.confirm_one', { name: `*${mrkdwn(clip(only.name, 60))}*` }),
                  CONFIRM_TEXT,
                ),
              }),
              confirm: plain(voice.t('remind.send'), OPTION_TEXT),
              deny: plain(voice.t('settle.cancel'), OPTION_TEXT),
            },
          }),
        ],
      }),
    ];
  }
  return [
    actionsBlock({
      elements: [
        ...pay,
        staticSelect({
          action_id: LEDGER_ACTIONS.remind,
          placeholder: plain(voice.t('remind.placeholder'), OPTION_TEXT),
          options: unique.slice(0, MAX_OPTIONS).map((p) => ({
            text: plain(voice.t('remind.button', { name: p.name }), OPTION_TEXT),
            value: refValue(p, NAME_IN_OPTION),
          })),
          confirm: {
            title: plain(voice.t('remind.confirm_title'), OPTION_TEXT),
            text: mrkdwnObject({ text: clip(voice.t('remind.confirm_many'), CONFIRM_TEXT) }),
            confirm: plain(voice.t('remind.send'), OPTION_TEXT),
            deny: plain(voice.t('settle.cancel'), OPTION_TEXT),
          },
        }),
      ],
    }),
  ];
}
