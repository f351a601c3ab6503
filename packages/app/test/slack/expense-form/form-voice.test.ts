/**
 * The expense form in the voice of whoever fills it in: its words in German and Japanese, amounts
 * shown and read as they write them ("12,50", "1.500" in German), every refusal in their
 * language; and a description, notes or a name shown in the form exactly as typed.
 */
import { describe, expect, it } from 'vitest';
import { amountInput, readAmount } from '../../../src/slack/expense-form/amount.js';
import { defaultNoteText } from '../../../src/slack/expense-form/default-view.js';
import { copyNote } from '../../../src/slack/expense-form/duplicate.js';
import {
  type CheckedForm,
  checkForm,
  checkSplitStep,
  type StateValues,
} from '../../../src/slack/expense-form/form.js';
import { checkItemiseStep, previewText } from '../../../src/slack/expense-form/itemise.js';
import { itemiseStepView } from '../../../src/slack/expense-form/itemise-view.js';
import {
  expenseFormView,
  type ModalView,
  splitStepView,
} from '../../../src/slack/expense-form/views.js';
import { LANGUAGES, type MessageKey, voiceFor } from '../../../src/voice/index.js';
import { viewErrors } from '../../support/block-kit-limits.js';
import { expectInert, mrkdwnTexts, plainTexts, typedTexts } from '../../support/typed-text.js';

const en = await voiceFor({ locale: 'en-US', tz: 'UTC' });
const de = await voiceFor({ locale: 'de-DE', tz: 'Europe/Berlin' });
const fr = await voiceFor({ locale: 'fr-FR', tz: 'Europe/Paris' });
const ja = await voiceFor({ locale: 'ja-JP', tz: 'Asia/Tokyo' });
const nb = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

const element = (view: ModalView, id: string) =>
  (view.blocks as Array<{ block_id?: string; element?: Record<string, unknown> }>).find(
    (b) => b.block_id === id,
  )?.element;

describe('amounts typed the person’s way', () => {
  it.each([
    ['12,50', 'EUR', 1250],
    ['1.500', 'EUR', 150_000],
    ['1.234,56', 'EUR', 123_456],
    ['12,500', 'EUR', 1250],
    ['12.50', 'EUR', 1250],
    ['12,50 €', 'EUR', 1250],
    ['€ 1.000', 'EUR', 100_000],
    ['12,50+7,25', 'EUR', 1975],
    ['1.500', 'JPY', 1500],
  ])('reads %s in %s in German', (text, currency, minor) => {
    expect(readAmount(text, currency, de)).toEqual({ minor });
  });

  it.each([
    ['1 234,56', 'EUR', 123_456],
    ['1\u202f234,56', 'EUR', 123_456],
    ['12,5', 'EUR', 1250],
  ])('reads %s in %s in French', (text, currency, minor) => {
    expect(readAmount(text, currency, fr)).toEqual({ minor });
  });

  it.each([
    ['1,500', 'USD', 150_000],
    ['1,234.50', 'USD', 123_450],
    ['12,50', 'USD', 1250],
    ['12.50', 'USD', 1250],
  ])('reads %s in %s in American English', (text, currency, minor) => {
    expect(readAmount(text, currency, en)).toEqual({ minor });
  });

  it('asks rather than guesses where a point could mean thousands', () => {
    expect(readAmount('1.500', 'USD', en)).toEqual({
      error:
        '"1.500" is unclear: 1500 or 1.5? Write 1500 for thousands, or at most two digits after the point.',
    });
  });

  it('refuses in the person’s language, with their own example', () => {
    const de_ = (text: string, currency = 'EUR') => {
      const read = readAmount(text, currency, de);
      return 'error' in read ? nb(read.error) : read;
    };
    expect(de_('')).toBe('Gib einen Betrag ein, zum Beispiel 12,50.');
    expect(de_('-3')).toBe('Der Betrag darf nicht negativ sein.');
    expect(de_('0')).toBe('Der Betrag muss größer als null sein.');
    expect(de_('viel')).toBe(
      'Ich kann „viel“ nicht als Betrag lesen: gib eine Zahl ein, zum Beispiel 12,50.',
    );
    expect(de_('$12')).toBe(
      'Das ist ein Betrag in USD: wähl USD unter Währung oder gib nur die Zahl ein.',
    );
    expect(de_('0,001')).toBe('EUR hat höchstens 2 Nachkommastellen: „0,001“ hat mehr.');
    expect(de_('12,5', 'JPY')).toBe(
      'JPY hat keine Cents: „12,5“ darf keine Nachkommastellen haben.',
    );
    expect(de_('12++3')).toMatch(/^„12\+\+3“ ist keine Summe/);
    expect(de_('2.000.000.000')).toMatch(/^„2\.000\.000\.000“ ist mehr als 1\.000\.000\.000,00 €/);
    // Longer than an amount may be: refused with its length before any pattern reads it.
    expect(de_(`1,${'0'.repeat(600)}1`)).toBe(
      'Das sind 603 Zeichen: Ein Betrag oder eine Summe von Posten wie 12.50+7.25 hat höchstens 500.',
    );
    const ja_ = readAmount('たくさん', 'JPY', ja);
    expect('error' in ja_ && ja_.error).toBe(
      '「たくさん」を金額として読み取れません。数字を入力してください (例: 12.50)。',
    );
  });

  it('writes the amounts it fills in the person’s way, and reads them back', () => {
    expect(amountInput(123_450, 'EUR', de)).toBe('1234,50');
    expect(amountInput(123_450, 'EUR', en)).toBe('1234.50');
    expect(amountInput(1200, 'JPY', ja)).toBe('1200');
    for (const voice of [en, de, fr, ja]) {
      expect(readAmount(amountInput(98_765, 'EUR', voice), 'EUR', voice)).toEqual({
        minor: 98_765,
      });
    }
  });
});

