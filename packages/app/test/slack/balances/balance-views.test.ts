/**
 * The balance and group views by value: Slack's limits kept with many friends and long names,
 * the Settle up value read back through its schema, and the group-name matching rules.
 */
import { describe, expect, it } from 'vitest';
import { summarizeBalances, summarizeGroup } from '../../../src/core/balances.js';
import type { Group } from '../../../src/service/index.js';
import { allBalancesMessage, groupBalanceMessage } from '../../../src/slack/balances/views.js';
import {
  deleteGroupConfirm,
  groupsMessage,
  parseGroupRef,
} from '../../../src/slack/groups/views.js';
import { mrkdwn } from '../../../src/slack/kit/text.js';
import { matchGroup } from '../../../src/slack/shared/ledger.js';
import { parseSettleRef, settleRefValue } from '../../../src/slack/shared/settle-ref.js';
import { settleButton } from '../../../src/slack/shared/settle-views.js';
import { voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { blocksText } from '../../support/harness.js';
import { HOSTILE, mrkdwnTexts, plainTexts, rawIn, voices } from '../../support/voice-support.js';

const en = voices.en;

const friend = (id: number, name: string, amount: string, currency = 'EUR') => ({
  id,
  first_name: name,
  last_name: null,
  balance: [{ currency_code: currency, amount }],
  groups: [],
});

describe('allBalancesMessage', () => {
  it('keeps to 50 blocks with 120 debts, saying how many more there are', () => {
    const friends = Array.from({ length: 120 }, (_, i) =>
      friend(i + 1, `Friend ${i + 1}`, i % 2 === 0 ? `${i + 1}.5` : `-${i + 1}`),
    );
    const message = allBalancesMessage({ summary: summarizeBalances(friends), groups: [] }, en);
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    expect(message.blocks).toHaveLength(50);
    const text = blocksText(message.blocks);
    // header + totals + Remind menu + context tail = 4 fixed; 46 rows room: 45 rows and the note.
    expect(text).toContain('…and 75 more debts');
    expect(text).toContain('Remind someone who owes you…');
  });

  it('keeps every section under 3000 characters with very long names and many groups', () => {
    const long = 'N'.repeat(5000);
    const groups = Array.from({ length: 300 }, (_, i) => ({
      name: `${long}${i}`,
      balance: [{ currency: 'EUR', amount: -100 * (i + 1) }],
    }));
    const message = allBalancesMessage(
      {
        summary: summarizeBalances([friend(1, long, '10')]),
        groups,
        notice: long,
      },
      en,
    );
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    expect(message.text.length).toBeLessThanOrEqual(4000);
  });

  it('escapes names in mrkdwn and the fallback, and shows them as typed in plain text', () => {
    const message = allBalancesMessage(
      {
        summary: summarizeBalances([friend(1, HOSTILE, '-10'), friend(2, HOSTILE, '5', 'USD')]),
        groups: [{ name: HOSTILE, balance: [{ currency: 'EUR', amount: -1000 }] }],
      },
      en,
    );
    const marked = mrkdwnTexts(message.blocks);
    expect(marked.join('\n')).toContain(mrkdwn(HOSTILE));
    expect(rawIn([...marked, message.text])).toEqual([]);
    // Options and button labels are plain_text: Slack shows them as they are, markup and all.
    expect(plainTexts(message.blocks)).toContain(`You owe ${HOSTILE} €10.00`);
  });

  it('says when everything is settled', () => {
    const message = allBalancesMessage({ summary: summarizeBalances([]), groups: [] }, en);
    expect(blocksText(message.blocks)).toContain('You are all settled up');
  });
});

describe('Settle up buttons', () => {
  it('carry a value read back by the schema, and a confirm dialog within limits', () => {
    const ref = {
      k: 'g',
      id: 7,
      o: 3,
      c: 'EUR',
      a: 2050,
      p: 1,
      v: 'g',
      n: 'x'.repeat(200),
    } as const;
    const b = settleButton(ref, en);
    expect(parseSettleRef(b.value)).toEqual({ ...ref, n: 'x'.repeat(60) });
    expect(blockKitErrors([{ type: 'actions', elements: [b] }], 'message')).toEqual([]);
    expect(JSON.stringify(b.confirm)).toContain('€20.50');
  });

  it('refuse values they did not make', () => {
    expect(parseSettleRef('{"k":"f","id":1}')).toBeUndefined();
    expect(parseSettleRef('not json')).toBeUndefined();
    expect(
      parseSettleRef(settleRefValue({ k: 'f', id: 1, c: 'USD', a: 1, p: 0, v: 'a', n: 'A' })),
    ).toBeDefined();
    expect(parseGroupRef('{"g":-1,"n":"x"}')).toBeUndefined();
  });
});

function group(id: number, name: string): Group {
  return { id, name, members: [], original_debts: [], simplified_debts: [] };
}

describe('group names', () => {
  const groups = [
    group(0, 'Non-group expenses'),
    group(1, 'Ski 2025'),
    group(2, 'Ski 2026'),
    group(3, 'Flat'),
  ];

  it('match exactly (any case), then by a unique start, then by a unique part', () => {
    expect(matchGroup(groups, 'ski 2025')).toMatchObject({ kind: 'found', group: { id: 1 } });
    expect(matchGroup(groups, 'FL')).toMatchObject({ kind: 'found', group: { id: 3 } });
    expect(matchGroup(groups, '2026')).toMatchObject({ kind: 'found', group: { id: 2 } });
    expect(matchGroup(groups, 'ski')).toMatchObject({ kind: 'ambiguous' });
    expect(matchGroup(groups, 'non-group')).toMatchObject({ kind: 'unknown' });
  });
});

describe('group views', () => {
  it('list 200 groups in one message within limits', async () => {
    const message = groupsMessage(await voiceFor({}), {
      groups: Array.from({ length: 200 }, (_, i) => ({
        id: i + 1,
        name: `Group ${i + 1}`,
        members: 3,
        balance: [{ currency: 'USD', amount: 100 }],
      })),
    });
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    expect(blocksText(message.blocks)).toMatch(/…and \d+ more/);
  });

  it('ask before deleting, with a danger confirm within limits', async () => {
    const message = deleteGroupConfirm(await voiceFor({}), { g: 4, n: 'Flat '.repeat(40) });
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
  });

  it('show a group with 80 debts within 50 blocks, mine first with buttons', () => {
    const members = Array.from({ length: 81 }, (_, i) => ({
      id: i + 1,
      first_name: `M${i + 1}`,
      last_name: null,
      balance: [],
    }));
    const debts = Array.from({ length: 80 }, (_, i) => ({
      from: i + 2,
      to: 1,
      amount: '5.0',
      currency_code: 'EUR',
    }));
    const summary = summarizeGroup(
      { id: 9, name: 'Big', members, simplified_debts: debts, simplify_by_default: true },
      1,
    );
    const message = groupBalanceMessage({ group: summary, me: 1 }, en);
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    expect(message.blocks.length).toBeLessThanOrEqual(50);
    expect(blocksText(message.blocks)).toContain('more debts');
  });
});

describe('balances in the reader’s voice', () => {
  const friends = [friend(1, 'Ann', '1234.5'), friend(2, 'Ben', '-5', 'USD')];

  it('German: words, amounts, the fallback and the buttons', () => {
    const message = allBalancesMessage(
      {
        summary: summarizeBalances(friends),
        groups: [{ name: 'Flat', balance: [{ currency: 'EUR', amount: 123450 }] }],
        currency: null,
      },
      voices.de,
    );
    const text = blocksText(message.blocks).replace(/\u00a0/g, ' ');
    expect(message.text.replace(/\u00a0/g, ' ')).toBe(
      'Deine Salden: du bekommst 1.234,50 € und du schuldest 5,00 $.',
    );
    expect(text).toContain('Deine Salden');
    expect(text).toContain('*Ann* schuldet dir *1.234,50 €*');
    expect(text).toContain('Du schuldest *Ben* *5,00 $*');
    expect(text).toContain('*In Gruppen*\n• *Flat*: du bekommst 1.234,50 €');
    expect(text).toContain('Ausgleichen');
    expect(text).toContain('Ann erinnern');
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
  });

  it('Japanese: a group', () => {
    const summary = summarizeGroup(
      {
        id: 9,
        name: 'Trip',
        members: [
          {
            id: 1,
            first_name: 'Me',
            last_name: null,
            balance: [{ currency_code: 'EUR', amount: '1234.5' }],
          },
          {
            id: 2,
            first_name: 'Ann',
            last_name: null,
            balance: [{ currency_code: 'EUR', amount: '-1234.5' }],
          },
        ],
        simplified_debts: [{ from: 2, to: 1, amount: '1234.5', currency_code: 'EUR' }],
        simplify_by_default: true,
      },
      1,
    );
    const message = groupBalanceMessage({ group: summary, me: 1 }, voices.ja);
    const text = blocksText(message.blocks);
    expect(text).toContain(
      '*Trip* では、*€1,234.50* の貸しがあります。'.replace('*€1,234.50*', '€1,234.50'),
    );
    expect(text).toContain('*Ann* はあなたに *€1,234.50* を借りています');
    expect(text).toContain('*メンバー*');
    expect(message.text).toBe('Trip：€1,234.50 の貸しがあります。');
  });
});
