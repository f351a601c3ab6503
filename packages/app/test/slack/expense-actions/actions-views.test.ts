/**
 * What the buttons on an expense show, by value, in the voice of the person who clicked: Details
 * and the Comment form in German and Japanese, and every text a person or the service wrote in
 * them (description, notes, comments, names, category, group) shown as typed, never as markup.
 */
import { describe, expect, it } from 'vitest';
import type { BookedExpense } from '../../../src/slack/booking/expense-message.js';
import { commentFormView } from '../../../src/slack/expense-actions/comment-view.js';
import { expenseDetailsMessage } from '../../../src/slack/expense-actions/details-view.js';
import { voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors, viewErrors } from '../../support/block-kit-limits.js';
import { blocksText } from '../../support/harness.js';
import { expectInert, mrkdwnTexts, plainTexts, typedTexts } from '../../support/typed-text.js';

const en = await voiceFor({ locale: 'en-US', tz: 'UTC' });
const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
const ja = await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' });
const nb = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

const dinner: BookedExpense = {
  id: 7,
  description: 'Abendessen',
  cost: 6000,
  currency: 'EUR',
  date: '2026-11-20',
  payer: { slack: 'U0ANN' },
  lines: [
    { who: { slack: 'U0ANN' }, paid: 6000, owed: 3000 },
    { who: { name: 'Zoë' }, paid: 0, owed: 3000 },
  ],
  group: 'WG',
  split: 'equal',
  bookedBy: 'U0ANN',
};

function details(e: BookedExpense, more: { notes?: string; comment?: string; author?: string }) {
  return {
    expense: e,
    category: 'Essen',
    notes: more.notes ?? null,
    repeat: 'weekly' as const,
    receiptUrl: 'https://files.example/r.png',
    deleted: true,
    comments: [
      {
        author: more.author ?? 'Bob',
        at: '2026-11-20T22:30:00Z',
        content: more.comment ?? 'Danke!',
        system: false,
      },
      { author: '', at: '2026-11-21T08:00:00Z', content: 'Betrag geändert', system: true },
    ],
  };
}

describe('Details, in the voice of whoever asked', () => {
  it('is German, with amounts, dates and comment times written the German way', () => {
    const m = expenseDetailsMessage(details(dinner, { notes: 'Mit Nachtisch' }), de);
    expect(nb(plainTexts(m.blocks)[0]!)).toBe('(gelöscht) Abendessen · 60,00 €');
    const text = nb(blocksText(m.blocks));
    expect(text).toContain('*Betrag*\n60,00 €');
    expect(text).toContain('*Datum*\nFr., 20. Nov. 2026');
    expect(text).toContain('*Kategorie*\nEssen');
    expect(text).toContain('*Wiederholung*\nwöchentlich');
    expect(text).toContain('• Zoë: schuldet 30,00 €');
    expect(text).toContain('• <@U0ANN>: schuldet 30,00 €, hat 60,00 € bezahlt');
    expect(text).toContain('*Notizen*\nMit Nachtisch');
    expect(text).toContain(':receipt: <https://files.example/r.png|Beleg>');
    expect(text).toContain('*Kommentare* (2)');
    // 22:30 UTC is 23:30 in Berlin: the time is the reader's.
    expect(text).toContain('*Bob* · 20. Nov. 2026, 23:30\nDanke!');
    expect(text).toContain('_Änderung_ · 21. Nov. 2026, 9:00\nBetrag geändert');
    expect(nb(m.text)).toBe('Abendessen: 60,00 €, bezahlt von <@U0ANN>');
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
  });

  it('is Japanese for a Japanese reader', () => {
    const m = expenseDetailsMessage({ ...details(dinner, {}), deleted: false, comments: [] }, ja);
    const text = blocksText(m.blocks);
    expect(text).toContain('*金額*\n€60.00');
    expect(text).toContain('コメントはまだありません。');
    expect(text).toContain('• Zoë: 負担 €30.00');
  });
});

describe('the Comment form, in the voice of whoever opens it', () => {
  it('is German and Japanese', () => {
    const view = commentFormView(
      { meta: '{"v":1,"e":7}', description: 'Abendessen · 60,00 €' },
      de,
    );
    expect(plainTexts(view)).toEqual(
      expect.arrayContaining(['Kommentar', 'Senden', 'Abbrechen', 'Dein Kommentar']),
    );
    expect(mrkdwnTexts(view.blocks)).toEqual(['Zu „Abendessen · 60,00 €“']);
    expect(viewErrors(view)).toEqual([]);
    expect(plainTexts(commentFormView({ meta: '{}', description: 'x' }, ja))).toContain('投稿');
  });
});

describe('what a person or the service wrote, in Details and the Comment form', () => {
  it('is shown as typed and never read as markup', () => {
    for (const [i, typed] of typedTexts(11, 150, true).entries()) {
      const voice = [en, de, ja][i % 3]!;
      const oneLine = typed.replace(/\n/g, ' ');
      const e: BookedExpense = {
        ...dinner,
        description: oneLine,
        group: oneLine,
        lines: [{ who: { name: oneLine }, paid: 6000, owed: 6000 }],
        payer: { name: oneLine },
      };
      const m = expenseDetailsMessage(
        { ...details(e, { notes: typed, comment: typed, author: oneLine }), category: oneLine },
        voice,
      );
      expect(plainTexts(m.blocks)[0]).toContain(oneLine);
      for (const text of [...mrkdwnTexts(m.blocks), m.text]) {
        expect(text.replace(/<https:\/\/files\.example\/r\.png\|[^>]*>/, '')).not.toMatch(/[<>]/);
      }
      expectInert(m.text, oneLine);
      const texts = mrkdwnTexts(m.blocks).join('\n');
      expectInert(texts, typed);
      expectInert(texts, oneLine);
      expect(blockKitErrors(m.blocks, 'message')).toEqual([]);

      const view = commentFormView({ meta: '{}', description: oneLine }, voice);
      expectInert(mrkdwnTexts(view.blocks)[0]!, oneLine);
    }
  });
});