describe('the form’s checks, in German', () => {
  const values: StateValues = {
    form_amount: { form_amount: { value: '40,50' } },
    form_currency: { form_currency: { selected_option: { value: 'EUR' } } },
    form_description: { form_description: { value: '' } },
    form_payer: { form_payer: { selected_user: 'U0ANN' } },
    form_participants: { form_participants: { selected_users: ['U0ANN'] } },
    form_date: { form_date: { selected_date: '2026-12-01' } },
  };

  it('reads the amount typed the German way and says what is wrong in German', () => {
    expect(checkForm(values, { today: '2026-11-21', knownCurrency: () => true }, de)).toEqual({
      errors: {
        form_description: 'Sag, wofür es war.',
        form_date: 'Das liegt in der Zukunft: wähl heute oder früher.',
        form_participants:
          'Niemand zum Aufteilen: füg die Personen hinzu, die sich die Kosten teilen.',
      },
    });
    const checked = checkForm(
      {
        ...values,
        form_description: { form_description: { value: 'Miete' } },
        form_date: { form_date: { selected_date: '2026-11-21' } },
        form_participants: { form_participants: { selected_users: ['U0ANN', 'U0BOB'] } },
      },
      { today: '2026-11-21', knownCurrency: () => true },
      de,
    );
    expect('form' in checked && checked.form.cost).toBe(4050);
  });

  const form: CheckedForm = {
    cost: 4000,
    currency: 'EUR',
    description: 'Miete',
    date: '2026-11-20',
    category_id: null,
    group_id: null,
    participants: ['U0ANN', 'U0BOB'],
    payer: 'U0ANN',
    method: 'exact',
    notes: '',
    repeat: 'never',
    files: [],
  };
  const step = (...typed: string[]): StateValues =>
    Object.fromEntries(
      typed.map((value, i) => [`form_value_${i}`, { [`form_value_${i}`]: { value } }]),
    );

  it('checks the second step with German amounts, and says why it does not add up', () => {
    const ok = checkSplitStep(form, step('12,50', '27,50'), de);
    expect('split' in ok && ok.split).toEqual({
      kind: 'exact',
      amounts: [
        { id: 'U0ANN', amount: 1250 },
        { id: 'U0BOB', amount: 2750 },
      ],
    });
    const over = checkSplitStep(form, step('30', '20'), de);
    expect('errors' in over && nb(over.errors.form_value_0!)).toBe(
      'Die Beträge ergeben 50,00 €, mehr als die Kosten (40,00 €). Verringere einen Anteil oder lass ihn leer.',
    );
    const percent = checkSplitStep({ ...form, method: 'percent' }, step('50', '40,5'), de);
    expect('errors' in percent && nb(percent.errors.form_value_0!)).toMatch(
      /^Die Prozentsätze ergeben 90,5 %, nicht 100 %\./,
    );
    const items = checkItemiseStep(
      { ...form, method: 'itemise' },
      { ...step('10,50', ''), form_item_tip: { form_item_tip: { value: '10 %' } } },
      de,
    );
    expect(nb(previewText(items, { U0ANN: 'Ann', U0BOB: 'Bob' }, de))).toBe(
      [
        '*Gesamt 44,00 €* · Zwischensumme 40,00 € + Trinkgeld 10 % 4,00 €',
        '• Ann: *11,55 €*',
        '• Bob: *32,45 €*',
      ].join('\n'),
    );
  });
});

