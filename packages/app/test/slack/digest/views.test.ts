import { describe, expect, it } from 'vitest';
import { type FriendInput, summarizeBalances } from '../../../src/core/balances.js';
import {
  digestMessage,
  digestRevokedMessage,
  parseSettleUpValue,
} from '../../../src/slack/digest/views.js';
import { DIGEST_ACTION_IDS } from '../../../src/slack/ids.js';
import { LIMITS } from '../../../src/slack/kit/limits.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { HOSTILE, mrkdwnTexts, rawIn, spaced, voices } from '../../support/voice-support.js';

const en = voices.en;

const friend = (id: number, name: string, amount: string, currency = 'USD'): FriendInput => ({
  id,
  first_name: name,
  last_name: null,
  balance: [{ currency_code: currency, amount }],
  groups: [],
});

const base = { day: '2026-11-21', groups: [], changes: [], first: true };

describe('daily DM view', () => {
  it('renders totals, a Settle up row per debt and the Pause button', () => {
    const summary = summarizeBalances([
      friend(1, 'Ann', '20.00'),
      friend(2, 'Ben', '-5.50', 'EUR'),
    ]);
    const message = digestMessage({ ...base, summary }, en);
    expect(message.text).toBe(
      'Your balances for Saturday, November 21: you owe €5.50 and you are owed $20.00.',
    );
    expect(message.blocks).toEqual([
      {
        type: 'header',
        text: { type: 'plain_text', text: 'Your balances, Saturday, November 21' },
      },
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: '• *EUR*: you owe *€5.50*\n• *USD*: you are owed *$20.00*',
        },
      },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: 'You owe *Ben* *€5.50*' },
        accessory: {
          type: 'button',
          action_id: DIGEST_ACTION_IDS.settleUp,
          text: { type: 'plain_text', text: 'Settle up' },
          value: '{"friend_id":2,"currency":"EUR"}',
        },
      },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*Ann* owes you *$20.00*' },
        accessory: {
          type: 'button',
          action_id: DIGEST_ACTION_IDS.settleUp,
          text: { type: 'plain_text', text: 'Settle up' },
          value: '{"friend_id":1,"currency":"USD"}',
        },
      },
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
            text: 'You get this because you turned on the daily balance DM. Change its hour or turn it off in App Home.',
          },
        ],
      },
    ]);
  });

  it('says what changed since the last DM, and escapes names', () => {
    const summary = summarizeBalances([friend(1, 'Ann <3', '25.00')]);
    const message = digestMessage(
      {
        ...base,
        first: false,
        summary,
        changes: [
          { name: 'Ann <3', currency: 'USD', before: 2000, after: 2500 },
          { name: 'Ben', currency: 'EUR', before: -550, after: 0 },
          { name: 'Cat', currency: 'USD', before: 0, after: -100 },
        ],
      },
      en,
    );
    expect(message.blocks[2]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*Since your last DM:*\n• *Ann &lt;3*: owes you $25.00 (was: owes you $20.00)\n• *Ben*: settled up (was: you owe €5.50)\n• *Cat*: new, you owe $1.00',
      },
    });
  });

  it('keeps 200 friends within 50 blocks, 3000 characters a section, 13,000 in all, and Slack’s checks', () => {
    const many = Array.from({ length: 200 }, (_, i) =>
      friend(i + 1, `Friend ${'x'.repeat(60)} ${i}`, i % 2 ? '1.00' : '-1.00'),
    );
    const message = digestMessage(
      {
        ...base,
        first: false,
        summary: summarizeBalances(many),
        changes: many.map((f, i) => ({
          name: `${f.first_name}`,
          currency: 'USD',
          before: 0,
          after: i % 2 ? 100 : -100,
        })),
        groups: many.map((f) => ({
          name: f.first_name,
          balance: [{ currency: 'USD', amount: 5 }],
        })),
      },
      en,
    );
    expect(message.blocks.length).toBeLessThanOrEqual(LIMITS.messageBlocks);
    // 20 debt rows and a note for the other 180.
    expect(message.blocks.filter((b) => 'accessory' in b && b.accessory)).toHaveLength(20);
    for (const block of message.blocks) {
      const text = block.type === 'section' ? (block.text?.text ?? '') : '';
      expect(text.length).toBeLessThanOrEqual(LIMITS.sectionText);
    }
    expect(JSON.stringify(message.blocks)).toContain(
      '…and 180 more. `/split balance` shows every debt.',
    );
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
    expect(JSON.stringify(message.blocks).length).toBeLessThan(13_000);
  });

  it('says "all settled up" when nothing is owed', () => {
    const message = digestMessage({ ...base, summary: summarizeBalances([]) }, en);
    expect(message.text).toBe('Your balances for Saturday, November 21: all settled up.');
    expect(message.blocks[1]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: 'You are all settled up: nobody owes you and you owe nobody.',
      },
    });
  });

  it('reads back only the Settle up values it made', () => {
    expect(parseSettleUpValue('{"friend_id":7,"currency":"JPY"}')).toEqual({
      friend_id: 7,
      currency: 'JPY',
    });
    expect(parseSettleUpValue('7-JPY')).toBeUndefined();
    expect(parseSettleUpValue('{"friend_id":-1,"currency":"JPY"}')).toBeUndefined();
    expect(parseSettleUpValue(undefined)).toBeUndefined();
  });

  it('tells a person whose token was revoked how to reconnect', () => {
    const message = digestRevokedMessage(en);
    expect(message.text).toContain('/split connect');
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
  });
});

