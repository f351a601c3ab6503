/**
 * What a link unfolds to, by value, in the voice of whoever shared it: an expense (who paid, who
 * owes whom, Open and Details), a group (its size and where the sharer stands), and the private
 * invitation to connect. Text from people and the service goes in escaped; every preview is
 * valid Block Kit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  connectInvitation,
  type ExpensePreview,
  expensePreview,
  type GroupPreview,
  groupPreview,
  MAX_PREVIEW_LINES,
} from '../../../src/slack/unfurl/views.js';
import { type Voice, voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { blocksText } from '../../support/harness.js';

let en: Voice;
let de: Voice;
let ja: Voice;
beforeAll(async () => {
  en = await voiceFor({ locale: 'en-US', tz: 'America/New_York' });
  de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
  ja = await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' });
});

/** Intl's own spaces (no-break, narrow no-break) made plain, as the tests write them. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value).replace(/[\u00a0\u202f]/g, ' '));

const URL = 'https://secure.splitwise.com/expenses/42';

function dinner(overrides: Partial<ExpensePreview> = {}): ExpensePreview {
  return {
    url: URL,
    id: 42,
    description: 'Dinner',
    cost: 6000,
    currency: 'EUR',
    date: '2026-11-27T19:00:00Z',
    group: 'Lisbon trip',
    deleted: false,
    lines: [
      { who: { slack: 'U0ANN' }, paid: 6000, owed: 2000 },
      { who: { slack: 'U0BOB' }, paid: 0, owed: 2000 },
      { who: { name: 'Cho Park' }, paid: 0, owed: 2000 },
    ],
    ...overrides,
  };
}

function trip(overrides: Partial<GroupPreview> = {}): GroupPreview {
  return {
    url: 'https://secure.splitwise.com/#/groups/7',
    name: 'Lisbon trip',
    members: 4,
    sharer: 'U0ANN',
    balance: [{ currency: 'EUR', minor: 4000 }],
    ...overrides,
  };
}

describe('expensePreview', () => {
  it('says what, how much, when, who paid and who owes whom, in en-US', () => {
    expect(plain(expensePreview(dinner(), en))).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: '*Dinner* · €60.00' } },
      {
        type: 'section',
        fields: [
          { type: 'mrkdwn', text: '*Date*\nFri, Nov 27, 2026' },
          { type: 'mrkdwn', text: '*Paid by*\n<@U0ANN>' },
          { type: 'mrkdwn', text: '*Group*\nLisbon trip' },
        ],
      },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: '• <@U0BOB> owes <@U0ANN> *€20.00*\n• Cho Park owes <@U0ANN> *€20.00*',
        },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Expense #42' }] },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: 'unfurl_open',
            text: { type: 'plain_text', text: 'Open', emoji: true },
            url: URL,
          },
          {
            type: 'button',
            action_id: 'expense_details',
            text: { type: 'plain_text', text: 'Details', emoji: true },
            value: '{"v":1,"e":42}',
          },
        ],
      },
    ]);
  });

  it('speaks German to a de-DE sharer, with German amounts and dates', () => {
    const blocks = plain(expensePreview(dinner(), de));
    expect(blocks[0].text.text).toBe('*Dinner* · 60,00 €');
    expect(blocks[1].fields.map((f: { text: string }) => f.text)).toEqual([
      '*Datum*\nFr., 27. Nov. 2026',
      '*Bezahlt von*\n<@U0ANN>',
      '*Gruppe*\nLisbon trip',
    ]);
    expect(blocks[2].text.text).toBe(
      '• <@U0BOB> schuldet <@U0ANN> *20,00 €*\n• Cho Park schuldet <@U0ANN> *20,00 €*',
    );
    expect(blocks[3].elements[0].text).toBe('Ausgabe #42');
    expect(blocks[4].elements.map((b: { text: { text: string } }) => b.text.text)).toEqual([
      'Öffnen',
      'Details',
    ]);
  });

  it('speaks Japanese to a ja-JP sharer', () => {
    const blocks = plain(expensePreview(dinner({ cost: 1200, currency: 'JPY', lines: [] }), ja));
    expect(blocks[0].text.text).toBe('*Dinner* · ￥1,200');
    expect(blocks[1].fields[1].text).toBe('*支払った人*\nなし');
    expect(blocks[2].text.text).toBe('この支出では誰にも貸し借りはありません。');
    expect(blocks[4].elements[0].text.text).toBe('開く');
  });

  it('gives each payer’s part when several paid, and marks a deleted expense', () => {
    const blocks = plain(
      expensePreview(
        dinner({
          deleted: true,
          group: null,
          lines: [
            { who: { slack: 'U0ANN' }, paid: 4000, owed: 3000 },
            { who: { slack: 'U0BOB' }, paid: 2000, owed: 3000 },
          ],
        }),
        en,
      ),
    );
    expect(blocks[0].text.text).toBe('*Dinner* · €60.00 · deleted');
    expect(blocks[1].fields.map((f: { text: string }) => f.text)).toEqual([
      '*Date*\nFri, Nov 27, 2026',
      '*Paid by*\n<@U0ANN> (€40.00) and <@U0BOB> (€20.00)',
    ]);
    expect(blocks[2].text.text).toBe(
      '• <@U0ANN> paid €40.00 (share: €30.00)\n• <@U0BOB> paid €20.00 (share: €30.00)',
    );
  });

  it('lists a few people and says how many more there are', () => {
    const lines = [
      { who: { slack: 'U0ANN' }, paid: 5000, owed: 100 },
      ...Array.from({ length: 49 }, (_, i) => ({ who: { name: `P${i}` }, paid: 0, owed: 100 })),
    ];
    const owing = plain(expensePreview(dinner({ cost: 5000, lines }), en))[2].text.text as string;
    const rows = owing.split('\n');
    expect(rows).toHaveLength(MAX_PREVIEW_LINES);
    expect(rows.at(-1)).toBe('…and 40 more people');
    const de40 = plain(expensePreview(dinner({ cost: 5000, lines }), de))[2].text.text as string;
    expect(de40.split('\n').at(-1)).toBe('…und 40 weitere Personen');
  });

  it('escapes what people wrote: no ping, no disguised link, no formatting', () => {
    const hostile = '<!channel> <https://evil.test|your bank> *b* _i_ ~s~ `c` & fish';
    const blocks = expensePreview(
      dinner({
        description: hostile,
        group: '<!here> & co',
        lines: [
          { who: { name: '<@U0BOSS>' }, paid: 6000, owed: 3000 },
          { who: { name: '<!everyone>' }, paid: 0, owed: 3000 },
        ],
      }),
      en,
    );
    const text = blocksText(blocks);
    expect(text).not.toMatch(/<!|<@U0BOSS|<https/);
    expect(text).toContain('&lt;!channel&gt; &lt;https://evil.test|your bank&gt;');
    expect(text).toContain('&amp; fish');
    expect(text).toContain('&lt;!here&gt; &amp; co');
    expect(text).toContain('&lt;!everyone&gt; owes &lt;@U0BOSS&gt;');
    // Each formatting character is fenced by zero-width spaces, so none pairs up.
    expect(text).toContain('\u200b*\u200bb\u200b*\u200b');
    expect(blockKitErrors(blocks, 'message')).toEqual([]);
  });

  it('keeps long names within a section, naming as many as fit and counting the rest', () => {
    const ampersands = (i: number) => `${i}${'&'.repeat(200)}`;
    const lines = [
      { who: { name: ampersands(0) }, paid: 500, owed: 100 },
      ...Array.from({ length: 8 }, (_, i) => ({
        who: { name: ampersands(i + 1) },
        paid: 0,
        owed: 50,
      })),
    ];
    const blocks = expensePreview(dinner({ cost: 500, lines }), en);
    expect(blockKitErrors(blocks, 'message')).toEqual([]);
    const rows = plain(blocks)[2].text.text.split('\n') as string[];
    expect(rows.length).toBeLessThan(9);
    expect(rows.at(-1)).toBe(`…and ${9 - rows.length} more people`);
  });

  it('counts the payers when more than three paid, leaving who paid what to the lines', () => {
    const lines = Array.from({ length: 5 }, (_, i) => ({
      who: { slack: `U0P${i}` },
      paid: 1200,
      owed: 1200,
    }));
    const blocks = plain(expensePreview(dinner({ lines }), en));
    expect(blocks[1].fields[1].text).toBe('*Paid by*\n5 people');
    expect(blocks[2].text.text.split('\n')).toHaveLength(5);
    expect(plain(expensePreview(dinner({ lines }), de))[1].fields[1].text).toBe(
      '*Bezahlt von*\n5 Personen',
    );
  });

  it('keeps a long description within Block Kit’s limits', () => {
    const blocks = expensePreview(
      dinner({ description: '&'.repeat(5_000), group: 'g'.repeat(5_000) }),
      en,
    );
    expect(blockKitErrors(blocks, 'message')).toEqual([]);
    expect(blocks[0]).toMatchObject({ text: { text: expect.stringMatching(/^\*(&amp;)+…\*/) } });
  });
});

