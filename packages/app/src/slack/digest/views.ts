/**
 * The daily balance DM as Block Kit: pure functions from balances to `{ text, blocks }`, ready for
 * chat.postMessage, in the voice of the person it is for. The balances are
 * shared/balance-blocks.ts's, as in `/split balance` and App Home; around them the DM says what
 * changed since the last one and offers Pause. It keeps within Slack's limits, so a person with
 * many friends gets a shortened DM instead of an `invalid_blocks` error and no DM at all.
 */
import type { types } from '@slack/bolt';
import type { BalanceSummary, FriendDebt, Money } from '../../core/balances.js';
import { type Infer, int, object, string } from '../../core/schema.js';
import type { Voice } from '../../voice/index.js';
import { DIGEST_ACTION_IDS } from '../ids.js';
import {
  actionsBlock,
  buttonElement,
  context,
  headerBlock,
  plainTextObject,
  section,
} from '../kit/blocks.js';
import { clip, LIMITS } from '../kit/limits.js';
import type { SlackMessage } from '../kit/message.js';
import { plainText } from '../kit/text.js';
import {
  balanceBlocks,
  balancesFallback,
  clipLines,
  summaryDebts,
  who,
} from '../shared/balance-blocks.js';

interface DigestChange {
  name: string;
  currency: string;
  /** Minor units, positive = the friend owes me. */
  before: number;
  after: number;
}

interface DigestMessageInput {
  /** The person's local day the DM is for, yyyy-MM-dd. */
  day: string;
  summary: BalanceSummary;
  /** My position in each group, positive = I am owed; zero currencies left out. */
  groups: Array<{ name: string; balance: Money[] }>;
  changes: DigestChange[];
  /** True for the first DM, when there is no "since last time" to tell. */
  first: boolean;
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
  return settleUpValueSchema.readJson(value);
}

function plain(text: string): types.PlainTextElement {
  return plainTextObject({ text: clip(plainText(text), LIMITS.buttonText) });
}

/** "owes you €5.00", "you owe €5.00", "settled": one side of a change. */
function state(amount: number, currency: string, voice: Voice): string {
  if (amount > 0)
    return voice.t('balances.part_owes_you', { amount: voice.money(amount, currency) });
  if (amount < 0)
    return voice.t('balances.part_you_owe', { amount: voice.money(-amount, currency) });
  return voice.t('digest.settled');
}

function changeLine(change: DigestChange, voice: Voice): string {
  const name = who(change.name);
  const before = state(change.before, change.currency, voice);
  const after = state(change.after, change.currency, voice);
  if (change.after === 0) return `• ${voice.t('digest.change_settled', { name, before })}`;
  if (change.before === 0) return `• ${voice.t('digest.change_new', { name, after })}`;
  return `• ${voice.t('digest.change', { name, before, after })}`;
}

/** The DM's Settle up: it names the friend and currency, and the click reads the debt afresh. */
function settleUpButton(debt: FriendDebt, voice: Voice): types.Button {
  return buttonElement({
    action_id: DIGEST_ACTION_IDS.settleUp,
    text: plain(voice.t('settle.settle_up')),
    value: settleUpValue({ friend_id: debt.id, currency: debt.currency }),
  });
}

/** The daily DM: totals, what changed, one row per debt with Settle up, groups, Pause. */
export function digestMessage(input: DigestMessageInput, voice: Voice): SlackMessage {
  const day = voice.day(input.day);
  const balances = balanceBlocks(
    input,
    { settle: (debt) => settleUpButton(debt, voice), controls: false },
    voice,
  );
  const head: types.KnownBlock[] = [
    headerBlock({
      text: plainTextObject({
        text: clip(plainText(voice.t('digest.title', { day })), LIMITS.headerText),
      }),
    }),
    balances.totals,
  ];
  if (!input.first) {
    const since = voice.t('digest.since_last');
    head.push(
      section(
        input.changes.length === 0
          ? `*${since}* ${voice.t('digest.nothing_changed')}`
          : `*${since}*\n${clipLines(
              input.changes.map((c) => changeLine(c, voice)),
              undefined,
              voice,
            )}`,
      ),
    );
  }
  const tail: types.KnownBlock[] = [
    ...balances.groups,
    actionsBlock({
      elements: [
        buttonElement({
          action_id: DIGEST_ACTION_IDS.pause,
          text: plain(voice.t('digest.pause')),
          value: 'pause',
        }),
      ],
    }),
    context(voice.t('digest.why')),
  ];
  const rows = summaryDebts(
    balances.debts,
    LIMITS.messageBlocks - head.length - tail.length,
    voice,
  );
  const fallback = balancesFallback(
    voice.t('digest.fallback_title', { day }),
    input.summary,
    voice,
  );
  return {
    text: clip(fallback, LIMITS.fallbackText),
    blocks: [...head, ...rows, ...tail],
  };
}

/** Told once when the person's service token stops working; the DM then stays quiet. */
export function digestRevokedMessage(voice: Voice): SlackMessage {
  return {
    text: voice.t('digest.revoked_fallback'),
    blocks: [section(`:warning: ${voice.t('digest.revoked')}`)],
  };
}
