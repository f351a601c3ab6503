/**
 * The daily balance DM as Block Kit: pure functions from balances to `{ text, blocks }`, ready for
 * chat.postMessage. Every builder keeps within Slack's limits itself, so a person with many friends
 * gets a shortened DM instead of an `invalid_blocks` error and no DM at all.
 */
import type { BalanceSummary, FriendDebt, Money } from '../../core/balances.js';
import { type Infer, int, object, string } from '../../core/schema.js';
import { DIGEST_ACTION_IDS } from '../ids.js';
import { money } from '../shared/format.js';
import { clip, LIMITS, mrkdwnEscape } from '../shared/limits.js';

export { DIGEST_ACTION_IDS };

/** Slack refuses a message of more than 50 blocks. */
export const MAX_MESSAGE_BLOCKS = LIMITS.messageBlocks;
/** Slack refuses a section whose text is longer than 3000 characters. */
export const MAX_SECTION_TEXT = LIMITS.sectionText;
/**
 * Slack answers msg_blocks_too_long at about 13,000 characters across all blocks even when each
 * block is within its own limit, so each multi-line section gets a share well below that.
 */
const MAX_LIST_SECTION_TEXT = 1500;
/** One debt row: a name can be arbitrarily long, a row should not be. */
const MAX_ROW_TEXT = 200;
/**
 * Debt rows with a Settle up button: a DM is a digest, and 20 rows keep the whole message well
 * under the ~13,000-character ceiling; `/split balance` shows the rest.
 */
const MAX_DEBT_ROWS = 20;

interface DigestChange {
  name: string;
  currency: string;
  /** Minor units, positive = the friend owes me. */
  before: number;
  after: number;
}

interface DigestGroupLine {
  name: string;
  /** My position in the group, positive = I am owed; zero currencies left out. */
  balance: Money[];
}

interface DigestMessageInput {
  /** "Saturday 21 November". */
  dayLabel: string;
  summary: BalanceSummary;
  groups: DigestGroupLine[];
  changes: DigestChange[];
  /** True for the first DM, when there is no "since last time" to tell. */
  first: boolean;
  /** The person's Slack locale (users.info with include_locale), for every amount. */
  locale?: string | undefined;
}

/**
 * The DM as this view builds it. Its blocks are plain objects rather than Bolt's KnownBlock
 * union, so that a reader (the runner's narrow Slack client, the tests) can take any block's
 * fields without narrowing.
 */
export interface SlackMessage {
  text: string;
  blocks: Array<Record<string, unknown>>;
}

/** What a Settle up button carries: small, and read back through a schema. */
const settleUpValueSchema = object({
  friend_id: int({ min: 1 }),
  currency: string({ regex: /^[A-Z]{3}$/ }),
});
type SettleUpValue = Infer<typeof settleUpValueSchema>;

function settleUpValue(value: SettleUpValue): string {
  return JSON.stringify(settleUpValueSchema.parse(value));
}

/** The friend and currency a Settle up click is about, or undefined for a value we did not make. */
export function parseSettleUpValue(value: string | undefined): SettleUpValue | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = settleUpValueSchema.safeParse(JSON.parse(value));
    return parsed.ok ? parsed.value : undefined;
  } catch {
    return undefined;
  }
}

/** Joins lines until the next one would pass `limit`, then says how many were left out. */
function clipLines(lines: string[], limit: number): string {
  const kept: string[] = [];
  let length = 0;
  for (const [index, line] of lines.entries()) {
    const more = lines.length - index;
    const tail = `\n…and ${more} more`;
    if (length + line.length + 1 + (more > 1 ? tail.length : 0) > limit) {
      kept.push(`…and ${more} more`);
      break;
    }
    kept.push(line);
    length += line.length + 1;
  }
  return clip(kept.join('\n'), limit);
}

function section(text: string, limit = MAX_SECTION_TEXT): Record<string, unknown> {
  return { type: 'section', text: { type: 'mrkdwn', text: clip(text, limit) } };
}

function totalsText(summary: BalanceSummary, locale: string | undefined): string {
  if (summary.settled) return 'You are all settled up: nobody owes you and you owe nobody.';
  const lines = summary.totals.map((t) => {
    const parts: string[] = [];
    if (t.owedToMe > 0) parts.push(`you are owed *${money(t.owedToMe, t.currency, locale)}*`);
    if (t.iOwe > 0) parts.push(`you owe *${money(t.iOwe, t.currency, locale)}*`);
    return `• ${t.currency}: ${parts.join(', ')}`;
  });
  return clipLines(lines, MAX_LIST_SECTION_TEXT);
}