describe('groupPreview', () => {
  it('names the group, its size and what the sharer is owed, in en-US', () => {
    expect(plain(groupPreview(trip(), en))).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: '*Lisbon trip* · 4 members' } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '<@U0ANN> is owed €40.00 in this group' },
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: 'unfurl_open',
            text: { type: 'plain_text', text: 'Open', emoji: true },
            url: 'https://secure.splitwise.com/#/groups/7',
          },
        ],
      },
    ]);
  });

  it('says what the sharer owes and is owed in several currencies, or that they are settled', () => {
    const mixed = trip({
      members: 1,
      balance: [
        { currency: 'EUR', minor: -1250 },
        { currency: 'USD', minor: 300 },
        { currency: 'GBP', minor: -100 },
      ],
    });
    const blocks = plain(groupPreview(mixed, en));
    expect(blocks[0].text.text).toBe('*Lisbon trip* · 1 member');
    expect(blocks[1].text.text).toBe(
      '<@U0ANN> owes €12.50 and £1.00 in this group\n<@U0ANN> is owed $3.00 in this group',
    );
    expect(plain(groupPreview(trip({ balance: [] }), en))[1].text.text).toBe(
      '<@U0ANN> is settled up in this group',
    );
  });

  it('speaks German to a de-DE sharer', () => {
    const blocks = plain(groupPreview(trip({ balance: [{ currency: 'EUR', minor: -1250 }] }), de));
    expect(blocks[0].text.text).toBe('*Lisbon trip* · 4 Mitglieder');
    expect(blocks[1].text.text).toBe('<@U0ANN> schuldet in dieser Gruppe 12,50 €');
    expect(blocks[2].elements[0].text.text).toBe('Öffnen');
  });

  it('escapes the group’s name', () => {
    const blocks = groupPreview(trip({ name: '<!channel> *party* & <https://x.test|y>' }), en);
    const text = blocksText(blocks);
    expect(text).toContain(
      '&lt;!channel&gt; \u200b*\u200bparty\u200b*\u200b &amp; &lt;https://x.test|y&gt;',
    );
    expect(blockKitErrors(blocks, 'message')).toEqual([]);
  });
});

describe('connectInvitation', () => {
  it('invites the sharer to connect, with the link, in their language', () => {
    const url = 'http://split.test/connect/start?state=abc';
    expect(connectInvitation({ url, reason: 'first_time' }, en)).toBe(
      `Connect your Splitwise account so that links to your expenses show a preview in Slack: <${url}|connect now>. The link works once, for 10 minutes, and only for you.`,
    );
    expect(connectInvitation({ url, reason: 'revoked' }, de)).toBe(
      `Die Verbindung zu deinem Splitwise-Konto funktioniert nicht mehr, deshalb zeigen Links keine Vorschau. <${url}|Erneut verbinden>. Der Link funktioniert einmal, 10 Minuten lang und nur für dich.`,
    );
  });
});
