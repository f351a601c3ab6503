/**
 * `/split balance` and what Settle up shows again: everything, one friend, one group. Pure
 * functions from core's summaries to `{ text, blocks }`, within Slack's 50 blocks a message (debt
 * rows beyond give way to an "…and N more" line).
 */
import type { types } from '@slack/bolt';
import type {
  BalanceSummary,
  FriendBreakdown,
  GroupDebt,
  GroupSummary,
  Money,
} from '../../core/balances.js';
import {
  balanceBlocks,
  balancesFallback,
  clipLines,
  context,
  debtRow,
  fitRows,
  friendRef,
  positionText,
  section,
  who,
} from '../shared/balance-blocks.js';
import { money } from '../shared/format.js';
import { clip, LIMITS, mrkdwnEscape } from '../shared/limits.js';
import type { SlackMessage } from '../shared/message.js';
import { remindActions } from '../shared/remind-buttons.js';
import { settleButton } from '../shared/settle-views.js';

function header(text: string): types.HeaderBlock {
  return {
    type: 'header',
    text: { type: 'plain_text', text: clip(text, LIMITS.headerText), emoji: true },
  };
}

function noticeBlocks(notice: string | undefined): types.KnownBlock[] {
  return notice ? [section(mrkdwnEscape(notice))] : [];
}

/** Fits the debt rows between `head` and `tail` within a message's 50 blocks. */
function withRows(
  head: types.KnownBlock[],
  rows: types.KnownBlock[],
  tail: types.KnownBlock[],
  what: string,
): types.KnownBlock[] {
  const more = (n: number) => context(`…and ${n} more ${what}.`);
  const room = LIMITS.messageBlocks - head.length - tail.length;
  return [...head, ...fitRows(rows, room, more), ...tail];
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

export function allBalancesMessage(input: AllBalancesInput): SlackMessage {
  const { summary, locale } = input;
  const only = input.currency ? ` in ${input.currency}` : '';
  const balances = balanceBlocks(input, {
    settle: (debt, direction) => settleButton(friendRef(debt, direction, 'a'), locale),
    controls: true,
  });
  const head = [...noticeBlocks(input.notice), header(`Your balances${only}`), balances.totals];
  const tail = [
    ...balances.groups,
    ...balances.controls,
    context(
      '`/split balance @someone` or `/split balance <group>` shows one friend or group. Settle up records a payment after you confirm it.',
    ),
  ];
  const fallback = balancesFallback(`Your balances${only}`, summary, locale);
  return {
    text: clip(`${input.notice ? `${input.notice} ` : ''}${fallback}`, LIMITS.fallbackText),
    blocks: withRows(head, balances.debts, tail, 'debts: `/split balance @someone` shows one'),
  };
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
  const debts = friend.total.map((m) => ({
    debt: { id: friend.id, name: friend.name, currency: m.currency, amount: Math.abs(m.amount) },
    direction: m.amount > 0 ? ('owesMe' as const) : ('iOwe' as const),
  }));
  const rows: types.KnownBlock[] = debts.map(({ debt, direction }) =>
    debtRow(debt, direction, settleButton(friendRef(debt, direction, 'f'), locale), locale),
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
      debts.map(({ debt, direction }) => friendRef(debt, direction, 'f')),
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
    blocks: withRows(head, rows, tail, 'currencies'),
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
    blocks: withRows(head, rows, tail, 'debts'),
  };
}
