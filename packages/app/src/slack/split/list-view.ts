/**
 * `/split list`: one page of expenses, newest first, privately, with its paging and export
 * buttons. Pure, within 50 blocks.
 */
import type { types } from '@slack/bolt';
import { BLOCKS, LIST_ACTIONS } from '../ids.js';
import { formatDate, money } from '../shared/format.js';
import { clip, LIMITS, lineSections, mrkdwnEscape } from '../shared/limits.js';
import type { SlackMessage } from '../shared/message.js';

export interface ListedExpense {
  id: number;
  description: string;
  /** Minor units. */
  cost: number;
  currency: string;
  /** yyyy-MM-dd */
  date: string;
  paidBy: string;
  /** What the person asking owes (minor units), null when they're not on it. */
  myShare: number | null;
  group: string | null;
}

export function expenseListMessage(input: {
  /** What was asked for: "with Ann, in Roommates, Nov 1–20". */
  filters: string;
  items: ListedExpense[];
  /** Which page this is, from 1. */
  page: number;
  /** Each button's value; a button without one is left out. */
  buttons: {
    previous?: string | undefined;
    next?: string | undefined;
    export?: string | undefined;
  };
  /** Said under the list, e.g. how far the search read. */
  note?: string | undefined;
  locale?: string | undefined;
}): SlackMessage {
  const title = input.filters ? `Expenses ${input.filters}` : 'Your recent expenses';
  const { buttons } = input;
  const elements: types.Button[] = [];
  if (buttons.previous !== undefined)
    elements.push({
      type: 'button',
      action_id: LIST_ACTIONS.previous,
      text: { type: 'plain_text', text: '← Newer' },
      value: buttons.previous,
    });
  if (buttons.next !== undefined)
    elements.push({
      type: 'button',
      action_id: LIST_ACTIONS.next,
      text: { type: 'plain_text', text: 'Older →' },
      value: buttons.next,
    });
  if (buttons.export !== undefined && input.items.length > 0)
    elements.push({
      type: 'button',
      action_id: LIST_ACTIONS.export,
      text: { type: 'plain_text', text: 'Export CSV' },
      value: buttons.export,
    });
  const actions: types.KnownBlock[] =
    elements.length > 0 ? [{ type: 'actions', block_id: BLOCKS.listActions, elements }] : [];
  const note: types.KnownBlock[] = input.note
    ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: clip(input.note, 3000) }] }]
    : [];
  if (input.items.length === 0) {
    return {
      text: `${title}: none.`,
      blocks: [
        {
          type: 'section',
          text: {
            type: 'mrkdwn',
            text: clip(
              `*${mrkdwnEscape(title)}*: ${input.page > 1 ? 'no older ones found.' : 'none found.'}`,
              3000,
            ),
          },
        },
        ...note,
        ...actions,
      ],
    };
  }
  const lines = input.items.map((e) => {
    const m = (minor: number) => money(minor, e.currency, input.locale);
    const mine = e.myShare === null ? '' : ` · your share ${m(e.myShare)}`;
    const group = e.group ? ` · ${mrkdwnEscape(e.group)}` : '';
    return `*${mrkdwnEscape(clip(e.description, 200))}* · ${m(e.cost)} · ${formatDate(e.date, input.locale)}\n   paid by ${mrkdwnEscape(e.paidBy)}${mine}${group} · #${e.id}`;
  });
  const head: types.KnownBlock = {
    type: 'header',
    text: { type: 'plain_text', text: clip(title, LIMITS.headerText), emoji: true },
  };
  const shown =
    input.page === 1 && buttons.next === undefined
      ? `${input.items.length} expense${input.items.length === 1 ? '' : 's'}.`
      : `Page ${input.page}, newest first${buttons.next === undefined ? '; no older ones' : ''}.`;
  const foot: types.KnownBlock = {
    type: 'context',
    elements: [{ type: 'mrkdwn', text: clip(input.note ? `${shown} ${input.note}` : shown, 3000) }],
  };
  return {
    text: clip(`${title}: ${input.items.length} expenses`, LIMITS.fallbackText),
    blocks: [
      head,
      ...lineSections(lines, LIMITS.messageBlocks - 2 - actions.length),
      foot,
      ...actions,
    ],
  };
}
