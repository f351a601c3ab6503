/**
 * Balances as Block Kit: everything, one friend, one group; and the Settle up buttons they carry.
 * Pure functions from core's summaries to `{ text, blocks }`. Every currency is shown, each in its
 * own right (nothing is converted). They keep within Slack's limits themselves: 50 blocks a
 * message (rows beyond give way to an "…and N more" line) and 3000 characters a section.
 */
import type { types } from '@slack/bolt';
import type {
  BalanceSummary,
  FriendBreakdown,
  FriendDebt,
  GroupDebt,
  GroupSummary,
  Money,
} from '../../core/balances.js';
import { LEDGER_ACTIONS } from '../ids.js';
import { money } from './format.js';
import { clip, LIMITS, mrkdwnEscape } from './limits.js';
import type { SlackMessage } from './message.js';
import { remindActions } from './remind-buttons.js';
import {
  parseSettleRef,
  type SettleRef,
  settleRefSchema,
  settleRefValue,
  settleRefValueIn,
} from './settle-ref.js';

export { parseSettleRef, type SettleRef, settleRefSchema, settleRefValue };

/** Room left for debt rows in a message after the fixed blocks. */
const MESSAGE_BLOCKS = LIMITS.messageBlocks;
/** A list section stays well under 3000 and the ~13,000-character total of a message. */
const LIST_TEXT = 1500;
const NAME = 80;

function section(text: string, limit: number = LIMITS.sectionText): types.SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, limit) } };
}

function context(text: string): types.ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: clip(text, LIMITS.sectionText) }] };
}

function header(text: string): types.HeaderBlock {
  return {
    type: 'header',
    text: { type: 'plain_text', text: clip(text, LIMITS.headerText), emoji: true },
  };
}

const who = (name: string) => `*${mrkdwnEscape(clip(name, NAME))}*`;

/** Joins lines until the next would pass `limit`, then says how many were left out. */
export function clipLines(lines: readonly string[], limit = LIST_TEXT): string {
  const kept: string[] = [];
  let length = 0;
  for (const [index, line] of lines.entries()) {
    const more = lines.length - index;
    const tail = `…and ${more} more`;
    if (length + line.length + 1 + (more > 1 ? tail.length + 1 : 0) > limit) {
      kept.push(tail);
      break;
    }
    kept.push(line);
    length += line.length + 1;
  }
  return clip(kept.join('\n'), limit);
}

/** "you are owed €10.00, you owe $5.00" for a signed position (positive = I am owed). */
export function positionText(balance: readonly Money[], locale?: string): string {
  if (balance.length === 0) return 'settled up';
  return balance
    .map((m) =>
      m.amount > 0
        ? `you are owed ${money(m.amount, m.currency, locale)}`
        : `you owe ${money(-m.amount, m.currency, locale)}`,
    )
    .join(', ');
}

/** Totals per currency, one line each. */
export function totalsText(summary: BalanceSummary, locale?: string): string {
  if (summary.settled) return 'You are all settled up: nobody owes you and you owe nobody.';
  return clipLines(
    summary.totals.map((t) => {
      const parts: string[] = [];
      if (t.owedToMe > 0) parts.push(`you are owed *${money(t.owedToMe, t.currency, locale)}*`);
      if (t.iOwe > 0) parts.push(`you owe *${money(t.iOwe, t.currency, locale)}*`);
      // Both ways at once: the net is what settling everything would come to.
      const net =
        t.owedToMe > 0 && t.iOwe > 0
          ? t.net === 0
            ? ' (even overall)'
            : t.net > 0
              ? ` (overall you are owed ${money(t.net, t.currency, locale)})`
              : ` (overall you owe ${money(-t.net, t.currency, locale)})`
          : '';
      return `• *${t.currency}*: ${parts.join(', ')}${net}`;
    }),
  );
}

