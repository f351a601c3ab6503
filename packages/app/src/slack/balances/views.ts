/**
 * `/split balance` and what Settle up shows again: everything, one friend, one group. Pure
 * functions from core's summaries to `{ text, blocks }` in the reader's voice, within Slack's 50
 * blocks a message (debt rows beyond give way to an "…and N more" line).
 */
import type { types } from '@slack/bolt';
import type {
  BalanceSummary,
  FriendBreakdown,
  GroupDebt,
  GroupSummary,
  Money,
} from '../../core/balances.js';
import type { Voice } from '../../voice/index.js';
import { context, header, mrkdwnObject, section, sectionBlock } from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn } from '../kit/text.js';
import {
  balanceBlocks,
  balancesFallback,
  clipLines,
  debtRow,
  fitRows,
  friendRef,
  position,
  strong,
  who,
} from '../shared/balance-blocks.js';
import { remindActions } from '../shared/remind-buttons.js';
import { settleButton } from '../shared/settle-views.js';

/** A line shown first: mrkdwn already written (what was just recorded, or why nothing was). */
function noticeBlocks(notice: string | undefined): types.KnownBlock[] {
  return notice ? [section(notice)] : [];
}

/** The notification text: the notice first, then what the balance comes to. */
function fallbackWith(notice: string | undefined, text: string): string {
  return clip(notice ? `${notice} ${text}` : text, LIMITS.fallbackText);
}

/** Fits the debt rows between `head` and `tail` within a message's 50 blocks. */
function withRows(
  head: types.KnownBlock[],
  rows: types.KnownBlock[],
  tail: types.KnownBlock[],
  more: (count: number) => string,
): types.KnownBlock[] {
  const room = LIMITS.messageBlocks - head.length - tail.length;
  return [...head, ...fitRows(rows, room, (count) => context(more(count))), ...tail];
}

/** One group debt; with a button when it involves me. */
function groupDebtRow(
  group: { id: number },
  debt: GroupDebt,
  me: number,
  voice: Voice,
): types.SectionBlock {
  const amount = strong(voice.money(debt.amount, debt.currency));
  const mine = debt.from.id === me || debt.to.id === me;
  const text =
    debt.from.id === me
      ? voice.t('balances.you_owe', { name: who(debt.to.name), amount })
      : debt.to.id === me
        ? voice.t('balances.owes_you', { name: who(debt.from.name), amount })
        : voice.t('balances.owes', { from: who(debt.from.name), to: who(debt.to.name), amount });
  const block: types.SectionBlock = sectionBlock({ text: mrkdwnObject({ text }) });
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
      voice,
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
  /** A line shown first, mrkdwn already written (what was just recorded, or why nothing was). */
  notice?: string | undefined;
}

export function allBalancesMessage(input: AllBalancesInput, voice: Voice): SlackMessage {
  const { summary } = input;
  const title = input.currency
    ? voice.t('balances.title_in', { currency: input.currency })
    : voice.t('balances.title');
  const balances = balanceBlocks(
    input,
    {
      settle: (debt, direction) => settleButton(friendRef(debt, direction, 'a'), voice),
      controls: true,
    },
    voice,
  );
  const head = [...noticeBlocks(input.notice), header(title, { emoji: true }), balances.totals];
  const tail = [...balances.groups, ...balances.controls, context(voice.t('balances.all_hint'))];
  return {
    text: fallbackWith(input.notice, balancesFallback(title, summary, voice)),
    blocks: withRows(head, balances.debts, tail, (count) =>
      voice.t('balances.more_debts_all', { count }),
    ),
  };
}

interface FriendBalanceInput {
  friend: FriendBreakdown;
  currency?: string | null | undefined;
  notice?: string | undefined;
}

/** "owes you €5.00 and you owe $2.00": each part of a balance with one friend. */
function friendParts(voice: Voice, balance: readonly Money[]): string {
  return voice.list(
    balance.map((m) =>
      m.amount > 0
        ? voice.t('balances.part_owes_you', { amount: voice.money(m.amount, m.currency) })
        : voice.t('balances.part_you_owe', { amount: voice.money(-m.amount, m.currency) }),
    ),
  );
}

