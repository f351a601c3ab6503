/**
 * The in-channel answer to a booked expense (with Undo, Edit, Delete, Comment and Details in its
 * actions block, BLOCKS.expenseActions), and what replaces it once undone or deleted. Pure: data
 * in, Block Kit out.
 */
import type { types } from '@slack/bolt';
import type { BillSummary } from '../../core/itemise.js';
import { type Infer, int, literal, object } from '../../core/schema.js';
import { ACTIONS, BLOCKS, EXPENSE_ACTIONS } from '../ids.js';
import { breakdownText } from './breakdown.js';
import { money as formatAmount, formatDate } from './format.js';
import { clip, LIMITS, lineSections, mrkdwnEscape } from './limits.js';
import type { SlackMessage } from './message.js';

/** Someone on an expense: a Slack user (mentioned, so they are notified) or a service name. */
export type Who = { slack: string } | { name: string };

interface ExpenseLine {
  who: Who;
  /** Minor units. */
  paid: number;
  owed: number;
}

export interface BookedExpense {
  id: number;
  description: string;
  /** Minor units. */
  cost: number;
  currency: string;
  /** yyyy-MM-dd */
  date: string;
  payer: Who;
  lines: ExpenseLine[];
  group: string | null;
  split: 'equal' | 'exact' | 'percent' | 'shares';
  /** Slack user who booked it. */
  bookedBy: string;
  /** For number formatting (the booker's Slack locale). */
  locale?: string | undefined;
  /** How often the service repeats it; absent or null when it does not. */
  repeat?: 'weekly' | 'fortnightly' | 'monthly' | 'yearly' | null | undefined;
  /** An itemised bill: its subtotal, tip and tax are shown under the facts. */
  itemised?: BillSummary | undefined;
  /** The receipt's address at the service, when it has one. */
  receiptUrl?: string | undefined;
}

/** The receipt's URL from the service's expense, when it is one a link can carry safely. */
export function receiptUrlOf(
  receipt: { original: string | null; large: string | null } | undefined,
) {
  const url = receipt?.original ?? receipt?.large ?? undefined;
  return url && /^https?:\/\/[^\s|<>]+$/.test(url) ? url : undefined;
}

/** What the Undo button carries: small, versioned, and parsed with a schema when clicked. */
const ExpenseRef = object({ v: literal(1), e: int({ min: 1 }) });
type ExpenseRef = Infer<typeof ExpenseRef>;

export function encodeExpenseRef(id: number): string {
  return JSON.stringify({ v: 1, e: id } satisfies ExpenseRef);
}

