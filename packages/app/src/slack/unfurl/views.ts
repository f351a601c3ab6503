/**
 * What a link to an expense or a group unfolds to under the message that carries it (chat.unfurl),
 * and the private invitation to connect for someone whose links cannot unfold. Pure: data and the
 * voice of whoever shared the link in, Block Kit out.
 *
 * The preview sits in the conversation, like the expense message a booking posts, so it names
 * people as mentions and amounts in the sharer's own way, and says nothing addressed to "you".
 */
import type { types } from '@slack/bolt';
import type { Voice } from '../../voice/index.js';
import { encodeExpenseRef } from '../booking/index.js';
import { EXPENSE_ACTIONS, UNFURL } from '../ids.js';
import {
  actionsBlock,
  button,
  contextBlock,
  mrkdwnObject,
  section,
  sectionBlock,
} from '../kit/blocks.js';
import { mention, mrkdwn } from '../kit/text.js';

/** Someone on an expense: a Slack user of the workspace, or a name from the service. */
export type Person = { slack: string } | { name: string };

export interface ExpenseLine {
  who: Person;
  /** Minor units of the expense's currency. */
  paid: number;
  owed: number;
}

export interface ExpensePreview {
  /** The link as the message carries it: the Open button goes there. */
  url: string;
  id: number;
  description: string;
  /** Minor units. */
  cost: number;
  currency: string;
  /** yyyy-MM-dd */
  date: string;
  /** The group's name, when the expense is in one the sharer can see. */
  group: string | null;
  deleted: boolean;
  lines: ExpenseLine[];
}

export interface GroupPreview {
  url: string;
  name: string;
  members: number;
  /** The Slack user who shared the link. */
  sharer: string;
  /** The sharer's balance in the group, per currency, in minor units (positive: is owed). */
  balance: { currency: string; minor: number }[];
}

/** People listed under an expense before "and n more": a preview is a glance, not the ledger. */
export const MAX_PREVIEW_LINES = 10;

/** The longest text a person or the service wrote that a preview repeats (code points). */
const MAX_TEXT = 200;

/** Cuts text a person wrote before it is escaped, so that no entity or fence is cut in half. */
function shortened(text: string, max = MAX_TEXT): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function whoText(who: Person): string {
  return 'slack' in who ? mention(who.slack) : mrkdwn(shortened(who.name, 80));
}

function samePerson(a: Person, b: Person): boolean {
  if ('slack' in a && 'slack' in b) return a.slack === b.slack;
  if ('name' in a && 'name' in b) return a.name === b.name;
  return false;
}

/** Who owes whom: with one payer, each other person owes them; with several, each one's part. */
function owingLines(e: ExpensePreview, voice: Voice): string[] {
  const money = (minor: number) => voice.money(minor, e.currency);
  const payers = e.lines.filter((l) => l.paid > 0);
  const [payer] = payers;
  if (payers.length === 1 && payer) {
    return e.lines
      .filter((l) => l.owed > 0 && !samePerson(l.who, payer.who))
      .map((l) =>
        voice.t('unfurl.owes', {
          debtor: whoText(l.who),
          creditor: whoText(payer.who),
          amount: money(l.owed),
        }),
      );
  }
  return e.lines
    .filter((l) => l.paid > 0 || l.owed > 0)
    .map((l) =>
      voice.t('unfurl.paid_and_owes', {
        person: whoText(l.who),
        paid: money(l.paid),
        share: money(l.owed),
      }),
    );
}

/** Slack refuses a section's text beyond this. */
const SECTION_TEXT = 3_000;

/** Room kept for the "…and n more people" line, in any language. */
const MORE_ROOM = 100;

/**
 * Lines for one section: at most MAX_PREVIEW_LINES, and as many as fit in its text (names of
 * escaped `&`s grow fivefold), then how many more there are.
 */
function listed(lines: string[], voice: Voice): string {
  const fits = (n: number) =>
    lines.slice(0, n).join('\n').length + (n < lines.length ? MORE_ROOM : 0) <= SECTION_TEXT;
  let kept = lines.length > MAX_PREVIEW_LINES ? MAX_PREVIEW_LINES - 1 : lines.length;
  while (kept > 0 && !fits(kept)) kept -= 1;
  const shown = lines.slice(0, kept);
  if (kept < lines.length)
    shown.push(voice.t('unfurl.more_people', { count: lines.length - kept }));
  return shown.join('\n');
}

