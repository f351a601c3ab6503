/**
 * The one balance renderer by value, and the three surfaces that show it: `/split balance`, App
 * Home and the daily DM each show exactly its totals, groups and debt rows (their own Settle up
 * buttons aside), so a change to how balances read reaches all three.
 */
import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { type FriendInput, summarizeBalances } from '../../../src/core/balances.js';
import { allBalancesMessage } from '../../../src/slack/balances/views.js';
import { digestMessage } from '../../../src/slack/digest/views.js';
import { homeView } from '../../../src/slack/home/views.js';
import { DIGEST_ACTION_IDS, LEDGER_ACTIONS } from '../../../src/slack/ids.js';
import {
  balanceBlocks,
  balancesFallback,
  summaryDebts,
} from '../../../src/slack/shared/balance-blocks.js';
import { voiceFor } from '../../../src/voice/index.js';

const en = await voiceFor({ locale: 'en-US' });

const friend = (id: number, name: string, amount: string, currency = 'EUR'): FriendInput => ({
  id,
  first_name: name,
  last_name: null,
  balance: [{ currency_code: currency, amount }],
  groups: [],
});

const button = (id: number): types.Button => ({
  type: 'button',
  action_id: 'settle',
  text: { type: 'plain_text', text: 'Settle up' },
  value: String(id),
});

// Owed €20 by Ann and owing €30 to Ben <3: both ways in one currency, and a name to escape.
const summary = summarizeBalances([friend(1, 'Ann', '20.00'), friend(2, 'Ben <3', '-30.00')]);
const groups = [
  { name: 'Flat & co', balance: [{ currency: 'EUR', amount: -1000 }] },
  { name: 'Settled', balance: [] },
];

describe('balanceBlocks', () => {
  it('renders totals with the net, one row per debt, and the unsettled groups', () => {
    const parts = balanceBlocks(
      { summary, groups },
      { settle: (debt) => button(debt.id), controls: false },
    );
    expect(parts.totals).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '• *EUR*: you are owed *€20.00*, you owe *€30.00* (overall you owe €10.00)',
      },
    });
    expect(parts.debts).toEqual([
      {
        type: 'section',
        text: { type: 'mrkdwn', text: 'You owe *Ben &lt;3* *€30.00*' },
        accessory: button(2),
      },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*Ann* owes you *€20.00*' },
        accessory: button(1),
      },
    ]);
    expect(parts.groups).toEqual([
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*In groups*\n• *Flat &amp; co*: you owe €10.00' },
      },
    ]);
    expect(parts.controls).toEqual([]);
  });

  it('adds Remind and Pay part… when asked, and says when all is settled', () => {
    const settled = balanceBlocks(
      { summary: summarizeBalances([]), groups: [] },
      { settle: (debt) => button(debt.id), controls: true },
    );
    expect(settled.totals.text?.text).toBe(
      'You are all settled up: nobody owes you and you owe nobody.',
    );
    expect(settled.debts).toEqual([]);
    expect(settled.groups).toEqual([]);
    expect(settled.controls).toEqual([]);
    const owed = balanceBlocks({ summary, groups }, { settle: () => button(0), controls: true });
    expect(owed.controls).toHaveLength(1);
    expect(JSON.stringify(owed.controls)).toContain(LEDGER_ACTIONS.remind);
  });

  it('writes the fallback text, and cuts summary rows to 20 and a note', () => {
    expect(balancesFallback('Your balances', summary)).toBe(
      'Your balances: owed €20.00, you owe €30.00.',
    );
    const rows = Array.from({ length: 30 }, (_, i) => button(i) as unknown as types.KnownBlock);
    const cut = summaryDebts(rows, 100);
    expect(cut).toHaveLength(21);
    expect(cut[20]).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: '…and 10 more. `/split balance` shows every debt.' }],
    });
    expect(summaryDebts(rows.slice(0, 21), 100)).toEqual(rows.slice(0, 21));
    expect(summaryDebts(rows, 5)).toHaveLength(5);
  });
});

describe('every surface shows the same balances', () => {
  const parts = balanceBlocks({ summary, groups }, { settle: () => button(0), controls: false });
  const text = (block: types.KnownBlock) => (block.type === 'section' ? block.text?.text : '');
  const sections = (blocks: types.KnownBlock[]) => blocks.map(text);
  /** The rows with a Settle up button. */
  const buttons = (blocks: types.KnownBlock[]) =>
    blocks.flatMap((b) =>
      b.type === 'section' &&
      b.accessory?.type === 'button' &&
      b.accessory.text.text === 'Settle up'
        ? [b]
        : [],
    );

  it('in /split balance, App Home and the daily DM', () => {
    const message = allBalancesMessage({ summary, groups });
    const home = homeView(
      {
        kind: 'connected',
        name: 'Me',
        serviceUserId: 9,
        summary,
        groups: groups.map((g, i) => ({ id: i + 1, ...g })),
        activity: [],
        digest: undefined,
        tz: undefined,
        defaultCurrency: undefined,
        currencies: [],
        defaultGroup: null,
      },
      en,
    );
    const dm = digestMessage({
      dayLabel: 'Monday 1 June',
      summary,
      groups,
      changes: [],
      first: true,
    });
    // homeView builds only known blocks; Bolt's HomeView type allows any.
    const homeBlocks = home.blocks as types.KnownBlock[];
    for (const blocks of [message.blocks, homeBlocks, dm.blocks]) {
      const shown = sections(blocks);
      expect(shown).toContain(text(parts.totals));
      expect(shown).toContain(text(parts.groups[0] as types.KnownBlock));
      expect(buttons(blocks).map(text)).toEqual(parts.debts.map(text));
    }
    // Each surface keeps its own Settle up: the ledger's asks first, the DM's reads the debt anew.
    expect(buttons(message.blocks)[0]?.accessory).toMatchObject({
      action_id: LEDGER_ACTIONS.settleUp,
      confirm: expect.any(Object),
    });
    expect(buttons(homeBlocks)[0]?.accessory).toMatchObject({
      action_id: LEDGER_ACTIONS.settleUp,
    });
    expect(buttons(dm.blocks)[0]?.accessory).toMatchObject({
      action_id: DIGEST_ACTION_IDS.settleUp,
    });
  });
});
