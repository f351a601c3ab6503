/** The list's page, by value: its buttons, its footer and an empty page. */
import { describe, expect, it } from 'vitest';
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
