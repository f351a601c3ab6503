/**
 * The form filled from a receipt's reading, as a pure function of the form as shown, the person's
 * last changes and the reading: which fields are filled (under their next block_id), which are
 * kept, the line saying what was read, the sums that do not hold, and each failure's line.
 */
import { describe, expect, it } from 'vitest';
import type { ReceiptReading } from '../../../src/receipts/index.js';
import type { ReadingDraft, StateValues } from '../../../src/slack/expense-form/form.js';
import { filledForm, readingForm } from '../../../src/slack/expense-form/receipt/receipt-fill.js';
import { expenseFormView } from '../../../src/slack/expense-form/views.js';
import { voiceFor } from '../../../src/voice/index.js';
import { viewErrors } from '../../support/block-kit-limits.js';

const en = await voiceFor({ locale: 'en-US' });
const de = await voiceFor({ locale: 'de-DE' });
const ctx = { today: '2026-12-06', unit: (code: string) => (code === 'EUR' ? '€' : '$') };

function shown(initial: { amountText?: string; description?: string } = {}) {
  return expenseFormView(
    {
      mode: 'new',
      meta: 'signed-meta',
      initial: {
        currency: 'USD',
        date: '2026-12-06',
        participants: ['U0ANN', 'U0BOB'],
        payer: 'U0ANN',
        ...initial,
      },
      groups: [],
      reading: true,
    },
    en,
  );
}

function draft(view = shown(), state?: StateValues, kept: string[] = []): ReadingDraft {
  return {
    view: {
      blocks: view.blocks,
      title: view.title,
      submit: view.submit,
      close: view.close,
      meta: 'signed-meta',
    },
    hash: 'h1',
    ...(state ? { state } : {}),
    kept,
  };
}

const sure = <T>(value: T, confidence = 0.9) => ({ value, confidence });

function reading(over: Partial<ReceiptReading> = {}): ReceiptReading {
  return {
    ok: true,
    seconds: 0.5,
    ocrConfidence: 90,
    text: '',
    total: sure(12878),
    currency: sure('USD'),
    date: sure('2025-03-14'),
    merchant: sure('Trattoria <Da> Luca'),
    subtotal: sure(10150),
    tax: sure(901),
    tip: sure(1827),
    serviceCharge: null,
    discount: null,
    items: [
      { description: 'Pasta', minor: 6000, quantity: null, unitMinor: null, confidence: 0.9 },
      { description: 'Wine', minor: 4150, quantity: null, unitMinor: null, confidence: 0.9 },
    ],
    checks: {
      itemsVsSubtotal: { ok: true, expected: 10150, printed: 10150, difference: 0 },
      partsVsTotal: { ok: true, expected: 12878, printed: 12878, difference: 0 },
      taxIncluded: false,
    },
    ...over,
  };
}

type Block = { block_id?: string; element?: Record<string, unknown>; dispatch_action?: boolean };
const blockOf = (view: { blocks: unknown[] }, base: string) =>
  (view.blocks as Block[]).find(
    (b) => b.block_id === base || String(b.block_id).startsWith(`${base}~`),
  ) as Block;
const optionOf = (view: { blocks: unknown[] }, base: string) =>
  (blockOf(view, base).element?.initial_option as { value?: string } | undefined)?.value;
const noteOf = (view: { blocks: unknown[] }) =>
  JSON.stringify((blockOf(view, 'form_receipt_note') as { elements?: unknown }).elements);

