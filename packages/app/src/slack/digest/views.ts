/**
 * The daily balance DM as Block Kit: pure functions from balances to `{ text, blocks }`, ready for
 * chat.postMessage. The balances are shared/balance-blocks.ts's, as in `/split balance` and App
 * Home; around them the DM says what changed since the last one and offers Pause. It keeps within
 * Slack's limits, so a person with many friends gets a shortened DM instead of an
 * `invalid_blocks` error and no DM at all.
 */
import type { types } from '@slack/bolt';
import type { BalanceSummary, FriendDebt, Money } from '../../core/balances.js';
import { type Infer, int, object, string } from '../../core/schema.js';
import { DIGEST_ACTION_IDS } from '../ids.js';
import {
  balanceBlocks,
  balancesFallback,
  clipLines,
  section,
  summaryDebts,
} from '../shared/balance-blocks.js';
import { money } from '../shared/format.js';
import { clip, LIMITS, mrkdwnEscape } from '../shared/limits.js';
import type { SlackMessage } from '../shared/message.js';

interface DigestChange {
  name: string;
  currency: string;
  /** Minor units, positive = the friend owes me. */
  before: number;
  after: number;
}

interface DigestMessageInput {
  /** "Saturday 21 November". */
  dayLabel: string;
  summary: BalanceSummary;
  /** My position in each group, positive = I am owed; zero currencies left out. */
  groups: Array<{ name: string; balance: Money[] }>;
  changes: DigestChange[];
  /** True for the first DM, when there is no "since last time" to tell. */
  first: boolean;
  /** The person's Slack locale (users.info with include_locale), for every amount. */
  locale?: string | undefined;
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

/** The DM's Settle up: it names the friend and currency, and the click reads the debt afresh. */
function settleUpButton(debt: FriendDebt): types.Button {
  return {
    type: 'button',
    action_id: DIGEST_ACTION_IDS.settleUp,
    text: { type: 'plain_text', text: 'Settle up' },
    value: settleUpValue({ friend_id: debt.id, currency: debt.currency }),
  };
}

/** The daily DM: totals, what changed, one row per debt with Settle up, groups, Pause. */
export function digestMessage(input: DigestMessageInput): SlackMessage {
  const { locale } = input;
  const balances = balanceBlocks(input, { settle: settleUpButton, controls: false });
  const head: types.KnownBlock[] = [
    {
      type: 'header',
      text: {
        type: 'plain_text',
        text: clip(`Your balances, ${input.dayLabel}`, LIMITS.headerText),
      },
    },
    balances.totals,
  ];
  if (!input.first) {
    head.push(
      section(
        input.changes.length === 0
          ? '*Since your last DM:* nothing changed.'
          : `*Since your last DM:*\n${clipLines(input.changes.map((c) => changeLine(c, locale)))}`,
      ),
    );
  }
  const tail: types.KnownBlock[] = [
    ...balances.groups,
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
  ];
  const rows = summaryDebts(balances.debts, LIMITS.messageBlocks - head.length - tail.length);
  const fallback = balancesFallback(`Your balances for ${input.dayLabel}`, input.summary, locale);
  return {
    text: clip(fallback, LIMITS.fallbackText),
    blocks: [...head, ...rows, ...tail],
  };
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