function changeLine(change: DigestChange, locale: string | undefined): string {
  const name = `*${mrkdwnEscape(change.name)}*`;
  const state = (amount: number) =>
    amount > 0
      ? `owes you ${money(amount, change.currency, locale)}`
      : amount < 0
        ? `you owe ${money(-amount, change.currency, locale)}`
        : 'settled';
  if (change.after === 0) return `• ${name}: settled up (was: ${state(change.before)})`;
  if (change.before === 0) return `• ${name}: new, ${state(change.after)}`;
  return `• ${name}: ${state(change.after)} (was: ${state(change.before)})`;
}

function debtRow(
  debt: FriendDebt,
  direction: 'owesMe' | 'iOwe',
  locale: string | undefined,
): Record<string, unknown> {
  const name = `*${mrkdwnEscape(clip(debt.name, 80))}*`;
  const amount = `*${money(debt.amount, debt.currency, locale)}*`;
  const text = direction === 'owesMe' ? `${name} owes you ${amount}` : `You owe ${name} ${amount}`;
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: clip(text, MAX_ROW_TEXT) },
    accessory: {
      type: 'button',
      action_id: DIGEST_ACTION_IDS.settleUp,
      text: { type: 'plain_text', text: 'Settle up' },
      value: settleUpValue({ friend_id: debt.id, currency: debt.currency }),
    },
  };
}

function fallbackText(input: DigestMessageInput): string {
  const { summary, locale } = input;
  if (summary.settled) return `Your balances for ${input.dayLabel}: all settled up.`;
  const parts = summary.totals.map((t) => {
    const bits: string[] = [];
    if (t.owedToMe > 0) bits.push(`owed ${money(t.owedToMe, t.currency, locale)}`);
    if (t.iOwe > 0) bits.push(`you owe ${money(t.iOwe, t.currency, locale)}`);
    return bits.join(', ');
  });
  return clip(`Your balances for ${input.dayLabel}: ${parts.join('; ')}.`, LIMITS.fallbackText);
}

/** The daily DM: totals, what changed, one row per debt with Settle up, groups, Pause. */
export function digestMessage(input: DigestMessageInput): SlackMessage {
  const { locale } = input;
  const head: Array<Record<string, unknown>> = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: clip(`Your balances, ${input.dayLabel}`, LIMITS.headerText),
      },
    },
    section(totalsText(input.summary, locale)),
  ];
  if (!input.first) {
    head.push(
      section(
        input.changes.length === 0
          ? '*Since your last DM:* nothing changed.'
          : `*Since your last DM:*\n${clipLines(
              input.changes.map((c) => changeLine(c, locale)),
              MAX_LIST_SECTION_TEXT,
            )}`,
      ),
    );
  }

  const groupLines = input.groups
    .filter((g) => g.balance.length > 0)
    .map((g) => {
      const parts = g.balance.map((m) =>
        m.amount > 0
          ? `you are owed ${money(m.amount, m.currency, locale)}`
          : `you owe ${money(-m.amount, m.currency, locale)}`,
      );
      return `• ${mrkdwnEscape(clip(g.name, 100))}: ${parts.join(', ')}`;
    });
  const tail: Array<Record<string, unknown>> = [];
  if (groupLines.length > 0) {
    tail.push(section(`*In groups:*\n${clipLines(groupLines, MAX_LIST_SECTION_TEXT)}`));
  }
  tail.push(
    {
      type: 'actions',
      elements: [
        {
          type: 'button',
          action_id: DIGEST_ACTION_IDS.pause,
          text: { type: 'plain_text', text: 'Pause daily DM' },
          value: 'pause',
        },
      ],
    },
    {
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: 'You get this because you turned on the daily balance DM. Change its hour or turn it off in the app’s Home tab.',
        },
      ],
    },
  );

  const rows = [
    ...input.summary.iOwe.map((d) => debtRow(d, 'iOwe', locale)),
    ...input.summary.owesMe.map((d) => debtRow(d, 'owesMe', locale)),
  ];
  // The rows give way first: a one-line note stands for those that do not fit.
  const room = Math.min(MAX_DEBT_ROWS + 1, MAX_MESSAGE_BLOCKS - head.length - tail.length);
  const shown = rows.length <= room ? rows : rows.slice(0, room - 1);
  const middle = [...shown];
  if (shown.length < rows.length) {
    middle.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: `…and ${rows.length - shown.length} more. \`/split balance\` shows them all.`,
        },
      ],
    });
  }
  return { text: fallbackText(input), blocks: [...head, ...middle, ...tail] };
}

/** Told once when the person's service token stops working; the DM then stays quiet. */
export function digestRevokedMessage(): SlackMessage {
  const text =
    'Your expense account is no longer connected, so your daily balance DM has stopped. Reconnect with /split connect to get it again.';
  return {
    text,
    blocks: [
      section(
        ':warning: Your expense account is no longer connected (the access was revoked or expired), so your daily balance DM has stopped.\nReconnect with `/split connect` and it starts again on its own.',
      ),
    ],
  };
}