describe('the form filled from a reading', () => {
  it('fills the empty fields under their next block_id and sets up the itemised split', () => {
    const { view, receipt } = filledForm(draft(), { kind: 'read', reading: reading() }, en, ctx);
    expect(viewErrors(view)).toEqual([]);
    expect(blockOf(view, 'form_amount')).toMatchObject({
      block_id: 'form_amount~1',
      element: { initial_value: '101.50' },
    });
    expect(blockOf(view, 'form_date').element?.initial_date).toBe('2025-03-14');
    // The merchant is plain text in the input: written as read, no escaping there.
    expect(blockOf(view, 'form_description').element?.initial_value).toBe('Trattoria <Da> Luca');
    expect(optionOf(view, 'form_split')).toBe('itemise');
    // The fields report no more changes once the reading is in.
    expect(blockOf(view, 'form_amount').dispatch_action).toBeUndefined();
    expect(blockOf(view, 'form_amount').element?.dispatch_action_config).toBeUndefined();
    const line = noteOf(view);
    expect(line).toContain('Read from the receipt, fairly sure');
    expect(line).toContain('\\"Trattoria &lt;Da&gt; Luca\\"');
    expect(line).toContain('tip $18.27');
    expect(receipt).toEqual({
      currency: 'USD',
      items: [
        { description: 'Pasta', minor: 6000 },
        { description: 'Wine', minor: 4150 },
      ],
      tip: 1827,
      tax: 901,
    });
    expect(view.private_metadata).toBe('signed-meta');
  });

  it("keeps a field the person changed and one the message's words filled", () => {
    const form = shown({ amountText: '30' });
    const state: StateValues = {
      form_description: { form_description: { type: 'plain_text_input', value: 'Dinner' } },
    };
    const { view, receipt } = filledForm(
      draft(form, state, ['form_amount']),
      { kind: 'read', reading: reading() },
      en,
      ctx,
    );
    expect(blockOf(view, 'form_description').block_id).toBe('form_description');
    expect(blockOf(view, 'form_amount')).toMatchObject({
      block_id: 'form_amount',
      element: { initial_value: '30' },
    });
    // An amount the person gave is no subtotal: the split is left as it is.
    expect(blockOf(view, 'form_split').block_id).toBe('form_split');
    expect(receipt).toBeUndefined();
    expect(blockOf(view, 'form_date').block_id).toBe('form_date~1');
  });

  it('fills the total and says so when the items or the parts do not add up', () => {
    const { view } = filledForm(
      draft(),
      {
        kind: 'read',
        reading: reading({
          checks: {
            itemsVsSubtotal: { ok: false, expected: 9150, printed: 10150, difference: 1000 },
            partsVsTotal: { ok: false, expected: 12878, printed: 12978, difference: 100 },
            taxIncluded: false,
          },
        }),
      },
      en,
      ctx,
    );
    expect(blockOf(view, 'form_amount').element?.initial_value).toBe('128.78');
    expect(blockOf(view, 'form_split').block_id).toBe('form_split');
    const line = noteOf(view);
    expect(line).toContain(
      'The items add up to $91.50, but the receipt says the subtotal is $101.50',
    );
    expect(line).toContain(
      'Subtotal, tax and tip make $128.78, but the receipt says the total is $129.78',
    );
  });

  it("says which amount the sums settled, as read and as filled in, in the person's language", () => {
    const settled = reading({
      items: [
        { description: 'Pasta', minor: 6000, quantity: null, unitMinor: null, confidence: 0.9 },
        {
          description: 'Wine <red>',
          minor: 4150,
          quantity: null,
          unitMinor: null,
          confidence: 0.4,
          read: 4750,
        },
      ],
    });
    const line = noteOf(filledForm(draft(), { kind: 'read', reading: settled }, en, ctx).view);
    expect(line).toContain(
      'I read $47.50 for Wine &lt;red&gt;, and the items did not add up. With $41.50 they match the subtotal',
    );
    const german = noteOf(filledForm(draft(), { kind: 'read', reading: settled }, de, ctx).view);
    expect(german).toContain('Für Wine &lt;red&gt; habe ich 47,50');
    // Nothing settled: no such line.
    expect(
      noteOf(filledForm(draft(), { kind: 'read', reading: reading() }, en, ctx).view),
    ).not.toContain('I read');
  });

  it('leaves a field read unsure, or a date after today, empty and names them', () => {
    const { view } = filledForm(
      draft(),
      {
        kind: 'read',
        reading: reading({ total: sure(12878, 0.3), date: sure('2027-01-01'), items: [] }),
      },
      en,
      ctx,
    );
    expect(blockOf(view, 'form_amount').block_id).toBe('form_amount');
    expect(blockOf(view, 'form_date').block_id).toBe('form_date');
    expect(noteOf(view)).toContain('Not read: the total and the date. Type them in.');
  });

  it('writes amounts and dates the reader’s way', () => {
    const { view } = filledForm(
      draft(),
      { kind: 'read', reading: reading({ currency: sure('EUR'), items: [] }) },
      de,
      ctx,
    );
    expect(blockOf(view, 'form_amount').element?.initial_value).toBe('128,78');
    expect(optionOf(view, 'form_currency')).toBe('EUR');
    expect(noteOf(view)).toContain('Summe 128,78');
  });

  it('says why a photo was not read, and fills nothing', () => {
    const cases = [
      [{ kind: 'failed', reason: 'not_image', maxBytes: 1 }, 'not a photo I can read'],
      [
        { kind: 'failed', reason: 'too_large', maxBytes: 5 * 1024 * 1024 },
        'larger than the 5.0 MB',
      ],
      [{ kind: 'failed', reason: 'busy', maxBytes: 1 }, 'The receipt reader is busy'],
      [{ kind: 'failed', reason: 'timeout', maxBytes: 1 }, 'took too long'],
      [{ kind: 'stopped' }, 'stopped before it finished'],
      [
        { kind: 'not_fetched', problem: 'Slack did not hand it over.' },
        'Slack did not hand it over.',
      ],
    ] as const;
    for (const [outcome, text] of cases) {
      const { view, receipt } = filledForm(draft(), outcome, en, ctx);
      expect(noteOf(view)).toContain(text);
      expect(blockOf(view, 'form_amount').block_id).toBe('form_amount');
      expect(receipt).toBeUndefined();
    }
  });
});

describe('the form put up again to read a photo chosen in it', () => {
  it('keeps every block_id, says the photo is read, and tracks the fields it fills', () => {
    const form = shown();
    const view = readingForm(
      {
        blocks: form.blocks.filter((b) => b.block_id !== 'form_receipt_note'),
        title: form.title,
        submit: form.submit,
      },
      'meta',
      en,
    );
    expect(viewErrors(view)).toEqual([]);
    expect(noteOf(view)).toContain('Reading the receipt');
    expect(blockOf(view, 'form_amount').dispatch_action).toBe(true);
    expect(blockOf(view, 'form_notes').dispatch_action).toBeUndefined();
  });
});