describe('the form’s words', () => {
  const view = (voice: typeof en) =>
    expenseFormView(
      {
        mode: 'edit',
        meta: '{"v":1}',
        initial: {
          amountText: amountInput(4050, 'EUR', voice),
          currency: 'EUR',
          description: 'Miete',
          date: '2026-11-21',
          participants: ['U0ANN'],
          payer: 'U0ANN',
        },
        groups: [{ id: 7, name: 'WG' }],
      },
      voice,
    );

  it('are German for a German reader, with a German example and amount', () => {
    const v = view(de);
    expect(v.title.text).toBe('Ausgabe bearbeiten');
    expect(v.submit?.text).toBe('Speichern');
    expect(element(v, 'form_amount')).toMatchObject({
      initial_value: '40,50',
      placeholder: { text: '12,50' },
    });
    expect(plainTexts(v)).toEqual(
      expect.arrayContaining(['Betrag', 'Währung', 'Wofür', 'Zu gleichen Teilen', 'Keine']),
    );
    expect(viewErrors(v)).toEqual([]);
  });

  it('are Japanese for a Japanese reader, within the 24 characters of a title', () => {
    const v = view(ja);
    expect(v.title.text).toBe('経費を編集');
    expect(plainTexts(v)).toEqual(expect.arrayContaining(['金額', '通貨', '均等割り']));
    expect(viewErrors(v)).toEqual([]);
    for (const voice of [en, de, fr, ja]) {
      for (const mode of ['new', 'edit', 'copy'] as const) {
        const t = expenseFormView(
          { mode, meta: '{}', initial: { date: '2026-11-21', participants: [], payer: 'U0A' } },
          voice,
        );
        expect(t.title.text.length).toBeLessThanOrEqual(24);
        expect(t.title.text.endsWith('…')).toBe(false);
      }
    }
  });

  it('fit every title, Submit and Close in the 24 characters Slack allows, in every language', async () => {
    const keys: MessageKey[] = [
      'form.title_new',
      'form.title_edit',
      'form.title_duplicate',
      'form.submit_new',
      'form.submit_edit',
      'form.cancel',
      'form.back',
      'form.close',
      'form.step_equal',
      'form.step_exact',
      'form.step_percent',
      'form.step_shares',
      'form.itemise_title',
      'actions.comment_title',
      'actions.comment_post',
      'actions.cancel',
    ];
    for (const language of LANGUAGES) {
      const voice = await voiceFor({ locale: language });
      for (const key of keys)
        expect(voice.t(key).length, `${language} ${key}`).toBeLessThanOrEqual(24);
    }
  });

  it('are German in the second step and the Itemise step', () => {
    const step = splitStepView(
      {
        method: 'percent',
        cost: 4000,
        currency: 'EUR',
        participants: ['U0ANN'],
        names: {},
        meta: '{}',
      },
      de,
    );
    expect(step.title.text).toBe('Prozentsätze');
    expect(plainTexts(step)).toContain('Jemand');
    expect(nb(mrkdwnTexts(step.blocks)[0]!)).toMatch(/^Prozentsätze von \*40,00 €\*/);
    const items = itemiseStepView(
      { subtotal: 4000, currency: 'EUR', participants: ['U0ANN'], names: {}, meta: '{}' },
      de,
    );
    expect(plainTexts(items)).toEqual(
      expect.arrayContaining(['Aufschlüsseln', '12,50+7,25', 'Trinkgeld', 'Vorschau']),
    );
    expect(viewErrors(items)).toEqual([]);
  });
});

describe('what a person wrote, in the form', () => {
  it('fills the description and notes exactly as typed: plain text, no escape, no entity', () => {
    for (const [i, typed] of typedTexts(13, 100, true).entries()) {
      const voice = [en, de, ja][i % 3]!;
      const oneLine = typed.replace(/\n/g, ' ');
      const v = expenseFormView(
        {
          mode: i % 2 === 0 ? 'edit' : 'copy',
          meta: '{}',
          initial: {
            description: oneLine,
            notes: typed,
            date: '2026-11-21',
            participants: ['U0ANN'],
            payer: 'U0ANN',
            category: { id: 3, name: oneLine },
          },
          groups: [{ id: 7, name: oneLine }],
          note: copyNote({ description: typed, next: 'parts', leftOut: 1 }, voice),
        },
        voice,
      );
      expect(element(v, 'form_description')?.initial_value).toBe(oneLine);
      expect(element(v, 'form_notes')?.initial_value).toBe(typed);
      expect(plainTexts(v)).toEqual(expect.arrayContaining([oneLine]));
      expectInert(mrkdwnTexts(v.blocks)[0]!, typed);
      expect(viewErrors(v)).toEqual([]);

      const note = defaultNoteText(
        {
          saved: {
            group_id: 7,
            group_name: oneLine,
            kind: 'percent',
            parts: [{ slack_id: 'U0ANN', service_user_id: 1, value: 10_000 }],
            set_by: 'U0ANN',
            set_at: '2026-11-21T09:00:00.000Z',
          },
          groupName: oneLine,
          gone: [{ slack_id: 'U0BOB', service_user_id: 2, value: 0 }],
        },
        voice,
      );
      expectInert(note, oneLine);

      const checked = checkItemiseStep(
        {
          cost: 1000,
          currency: 'EUR',
          description: 'x',
          date: '2026-11-21',
          category_id: null,
          group_id: null,
          participants: ['U0ANN'],
          payer: 'U0ANN',
          method: 'itemise',
          notes: '',
          repeat: 'never',
          files: [],
        },
        { form_value_0: { form_value_0: { value: '10' } } },
        voice,
      );
      expectInert(previewText(checked, { U0ANN: oneLine }, voice), oneLine);
    }
  });
});
