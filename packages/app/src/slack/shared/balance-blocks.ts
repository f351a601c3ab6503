/**
 * A person's balances as Block Kit, the one way every surface shows them: `/split balance` and
 * what Settle up shows again (balances/views.ts), App Home (home/views.ts) and the daily DM
 * (digest/views.ts). Pure functions from core's summaries to blocks, in the reader's voice, which
 * each surface places under its own header and around its own controls. Every currency is shown
 * in its own right (nothing is converted), and everything keeps within Slack's limits: names are
 * cut, lists say how many lines they left out, and debt rows give way to a note within the room a
 * surface has.
 */
import type { types } from '@slack/bolt';
import type { BalanceSummary, FriendDebt, Money } from '../../core/balances.js';
import type { Voice } from '../../voice/index.js';
import { context, mrkdwnObject, section, sectionBlock } from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { mrkdwn } from '../kit/text.js';
import { exampleText } from './examples.js';
import { remindActions } from './remind-buttons.js';
import type { SettleRef } from './settle-ref.js';

/** A list section stays well under 3000 and the ~13,000-character total of a message. */
const LIST_TEXT = 1500;
const NAME = 80;

/** A person's or a group's name in bold, cut and escaped. */
export const who = (name: string) => `*${mrkdwn(clip(name, NAME))}*`;

/** An amount in bold. */
export const strong = (text: string) => `*${text}*`;

/**
 * Sentences one after another, as the language writes them: Japanese runs them together, the
 * others put a space between.
 */
export function sentences(voice: Voice, ...texts: string[]): string {
  return texts.filter((text) => text !== '').join(voice.language === 'ja' ? '' : ' ');
}

/**
 * A private answer of mrkdwn already written (values escaped), and the same text as its
 * notification: Slack reads a message's fallback `text` as mrkdwn too.
 */
export function notice(text: string): SlackMessage {
  return { text: clip(text, LIMITS.fallbackText), blocks: [section(text)] };
}

/**
 * Something the person typed that cannot be done, with a working `example` of what to type (the
 * example is the app's own, in the reader's words, shown as code).
 */
