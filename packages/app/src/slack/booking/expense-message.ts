/**
 * The in-channel answer to a booked expense (with Undo, Edit, Delete, Comment and Details in its
 * actions block, BLOCKS.expenseActions), and what replaces it once undone or deleted. Pure: data
 * and a voice in, Block Kit out.
 *
 * Slack shows one posted message to everyone in the channel, in one language: these messages are
 * written in the voice of the person who booked the expense (their words, their amounts and
 * dates), whoever's click rewrites them later, so that the message keeps reading as it did.
 */
import type { types } from '@slack/bolt';
import type { BillSummary } from '../../core/itemise.js';
import { type Infer, int, literal, object } from '../../core/schema.js';
import type { MessageKey } from '../../voice/index.js';
import { ACTIONS, BLOCKS, EXPENSE_ACTIONS } from '../ids.js';
import {
  actionsBlock,
  button,
  confirm,
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
import { mention, mrkdwn, plainText } from '../kit/text.js';
import { breakdownText } from '../shared/breakdown.js';
import type { Voice } from '../shared/voice.js';

/**
 * Someone on an expense: a Slack user (mentioned, so they are notified) or a service name; an
 * empty name is someone the service gave no name for.
 */
export type Who = { slack: string } | { name: string };

interface ExpenseLine {
  who: Who;
  /** Minor units. */
  paid: number;
  owed: number;
}

export type RepeatEvery = 'weekly' | 'fortnightly' | 'monthly' | 'yearly';

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
  /** Slack user who booked it: the message is written in their voice. */
  bookedBy: string;
  /** How often the service repeats it; absent or null when it does not. */
  repeat?: RepeatEvery | null | undefined;
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

/** A person on an expense, for mrkdwn: a mention, their name as written, or "someone". */
export function whoText(who: Who, voice: Voice): string {
  if ('slack' in who) return mention(who.slack);
  return who.name === '' ? voice.t('expense.someone') : mrkdwn(who.name);
}

function sameWho(a: Who, b: Who): boolean {
  if ('slack' in a || 'slack' in b) return 'slack' in a && 'slack' in b && a.slack === b.slack;
  return a.name === b.name;
}

const SPLIT_NAMES = {
  equal: 'expense.split_equal',
  exact: 'expense.split_exact',
  percent: 'expense.split_percent',
  shares: 'expense.split_shares',
} as const satisfies Record<BookedExpense['split'], MessageKey>;

const REPEAT_NAMES = {
  weekly: 'expense.repeat_weekly',
  fortnightly: 'expense.repeat_fortnightly',
  monthly: 'expense.repeat_monthly',
  yearly: 'expense.repeat_yearly',
} as const satisfies Record<RepeatEvery, MessageKey>;

/** "weekly": how often the service repeats an expense, in the reader's words. */
export function repeatName(repeat: RepeatEvery, voice: Voice): string {
  return voice.t(REPEAT_NAMES[repeat]);
}

/** "Lunch · €40.00": the header, plain text, which Delete keeps readable afterwards. */
export function expenseHeader(
  e: Pick<BookedExpense, 'description' | 'cost' | 'currency'>,
  voice: Voice,
): string {
  return voice.t('expense.header', {
    description: plainText(e.description),
    cost: voice.money(e.cost, e.currency),
  });
}

/** A field of the facts: its label in bold over its value (mrkdwn). */
function fact(label: string, value: string): types.MrkdwnElement {
  // A field holds 2000 characters: a long list of payers or a long group name is cut.
  return mrkdwnObject({ text: clip(`*${label}*\n${value}`, LIMITS.fieldText) });
}

/** Each person's part when several paid: there is no one person to owe, so each line says both. */
function severalPayersLines(e: BookedExpense, voice: Voice): string[] {
  const money = (minor: number) => voice.money(minor, e.currency);
  return e.lines
    .filter((l) => l.paid > 0 || l.owed > 0)
    .map((l) => {
      const net = l.paid - l.owed;
      return `• ${voice.t('expense.payer_line', {
        who: whoText(l.who, voice),
        paid: l.paid > 0 ? money(l.paid) : 'none',
        share: money(l.owed),
        net: net > 0 ? 'owed' : net < 0 ? 'owes' : 'even',
        amount: money(Math.abs(net)),
      })}`;
    });
}

export function expenseMessage(e: BookedExpense, voice: Voice): SlackMessage {
  const money = (minor: number) => voice.money(minor, e.currency);
  const who = (w: Who) => whoText(w, voice);
  const payers = e.lines.filter((l) => l.paid > 0);
  const several = payers.length > 1;
  const owing = several ? [] : e.lines.filter((l) => l.owed > 0 && !sameWho(l.who, e.payer));
  const payerLine = e.lines.find((l) => sameWho(l.who, e.payer));
  const owes = several
    ? severalPayersLines(e, voice)
    : owing.map(
        (l) =>
          `• ${voice.t('expense.owes', { debtor: who(l.who), creditor: who(e.payer), amount: money(l.owed) })}`,
      );
  if (!several && payerLine && payerLine.owed > 0) {
    owes.push(
      `• ${voice.t('expense.own_share', { payer: who(e.payer), amount: money(payerLine.owed) })}`,
    );
  }
  const paidBy = several
    ? payers.map((l) => `${who(l.who)} ${money(l.paid)}`).join('\n')
    : who(e.payer);
  const fields: types.MrkdwnElement[] = [
    fact(voice.t('expense.cost'), money(e.cost)),
    fact(voice.t('expense.date'), voice.date(e.date)),
    fact(voice.t('expense.paid_by'), paidBy),
    fact(voice.t('expense.split'), voice.t(SPLIT_NAMES[e.split])),
  ];
  if (e.group !== null) fields.push(fact(voice.t('expense.group'), mrkdwn(e.group)));
  if (e.repeat) fields.push(fact(voice.t('expense.repeats'), repeatName(e.repeat, voice)));
  const fixed: types.KnownBlock[] = [
    headerBlock({
      block_id: BLOCKS.expenseHeader,
      text: plainTextObject({
        text: clip(expenseHeader(e, voice), LIMITS.headerText),
        emoji: true,
      }),
    }),
    sectionBlock({ block_id: BLOCKS.expenseFacts, fields }),
    ...(e.itemised ? [context(breakdownText(e.itemised, e.currency, voice))] : []),
  ];
  const cost = money(e.cost);
  const tail: types.KnownBlock[] = [
    contextBlock({
      elements: [
        mrkdwnObject({
          text: voice.t('expense.booked_by', {
            booker: mention(e.bookedBy),
            id: String(e.id),
            receipt: e.receiptUrl ?? 'none',
          }),
        }),
      ],
    }),
    actionsBlock({
      block_id: BLOCKS.expenseActions,
      elements: [
        // No confirm dialog: everyone in the channel sees this button, but only the booker may
        // use it, and a dialog promising anyone else a delete would be followed by a refusal.
        // Anyone else hears at once why not; the booker's Undo is taken back by Restore.
        button(ACTIONS.undo, voice.t('expense.undo'), { value: encodeExpenseRef(e.id) }),
        ...expenseButtons(e, cost, voice),
      ],
    }),
  ];
  const room = LIMITS.messageBlocks - fixed.length - tail.length;
  const body =
    owes.length > 0
      ? lineSections(owes, room)
      : lineSections([voice.t('expense.nobody_owes')], room);

  const text = clip(
    voice.t('expense.fallback', {
      payer: several
        ? voice.list(payers.map((l) => `${who(l.who)} (${money(l.paid)})`))
        : who(e.payer),
      cost,
      description: mrkdwn(e.description),
      owing:
        owing.length > 0
          ? voice.list(
              owing.map((l) =>
                voice.t('expense.fallback_owes', { who: who(l.who), amount: money(l.owed) }),
              ),
            )
          : 'none',
      inGroup: e.group !== null ? 'yes' : 'no',
      group: mrkdwn(e.group ?? ''),
      repeats: e.repeat ? repeatName(e.repeat, voice) : 'none',
    }),
    LIMITS.fallbackText,
  );
  return { text, blocks: [...fixed, ...body, ...tail] };
}

/**
 * What Delete asks to confirm. The dialog shows to everyone in the channel, and the service lets
 * only the people on an expense delete it: the text says so instead of promising a delete.
 */
function deletesText(e: Pick<BookedExpense, 'description'>, cost: string, voice: Voice): string {
  // A confirm dialog's text is refused beyond 300 characters: the description gives way.
  const room = 300 - voice.t('expense.deletes', { description: '', cost }).length;
  return clip(
    voice.t('expense.deletes', {
      description: mrkdwn(clip(e.description, Math.max(1, room))),
      cost,
    }),
    300,
  );
}

/** What a message that is no longer the expense shows: the header struck through. */
function struck(what: string): string {
  return `~${mrkdwn(clip(what, LIMITS.sectionText - 100))}~`;
}

/**
 * Replaces the expense message once undone: what it was stays readable, struck through, with a
 * Restore button in place of the others (Undo asks no confirmation, so it can be taken back).
 * `what` is the header it replaces (plain text), or the expense's own.
 */
export function undoneMessage(
  input: { expenseId: number; undoneBy: string; what: string },
  voice: Voice,
): SlackMessage {
  const { expenseId, undoneBy: by, what } = input;
  return goneMessage(
    { expenseId, by, what },
    'expense.undone_text',
    'expense.undone_context',
    voice,
  );
}

/** Edit, Delete (after a confirmation), Comment, Details and Duplicate, for everyone who sees it. */
function expenseButtons(
  e: Pick<BookedExpense, 'id' | 'description'>,
  cost: string,
  voice: Voice,
): types.Button[] {
  const value = encodeExpenseRef(e.id);
  return [
    button(EXPENSE_ACTIONS.edit, voice.t('expense.edit'), { value }),
    button(EXPENSE_ACTIONS.delete, voice.t('expense.delete'), {
      value,
      style: 'danger',
      confirm: confirm({
        title: voice.t('expense.delete_title'),
        text: deletesText(e, cost, voice),
        confirm: voice.t('expense.delete'),
        deny: voice.t('expense.keep_it'),
      }),
    }),
    button(EXPENSE_ACTIONS.comment, voice.t('expense.comment'), { value }),
    button(EXPENSE_ACTIONS.details, voice.t('expense.details'), { value }),
    button(EXPENSE_ACTIONS.duplicate, voice.t('expense.duplicate'), { value }),
  ];
}

function whatItWas(what: string, expenseId: number, voice: Voice): string {
  return what.trim() === '' ? voice.t('expense.number', { id: String(expenseId) }) : what;
}

/**
 * Replaces the expense message once deleted: what it was stays readable, struck through, with a
 * Restore button that brings it back. `what` is the header of the message it replaces ("Lunch ·
 * €40.00", plain text as the header held it).
 */
export function deletedMessage(
  input: { expenseId: number; deletedBy: string; what: string },
  voice: Voice,
): SlackMessage {
  const { expenseId, deletedBy: by, what } = input;
  return goneMessage(
    { expenseId, by, what },
    'expense.deleted_text',
    'expense.deleted_context',
    voice,
  );
}

/** An expense message once the expense is gone (deleted or undone), with Restore. */
function goneMessage(
  input: { expenseId: number; by: string; what: string },
  textKey: 'expense.undone_text' | 'expense.deleted_text',
  contextKey: 'expense.undone_context' | 'expense.deleted_context',
  voice: Voice,
): SlackMessage {
  const what = whatItWas(input.what, input.expenseId, voice);
  const who = mention(input.by);
  return {
    text: clip(voice.t(textKey, { who, what: mrkdwn(what) }), LIMITS.fallbackText),
    blocks: [
      section(struck(what)),
      contextBlock({
        elements: [
          mrkdwnObject({ text: voice.t(contextKey, { who, id: String(input.expenseId) }) }),
        ],
      }),
      restoreActions(input.expenseId, voice),
    ],
  };
}

/** Restore, for whoever deleted or undid the expense (the click checks it is them). */
function restoreActions(expenseId: number, voice: Voice): types.ActionsBlock {
  return actionsBlock({
    block_id: BLOCKS.expenseActions,
    elements: [
      button(EXPENSE_ACTIONS.restore, voice.t('expense.restore'), {
        value: encodeExpenseRef(expenseId),
      }),
    ],
  });
}

/** The header text of an expense message (plain text), to keep it readable after a delete. */
export function headerOf(blocks: unknown): string {
  if (!Array.isArray(blocks)) return '';
  const header = blocks.find(
    (b) => (b as { block_id?: string }).block_id === BLOCKS.expenseHeader,
  ) as { text?: { text?: string } } | undefined;
  return header?.text?.text ?? '';
}