/** Payers named in the Paid by field; with more, it says how many, and the lines say who. */
const MAX_PAYERS_NAMED = 3;

function openButton(url: string, voice: Voice): types.Button {
  return button(UNFURL.open, voice.t('unfurl.open'), { url });
}

/** An expense: what for, how much, when, who paid, who owes whom; Open and Details. */
export function expensePreview(e: ExpensePreview, voice: Voice): types.KnownBlock[] {
  const description = mrkdwn(shortened(e.description));
  const cost = voice.money(e.cost, e.currency);
  const payers = e.lines.filter((l) => l.paid > 0);
  const paidBy =
    payers.length === 0
      ? voice.t('unfurl.nobody')
      : payers.length > MAX_PAYERS_NAMED
        ? voice.t('unfurl.payer_count', { count: payers.length })
        : voice.list(
            payers.length === 1
              ? payers.map((l) => whoText(l.who))
              : payers.map((l) =>
                  voice.t('unfurl.payer_amount', {
                    person: whoText(l.who),
                    amount: voice.money(l.paid, e.currency),
                  }),
                ),
          );
  const fields: types.MrkdwnElement[] = [
    mrkdwnObject({ text: voice.t('unfurl.date', { date: voice.date(e.date) }) }),
    mrkdwnObject({ text: voice.t('unfurl.paid_by', { people: paidBy }) }),
  ];
  if (e.group !== null) {
    fields.push(
      mrkdwnObject({ text: voice.t('unfurl.group', { group: mrkdwn(shortened(e.group)) }) }),
    );
  }
  const owing = owingLines(e, voice);
  return [
    section(
      e.deleted
        ? voice.t('unfurl.expense_deleted_title', { description, cost })
        : voice.t('unfurl.expense_title', { description, cost }),
    ),
    sectionBlock({ fields }),
    section(owing.length > 0 ? listed(owing, voice) : voice.t('unfurl.nobody_owes')),
    contextBlock({
      elements: [mrkdwnObject({ text: voice.t('unfurl.expense_number', { id: String(e.id) }) })],
    }),
    actionsBlock({
      elements: [
        openButton(e.url, voice),
        // The expense message's own Details: the whole split and the comments, shown privately to
        // whoever clicks, read with their own link, so that only people on the expense see them.
        button(EXPENSE_ACTIONS.details, voice.t('unfurl.details'), {
          value: encodeExpenseRef(e.id),
        }),
      ],
    }),
  ];
}

/** The sharer's balance in a group, one line per direction: what they owe, what they are owed. */
function balanceLines(g: GroupPreview, voice: Voice): string[] {
  const person = mention(g.sharer);
  const amounts = (sign: 1 | -1) =>
    voice.list(
      g.balance
        .filter((b) => Math.sign(b.minor) === sign)
        .map((b) => voice.money(Math.abs(b.minor), b.currency)),
    );
  const owes = g.balance.some((b) => b.minor < 0);
  const owed = g.balance.some((b) => b.minor > 0);
  if (!owes && !owed) return [voice.t('unfurl.group_settled', { person })];
  return [
    ...(owes ? [voice.t('unfurl.group_owes', { person, amounts: amounts(-1) })] : []),
    ...(owed ? [voice.t('unfurl.group_owed', { person, amounts: amounts(1) })] : []),
  ];
}

/** A group: its name, how many are in it, and where the sharer stands in it; Open. */
export function groupPreview(g: GroupPreview, voice: Voice): types.KnownBlock[] {
  return [
    section(
      voice.t('unfurl.group_title', { group: mrkdwn(shortened(g.name)), members: g.members }),
    ),
    section(balanceLines(g, voice).join('\n')),
    actionsBlock({ elements: [openButton(g.url, voice)] }),
  ];
}

/**
 * The private invitation Slack shows the sharer alone (chat.unfurl's user_auth_message), with the
 * Connect link written into it: Slack shows this message rather than a prompt of its own when
 * both it and user_auth_url are given.
 */
export function connectInvitation(
  input: { url: string; reason: 'first_time' | 'revoked' },
  voice: Voice,
): string {
  return input.reason === 'revoked'
    ? voice.t('unfurl.connect_again', { url: input.url })
    : voice.t('unfurl.connect', { url: input.url });
}
