/** The list's page, by value: its buttons, its footer and an empty page. */
import { describe, expect, it } from 'vitest';
import { groupCurrencyNote } from '../../../src/slack/booking/currency.js';
import { describeQuery } from '../../../src/slack/split/expense-query.js';
import { expenseListMessage } from '../../../src/slack/split/list-view.js';
import { voiceFor } from '../../../src/voice/index.js';

const en = await voiceFor({ locale: 'en-US' });

const item = {
  id: 7,
  description: 'Taxi',
  cost: 1250,
  currency: 'EUR',
  date: '2026-11-20',
  paidBy: 'you',
  myShare: 625,
  group: null,
};

describe('expenseListMessage', () => {
  it('ends with Older and Export on a first page that has more', () => {
    const m = expenseListMessage(en, {
      filters: 'about “taxi”',
      items: [item],
      page: 1,
      buttons: { next: 'N', export: 'E' },
    });
    expect(m.blocks.at(-2)).toEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'Page 1, newest first.' }],
    });
    expect(m.blocks.at(-1)).toEqual({
      type: 'actions',
      block_id: 'list_actions',
      elements: [
        {
          type: 'button',
          action_id: 'list_next',
          text: { type: 'plain_text', text: 'Older →' },
          value: 'N',
        },
        {
          type: 'button',
          action_id: 'list_export',
          text: { type: 'plain_text', text: 'Export CSV' },
          value: 'E',
        },
      ],
    });
  });

  it('says a last page is the last, and tells what the note says', () => {
    const m = expenseListMessage(en, {
      filters: '',
      items: [item],
      page: 3,
      buttons: { previous: 'P', export: 'E' },
      note: 'I read 500 expenses.',
    });
    expect(m.blocks.at(-2)).toEqual({
      type: 'context',
      elements: [
        { type: 'mrkdwn', text: 'Page 3, newest first; no older ones. I read 500 expenses.' },
      ],
    });
  });

  it('shows an empty later page with Newer and no Export', () => {
    const m = expenseListMessage(en, {
      filters: '',
      items: [],
      page: 2,
      buttons: { previous: 'P', export: 'E' },
    });
    expect(m.blocks).toEqual([
      {
        type: 'section',
        text: { type: 'mrkdwn', text: '*Your recent expenses*: no older ones found.' },
      },
      {
        type: 'actions',
        block_id: 'list_actions',
        elements: [
          {
            type: 'button',
            action_id: 'list_previous',
            text: { type: 'plain_text', text: '← Newer' },
            value: 'P',
          },
        ],
      },
    ]);
  });
});

describe('expenseListMessage for a reader of another language', () => {
  const hostile = {
    ...item,
    description: '<!channel> *Taxi* & <https://x.example|y>',
    paidBy: 'Bob',
    group: 'Trip <b> _x_',
  };

  it('writes amounts, dates and words the German way, and what people wrote as written', async () => {
    const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
    const m = expenseListMessage(de, {
      filters: 'mit <@U0BOB>',
      items: [hostile],
      page: 1,
      buttons: { export: 'E' },
    });
    const text = JSON.stringify(m.blocks);
    expect(text).toContain('"text":"Ausgaben"');
    expect(text).toContain('Ausgaben mit <@U0BOB>');
    expect(text).toContain('12,50\u00a0€ · Fr., 20. Nov. 2026');
    expect(text).toContain('bezahlt von Bob · dein Anteil 6,25\u00a0€');
    expect(text).toContain('CSV exportieren');
    for (const shown of [text, m.text]) {
      expect(shown).not.toMatch(/<!channel>|<https|<b>|\*Taxi\*/);
    }
    expect(m.text).toBe('Ausgaben mit <@U0BOB>: 1 Ausgabe');
  });

  it('speaks Japanese', async () => {
    const ja = await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' });
    const m = expenseListMessage(ja, {
      filters: '',
      items: [],
      page: 2,
      buttons: { previous: 'P' },
    });
    expect(m.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: '*最近の経費*: これより古いものは見つかりませんでした。' },
    });
    expect(JSON.stringify(m.blocks)).toContain('← 新しい');
  });
});

describe('what was asked for, and the group currency’s line', () => {
  it('escapes the words, the group and the group’s name, in the reader’s language', async () => {
    const de = await voiceFor({ locale: 'de-DE' });
    const asked = describeQuery(
      {
        group: { id: 7, name: '<!channel> & *Tom*' },
        people: [],
        mentions: ['U0BOB'],
        range: { from: '2026-10-01', to: null },
        words: ['<https://x.example|y>'],
      },
      de,
    );
    expect(asked).toBe(
      'mit <@U0BOB>, in &lt;!channel&gt; &amp; \u200b*\u200bTom\u200b*\u200b, zu „&lt;https://x.example|y&gt;“, seit Do., 1. Okt. 2026',
    );
    const note = groupCurrencyNote(de, { code: 'EUR', reason: 'saved' }, '<!here> *x*');
    expect(note).toBe(
      'In EUR, der für *&lt;!here&gt; \u200b*\u200bx\u200b*\u200b* gespeicherten Währung. Schreib eine andere Währung zum Betrag, um das zu ändern.',
    );
  });
});
