/**
 * The controls under a balance (a message or App Home) besides each row's Settle up: "Pay
 * part…" (a menu of the debts, each opening the amount form) and Remind (the people who owe me).
 * Pure; Remind asks before it sends, as Settle up does.
 */
import type { types } from '@slack/bolt';
import { type Infer, int, object, string } from '../../core/schema.js';
import { LEDGER_ACTIONS } from '../ids.js';
import { money } from './format.js';
import { clip, LIMITS, mrkdwnEscape } from './limits.js';
import { type SettleRef, settleRefValueIn } from './settle-ref.js';

/** What a Remind button carries: the friend's service id and name. */
const remindRefSchema = object({
  id: int({ min: 1 }),
  n: string({ max: 60 }),
});
type RemindRef = Infer<typeof remindRefSchema>;

export function parseRemindRef(value: string | undefined): RemindRef | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = remindRefSchema.safeParse(JSON.parse(value));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A name in a button or option label: plain text, where Slack shows `<!channel>` literally; the
 * angle brackets are dropped anyway, so that no label even looks like a mention.
 */
const label = (name: string) => name.replace(/[<>]/g, '');

/** A static select holds at most 100 options (Slack's limit). */
const MAX_OPTIONS = 100;
/** An option's value holds at most 150 characters: the name in it is cut shorter. */
const OPTION_VALUE = 150;
const NAME_IN_OPTION = 40;
/** An option's text holds at most 75 characters. */
const OPTION_TEXT = 75;

function refValue(p: { id: number; name: string }, nameLength: number): string {
  return JSON.stringify(remindRefSchema.parse({ id: p.id, n: p.name.slice(0, nameLength) }));
}

/**
 * "Pay part…": a menu of the debts (friend-wide ones: a group's own debts are settled whole),
 * each option carrying its SettleRef with the name cut to fit an option's 150 characters.
 */
function payPartMenu(refs: readonly SettleRef[], locale?: string): types.StaticSelect {
  return {
    type: 'static_select',
    action_id: LEDGER_ACTIONS.settlePart,
    placeholder: { type: 'plain_text', text: 'Pay part of a debt…', emoji: true },
    options: refs.slice(0, MAX_OPTIONS).map((ref) => {
      const amount = money(ref.a, ref.c, locale);
      const name = label(ref.n);
      const text = ref.p === 1 ? `You owe ${name} ${amount}` : `${name} owes you ${amount}`;
      return {
        text: { type: 'plain_text', text: clip(text, OPTION_TEXT), emoji: true },
        value: settleRefValueIn(
          { ...ref, n: ref.n.slice(0, NAME_IN_OPTION) },
          locale,
          OPTION_VALUE,
        ),
      };
    }),
  };
}

/**
 * One actions block under a balance: "Pay part…" when something is owed either way, and Remind
 * (a button for one person who owes me, a menu for several: Slack wants each action_id once per
 * block); nothing when neither applies.
 */
export function remindActions(
  people: ReadonlyArray<{ id: number; name: string }>,
  debts: readonly SettleRef[] = [],
  locale?: string,
): types.ActionsBlock[] {
  const seen = new Set<number>();
  const unique = people.filter((p) => !seen.has(p.id) && seen.add(p.id));
  const parts = debts.filter((d) => d.k === 'f');
  const pay: types.ActionsBlockElement[] = parts.length > 0 ? [payPartMenu(parts, locale)] : [];
  const [only] = unique;
  if (!only) return pay.length > 0 ? [{ type: 'actions', elements: pay }] : [];
  if (unique.length === 1) {
    return [
      {
        type: 'actions',
        elements: [
          ...pay,
          {
            type: 'button',
            action_id: LEDGER_ACTIONS.remind,
            text: {
              type: 'plain_text',
              text: clip(`Remind ${label(only.name)}`, LIMITS.buttonText),
              emoji: true,
            },
            value: refValue(only, 60),
            confirm: {
              title: { type: 'plain_text', text: 'Send a reminder?' },
              text: {
                type: 'mrkdwn',
                text: clip(
                  `Send *${mrkdwnEscape(only.name)}* a DM with what they owe you? At most one a day.`,
                  300,
                ),
              },
              confirm: { type: 'plain_text', text: 'Send reminder' },
              deny: { type: 'plain_text', text: 'Cancel' },
            },
          },
        ],
      },
    ];
  }
  return [
    {
      type: 'actions',
      elements: [
        ...pay,
        {
          type: 'static_select',
          action_id: LEDGER_ACTIONS.remind,
          placeholder: { type: 'plain_text', text: 'Remind someone who owes you…', emoji: true },
          options: unique.slice(0, MAX_OPTIONS).map((p) => ({
            text: {
              type: 'plain_text',
              text: clip(`Remind ${label(p.name)}`, OPTION_TEXT),
              emoji: true,
            },
            value: refValue(p, NAME_IN_OPTION),
          })),
          confirm: {
            title: { type: 'plain_text', text: 'Send a reminder?' },
            text: {
              type: 'mrkdwn',
              text: 'Send them a DM with what they owe you? At most one a day per person.',
            },
            confirm: { type: 'plain_text', text: 'Send reminder' },
            deny: { type: 'plain_text', text: 'Cancel' },
          },
        },
      ],
    },
  ];
}
