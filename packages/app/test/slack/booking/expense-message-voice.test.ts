/**
 * The expense message and what replaces it, in the voice of the person who booked it: German and
 * Japanese words with their amounts and dates; and whatever a description, a name or a group
 * holds, shown as typed in every field and in the fallback text, and never read as markup.
 */
import { describe, expect, it } from 'vitest';
import {
  type BookedExpense,
  deletedMessage,
  expenseHeader,
  expenseMessage,
  headerOf,
  undoneMessage,
} from '../../../src/slack/booking/expense-message.js';
import { forgottenText, keptLines } from '../../../src/slack/linking/kept.js';
import { breakdownText, splitBreakdown } from '../../../src/slack/shared/breakdown.js';
import { voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import { blocksText } from '../../support/harness.js';
import {
  expectInert,
  mrkdwnTexts,
  plainTexts,
  seen,
  typedTexts,
} from '../../support/typed-text.js';

const en = await voiceFor({ locale: 'en-US', tz: 'America/New_York' });
const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
const ja = await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' });

/** Intl writes no-break spaces ("40,00 €"): compared as spaces. */
const nb = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

const lunch: BookedExpense = {
  id: 1234,
  description: 'Mittagessen',
  cost: 4000,
  currency: 'EUR',
  date: '2026-11-20',
  payer: { slack: 'U0ANN' },
  lines: [
    { who: { slack: 'U0ANN' }, paid: 4000, owed: 2000 },
    { who: { slack: 'U0BOB' }, paid: 0, owed: 2000 },
  ],
  group: 'WG',
  split: 'equal',
  bookedBy: 'U0ANN',
  repeat: 'monthly',
};

describe('the expense message in the booker’s voice', () => {
  it('is German, with German amounts and dates, for a German booker', () => {
    const m = expenseMessage(lunch, de);
    expect(nb(m.text)).toBe(
      '<@U0ANN> hat 40,00 € für Mittagessen bezahlt: <@U0BOB> schuldet 20,00 € (in WG) · wiederholt sich monatlich',
    );
    expect(nb(headerOf(m.blocks))).toBe('Mittagessen · 40,00 €');
    const text = nb(blocksText(m.blocks));
    expect(text).toContain('*Betrag*\n40,00 €');
    expect(text).toContain('*Datum*\nFr., 20. Nov. 2026');
    expect(text).toContain('*Aufteilung*\nzu gleichen Teilen');
    expect(text).toContain('• <@U0BOB> schuldet <@U0ANN> *20,00 €*');
    expect(text).toContain('Gebucht von <@U0ANN> · Ausgabe #1234');
    expect(plainTexts(m.blocks)).toEqual(
      expect.arrayContaining([
        'Rückgängig',
        'Bearbeiten',
        'Löschen',
        'Kommentieren',
        'Details',
        'Duplizieren',
        'Ausgabe löschen?',
      ]),
    );
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
  });

  it('is Japanese, with yen and Japanese dates, for a Japanese booker', () => {
    const m = expenseMessage(
      { ...lunch, description: 'ランチ', currency: 'JPY', cost: 1200, lines: [] },
      ja,
    );
    expect(m.blocks[0]).toMatchObject({ text: { text: 'ランチ · ￥1,200' } });
    const text = blocksText(m.blocks);
    expect(text).toContain('*金額*\n￥1,200');
    expect(text).toContain('*日付*\n2026年11月20日(金)');
    expect(text).toContain('この経費で支払いが必要な人はいません。');
    expect(plainTexts(m.blocks)).toEqual(expect.arrayContaining(['取り消す', '編集', '削除']));
    expect(blockKitErrors(m.blocks, 'message')).toEqual([]);
  });

  it('keeps its words when deleted or undone, and reads the same header back', () => {
    const header = headerOf(expenseMessage(lunch, de).blocks);
    expect(header).toBe(expenseHeader(lunch, de));
    const deleted = deletedMessage({ expenseId: 1234, deletedBy: 'U0BOB', what: header }, de);
    expect(nb(deleted.text)).toBe('Gelöscht von <@U0BOB>: Mittagessen · 40,00 €');
    expect(blocksText(deleted.blocks)).toContain(
      ':wastebasket: Gelöscht von <@U0BOB> · Ausgabe #1234',
    );
    expect(plainTexts(deleted.blocks)).toContain('Wiederherstellen');
    const undone = undoneMessage({ expenseId: 1234, undoneBy: 'U0ANN', what: '' }, ja);
    expect(undone.text).toBe('<@U0ANN> が取り消しました: 経費 #1234');
    expect(blockKitErrors(deleted.blocks, 'message')).toEqual([]);
    expect(blockKitErrors(undone.blocks, 'message')).toEqual([]);
  });

  it("writes an itemised bill's breakdown in the booker's words, and finds it in any language", async () => {
    const summary = {
      subtotal: 8000,
      tip: { basisPoints: 1500, minor: 1200 },
      tax: { basisPoints: 800, minor: 640 },
      total: 9840,
    };
    expect(breakdownText(summary, 'USD', en)).toBe(
      'Subtotal $80.00 + tip 15% $12.00 + tax 8% $6.40 = total $98.40',
    );
    const german = breakdownText(summary, 'EUR', de);
    expect(nb(german)).toBe(
      'Zwischensumme 80,00 € + Trinkgeld 15 % 12,00 € + Steuer 8 % 6,40 € = Gesamt 98,40 €',
    );
    for (const line of [german, breakdownText(summary, 'JPY', ja)]) {
      expect(await splitBreakdown(`Mine\n\n${line}`)).toEqual({ notes: 'Mine', breakdown: line });
    }
    expect(await splitBreakdown('a + b = total c')).toEqual({ notes: 'a + b = total c' });
  });
});

describe('what a person or the service wrote, in the expense message', () => {
  it('shows a description, a name and a group as typed, and never as markup', () => {
    for (const [i, typed] of typedTexts(7, 150).entries()) {
      const voice = [en, de, ja][i % 3]!;
      const e: BookedExpense = {
        ...lunch,
        description: typed,
        group: typed,
        payer: { name: typed },
        lines: [
          { who: { name: typed }, paid: 4000, owed: 1000 },
          { who: { slack: 'U0BOB' }, paid: 0, owed: 3000 },
        ],
      };
      const m = expenseMessage(e, voice);
      // The header is plain text: the description exactly as typed.
      expect((m.blocks[0] as { text: { text: string } }).text.text).toBe(expenseHeader(e, voice));
      expect(expenseHeader(e, voice).startsWith(typed)).toBe(true);
      // In mrkdwn (the facts, the lines, the confirm dialogs, the fallback) escaped and fenced.
      for (const text of [...mrkdwnTexts(m.blocks), m.text]) {
        expect(text.replace(/<@U0[A-Z]+>/g, '')).not.toMatch(/[<>]/);
      }
      expectInert(m.text, typed);
      expect(seen(m.text)).toContain(typed);
      const group = mrkdwnTexts(m.blocks).find((t) =>
        t.startsWith(`*${voice.t('expense.group')}*`),
      );
      expectInert(group ?? '', typed);
      const confirm = mrkdwnTexts(m.blocks).find((t) => t.includes(voice.money(4000, 'EUR')));
      expect(confirm).toBeDefined();
      expect(blockKitErrors(m.blocks, 'message')).toEqual([]);

      const deleted = deletedMessage({ expenseId: 1, deletedBy: 'U0BOB', what: typed }, voice);
      const undone = undoneMessage({ expenseId: 1, undoneBy: 'U0ANN', what: typed }, voice);
      for (const msg of [deleted, undone]) {
        expectInert(msg.text, typed);
        for (const text of mrkdwnTexts(msg.blocks)) {
          expect(text.replace(/<@U0[A-Z]+>/g, '')).not.toMatch(/[<>]/);
        }
        expectInert(mrkdwnTexts(msg.blocks)[0]!, typed);
      }
    }
  });
});

describe('what the app keeps, in the reader’s words', () => {
  const kept = {
    token: true,
    preferences: true,
    digest: { snapshot: false },
    lastBooked: false,
    drafts: 2,
    linkStates: 1,
  };

  it('lists and removes it in German and Japanese', () => {
    expect(keptLines(kept, de)).toEqual([
      'die Verbindung zu deinem Splitwise-Konto (verschlüsselt)',
      'deine Standardgruppe',
      'die Einstellungen deiner täglichen Saldo-DM',
      '2 unfertige Ausgabenformulare',
      '1 Verbindungslink',
    ]);
    expect(forgottenText(kept, ja)).toContain('連携を解除しました。');
    expect(
      forgottenText(
        { ...kept, token: false, preferences: false, digest: null, drafts: 0, linkStates: 0 },
        en,
      ),
    ).toBe(
      "You weren't connected, and I held nothing else about you. /split connect connects your Splitwise account.",
    );
  });
});
