/**
 * The reader on what blurred, faded and busy photos do to a receipt's text: specks after a price,
 * a "€" read as "¢", a bar of the paper's edge joining two rows, nearly every separator lost, a
 * quantity stuck to its unit price, and one misread digit that the sums can settle, or cannot.
 */
import { describe, expect, it } from 'vitest';
import { parseAmount, toMinor } from '../../src/receipts/reader/amounts.js';
import { readReceipt } from '../../src/receipts/reader/read.js';
import { confusedReadings, reconcile } from '../../src/receipts/reader/reconcile.js';
import { buildRows } from '../../src/receipts/reader/rows.js';
import type { OcrLine } from '../../src/receipts/types.js';
import { receiptLines } from './lines.js';

/** The lines with the OCR unsure of one word (its confidence set to `confidence`). */
function unsure(lines: OcrLine[], text: string, confidence = 40): OcrLine[] {
  for (const line of lines) {
    for (const word of line.words) if (word.text === text) word.confidence = confidence;
  }
  return lines;
}

const amounts = (lines: OcrLine[]) => readReceipt(lines).items.map((i) => [i.description, i.minor]);

describe('marks around a price', () => {
  it('reads a price with a speck after it (a bar, a quote, a hash)', () => {
    const lines = receiptLines([
      'Tasca',
      'Sumo | 4,50 |',
      'Agua | 8,50',
      "Vinho | 7,00 '",
      'Sopa | 3,00 #',
      'Valor total | 23,00 €',
    ]);
    expect(amounts(lines)).toEqual([
      ['Sumo', 450],
      ['Agua', 850],
      ['Vinho', 700],
      ['Sopa', 300],
    ]);
    expect(readReceipt(lines).checks.itemsVsSubtotal?.ok).toBe(true);
  });

  it('reads a "€" the OCR gave as "¢", and takes no currency from the "¢"', () => {
    expect(toMinor(parseAmount('5,75¢€')!, 2)).toBe(575);
    expect(parseAmount('5,75¢€')!.currency).toBe('EUR');
    expect(parseAmount('300¢', true)).toMatchObject({
      digits: 300,
      repaired: true,
      currency: null,
    });
    expect(
      amounts(receiptLines(['Café', 'Quiche | 575¢€', 'Tarte | 2,00 €', 'Total | 7,75 €'])),
    ).toEqual([
      ['Quiche', 575],
      ['Tarte', 200],
    ]);
  });

  it('reads a total with a speck read as a digit after its symbol', () => {
    const fields = readReceipt(
      receiptLines(['Tasca', 'Sumo | 4,50', 'Agua | 8,50', 'Valor total | 13,00 € 3']),
    );
    expect(fields.total?.value).toBe(1300);
  });
});

describe('rows', () => {
  it('keeps two rows apart when a bar at the edge makes one line three rows tall', () => {
    const word = (text: string, x0: number, y0: number, y1: number) => ({
      text,
      box: { x0, y0, x1: x0 + text.length * 12, y1 },
      confidence: 90,
    });
    const line = (words: ReturnType<typeof word>[]): OcrLine => ({
      text: words.map((w) => w.text).join(' '),
      box: {
        x0: words[0]!.box.x0,
        y0: Math.min(...words.map((w) => w.box.y0)),
        x1: words[words.length - 1]!.box.x1,
        y1: Math.max(...words.map((w) => w.box.y1)),
      },
      confidence: 90,
      words,
    });
    const rows = buildRows([
      line([word('|', 2, 100, 190), word('Brot', 20, 100, 120), word('3,75', 500, 100, 120)]),
      line([word('Milch', 20, 160, 180), word('1,50', 500, 160, 180)]),
    ]);
    expect(rows.map((r) => r.words.map((w) => w.text).join(' '))).toEqual([
      '| Brot 3,75',
      'Milch 1,50',
    ]);
  });
});

describe('separators lost', () => {
  it('finds the amount column from prices that all lost their separator', () => {
    const fields = readReceipt(
      receiptLines([
        'Marisqueira',
        'Bacalhau | 6.00',
        'Sumo | 275',
        'Salada | 975',
        'Sopa | 725',
        'Subtotal | 2375',
        'Valor total | 2375',
      ]),
    );
    expect(fields.items.map((i) => i.minor)).toEqual([600, 275, 975, 725]);
    expect(fields.subtotal?.value).toBe(2375);
    expect(fields.total?.value).toBe(2375);
  });

  it('reads a quantity stuck to its unit price ("2x7,25", "4x475")', () => {
    const fields = readReceipt(
      receiptLines(['Tasca', 'Agua', '2x7,25 | 14,50', 'Sopa', '4x475 | 19,00', 'Total | 33,50']),
    );
    expect(fields.items.map((i) => [i.quantity, i.unitMinor, i.minor])).toEqual([
      [2, 725, 1450],
      [4, 475, 1900],
    ]);
  });
});