function confirmFor(ref: SettleRef, locale?: string): types.ConfirmationDialog {
  const amount = money(ref.a, ref.c, locale);
  const name = mrkdwnEscape(clip(ref.n, 60));
  const where = ref.k === 'g' ? ' in this group' : '';
  return {
    title: { type: 'plain_text', text: 'Record a payment?' },
    text: {
      type: 'mrkdwn',
      text: clip(
        ref.p === 1
          ? `Record that you paid *${name}* *${amount}*${where}? It settles that debt in the expense service.`
          : `Record that *${name}* paid you *${amount}*${where}? It settles that debt in the expense service.`,
        300,
      ),
    },
    confirm: { type: 'plain_text', text: 'Record payment' },
    deny: { type: 'plain_text', text: 'Cancel' },
  };
}

/** A Settle up button that asks before it records anything. */
export function settleButton(ref: SettleRef, locale?: string): types.Button {
  return {
    type: 'button',
    action_id: LEDGER_ACTIONS.settleUp,
    text: { type: 'plain_text', text: 'Settle up', emoji: true },
    value: settleRefValue(ref),
    confirm: confirmFor(ref, locale),
  };
}

/** What Settle up on a friend debt row carries. */
export function friendRef(
  debt: FriendDebt,
  direction: 'owesMe' | 'iOwe',
  view: SettleRef['v'],
): SettleRef {
  return {
    k: 'f',
    id: debt.id,
    c: debt.currency,
    a: debt.amount,
    p: direction === 'iOwe' ? 1 : 0,
    v: view,
    n: debt.name,
  };
}

/** One friend debt with its button. */
export function friendDebtRow(
  debt: FriendDebt,
  direction: 'owesMe' | 'iOwe',
  view: SettleRef['v'],
  locale?: string,
): types.SectionBlock {
  const amount = `*${money(debt.amount, debt.currency, locale)}*`;
  return {
    type: 'section',
    text: {
      type: 'mrkdwn',
      text:
        direction === 'owesMe'
          ? `${who(debt.name)} owes you ${amount}`
          : `You owe ${who(debt.name)} ${amount}`,
    },
    accessory: settleButton(friendRef(debt, direction, view), locale),
  };
}

/** One group debt; with a button when it involves me. */
function groupDebtRow(
  group: { id: number },
  debt: GroupDebt,
  me: number,
  locale?: string,
): types.SectionBlock {
  const amount = `*${money(debt.amount, debt.currency, locale)}*`;
  const mine = debt.from.id === me || debt.to.id === me;
  const text =
    debt.from.id === me
      ? `You owe ${who(debt.to.name)} ${amount}`
      : debt.to.id === me
        ? `${who(debt.from.name)} owes you ${amount}`
        : `${who(debt.from.name)} owes ${who(debt.to.name)} ${amount}`;
  const block: types.SectionBlock = { type: 'section', text: { type: 'mrkdwn', text } };
  if (mine) {
    const other = debt.from.id === me ? debt.to : debt.from;
    block.accessory = settleButton(
      {
        k: 'g',
        id: group.id,
        o: other.id,
        c: debt.currency,
        a: debt.amount,
        p: debt.from.id === me ? 1 : 0,
        v: 'g',
        n: other.name,
      },
      locale,
    );
  }
  return block;
}

/**
 * Fits `rows` between `head` and `tail` within `max` blocks; the rows give way first, and a
 * one-line note stands for those left out.
 */
function fitRows<B>(
  head: B[],
  rows: B[],
  tail: B[],
  more: (n: number) => B,
  max: number = MESSAGE_BLOCKS,
): B[] {
  const room = max - head.length - tail.length;
  if (rows.length <= room) return [...head, ...rows, ...tail];
  const shown = rows.slice(0, Math.max(0, room - 1));
  return [...head, ...shown, more(rows.length - shown.length), ...tail];
}

function moreNote(what: string) {
  return (n: number): types.KnownBlock => context(`…and ${n} more ${what}.`);
}

interface AllBalancesInput {
  summary: BalanceSummary;
  /** Groups with my position in each; zero positions are left out. */
  groups: Array<{ name: string; balance: Money[] }>;
  /** Only this currency was asked for. */
  currency?: string | null | undefined;
  /** A line shown first (what was just recorded, or why nothing was). */
  notice?: string | undefined;
  locale?: string | undefined;
}

function noticeBlocks(notice: string | undefined): types.KnownBlock[] {
  return notice ? [section(mrkdwnEscape(notice))] : [];
}

