/**
 * A person's balances as Block Kit, the one way every surface shows them: `/split balance` and
 * what Settle up shows again (balances/views.ts), App Home (home/views.ts) and the daily DM
 * (digest/views.ts). Pure functions from core's summaries to blocks, which each surface places
 * under its own header and around its own controls. Every currency is shown in its own right
 * (nothing is converted), and everything keeps within Slack's limits: names are cut, lists say
 * how many lines they left out, and debt rows give way to a note within the room a surface has.
 */
import type { types } from '@slack/bolt';
import type { BalanceSummary, FriendDebt, Money } from '../../core/balances.js';
import { money } from './format.js';
import { clip, LIMITS, mrkdwnEscape } from './limits.js';
import { remindActions } from './remind-buttons.js';
import type { SettleRef } from './settle-ref.js';

/** A list section stays well under 3000 and the ~13,000-character total of a message. */
const LIST_TEXT = 1500;
const NAME = 80;

export function section(text: string, limit: number = LIMITS.sectionText): types.SectionBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, limit) } };
}

export function context(text: string): types.ContextBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: clip(text, LIMITS.sectionText) }] };
}

/** A person's or a group's name in bold, cut and escaped. */
export const who = (name: string) => `*${mrkdwnEscape(clip(name, NAME))}*`;

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

/** Totals per currency, one line each; owed both ways, what settling everything comes to. */
function totalsText(summary: BalanceSummary, locale?: string): string {
  if (summary.settled) return 'You are all settled up: nobody owes you and you owe nobody.';
  return clipLines(
    summary.totals.map((t) => {
      const parts: string[] = [];
      if (t.owedToMe > 0) parts.push(`you are owed *${money(t.owedToMe, t.currency, locale)}*`);
      if (t.iOwe > 0) parts.push(`you owe *${money(t.iOwe, t.currency, locale)}*`);
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

/** The notification text of a balance: "Your balances: owed $20.00; you owe €5.50." */
export function balancesFallback(title: string, summary: BalanceSummary, locale?: string): string {
  if (summary.settled) return `${title}: all settled up.`;
  const parts = summary.totals.map((t) => {
    const bits: string[] = [];
    if (t.owedToMe > 0) bits.push(`owed ${money(t.owedToMe, t.currency, locale)}`);
    if (t.iOwe > 0) bits.push(`you owe ${money(t.iOwe, t.currency, locale)}`);
    return bits.join(', ');
  });
  return `${title}: ${parts.join('; ')}.`;
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
    accessory: button,
  };
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
export function summaryDebts(debts: types.KnownBlock[], room: number): types.KnownBlock[] {
  return fitRows(debts, Math.min(SUMMARY_DEBT_ROWS + 1, room), (n) =>
    context(`…and ${n} more. \`/split balance\` shows every debt.`),
  );
}

interface BalancesInput {
  summary: BalanceSummary;
  /** Each group with my position in it; settled ones are left out. */
  groups: ReadonlyArray<{ name: string; balance: readonly Money[] }>;
  locale?: string | undefined;
}

interface BalancesLayout {
  /** The Settle up button on each friend debt row. */
  settle(debt: FriendDebt, direction: DebtDirection): types.Button;
  /** Remind and Pay part… under the balances. */
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
  /** Remind and Pay part… when the layout has them and something is owed. */
  controls: types.ActionsBlock[];
}

export function balanceBlocks(input: BalancesInput, layout: BalancesLayout): BalanceBlocks {
  const { summary, locale } = input;
  const row = (direction: DebtDirection) => (debt: FriendDebt) =>
    debtRow(debt, direction, layout.settle(debt, direction), locale);
  const groupLines = input.groups
    .filter((g) => g.balance.length > 0)
    .map((g) => `• ${who(g.name)}: ${positionText(g.balance, locale)}`);
  return {
    totals: section(totalsText(summary, locale)),
    debts: [...summary.iOwe.map(row('iOwe')), ...summary.owesMe.map(row('owesMe'))],
    groups: groupLines.length > 0 ? [section(`*In groups*\n${clipLines(groupLines)}`)] : [],
    controls: layout.controls
      ? remindActions(
          summary.owesMe,
          [
            ...summary.iOwe.map((d) => friendRef(d, 'iOwe', 'a')),
            ...summary.owesMe.map((d) => friendRef(d, 'owesMe', 'a')),
          ],
          locale,
        )
      : [],
  };
}