describe('one misread amount, settled by the sums', () => {
  it('lists the readings one confused digit away', () => {
    expect(confusedReadings(1064)).toEqual(expect.arrayContaining([1004, 1084, 7064, 1054]));
    expect(confusedReadings(1064)).not.toContain(1068);
    expect(confusedReadings(125)).toContain(725);
    expect(confusedReadings(-600)).toContain(-606);
    // No reading starts with a zero that was not printed.
    expect(confusedReadings(600).every((n) => String(n).length === 3)).toBe(true);
  });

  it('takes the one reading that makes the sums hold, on an amount the OCR was unsure of', () => {
    const lines = unsure(
      receiptLines([
        'Gasthaus',
        'Bier | 1.002,50 €',
        'Milch | 9,00 €',
        'Schnitzel | 1.064,00 €',
        'SUMME | 2.015,50 €',
        'inkl. MwSt 19% | 321,80',
      ]),
      '1.064,00',
    );
    const fields = readReceipt(lines);
    expect(fields.items.map((i) => i.minor)).toEqual([100250, 900, 100400]);
    expect(fields.items[2]!.read).toBe(106400);
    expect(fields.items[2]!.confidence).toBeLessThan(fields.items[1]!.confidence);
    expect(fields.items[1]!.read).toBeUndefined();
    expect(fields.checks.itemsVsSubtotal?.ok).toBe(true);
  });

  it('takes the quantity times the unit price when only that makes the sums hold', () => {
    const fields = readReceipt(
      receiptLines([
        'Tasca',
        'Vinho verde',
        '4x475 | 19500 €',
        'Bifana | 8,75 €',
        'Subtotal | 27,75 €',
        'Total | 27,75 €',
      ]),
    );
    expect(fields.items.map((i) => [i.minor, i.read])).toEqual([
      [1900, 19500],
      [875, undefined],
    ]);
    expect(fields.checks.itemsVsSubtotal?.ok).toBe(true);
  });

  it('changes nothing, and reports the mismatch, when two readings would make the sums hold', () => {
    // 1,25 read for 7,25 or 10,50 for 16,50: both add the missing 6,00.
    const fields = readReceipt(
      unsure(
        receiptLines(['Tasca', 'Vinho | 10,50', 'Salada | 1,25', 'Valor total | 17,75 €']),
        '1,25',
      ),
    );
    expect(fields.items.map((i) => [i.minor, i.read])).toEqual([
      [1050, undefined],
      [125, undefined],
    ]);
    expect(fields.checks.itemsVsSubtotal).toMatchObject({ ok: false, difference: 600 });
  });

  it('changes nothing when the only fitting amount is one the OCR was sure of', () => {
    const fields = readReceipt(
      receiptLines([
        'Diner',
        'Burger | 10.00',
        'Fries | 4.00',
        'Subtotal | 16.00',
        'Total | 16.00',
      ]),
    );
    expect(fields.items.map((i) => i.minor)).toEqual([1000, 400]);
    expect(fields.checks.itemsVsSubtotal).toMatchObject({ ok: false, difference: 200 });
  });

  it('decides among every reading of every amount, not only the doubtful ones', () => {
    expect(
      reconcile(
        [
          { minor: 125, doubtful: true, readings: [725] },
          { minor: 1050, doubtful: false, readings: [1650] },
        ],
        600,
      ),
    ).toBeNull();
    expect(reconcile([{ minor: 125, doubtful: true, readings: [725] }], 600)).toEqual({
      index: 0,
      minor: 725,
    });
    expect(reconcile([{ minor: 125, doubtful: true, readings: [725] }], 0)).toBeNull();
  });
});

describe('the items against the total when no subtotal is printed', () => {
  it('takes out the tip and puts back the discount before comparing', () => {
    const fields = readReceipt(
      receiptLines([
        'Tasca',
        'Bacalhau | 10,00',
        'Sopa | 5,00',
        'Desconto | -1,50',
        'Gorjeta | 2,00',
        'Valor total | 15,50 €',
        'IVA incluido | 1,41',
      ]),
    );
    expect(fields.checks.itemsVsSubtotal).toMatchObject({ ok: true, printed: 1350 });
    expect(fields.checks.partsVsTotal?.ok).toBe(true);
  });
});
