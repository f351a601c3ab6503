/**
 * Details of one expense (privately, to whoever asked): every person's part, the notes, the
 * receipt and the comments, System ones included. Pure, within a message's 50 blocks.
 */
import type { types } from '@slack/bolt';
import { type BookedExpense, whoText } from '../shared/expense-message.js';
import { formatDate, money } from '../shared/format.js';
import { clip, LIMITS, lineSections, mrkdwnEscape } from '../shared/limits.js';
import type { SlackMessage } from '../shared/message.js';

interface DetailsComment {
  author: string;
  /** ISO timestamp. */
  at: string;
  content: string;
  system: boolean;
}

interface ExpenseDetails {
  expense: BookedExpense;
  category: string | null;
  notes: string | null;
  repeat: string | null;
  receiptUrl: string | null;
  deleted: boolean;
  comments: DetailsComment[];
}

export function expenseDetailsMessage(d: ExpenseDetails): SlackMessage {
  const e = d.expense;
  const m = (minor: number) => money(minor, e.currency, e.locale);
  const fields: types.MrkdwnElement[] = [
    { type: 'mrkdwn', text: `*Cost*\n${m(e.cost)}` },
    { type: 'mrkdwn', text: `*Date*\n${formatDate(e.date, e.locale)}` },
    { type: 'mrkdwn', text: `*Paid by*\n${whoText(e.payer)}` },
  ];
  if (d.category)
    fields.push({ type: 'mrkdwn', text: clip(`*Category*\n${mrkdwnEscape(d.category)}`, 2000) });
  if (e.group)
    fields.push({ type: 'mrkdwn', text: clip(`*Group*\n${mrkdwnEscape(e.group)}`, 2000) });
  if (d.repeat && d.repeat !== 'never')
    fields.push({ type: 'mrkdwn', text: `*Repeats*\n${mrkdwnEscape(d.repeat)}` });
  const head: types.KnownBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: clip(
          `${d.deleted ? '(deleted) ' : ''}${e.description} · ${m(e.cost)}`,
          LIMITS.headerText,
        ),
        emoji: true,
      },
    },
    { type: 'section', fields },
  ];
  const shares = e.lines.map(
    (l) => `• ${whoText(l.who)}: owes ${m(l.owed)}${l.paid > 0 ? `, paid ${m(l.paid)}` : ''}`,
  );
  const extra: types.KnownBlock[] = [];
  if (d.notes) {
    extra.push({
      type: 'section',
      text: { type: 'mrkdwn', text: clip(`*Notes*\n${mrkdwnEscape(d.notes)}`, LIMITS.sectionText) },
    });
  }
  if (d.receiptUrl) {
    extra.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: clip(`:receipt: <${d.receiptUrl}|Receipt>`, 3000) }],
    });
  }
  const comments = d.comments.map(
    (c) =>
      `${c.system ? '_' : '*'}${mrkdwnEscape(c.author)}${c.system ? '_' : '*'} · ${c.at.slice(0, 10)}\n${mrkdwnEscape(c.content)}`,
  );
  const tail: types.KnownBlock[] = [
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: comments.length === 0 ? 'No comments yet.' : `*Comments* (${comments.length})`,
        },
      ],
    },
  ];
  // Blocks left for the shares and the comments, half each at most, within a message's 50.
  const room = LIMITS.messageBlocks - head.length - extra.length - tail.length;
  const shareBlocks = lineSections(shares, Math.ceil(room / 2));
  const commentBlocks = lineSections(comments, room - shareBlocks.length);
  return {
    text: clip(`${e.description}: ${m(e.cost)}, paid by ${whoText(e.payer)}`, LIMITS.fallbackText),
    blocks: [...head, ...shareBlocks, ...extra, ...tail, ...commentBlocks],
  };
}
