/** `/split list`: recent expenses, newest first, privately. Pure, within 50 blocks. */
import type { types } from '@slack/bolt';
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
  /** More matched than are shown. */
  more: boolean;
  locale?: string | undefined;
}): SlackMessage {
  const title = input.filters ? `Expenses ${input.filters}` : 'Your recent expenses';
  if (input.items.length === 0) {
    return {
      text: `${title}: none.`,
      blocks: [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: clip(`*${mrkdwnEscape(title)}*: none found.`, 3000) },
        },
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
  const foot: types.KnownBlock = {
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: input.more
          ? `The ${input.items.length} most recent. Narrow it: \`/split list @ann in Roommates from 2026-11-01\``
          : `${input.items.length} expense${input.items.length === 1 ? '' : 's'}.`,
      },
    ],
  };
  return {
    text: clip(`${title}: ${input.items.length} expenses`, LIMITS.fallbackText),
    blocks: [head, ...lineSections(lines, LIMITS.messageBlocks - 2), foot],
  };
}