export function parseExpenseRef(value: string | undefined): ExpenseRef | undefined {
  try {
    const parsed = ExpenseRef.safeParse(JSON.parse(value ?? ''));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

export { formatDate };

export function whoText(who: Who): string {
  return 'slack' in who ? `<@${who.slack}>` : mrkdwnEscape(who.name);
}

function sameWho(a: Who, b: Who): boolean {
  return 'slack' in a && 'slack' in b ? a.slack === b.slack : whoText(a) === whoText(b);
}

const SPLIT_NAMES = {
  equal: 'split equally',
  exact: 'exact amounts',
  percent: 'by percentage',
  shares: 'by shares',
} as const;

/** Each person's part when several paid: there is no one person to owe, so each line says both. */
function severalPayersLines(e: BookedExpense, money: (minor: number) => string): string[] {
  return e.lines
    .filter((l) => l.paid > 0 || l.owed > 0)
    .map((l) => {
      const parts = [...(l.paid > 0 ? [`paid *${money(l.paid)}*`] : []), `share ${money(l.owed)}`];
      const net = l.paid - l.owed;
      const balance = net > 0 ? `is owed ${money(net)}` : net < 0 ? `owes ${money(-net)}` : 'even';
      return `• ${whoText(l.who)} ${parts.join(', ')}: ${balance}`;
    });
}

export function expenseMessage(e: BookedExpense): SlackMessage {
  const money = (minor: number) => formatAmount(minor, e.currency, e.locale);
  const payers = e.lines.filter((l) => l.paid > 0);
  const several = payers.length > 1;
  const owing = several ? [] : e.lines.filter((l) => l.owed > 0 && !sameWho(l.who, e.payer));
  const payerLine = e.lines.find((l) => sameWho(l.who, e.payer));
  const owes = several
    ? severalPayersLines(e, money)
    : owing.map((l) => `• ${whoText(l.who)} owes ${whoText(e.payer)} *${money(l.owed)}*`);
  if (!several && payerLine && payerLine.owed > 0) {
    owes.push(`• ${whoText(e.payer)}'s own share: ${money(payerLine.owed)}`);
  }
  const paidBy = several
    ? payers.map((l) => `${whoText(l.who)} ${money(l.paid)}`).join('\n')
    : whoText(e.payer);
  const fields: types.MrkdwnElement[] = [
    { type: 'mrkdwn', text: `*Cost*\n${money(e.cost)}` },
    { type: 'mrkdwn', text: `*Date*\n${formatDate(e.date, e.locale)}` },
    // A field holds 2000 characters: a long list of payers is cut, each line says it in full.
    { type: 'mrkdwn', text: clip(`*Paid by*\n${paidBy}`, LIMITS.fieldText) },
    { type: 'mrkdwn', text: `*Split*\n${SPLIT_NAMES[e.split]}` },
  ];
  if (e.group !== null) {
    fields.push({
      type: 'mrkdwn',
      text: clip(`*Group*\n${mrkdwnEscape(e.group)}`, LIMITS.fieldText),
    });
  }
  if (e.repeat) fields.push({ type: 'mrkdwn', text: `*Repeats*\n${e.repeat}` });
  const fixed: types.KnownBlock[] = [
    {
      type: 'header',
      block_id: BLOCKS.expenseHeader,
      text: {
        type: 'plain_text',
        text: clip(`${e.description} · ${money(e.cost)}`, LIMITS.headerText),
        emoji: true,
      },
    },
    { type: 'section', block_id: BLOCKS.expenseFacts, fields },
    ...(e.itemised
      ? [
          {
            type: 'context' as const,
            elements: [
              {
                type: 'mrkdwn' as const,
                text: clip(breakdownText(e.itemised, e.currency, e.locale), LIMITS.sectionText),
              },
            ],
          },
        ]
      : []),
  ];
  const tail: types.KnownBlock[] = [
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `Booked by <@${e.bookedBy}> · expense #${e.id}${e.receiptUrl ? ` · <${e.receiptUrl}|Receipt>` : ''}`,
        },
      ],
    },
    {
      type: 'actions',
      block_id: BLOCKS.expenseActions,
      elements: [
        {
          type: 'button',
          action_id: ACTIONS.undo,
          text: { type: 'plain_text', text: 'Undo', emoji: true },
          value: encodeExpenseRef(e.id),
          confirm: {
            title: { type: 'plain_text', text: 'Undo this expense?' },
            text: {
              type: 'mrkdwn',
              text: clip(
                `Deletes “${mrkdwnEscape(e.description)}” (${money(e.cost)}) for everyone on it.`,
                300,
              ),
            },
            confirm: { type: 'plain_text', text: 'Undo it' },
            deny: { type: 'plain_text', text: 'Keep it' },
          },
        },
        ...expenseButtons(e, money(e.cost)),
      ],
    },
  ];
  const room = LIMITS.messageBlocks - fixed.length - tail.length;
  const body =
    owes.length > 0
      ? lineSections(owes, room)
      : lineSections(['Nobody owes anything on this one.'], room);

  const mentions = owing.map((l) => whoText(l.who));
  const text = clip(
    (several
      ? `${payers.map((l) => `${whoText(l.who)} (${money(l.paid)})`).join(' and ')} paid ${money(e.cost)} for ${mrkdwnEscape(e.description)}`
      : `${whoText(e.payer)} paid ${money(e.cost)} for ${mrkdwnEscape(e.description)}`) +
      (mentions.length > 0
        ? `: ${owing.map((l) => `${whoText(l.who)} owes ${money(l.owed)}`).join(', ')}`
        : '') +
      (e.group !== null ? ` (in ${mrkdwnEscape(e.group)})` : '') +
      (e.repeat ? ` · repeats ${e.repeat}` : ''),
    LIMITS.fallbackText,
  );
  return { text, blocks: [...fixed, ...body, ...tail] };
}

