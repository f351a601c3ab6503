/**
 * `/split help` and the error notices, by value, in every language: help fits one screen (at
 * most 30 lines), each form names people the reader can mention, and Block Kit's limits hold.
 */
import { describe, expect, it } from 'vitest';
import { grammarLanguageOf, HELP_TOPICS, helpFor } from '../../../src/core/command/index.js';
import type { SlackMessage } from '../../../src/slack/kit/message.js';
import { errorNotice, helpMessage } from '../../../src/slack/shared/notices.js';
import { LANGUAGES, voiceFor } from '../../../src/voice/index.js';
import { blockKitErrors } from '../../support/block-kit-limits.js';

/** The lines a person reads: each text of each block, split where it breaks. */
function linesOf(message: SlackMessage): string[] {
  const lines: string[] = [];
  for (const block of message.blocks as unknown as Array<Record<string, unknown>>) {
    const texts: string[] = [];
    const text = block.text as { text?: string } | undefined;
    if (text?.text) texts.push(text.text);
    for (const element of (block.elements as Array<{ text?: string }> | undefined) ?? []) {
      if (element.text) texts.push(element.text);
    }
    for (const t of texts) lines.push(...t.split('\n'));
  }
  return lines;
}

const PEOPLE = ['U0DAN', 'U0EVE', 'U0FAY'];

describe('/split help', () => {
  for (const language of LANGUAGES) {
    it(`fits one screen in ${language}, overview and every topic`, async () => {
      const voice = await voiceFor({ locale: language });
      const overview = helpMessage(voice, { topic: null, asked: 'something else', people: PEOPLE });
      expect(linesOf(overview).length).toBeLessThanOrEqual(30);
      expect(blockKitErrors(overview.blocks, 'message')).toEqual([]);
      const { helpWord, topicWords } = helpFor(grammarLanguageOf(voice.locale));
      for (const topic of HELP_TOPICS) {
        // Each topic asked for with the reader's own words: `/split hilfe zahler`.
        expect(linesOf(overview).join('\n')).toContain(
          `/split ${helpWord} ${topicWords[topic]} — `,
        );
        const detail = helpMessage(voice, { topic, people: PEOPLE });
        expect(linesOf(detail).length, topic).toBeLessThanOrEqual(30);
        expect(blockKitErrors(detail.blocks, 'message')).toEqual([]);
      }
    });
  }

  it('shows the five most used forms, then the topics', async () => {
    const en = await voiceFor({ locale: 'en-US' });
    const lines = linesOf(helpMessage(en, { topic: null, people: PEOPLE }));
    expect(lines.slice(0, 6)).toEqual([
      'Split: what you can type',
      '/split 40 lunch <@U0DAN> — you paid 40 (in your default currency); you and the person share it equally',
      '/split €12,50 taxi <@U0DAN> <@U0EVE> yesterday — a currency symbol or code, before or after; decimal comma or point; a date (yesterday, Nov 3, 2026-11-20)',
      '/split 40 lunch <@U0DAN> 25 <@U0EVE> 15 — unequal parts: amounts, percentages (60%) or shares (2x)',
      '/split balance — what you owe and are owed, per currency',
      '/split — the form, with every option',
    ]);
    expect(lines.slice(6, 10)).toEqual([
      '*Words you can type*',
      '• dates: `today`, `yesterday`, `on friday`, `last friday`, `Nov 3`, `2026-11-20`',
      '• commands: `balance`, `list`, `export`, `remind`, `help`',
      '• to the app in a thread: `split this`, `split it`',
    ]);
    expect(lines[10]).toBe('*More, one topic at a time:*');
    expect(lines[11]).toBe('/split help payers — someone else paid, or several people did');
  });

  it('names people the reader can mention, and with nobody known, no one at all', async () => {
    const en = await voiceFor({ locale: 'en-US' });
    const known = JSON.stringify(helpMessage(en, { topic: 'groups', people: ['U0DAN'] }));
    expect(known).toContain('/split group add <@U0DAN> Roommates');
    expect(known).not.toContain('@ann');
    const nobody = JSON.stringify(helpMessage(en, { topic: 'groups', people: [] }));
    expect(nobody).toContain('/split group add @someone Roommates');
    expect(nobody).toContain('/split group create Roommates @someone @someone-else');
  });

  for (const language of LANGUAGES) {
    it(`in ${language}, names nobody outside the workspace, in any topic`, async () => {
      const voice = await voiceFor({ locale: language });
      for (const topic of [null, ...HELP_TOPICS]) {
        for (const people of [[], ['U0DAN']]) {
          const text = JSON.stringify(helpMessage(voice, { topic, people }));
          expect(text, `${topic}`).not.toMatch(/@(?:ann|bob|cho)\b/);
        }
      }
    });
  }

  it('writes its examples with each language’s own words', async () => {
    const words = async (locale: string) => {
      const voice = await voiceFor({ locale });
      return [null, ...HELP_TOPICS]
        .map((topic) => linesOf(helpMessage(voice, { topic, people: PEOPLE })).join('\n'))
        .join('\n');
    };
    const german = await words('de-DE');
    expect(german).toContain('/split 40 Mittagessen <@U0DAN>');
    expect(german).toContain('/split group create WG <@U0DAN> <@U0EVE>');
    expect(german).toContain('/split 1200 Miete <@U0DAN> monatlich');
    expect(german).toContain('/split liste über "Pizzaabend"');
    expect(german).not.toMatch(/\b(?:lunch|dinner|Roommates|rent|coffee)\b/);
    const french = await words('fr-FR');
    expect(french).toContain('/split solde Coloc');
    expect(french).toContain('/split 60 dîner <@U0DAN>');
    expect(french).not.toMatch(/\b(?:lunch|dinner|Roommates)\b/);
    expect(await words('es-ES')).toContain('/split 7 € cada uno café <@U0DAN> <@U0EVE>');
    expect(await words('pt-BR')).toContain('/split 30 faxina <@U0DAN> a cada duas semanas');
    expect(await words('ja-JP')).toContain('/split 40 ランチ <@U0DAN>');
  });

  it('speaks German and Japanese', async () => {
    const de = await voiceFor({ locale: 'de-DE' });
    const ja = await voiceFor({ locale: 'ja-JP' });
    const german = linesOf(helpMessage(de, { topic: 'payers', people: PEOPLE }));
    expect(german[0]).toBe('Wer bezahlt hat');
    expect(german[1]).toBe(
      '/split 40 Mittagessen <@U0DAN> bezahlt von <@U0EVE> — jemand anderes hat bezahlt; diese Person teilt auch',
    );
    const japanese = linesOf(helpMessage(ja, { topic: null, asked: '*x*' }));
    expect(japanese[0]).toBe('Split: 入力できること');
    expect(japanese[1]).toBe(
      '「\u200b*\u200bx\u200b*\u200b」についてのヘルプはありません。トピックは下にあります。',
    );
  });
});

