/**
 * Details of one expense (privately, to whoever asked, in their voice): every person's part, the
 * notes, the receipt and the comments, System ones included. Pure, within a message's 50 blocks.
 */
import type { types } from '@slack/bolt';
import { type BookedExpense, type RepeatEvery, repeatName, whoText } from '../booking/index.js';
import {
  context,
  contextBlock,
  headerBlock,
  mrkdwnObject,
  plainTextObject,
  section,
  sectionBlock,
} from '../kit/blocks.js';
import { clip, LIMITS, lineSections } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn, plainText } from '../kit/text.js';
import type { Voice } from '../shared/voice.js';

interface DetailsComment {
  /** The author's name; empty for someone the service names not. */
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
  repeat: RepeatEvery | 'never' | null;
  /** Checked to be a link Slack can carry (receiptUrlOf). */
  receiptUrl: string | undefined;
  deleted: boolean;
  comments: DetailsComment[];
}

function fact(label: string, value: string): types.MrkdwnElement {
  return mrkdwnObject({ text: clip(`*${label}*\n${value}`, LIMITS.fieldText) });
}

function commentLine(c: DetailsComment, voice: Voice): string {
  const author = c.system
    ? voice.t('actions.system_author')
    : c.author === ''
      ? voice.t('expense.someone')
      : mrkdwn(c.author);
  const at = new Date(c.at);
  const when = Number.isNaN(at.getTime()) ? mrkdwn(c.at) : voice.dateTime(at);
  // System lines (what changed) in italics, people's comments under their name in bold.
  const head = c.system ? `_${author}_` : `*${author}*`;
  return `${head} · ${when}\n${mrkdwn(c.content)}`;
}

export function expenseDetailsMessage(d: ExpenseDetails, voice: Voice): SlackMessage {
  const e = d.expense;
  const m = (minor: number) => voice.money(minor, e.currency);
  const fields: types.MrkdwnElement[] = [
    fact(voice.t('expense.cost'), m(e.cost)),
    fact(voice.t('expense.date'), voice.date(e.date)),
    fact(voice.t('expense.paid_by'), whoText(e.payer, voice)),
  ];
  if (d.category) fields.push(fact(voice.t('actions.category'), mrkdwn(d.category)));
  if (e.group) fields.push(fact(voice.t('expense.group'), mrkdwn(e.group)));
  if (d.repeat && d.repeat !== 'never')
    fields.push(fact(voice.t('expense.repeats'), repeatName(d.repeat, voice)));
  const head: types.KnownBlock[] = [
    headerBlock({
      text: plainTextObject({
        text: clip(
          voice.t('actions.details_header', {
            deleted: d.deleted ? 'yes' : 'no',
            description: plainText(e.description),
            cost: m(e.cost),
          }),
          LIMITS.headerText,
        ),
        emoji: true,
      }),
    }),
    sectionBlock({ fields }),
  ];
  const shares = e.lines.map(
    (l) =>
      `• ${voice.t('actions.details_share', {
        who: whoText(l.who, voice),
        owed: m(l.owed),
        paid: l.paid > 0 ? m(l.paid) : 'none',
      })}`,
  );
  const extra: types.KnownBlock[] = [];
  if (d.notes) {
    extra.push(section(`*${voice.t('actions.notes')}*\n${mrkdwn(d.notes)}`));
  }
  if (d.receiptUrl) {
    extra.push(context(voice.t('actions.details_receipt', { url: d.receiptUrl })));
  }
  const comments = d.comments.map((c) => commentLine(c, voice));
  const tail: types.KnownBlock[] = [
    contextBlock({
      elements: [
        mrkdwnObject({
          text:
            comments.length === 0
              ? voice.t('actions.no_comments')
              : voice.t('actions.comments', { count: comments.length }),
        }),
      ],
    }),
  ];
  // Blocks left for the shares and the comments, half each at most, within a message's 50.
  const room = LIMITS.messageBlocks - head.length - extra.length - tail.length;
  const shareBlocks = lineSections(shares, Math.ceil(room / 2));
  const commentBlocks = lineSections(comments, room - shareBlocks.length);
  return {
    text: clip(
      voice.t('actions.details_text', {
        description: mrkdwn(e.description),
        cost: m(e.cost),
        payer: whoText(e.payer, voice),
      }),
      LIMITS.fallbackText,
    ),
    blocks: [...head, ...shareBlocks, ...extra, ...tail, ...commentBlocks],
  };
}
