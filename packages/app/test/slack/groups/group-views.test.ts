/**
 * The group views by value, in the reader's voice: the list, the delete confirmation and the
 * notices, in English, German and Japanese, with group names from the service escaped wherever
 * they appear (fallback text included) and passed as they are into plain_text fields.
 */
import { describe, expect, it } from 'vitest';
import { deleteGroupConfirm, groupError, groupsMessage } from '../../../src/slack/groups/views.js';
import { voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { blocksText } from '../../support/harness.js';

const en = await voiceFor({ locale: 'en-US', tz: 'UTC' });
const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
const ja = await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' });

const HOSTILE = '<!channel> *Tom* & <https://evil.example|Jerry>';

const groups = [
  { id: 1, name: 'Roommates', members: 1, balance: [] },
  { id: 2, name: HOSTILE, members: 3, balance: [] },
];

describe('the list of groups', () => {
  it('counts members in each language, and marks the channel’s group', () => {
    expect(blocksText(groupsMessage(en, { groups, boundId: 1 }).blocks)).toContain(
      "• *Roommates* (1 member): settled up · _this channel's expenses go to it_",
    );
    const german = groupsMessage(de, { groups, boundId: 1 });
    expect(blocksText(german.blocks)).toContain('Deine Gruppen');
    expect(blocksText(german.blocks)).toContain(
      '• *Roommates* (1 Mitglied): ausgeglichen · _die Ausgaben dieses Channels gehen hierher_',
    );
    const owing = [
      { id: 1, name: 'WG', members: 2, balance: [{ currency: 'EUR', amount: 1250 }] },
      { id: 2, name: 'Reise', members: 2, balance: [{ currency: 'USD', amount: -500 }] },
    ];
    expect(blocksText(groupsMessage(de, { groups: owing }).blocks)).toContain(
      '• *WG* (2 Mitglieder): du bekommst 12,50\u00a0€\n• *Reise* (2 Mitglieder): du schuldest 5,00\u00a0$',
    );
    expect(blocksText(groupsMessage(ja, { groups }).blocks)).toContain('（メンバー 3 人）');
    expect(groupsMessage(de, { groups: [] }).text).toBe('Du bist noch in keiner Gruppe.');
  });

  it('escapes group names in the fallback text and the blocks', () => {
    const message = groupsMessage(en, { groups });
    expect(message.text).toBe(
      'Your groups: Roommates and &lt;!channel&gt; \u200b*\u200bTom\u200b*\u200b &amp; &lt;https://evil.example|Jerry&gt;',
    );
    expect(`${message.text} ${JSON.stringify(message.blocks)}`).not.toMatch(/<!|<https?:/);
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
  });
});

describe('the delete confirmation', () => {
  it('asks in German, escaping the name in mrkdwn and keeping the buttons plain', () => {
    const message = deleteGroupConfirm(de, { g: 4, n: HOSTILE });
    expect(message.text).toBe(
      'Die Gruppe &lt;!channel&gt; \u200b*\u200bTom\u200b*\u200b &amp; &lt;https://evil.example|Jerry&gt; löschen?',
    );
    const json = JSON.stringify(message.blocks);
    // The button's value carries the name as typed, for the click; Slack shows no value.
    expect(json.replace(/"value":"(?:[^"\\]|\\.)*"/, '')).not.toMatch(/<!|<https?:/);
    expect(json).toContain('"text":"Gruppe löschen"');
    expect(json).toContain('"confirm":{"type":"plain_text","text":"Löschen"}');
    expect(json).toContain('"deny":{"type":"plain_text","text":"Behalten"}');
    expect(blockKitErrors(message.blocks, 'message')).toEqual([]);
  });

  it('asks in Japanese', () => {
    expect(deleteGroupConfirm(ja, { g: 4, n: 'Flat' }).text).toBe('グループ Flat を削除しますか？');
  });
});

describe('a refusal', () => {
  it('shows the example as typed, escaped in a code span', () => {
    const message = groupError(en, 'No.', '/split group add @ann <b>&');
    expect(message.text).toBe(':warning: No.\nFor example: `/split group add @ann &lt;b&gt;&amp;`');
  });
});