describe('the daily DM in its reader’s voice', () => {
  const summary = summarizeBalances([
    friend(1, 'Ann', '1234.50', 'EUR'),
    friend(2, 'Ben', '-5.50', 'USD'),
  ]);
  const changes = [{ name: 'Ann', currency: 'EUR', before: 100000, after: 123450 }];

  it('is German, with German amounts and days, for a de-DE reader', () => {
    const message = digestMessage({ ...base, first: false, summary, changes }, voices.de);
    const text = spaced(`${message.text}\n${JSON.stringify(message.blocks)}`);
    expect(spaced(message.text)).toBe(
      'Deine Salden für Samstag, 21. November: du bekommst 1.234,50 € und du schuldest 5,50 $.',
    );
    expect(text).toContain('Deine Salden, Samstag, 21. November');
    expect(text).toContain('*Ann* schuldet dir *1.234,50 €*');
    expect(text).toContain('Du schuldest *Ben* *5,50 $*');
    expect(text).toContain('• *Ann*: schuldet dir 1.234,50 € (vorher: schuldet dir 1.000,00 €)');
    expect(text).toContain('Tägliche DM pausieren');
    expect(text).toContain('"text":"Ausgleichen"');
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
  });

  it('is Japanese, with Japanese amounts and days, for a ja-JP reader', () => {
    const message = digestMessage({ ...base, first: false, summary, changes }, voices.ja);
    const text = spaced(JSON.stringify(message.blocks));
    expect(text).toContain('11月21日土曜日のあなたの残高');
    expect(text).toContain('*Ann* はあなたに *€1,234.50* を借りています');
    expect(text).toContain('毎日のDMを一時停止');
    expect(spaced(digestRevokedMessage(voices.ja).text)).toContain('/split connect');
  });

  it('escapes what people typed, in the blocks and in the notification', () => {
    const message = digestMessage(
      {
        ...base,
        first: false,
        summary: summarizeBalances([friend(1, HOSTILE, '5.00')]),
        changes: [{ name: HOSTILE, currency: 'USD', before: 0, after: 500 }],
        groups: [{ name: HOSTILE, balance: [{ currency: 'USD', amount: 500 }] }],
      },
      voices.de,
    );
    expect(rawIn([...mrkdwnTexts(message.blocks), message.text])).toEqual([]);
  });
});
