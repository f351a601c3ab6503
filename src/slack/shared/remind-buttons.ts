/**
 * The Remind buttons under a balance (a message or App Home), next to the people who owe me.
 * Pure; each asks before it sends, as Settle up does.
 */
import type { types } from '@slack/bolt';
import { type Infer, int, object, string } from '../../core/schema.js';
import { LEDGER_ACTIONS } from '../ids.js';
import { clip, LIMITS, mrkdwnEscape } from './limits.js';

/** What a Remind button carries: the friend's service id and name. */
export const remindRefSchema = object({
  id: int({ min: 1 }),
  n: string({ max: 60 }),
});
export type RemindRef = Infer<typeof remindRefSchema>;

export function parseRemindRef(value: string | undefined): RemindRef | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = remindRefSchema.safeParse(JSON.parse(value));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

/** A static select holds at most 100 options (Slack's limit). */
const MAX_OPTIONS = 100;
/** An option's value holds at most 150 characters: the name in it is cut shorter. */
const NAME_IN_OPTION = 40;
/** An option's text holds at most 75 characters. */
const OPTION_TEXT = 75;

function refValue(p: { id: number; name: string }, nameLength: number): string {
  return JSON.stringify(remindRefSchema.parse({ id: p.id, n: p.name.slice(0, nameLength) }));
}

/**
 * What Remind offers under a balance: a button for one person who owes me, a menu of them for
 * several (Slack wants each action_id once per block), nothing when nobody does.
 */
export function remindActions(
  people: ReadonlyArray<{ id: number; name: string }>,
): types.ActionsBlock[] {
  const seen = new Set<number>();
  const unique = people.filter((p) => !seen.has(p.id) && seen.add(p.id));
  const [only] = unique;
  if (!only) return [];
  if (unique.length === 1) {
    return [
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: LEDGER_ACTIONS.remind,
            text: {
              type: 'plain_text',
              text: clip(`Remind ${only.name}`, LIMITS.buttonText),
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
        {
          type: 'static_select',
          action_id: LEDGER_ACTIONS.remind,
          placeholder: { type: 'plain_text', text: 'Remind someone who owes you…', emoji: true },
          options: unique.slice(0, MAX_OPTIONS).map((p) => ({
            text: { type: 'plain_text', text: clip(`Remind ${p.name}`, OPTION_TEXT), emoji: true },
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