export function allBalancesMessage(input: AllBalancesInput): SlackMessage {
  const { summary, locale } = input;
  const only = input.currency ? ` in ${input.currency}` : '';
  const head: types.KnownBlock[] = [
    ...noticeBlocks(input.notice),
    header(`Your balances${only}`),
    section(totalsText(summary, locale)),
  ];
  const rows: types.KnownBlock[] = [
    ...summary.iOwe.map((d) => friendDebtRow(d, 'iOwe', 'a', locale)),
    ...summary.owesMe.map((d) => friendDebtRow(d, 'owesMe', 'a', locale)),
  ];
  const tail: types.KnownBlock[] = [];
  const groupLines = input.groups
    .filter((g) => g.balance.length > 0)
    .map((g) => `• ${who(g.name)}: ${positionText(g.balance, locale)}`);
  if (groupLines.length > 0) tail.push(section(`*In groups*\n${clipLines(groupLines)}`));
  tail.push(
    ...remindActions(
      summary.owesMe,
      [
        ...summary.iOwe.map((d) => friendRef(d, 'iOwe', 'a')),
        ...summary.owesMe.map((d) => friendRef(d, 'owesMe', 'a')),
      ],
      locale,
    ),
  );
  tail.push(
    context(
      '`/split balance @someone` or `/split balance <group>` shows one friend or group. Settle up records a payment after you confirm it.',
    ),
  );
  const blocks = fitRows(head, rows, tail, moreNote('debts: `/split balance @someone` shows one'));
  return {
    text: clip(
      `${input.notice ? `${input.notice} ` : ''}${fallback(summary, only, locale)}`,
      LIMITS.fallbackText,
    ),
    blocks,
  };
}

function fallback(summary: BalanceSummary, only: string, locale?: string): string {
  if (summary.settled) return `Your balances${only}: all settled up.`;
  const parts = summary.totals.map((t) => {
    const bits: string[] = [];
    if (t.owedToMe > 0) bits.push(`owed ${money(t.owedToMe, t.currency, locale)}`);
    if (t.iOwe > 0) bits.push(`you owe ${money(t.iOwe, t.currency, locale)}`);
    return bits.join(', ');
  });
  return `Your balances${only}: ${parts.join('; ')}.`;
}

interface FriendBalanceInput {
  friend: FriendBreakdown;
  currency?: string | null | undefined;
  notice?: string | undefined;
  locale?: string | undefined;
}

export function friendBalanceMessage(input: FriendBalanceInput): SlackMessage {
  const { friend, locale } = input;
  const head: types.KnownBlock[] = [
    ...noticeBlocks(input.notice),
    header(`You and ${friend.name}`),
  ];
  const rows: types.KnownBlock[] = friend.total.map((m) =>
    friendDebtRow(
      { id: friend.id, name: friend.name, currency: m.currency, amount: Math.abs(m.amount) },
      m.amount > 0 ? 'owesMe' : 'iOwe',
      'f',
      locale,
    ),
  );
  if (rows.length === 0) {
    head.push(
      section(
        `You and ${who(friend.name)} are settled up${input.currency ? ` in ${input.currency}` : ''}.`,
      ),
    );
  }
  const tail: types.KnownBlock[] = [];
  const lines = friend.groups.map((g) => {
    const name = g.groupId === 0 ? 'Outside groups' : (g.groupName ?? `Group ${g.groupId}`);
    const parts = g.balance.map((m) =>
      m.amount > 0
        ? `owes you ${money(m.amount, m.currency, locale)}`
        : `you owe ${money(-m.amount, m.currency, locale)}`,
    );
    return `• ${who(name)}: ${parts.join(', ')}`;
  });
  if (lines.length > 0) tail.push(section(`*Where it comes from*\n${clipLines(lines)}`));
  tail.push(
    ...remindActions(
      friend.total.some((m) => m.amount > 0) ? [friend] : [],
      friend.total.map((m) =>
        friendRef(
          { id: friend.id, name: friend.name, currency: m.currency, amount: Math.abs(m.amount) },
          m.amount > 0 ? 'owesMe' : 'iOwe',
          'f',
        ),
      ),
      locale,
    ),
  );
  tail.push(
    context('Settle up records a payment for the whole amount in that currency, group by group.'),
  );
  const text =
    rows.length === 0
      ? `You and ${friend.name} are settled up.`
      : `You and ${friend.name}: ${friend.total
          .map((m) =>
            m.amount > 0
              ? `owes you ${money(m.amount, m.currency, locale)}`
              : `you owe ${money(-m.amount, m.currency, locale)}`,
          )
          .join(', ')}.`;
  return {
    text: clip(`${input.notice ? `${input.notice} ` : ''}${text}`, LIMITS.fallbackText),
    blocks: fitRows(head, rows, tail, moreNote('currencies')),
  };
}