describe('/split help teaches the words of the reader’s language', () => {
  for (const language of LANGUAGES) {
    it(`lists every word of ${language}, each topic's under its topic`, async () => {
      const voice = await voiceFor({ locale: language });
      const help = helpFor(grammarLanguageOf(voice.locale));
      for (const topic of [null, ...HELP_TOPICS]) {
        const shown = linesOf(helpMessage(voice, { topic, people: PEOPLE })).join('\n');
        for (const { words } of help.words[topic ?? 'overview']) {
          for (const word of words) expect(shown, `${topic}: ${word}`).toContain(`\`${word}\``);
        }
      }
    });
  }

  it('shows German words under German labels, and English prose no more', async () => {
    const de = await voiceFor({ locale: 'de-DE' });
    const recurring = linesOf(helpMessage(de, { topic: 'recurring', people: PEOPLE }));
    expect(recurring).toContain('*Wörter auf Deutsch (die englischen gehen auch)*');
    expect(recurring).toContain('• monatlich: `monatlich`, `jeden Monat`');
    expect(recurring[1]).toBe(
      '/split 1200 Miete <@U0DAN> monatlich — wiederholt: wöchentlich, alle zwei Wochen, monatlich oder jährlich (auch `jeden Monat`)',
    );
    const overview = linesOf(helpMessage(de, { topic: null, people: PEOPLE }));
    expect(overview).toContain(
      '• Datum: `heute`, `gestern`, `am Freitag`, `letzten Freitag`, `am 3.12.`, `3. Dezember`',
    );
    expect(overview).toContain(
      '/split hilfe wiederholen — Miete und andere Ausgaben, die wiederkommen',
    );
  });

  it('gives Japanese readers the English words, under Japanese labels', async () => {
    const ja = await voiceFor({ locale: 'ja-JP' });
    const overview = linesOf(helpMessage(ja, { topic: null }));
    expect(overview).toContain('*入力できる言葉（英語）*');
    expect(overview).toContain(
      '• 日付: `today`, `yesterday`, `on friday`, `last friday`, `Nov 3`, `2026-11-20`',
    );
    expect(overview).toContain('/split help recurring — 家賃など毎回発生する経費');
  });

  it('writes French typography between a label and its words', async () => {
    const fr = await voiceFor({ locale: 'fr-FR' });
    const payers = linesOf(helpMessage(fr, { topic: 'payers' }));
    expect(payers).toContain('• moi\u202f: `moi`');
  });
});

describe('an error notice', () => {
  it('gives the form with people the reader can mention, in their language', async () => {
    const de = await voiceFor({ locale: 'de-DE' });
    const m = errorNotice(de, 'Wer hat geteilt?', '/split 40 lunch @ann', ['U0DAN']);
    expect(m.text).toBe('Wer hat geteilt? Zum Beispiel: /split 40 Mittagessen <@U0DAN>');
    expect(linesOf(m)).toEqual([
      ':warning: Wer hat geteilt?',
      'Zum Beispiel: /split 40 Mittagessen <@U0DAN>',
      '`/split hilfe` zeigt die häufigsten Befehle und zu allem anderen ein Thema.',
    ]);
    const ja = await voiceFor({ locale: 'ja-JP' });
    expect(errorNotice(ja, '金額が 0 です。', '/split 40 lunch @ann').text).toBe(
      '金額が 0 です。 例: /split 40 ランチ @だれか',
    );
  });
});