export function friendBalanceMessage(input: FriendBalanceInput, voice: Voice): SlackMessage {
  const { friend } = input;
  const head: types.KnownBlock[] = [
    ...noticeBlocks(input.notice),
    header(voice.t('balances.you_and', { name: friend.name }), { emoji: true }),
  ];
  const debts = friend.total.map((m) => ({
    debt: { id: friend.id, name: friend.name, currency: m.currency, amount: Math.abs(m.amount) },
    direction: m.amount > 0 ? ('owesMe' as const) : ('iOwe' as const),
  }));
  const rows: types.KnownBlock[] = debts.map(({ debt, direction }) =>
    debtRow(debt, direction, settleButton(friendRef(debt, direction, 'f'), voice), voice),
  );
  if (rows.length === 0) {
    const name = who(friend.name);
    head.push(
      section(
        input.currency
          ? voice.t('balances.friend_settled_in', { name, currency: input.currency })
          : voice.t('balances.friend_settled', { name }),
      ),
    );
  }
  const tail: types.KnownBlock[] = [];
  const lines = friend.groups.map((g) => {
    const name =
      g.groupId === 0
        ? voice.t('balances.outside_groups')
        : (g.groupName ?? voice.t('balances.group_number', { id: String(g.groupId) }));
    return `• ${who(name)}: ${friendParts(voice, g.balance)}`;
  });
  if (lines.length > 0) {
    tail.push(
      section(`*${voice.t('balances.where_from')}*\n${clipLines(lines, undefined, voice)}`),
    );
  }
  tail.push(
    ...remindActions(
      friend.total.some((m) => m.amount > 0) ? [friend] : [],
      debts.map(({ debt, direction }) => friendRef(debt, direction, 'f')),
      voice,
    ),
  );
  tail.push(context(voice.t('balances.friend_hint')));
  const name = mrkdwn(friend.name);
  const text =
    rows.length === 0
      ? voice.t('balances.friend_settled', { name })
      : voice.t('balances.friend_fallback', { name, position: friendParts(voice, friend.total) });
  return {
    text: fallbackWith(input.notice, text),
    blocks: withRows(head, rows, tail, (count) => voice.t('balances.more_currencies', { count })),
  };
}

interface GroupBalanceInput {
  group: GroupSummary;
  me: number;
  currency?: string | null | undefined;
  notice?: string | undefined;
}

export function groupBalanceMessage(input: GroupBalanceInput, voice: Voice): SlackMessage {
  const { group, me } = input;
  const name = who(group.name);
  const settled = group.myBalance.length === 0;
  const head: types.KnownBlock[] = [
    ...noticeBlocks(input.notice),
    header(group.name, { emoji: true }),
    section(
      settled
        ? input.currency
          ? voice.t('balances.group_settled_in', { group: name, currency: input.currency })
          : voice.t('balances.group_settled', { group: name })
        : voice.t('balances.group_position', {
            group: name,
            position: position(voice, group.myBalance),
          }),
    ),
  ];
  // My own debts first (they carry the buttons), then everyone else's.
  const mine = group.debts.filter((d) => d.from.id === me || d.to.id === me);
  const others = group.debts.filter((d) => d.from.id !== me && d.to.id !== me);
  const rows = [...mine, ...others].map((d) => groupDebtRow(group, d, me, voice));
  if (rows.length === 0) head.push(section(voice.t('balances.group_nobody')));
  else
    head.push(
      context(
        group.simplified ? voice.t('balances.group_simplified') : voice.t('balances.group_pairs'),
      ),
    );
  const tail: types.KnownBlock[] = [];
  const memberLines = group.members.map(
    (m) =>
      `• ${m.id === me ? `*${voice.t('balances.you')}*` : who(m.name)}: ${
        m.balance.length === 0
          ? voice.t('balances.settled_up')
          : voice.list(
              m.balance.map((b) =>
                b.amount > 0
                  ? voice.t('balances.member_is_owed', {
                      amount: voice.money(b.amount, b.currency),
                    })
                  : voice.t('balances.member_owes', {
                      amount: voice.money(-b.amount, b.currency),
                    }),
              ),
            )
      }`,
  );
  if (memberLines.length > 0) {
    tail.push(
      section(`*${voice.t('balances.members')}*\n${clipLines(memberLines, undefined, voice)}`),
    );
  }
  const plainName = mrkdwn(group.name);
  const text = settled
    ? voice.t('balances.group_fallback_settled', { group: plainName })
    : voice.t('balances.group_fallback', {
        group: plainName,
        position: position(voice, group.myBalance),
      });
  return {
    text: fallbackWith(input.notice, text),
    blocks: withRows(head, rows, tail, (count) => voice.t('balances.more_debts', { count })),
  };
}