interface GroupBalanceInput {
  group: GroupSummary;
  me: number;
  currency?: string | null | undefined;
  notice?: string | undefined;
  locale?: string | undefined;
}

export function groupBalanceMessage(input: GroupBalanceInput): SlackMessage {
  const { group, me, locale } = input;
  const head: types.KnownBlock[] = [
    ...noticeBlocks(input.notice),
    header(group.name),
    section(
      group.myBalance.length === 0
        ? `You are settled up in ${who(group.name)}${input.currency ? ` in ${input.currency}` : ''}.`
        : `In ${who(group.name)}, ${positionText(group.myBalance, locale)}.`,
    ),
  ];
  // My own debts first (they carry the buttons), then everyone else's.
  const mine = group.debts.filter((d) => d.from.id === me || d.to.id === me);
  const others = group.debts.filter((d) => d.from.id !== me && d.to.id !== me);
  const rows = [...mine, ...others].map((d) => groupDebtRow(group, d, me, locale));
  if (rows.length === 0) head.push(section('Nobody in this group owes anybody.'));
  else
    head.push(
      context(
        group.simplified
          ? 'Debts as the group simplifies them (fewest payments):'
          : 'Debts between each pair of members:',
      ),
    );
  const tail: types.KnownBlock[] = [];
  const memberLines = group.members.map(
    (m) =>
      `• ${who(m.id === me ? 'You' : m.name)}: ${
        m.balance.length === 0
          ? 'settled up'
          : m.balance
              .map((b) =>
                b.amount > 0
                  ? `is owed ${money(b.amount, b.currency, locale)}`
                  : `owes ${money(-b.amount, b.currency, locale)}`,
              )
              .join(', ')
      }`,
  );
  if (memberLines.length > 0) tail.push(section(`*Members*\n${clipLines(memberLines)}`));
  const text = `${group.name}: ${group.myBalance.length === 0 ? 'you are settled up' : positionText(group.myBalance, locale)}.`;
  return {
    text: clip(`${input.notice ? `${input.notice} ` : ''}${text}`, LIMITS.fallbackText),
    blocks: fitRows(head, rows, tail, moreNote('debts')),
  };
}

/** What a DM's Settle up leads to: the debt as it stands now, and a button to record it. */
export function settleConfirmMessage(ref: SettleRef, locale?: string): SlackMessage {
  const amount = money(ref.a, ref.c, locale);
  const name = who(ref.n);
  const text =
    ref.p === 1
      ? `Record that you paid ${name} *${amount}*? That is everything you owe them in ${ref.c}.`
      : `Record that ${name} paid you *${amount}*? That is everything they owe you in ${ref.c}.`;
  return {
    text: `Settle up: ${ref.p === 1 ? `you owe ${ref.n}` : `${ref.n} owes you`} ${amount}.`,
    blocks: [
      section(text),
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: LEDGER_ACTIONS.settleConfirm,
            style: 'primary',
            text: { type: 'plain_text', text: 'Record payment', emoji: true },
            value: settleRefValue(ref),
          },
          {
            type: 'button',
            action_id: LEDGER_ACTIONS.settlePart,
            text: { type: 'plain_text', text: 'Pay part…', emoji: true },
            value: settleRefValueIn(ref, locale, LIMITS.buttonValue),
          },
          {
            type: 'button',
            action_id: LEDGER_ACTIONS.settleCancel,
            text: { type: 'plain_text', text: 'Cancel', emoji: true },
            value: 'cancel',
          },
        ],
      },
    ],
  };
}
