/**
 * `/split` in the person's language, end to end: a German and a Japanese reader get the parser's
 * refusals, the help, the list and the CSV export in their language, with amounts and dates
 * written their way, and every form names someone they can mention.
 */
import { call, type Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockKitErrors } from '../../support/block-kit-limits.js';
import {
  blocksText,
  type Harness,
  type LinkedPerson,
  startHarness,
} from '../../support/harness.js';

let h: Harness;
let dora: LinkedPerson;
let bob: LinkedPerson;

beforeAll(async () => {
  h = await startHarness();
  dora = await h.link({
    slackId: 'U0DORA',
    first_name: 'Dora',
    default_currency: 'EUR',
    locale: 'de-DE',
    tz: 'Europe/Berlin',
  });
  bob = await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  await h.link({ slackId: 'U0KEN', first_name: 'Ken', default_currency: 'JPY', locale: 'ja-JP' });
  // Bob shares expenses with Dora: he is someone she can mention.
  await call(h.emu.url, dora.apiKey, 'POST', 'create_friend', { user_email: bob.email });
  const out = await call(h.emu.url, dora.apiKey, 'POST', 'create_expense', {
    cost: '12.50',
    currency_code: 'EUR',
    description: 'Taxi & *Bahn*',
    date: '2026-11-20T12:00:00Z',
    users__0__user_id: dora.serviceId,
    users__0__paid_share: '12.50',
    users__0__owed_share: '6.25',
    users__1__user_id: bob.serviceId,
    users__1__paid_share: '0',
    users__1__owed_share: '6.25',
  });
  expect(out.body.errors, JSON.stringify(out.body.errors)).toEqual({});
});
afterAll(() => h?.close());

async function answer(text: string, user_id = 'U0DORA') {
  const out = await h.split(text, { user_id });
  const body = out.answer.body as Loose;
  expect(body.response_type).toBe('ephemeral');
  expect(blockKitErrors(body.blocks, 'message')).toEqual([]);
  return { body, text: blocksText(body.blocks) };
}

describe('a German reader', () => {
  it('is refused in German, with a form that names someone she shares expenses with', async () => {
    const { body, text } = await answer('40 Mittagessen');
    expect(text).toContain(
      'Wer hat geteilt? Erwähne die Personen mit @ (tipp @ und wähl aus der Liste).',
    );
    expect(text).toContain('Zum Beispiel: /split 40 Mittagessen <@U0BOB>');
    expect(body.text).toContain('Zum Beispiel: /split 40 Mittagessen <@U0BOB>');
    expect(text).not.toContain('@ann');
  });

  it('reads the help in German, in one screen', async () => {
    const { text } = await answer('hilfe');
    expect(text).toContain('Split: was du eingeben kannst');
    // Her language's forms and words: German examples, German topic words, German keywords.
    expect(text).toContain('/split 40 Mittagessen <@U0BOB> — du hast 40 bezahlt');
    expect(text).toContain('/split hilfe zahler — jemand anderes hat bezahlt, oder mehrere');
    expect(text).toContain('`heute`, `gestern`, `am Freitag`, `letzten Freitag`');
    expect(text.split('\n').length).toBeLessThanOrEqual(30);
  });

  it('lists her expenses in German, with amounts and dates her way and the text as written', async () => {
    const { body, text } = await answer('liste');
    expect(text).toContain('Deine letzten Ausgaben');
    expect(text).toContain(
      '*Taxi &amp; \u200b*\u200bBahn\u200b*\u200b* · 12,50\u00a0€ · Fr., 20. Nov. 2026',
    );
    expect(text).toContain('bezahlt von dir · dein Anteil 6,25\u00a0€');
    expect(text).toContain('1 Ausgabe.');
    expect(body.text).toBe('Deine letzten Ausgaben: 1 Ausgabe');
  });

  it('finds words in the descriptions when no group has that name, and says so in German', async () => {
    const { text } = await answer('liste taxi');
    expect(text).toContain(
      'Keine deiner Gruppen heißt „taxi“, deshalb habe ich in den Beschreibungen danach gesucht.',
    );
    expect(text).toContain('Ausgaben zu „taxi“');
  });

  it('gets the CSV with German headers and plain numbers', async () => {
    const since = h.slack.now();
    const { text } = await answer('export');
    expect(text).toContain('Ich habe dir eine CSV-Datei mit 1 Ausgabe in unsere DM geschickt.');
    const done = await h.slack.waitForCall(
      'files.completeUploadExternal',
      (c) => c.at >= since,
      5_000,
    );
    const fileId = ((done.response as Loose).files as Loose[])[0].id as string;
    const file = await fetch(`${h.slack.origin}/files/${fileId}/download/x.csv`, {
      headers: { authorization: `Bearer ${h.slack.team.botToken}` },
    });
    const [header, row] = (await file.text()).split('\r\n');
    expect(header).toBe(
      'Datum,Beschreibung,Kategorie,Währung,Betrag,Bezahlt von,Dora schuldet,Bob schuldet,Gruppe',
    );
    expect(row).toBe('2026-11-20,Taxi & *Bahn*,General,EUR,12.50,Dora,6.25,6.25,');
    const sent = h.slack.messages('U0DORA').find((m) => m.files?.includes(fileId));
    expect(sent?.text).toBe('1 Ausgabe, neueste zuerst.');
  });
});

describe('a Japanese reader', () => {
  it('is refused in Japanese, with amounts written the Japanese way', async () => {
    const { text } = await answer('¥1200.50 ラーメン <@U0BOB>', 'U0KEN');
    expect(text).toContain('JPY には小数単位がありません。「¥1200.50」に小数は使えません。');
    expect(text).toContain('例: /split 40 ランチ <@U0BOB>');
    const { text: help } = await answer('ヘルプ recurring', 'U0KEN');
    expect(help).toContain('繰り返しの経費');
  });
});

describe('an expense booked with no description', () => {
  it('is named in the words of the person who booked it', async () => {
    const out = await h.split('8 <@U0BOB>', { user_id: 'U0DORA' });
    const body = out.answer.body as Loose;
    expect(body.response_type, JSON.stringify(body)).toBe('in_channel');
    expect(blocksText(body.blocks)).toContain('Ausgabe');
    expect(body.text).not.toContain('Expense');
    const listed = await call(h.emu.url, dora.apiKey, 'GET', 'get_expenses?limit=1');
    expect(listed.body.expenses[0].description).toBe('Ausgabe');
  });
});