/** Replaces the expense message once it is undone: the facts stay readable, the buttons go. */
export function undoneMessage(input: {
  expenseId: number;
  undoneBy: string;
  original: string;
}): SlackMessage {
  const was = input.original.trim() === '' ? `expense #${input.expenseId}` : input.original;
  const line = clip(`~${was}~`, LIMITS.sectionText - 60);
  return {
    text: `Undone by <@${input.undoneBy}>: ${was}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: line } },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `:leftwards_arrow_with_hook: Undone by <@${input.undoneBy}> · expense #${input.expenseId} deleted`,
          },
        ],
      },
    ],
  };
}

function button(action_id: string, text: string, id: number): types.Button {
  return {
    type: 'button',
    action_id,
    text: { type: 'plain_text', text, emoji: true },
    value: encodeExpenseRef(id),
  };
}

/** Edit, Delete (after a confirmation), Comment, Details and Duplicate, for everyone who sees it. */
function expenseButtons(
  e: Pick<BookedExpense, 'id' | 'description'>,
  cost: string,
): types.Button[] {
  return [
    button(EXPENSE_ACTIONS.edit, 'Edit', e.id),
    {
      ...button(EXPENSE_ACTIONS.delete, 'Delete', e.id),
      style: 'danger',
      confirm: {
        title: { type: 'plain_text', text: 'Delete this expense?' },
        text: {
          type: 'mrkdwn',
          // A confirm dialog's text is refused beyond 300 characters.
          text: clip(`Deletes “${mrkdwnEscape(e.description)}” (${cost}) for everyone on it.`, 300),
        },
        confirm: { type: 'plain_text', text: 'Delete' },
        deny: { type: 'plain_text', text: 'Keep it' },
      },
    },
    button(EXPENSE_ACTIONS.comment, 'Comment', e.id),
    button(EXPENSE_ACTIONS.details, 'Details', e.id),
    button(EXPENSE_ACTIONS.duplicate, 'Duplicate', e.id),
  ];
}

/**
 * Replaces the expense message once deleted: what it was stays readable, struck through, with an
 * Undo that restores it.
 */
export function deletedMessage(input: {
  expenseId: number;
  deletedBy: string;
  /** The header of the message it replaces ("Lunch · €40.00"). */
  what: string;
}): SlackMessage {
  const what = input.what.trim() === '' ? `expense #${input.expenseId}` : input.what;
  return {
    text: `Deleted by <@${input.deletedBy}>: ${what}`,
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: clip(`~${mrkdwnEscape(what)}~`, LIMITS.sectionText) },
      },
      {
        type: 'context',
        elements: [
          {
            type: 'mrkdwn',
            text: `:wastebasket: Deleted by <@${input.deletedBy}> · expense #${input.expenseId}`,
          },
        ],
      },
      {
        type: 'actions',
        block_id: BLOCKS.expenseActions,
        elements: [
          {
            type: 'button',
            action_id: EXPENSE_ACTIONS.restore,
            text: { type: 'plain_text', text: 'Undo', emoji: true },
            value: encodeExpenseRef(input.expenseId),
          },
        ],
      },
    ],
  };
}

/** The header text of an expense message, to keep it readable after a delete. */
export function headerOf(blocks: unknown): string {
  if (!Array.isArray(blocks)) return '';
  const header = blocks.find(
    (b) => (b as { block_id?: string }).block_id === BLOCKS.expenseHeader,
  ) as { text?: { text?: string } } | undefined;
  return header?.text?.text ?? '';
}