export function problem(voice: Voice, text: string, example?: string): SlackMessage {
  const tryThis = example
    ? `\n${voice.t('balances.for_example', { example: `\`${exampleText(voice, example, [])}\`` })}`
    : '';
  return {
    text: clip(text, LIMITS.fallbackText),
    blocks: [section(`:warning: ${text}${tryThis}`), context(voice.t('balances.help_hint'))],
  };
}

/** Joins lines until the next would pass `limit`, then says how many were left out. */
export function clipLines(lines: readonly string[], limit = LIST_TEXT, voice: Voice): string {
  const more = (count: number) => voice.t('balances.and_more', { count });
  const kept: string[] = [];
  let length = 0;
  for (const [index, line] of lines.entries()) {
    const left = lines.length - index;
    const tail = more(left);
    if (length + line.length + 1 + (left > 1 ? tail.length + 1 : 0) > limit) {
      kept.push(tail);
      break;
    }
    kept.push(line);
    length += line.length + 1;
  }
  return clip(kept.join('\n'), limit);
}

/**
 * "you are owed €10.00 and you owe $5.00" for a signed position (positive = I am owed);
 * `amount` writes each amount (in bold, or not).
 */
export function position(
  voice: Voice,
  balance: readonly Money[],
  amount: (text: string) => string = (text) => text,
): string {
  if (balance.length === 0) return voice.t('balances.settled_up');
  return voice.list(
    balance.map((m) =>
      m.amount > 0
        ? voice.t('balances.you_are_owed', {
            amount: amount(voice.money(m.amount, m.currency)),
          })
        : voice.t('balances.you_owe_amount', {
            amount: amount(voice.money(-m.amount, m.currency)),
          }),
    ),
  );
}

/** Totals per currency, one line each; owed both ways, what settling everything comes to. */
function totalsText(summary: BalanceSummary, voice: Voice): string {
  if (summary.settled) return voice.t('balances.all_settled');
  return clipLines(
    summary.totals.map((t) => {
      const parts: string[] = [];
      if (t.owedToMe > 0) {
        parts.push(
          voice.t('balances.you_are_owed', {
            amount: strong(voice.money(t.owedToMe, t.currency)),
          }),
        );
      }
      if (t.iOwe > 0) {
        parts.push(
          voice.t('balances.you_owe_amount', { amount: strong(voice.money(t.iOwe, t.currency)) }),
        );
      }
      const net =
        t.owedToMe > 0 && t.iOwe > 0
          ? t.net === 0
            ? voice.t('balances.net_even')
            : t.net > 0
              ? voice.t('balances.net_owed', { amount: voice.money(t.net, t.currency) })
              : voice.t('balances.net_owe', { amount: voice.money(-t.net, t.currency) })
          : '';
      return `• *${t.currency}*: ${voice.list(parts)}${net ? ` ${net}` : ''}`;
    }),
    LIST_TEXT,
    voice,
  );
}

/** The notification text of a balance: "Your balances: you are owed $20.00 and you owe €5.50." */
export function balancesFallback(title: string, summary: BalanceSummary, voice: Voice): string {
  if (summary.settled) return voice.t('balances.fallback_settled', { title });
  const parts = summary.totals.flatMap((t) => [
    ...(t.owedToMe > 0
      ? [voice.t('balances.you_are_owed', { amount: voice.money(t.owedToMe, t.currency) })]
      : []),
    ...(t.iOwe > 0
      ? [voice.t('balances.you_owe_amount', { amount: voice.money(t.iOwe, t.currency) })]
      : []),
  ]);
  return voice.t('balances.fallback', { title, position: voice.list(parts) });
}

type DebtDirection = 'owesMe' | 'iOwe';

/** What a Settle up control on a friend debt carries, for the view `view` shows again after. */
export function friendRef(
  debt: FriendDebt,
  direction: DebtDirection,
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

/** One friend debt, with the surface's Settle up button. */
export function debtRow(
  debt: FriendDebt,
  direction: DebtDirection,
  button: types.Button,
  voice: Voice,
): types.SectionBlock {
  const amount = strong(voice.money(debt.amount, debt.currency));
  const name = who(debt.name);
  return sectionBlock({
    text: mrkdwnObject({
      text:
        direction === 'owesMe'
          ? voice.t('balances.owes_you', { name, amount })
          : voice.t('balances.you_owe', { name, amount }),
    }),
    accessory: button,
  });
}

/**
 * Fits `rows` into `room` blocks: all of them when they fit, else the first ones and a note
 * (`more`) standing for the rest.
 */
export function fitRows<B>(rows: B[], room: number, more: (n: number) => B): B[] {
  if (rows.length <= room) return rows;
  const shown = rows.slice(0, Math.max(0, room - 1));
  return [...shown, more(rows.length - shown.length)];
}

/** Debt rows App Home and the daily DM show at most; `/split balance` shows them all. */
const SUMMARY_DEBT_ROWS = 20;

/**
 * The debt rows of App Home or the daily DM within `room` blocks: at most 20 rows, then a note
 * pointing to `/split balance` for the rest.
 */
export function summaryDebts(
  debts: types.KnownBlock[],
  room: number,
  voice: Voice,
): types.KnownBlock[] {
  return fitRows(debts, Math.min(SUMMARY_DEBT_ROWS + 1, room), (count) =>
    context(voice.t('balances.more_debts_elsewhere', { count })),
  );
}

interface BalancesInput {
  summary: BalanceSummary;
  /** Each group with my position in it; settled ones are left out. */
  groups: ReadonlyArray<{ name: string; balance: readonly Money[] }>;
}

interface BalancesLayout {
  /** The Settle up button on each friend debt row. */
  settle(debt: FriendDebt, direction: DebtDirection): types.Button;
  /** Remind and Record part… under the balances. */
  controls: boolean;
}

/** The parts of a person's balances, for a surface to place. */
interface BalanceBlocks {
  /** Totals per currency, or that all is settled. */
  totals: types.SectionBlock;
  /** One row per friend debt, what I owe first; a surface fits them to its room (fitRows). */
  debts: types.SectionBlock[];
  /** My position in each group not settled, as one section; none when all are. */
  groups: types.SectionBlock[];
  /** Remind and Record part… when the layout has them and something is owed. */
  controls: types.ActionsBlock[];
}

export function balanceBlocks(
  input: BalancesInput,
  layout: BalancesLayout,
  voice: Voice,
): BalanceBlocks {
  const { summary } = input;
  const row = (direction: DebtDirection) => (debt: FriendDebt) =>
    debtRow(debt, direction, layout.settle(debt, direction), voice);
  const groupLines = input.groups
    .filter((g) => g.balance.length > 0)
    .map((g) => `• ${who(g.name)}: ${position(voice, g.balance)}`);
  return {
    totals: section(totalsText(summary, voice)),
    debts: [...summary.iOwe.map(row('iOwe')), ...summary.owesMe.map(row('owesMe'))],
    groups:
      groupLines.length > 0
        ? [
            section(
              `*${voice.t('balances.in_groups')}*\n${clipLines(groupLines, LIST_TEXT, voice)}`,
            ),
          ]
        : [],
    controls: layout.controls
      ? remindActions(
          summary.owesMe,
          [
            ...summary.iOwe.map((d) => friendRef(d, 'iOwe', 'a')),
            ...summary.owesMe.map((d) => friendRef(d, 'owesMe', 'a')),
          ],
          voice,
        )
      : [],
  };
}
