/**
 * The layout-aware reader, on tables of OCR lines per language: totals by their labels, amounts
 * in both decimal styles, currency from a symbol, a code or the numbers' locale, dates, the
 * merchant, items with quantities, and the checks of the sums, reported (the one correction the
 * sums may make is in read-repairs.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseAmount, toMinor } from '../../src/receipts/reader/amounts.js';
import { findDate } from '../../src/receipts/reader/dates.js';
import { labelOf } from '../../src/receipts/reader/labels.js';
import { readReceipt } from '../../src/receipts/reader/read.js';
import { receiptLines } from './lines.js';

describe('amounts', () => {
  it.each([
    ['12.50', 1250, '.'],
    ['12,50', 1250, ','],
    ['1,234.56', 123456, '.'],
    ['1.234,56', 123456, ','],
    ["1'234.56", 123456, '.'],
    ['£45.91', 4591, '.'],
    ['45,91€', 4591, ','],
    ['EUR12,50', 1250, ','],
    ['1O,5O', 1050, ','],
  ])('reads %s as %i minor units', (text, minor, separator) => {
    const amount = parseAmount(text)!;
    expect(toMinor(amount, 2)).toBe(minor);
    expect(amount.separator).toBe(separator);
  });

  it.each([['-3.00'], ['3.00-'], ['(3.00)'], ['-£3.00']])('reads %s as negative', (text) => {
    expect(toMinor(parseAmount(text)!, 2)).toBe(-300);
  });

  it('takes a symbol or a code as the currency', () => {
    expect(parseAmount('£4.00')!.currency).toBe('GBP');
    expect(parseAmount('4,00€')!.currency).toBe('EUR');
    expect(parseAmount('USD4.00')!.currency).toBe('USD');
  });

  it('repairs a lost separator, but not a lost digit', () => {
    expect(parseAmount('1050', true)).toMatchObject({ digits: 1050, decimals: 2, repaired: true });
    expect(parseAmount('1.00775', true)).toMatchObject({
      digits: 100775,
      decimals: 2,
      repaired: true,
    });
    expect(parseAmount('4150.7', true)).toBeNull();
    expect(parseAmount('1050')).toMatchObject({ digits: 1050, decimals: 0, repaired: false });
  });

  it('refuses what is no price: whole numbers in a two-decimal currency, bad grouping, long digits', () => {
    expect(toMinor(parseAmount('12')!, 2)).toBeNull();
    expect(parseAmount('12,3456')).toBeNull();
    expect(parseAmount('1,23,456.00')).toBeNull();
    expect(parseAmount('4111111111111111')).toBeNull();
    expect(parseAmount('19:42')).toBeNull();
  });

  it('reads a whole number in a zero-decimal currency', () => {
    expect(toMinor(parseAmount('1,200')!, 0)).toBe(1200);
  });

  it('stays linear on long hostile input (capped before any work)', () => {
    const started = performance.now();
    for (let i = 0; i < 1000; i++) parseAmount(`${'1,'.repeat(10_000)}00`);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('labels', () => {
  it.each([
    ['TOTAL', 'total'],
    ['T0TAL', 'total'],
    ['Amount due', 'total'],
    ['Summe', 'total'],
    ['Gesamt', 'total'],
    ['Total TTC', 'total'],
    ['Importe', 'total'],
    ['Valor total', 'total'],
    ['Subtotal', 'subtotal'],
    ['Zwischensumme', 'subtotal'],
    ['Sous-total', 'subtotal'],
    ['Sales Tax', 'tax'],
    ['MwSt 19%', 'tax'],
    ['TVA 10%', 'tax'],
    ['IVA', 'tax'],
    ['Tip', 'tip'],
    ['Trinkgeld', 'tip'],
    ['Pourboire', 'tip'],
    ['Propina', 'tip'],
    ['Gorjeta', 'tip'],
    ['Service charge', 'service'],
    ['Discount', 'discount'],
    ['Rabatt', 'discount'],
    ['Remise', 'discount'],
    ['Descuento', 'discount'],
    ['Desconto', 'discount'],
    ['Rückgeld', 'payment'],
    ['Total items', 'count'],
  ])('reads "%s" as %s', (text, kind) => {
    expect(labelOf(text)?.kind).toBe(kind);
  });

  it('reads a label word the OCR got one letter wrong, when the word is long enough', () => {
    expect(labelOf('Taxa de servigo')?.kind).toBe('service');
    expect(labelOf('Zwischensunme')?.kind).toBe('subtotal');
    expect(labelOf('IVA incluide')).toMatchObject({ kind: 'tax', included: true });
    expect(labelOf('Tarte')).toBeNull();
  });

  it('marks a tax printed as included', () => {
    expect(labelOf('inkl. MwSt 19%')).toMatchObject({ kind: 'tax', included: true });
    expect(labelOf('dont TVA 10%')).toMatchObject({ kind: 'tax', included: true });
    expect(labelOf('Sales Tax')).toMatchObject({ kind: 'tax', included: false });
  });

  it('names no kind for an item', () => {
    expect(labelOf('Chocolate bar')).toBeNull();
    expect(labelOf('Flat White')).toBeNull();
  });
});

describe('dates', () => {
  it.each([
    ['14/03/2025', false, '2025-03-14'],
    ['03/14/2025', true, '2025-03-14'],
    ['14.03.25', false, '2025-03-14'],
    ['2025-03-14 19:42', false, '2025-03-14'],
    ['14 Mar 2025', false, '2025-03-14'],
    ['Mar 14, 2025', true, '2025-03-14'],
    ['14. März 2025', false, '2025-03-14'],
    ['14 mars 2025', false, '2025-03-14'],
    ['14 de marzo de 2025', false, '2025-03-14'],
    ['14 de março de 2025', false, '2025-03-14'],
  ])('reads %s', (text, monthFirst, iso) => {
    expect(findDate(text, monthFirst)?.iso).toBe(iso);
  });

  it('chooses the order of an ambiguous date by locale, and says it was a choice', () => {
    expect(findDate('03/04/2025', true)).toEqual({ iso: '2025-03-04', ambiguous: true });
    expect(findDate('03/04/2025', false)).toEqual({ iso: '2025-04-03', ambiguous: true });
  });

  it('refuses impossible dates', () => {
    expect(findDate('31/02/2025', false)).toBeNull();
    expect(findDate('Total 12.50', false)).toBeNull();
  });
});

describe('readReceipt', () => {
  it('reads a US restaurant bill: items, subtotal, tax, tip, total, all consistent', () => {
    const fields = readReceipt(
      receiptLines([
        "JOE'S DINER",
        '455 Market St',
        '03/14/2025 12:31',
        'Cheeseburger | 12.50',
        '2 x Iced Tea | 7.00',
        'Fries | 4.25',
        'Subtotal | 23.75',
        'Sales Tax | 2.08',
        'Tip | 3.56',
        'TOTAL | $29.39',
        'VISA | $29.39',
      ]),
    );
    expect(fields.total?.value).toBe(2939);
    expect(fields.currency?.value).toBe('USD');
    expect(fields.date?.value).toBe('2025-03-14');
    expect(fields.merchant?.value).toBe("JOE'S DINER");
    expect(fields.subtotal?.value).toBe(2375);
    expect(fields.tax?.value).toBe(208);
    expect(fields.tip?.value).toBe(356);
    expect(fields.items.map((i) => [i.description, i.minor, i.quantity])).toEqual([
      ['Cheeseburger', 1250, null],
      ['Iced Tea', 700, 2],
      ['Fries', 425, null],
    ]);
    expect(fields.checks.itemsVsSubtotal?.ok).toBe(true);
    expect(fields.checks.partsVsTotal?.ok).toBe(true);
    expect(fields.total!.confidence).toBeGreaterThan(0.9);
  });

  it('reads a German receipt: decimal commas, Summe, tax included, currency from €', () => {
    const fields = readReceipt(
      receiptLines([
        'Bäckerei Müller',
        'Hauptstr. 5',
        '14.03.2025 08:12',
        'Brezel | 1,20',
        'Kaffee | 2,80',
        'Milch',
        '2 x 1,50 | 3,00',
        'SUMME | 7,00 €',
        'inkl. MwSt 19% | 1,12',
        'Bar gegeben | 10,00',
      ]),
    );
    expect(fields.total?.value).toBe(700);
    expect(fields.currency?.value).toBe('EUR');
    expect(fields.date?.value).toBe('2025-03-14');
    expect(fields.tax?.value).toBe(112);
    expect(fields.checks.taxIncluded).toBe(true);
    expect(fields.items.map((i) => i.minor)).toEqual([120, 280, 300]);
    expect(fields.items[2]).toMatchObject({ description: 'Milch', quantity: 2, unitMinor: 150 });
    expect(fields.checks.itemsVsSubtotal?.ok).toBe(true);
  });

  it('reads a French bill split by the OCR into label and amount lines', () => {
    const fields = readReceipt(
      receiptLines(
        [
          'Le Petit Bistro',
          '14/03/2025',
          'Croissant | 2,40',
          'Café crème | 3,60',
          'Sous-total | 6,00',
          'Remise | -0,60',
          'Total TTC | 5,40 €',
          'dont TVA 10% | 0,49',
        ],
        true,
      ),
    );
    expect(fields.total?.value).toBe(540);
    expect(fields.subtotal?.value).toBe(600);
    expect(fields.discount?.value).toBe(60);
    expect(fields.checks.partsVsTotal?.ok).toBe(true);
    expect(fields.checks.taxIncluded).toBe(true);
  });

  it.each([
    [
      ['Bar El Rincón', 'Tortilla | 4,50', 'Caña | 2,00', 'Propina | 0,50', 'Importe | 7,00'],
      700,
      'EUR',
    ],
    [
      ['Tasca do Zé', 'Bifana | 3,50', 'Bica | 0,80', 'Gorjeta | 0,50', 'Valor total | 4,80'],
      480,
      'EUR',
    ],
    [
      [
        'The Red Lion',
        'Fish & Chips | 14.50',
        'Service 12.5% | 1.81',
        'Total | 16.31',
        'VAT 20% incl. | 2.72',
      ],
      1631,
      'GBP',
    ],
    [['Corner Deli', 'Bagel | 3.25', 'Coffee | 2.00', 'Amount due | 5.25'], 525, 'USD'],
  ])('reads the total and the currency from the numbers alone: %j', (rows, total, currency) => {
    const fields = readReceipt(receiptLines(rows));
    expect(fields.total?.value).toBe(total);
    expect(fields.currency?.value).toBe(currency);
  });

  it('takes the currency from a code printed on the receipt', () => {
    const fields = readReceipt(receiptLines(['Shop', 'Item | 10.00', 'TOTAL EUR | 10.00']));
    expect(fields.currency).toEqual({ value: 'EUR', confidence: 0.95 });
  });

  it("prefers the person's currency when the receipt names none and its numbers fit it", () => {
    const fields = readReceipt(receiptLines(['Shop', 'Item | 10.00', 'TOTAL | 10.00']), {
      currency: 'CAD',
    });
    expect(fields.currency?.value).toBe('CAD');
  });

  it('reads thousands separators', () => {
    const fields = readReceipt(receiptLines(['Hotel', 'Room | 1.234,50', 'Gesamt | 1.234,50 €']));
    expect(fields.total?.value).toBe(123450);
  });

  it('reports items that do not add up to the subtotal, and changes none of them', () => {
    const fields = readReceipt(
      receiptLines([
        'Diner',
        'Burger | 10.00',
        'Fries | 4.00',
        'Subtotal | 15.00',
        'Tax | 1.00',
        'Total | 16.00',
      ]),
    );
    expect(fields.items.map((i) => i.minor)).toEqual([1000, 400]);
    expect(fields.checks.itemsVsSubtotal).toEqual({
      ok: false,
      expected: 1400,
      printed: 1500,
      difference: 100,
    });
    expect(fields.checks.partsVsTotal?.ok).toBe(true);
    expect(fields.subtotal?.value).toBe(1500);
  });

  it('reports a total that the parts do not give', () => {
    const fields = readReceipt(
      receiptLines([
        'Diner',
        'Burger | 10.00',
        'Subtotal | 10.00',
        'Tax | 1.00',
        'Tip | 2.00',
        'Total | 14.00',
      ]),
    );
    expect(fields.total?.value).toBe(1400);
    expect(fields.checks.partsVsTotal).toEqual({
      ok: false,
      expected: 1300,
      printed: 1400,
      difference: 100,
    });
  });

  it('drops a tax class read as a digit after a price, and specks as the merchant', () => {
    const lines = receiptLines([
      'a Le ~~',
      'FRISCHMARKT',
      'Wasser | 0,25 8',
      'Brot | 2,59 A',
      'Milch | 1,19 8B',
      'SUMME | 4,03',
    ]);
    const fields = readReceipt(lines);
    expect(fields.items.map((i) => [i.description, i.minor])).toEqual([
      ['Wasser', 25],
      ['Brot', 259],
      ['Milch', 119],
    ]);
    expect(fields.merchant?.value).toBe('FRISCHMARKT');
  });

  it('ignores payment lines and a count of items', () => {
    const fields = readReceipt(
      receiptLines([
        'Market',
        'Milk | 1.20',
        'Bread | 2.30',
        'Total items: 2',
        'Total | 3.50',
        'Cash | 5.00',
        'Change | 1.50',
      ]),
    );
    expect(fields.total?.value).toBe(350);
    expect(fields.items).toHaveLength(2);
  });

  it('guesses the largest amount with a low confidence when no line says total', () => {
    const fields = readReceipt(receiptLines(['Kiosk', 'Water | 1.50', 'Chips | 2.00']));
    expect(fields.total).toEqual({ value: 200, confidence: 0.3 });
  });

  it("takes the amount printed twice (total and payment) when the total's label is garbled", () => {
    const fields = readReceipt(
      receiptLines([
        'Shop',
        'Tea | 3.00',
        'Cake | 2.00',
        'Tq7al | 5.00',
        'Card | 5.00',
        'Cash given | 10.00',
      ]),
    );
    expect(fields.total).toEqual({ value: 500, confidence: 0.5 });
  });

  it('reads an amount whose decimal separator the OCR dropped, in the amount column only', () => {
    const fields = readReceipt(
      receiptLines([
        'Café',
        'Brezel | 1,20',
        'Kaffee | 280',
        'Kuchen | 3,50',
        'Tisch 12',
        'SUMME | 7,50 €',
      ]),
    );
    expect(fields.items.map((i) => [i.description, i.minor])).toEqual([
      ['Brezel', 120],
      ['Kaffee', 280],
      ['Kuchen', 350],
    ]);
    expect(fields.items[1]!.confidence).toBeLessThan(fields.items[0]!.confidence);
    expect(fields.checks.itemsVsSubtotal?.ok).toBe(true);
  });

  it('takes no number left of the amount column for a price', () => {
    const rows = [
      'Gasthaus',
      'Brezel | 1,20',
      'Bier 0,50',
      '2 x 4,00 | 8,00',
      'Wasser | 2,00',
      'SUMME | 11,20 €',
    ];
    const fields = readReceipt(receiptLines(rows));
    expect(fields.items.map((i) => [i.description, i.minor])).toEqual([
      ['Brezel', 120],
      ['Bier 0,50', 800],
      ['Wasser', 200],
    ]);
  });

  it('gives nothing for text with no amounts', () => {
    const fields = readReceipt(receiptLines(['Hello', 'world']));
    expect(fields.total).toBeNull();
    expect(fields.items).toEqual([]);
  });

  it('stays bounded on a flood of lines', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `Item ${i} | 1.00`);
    const started = performance.now();
    const fields = readReceipt(receiptLines(rows));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(fields.items.length).toBeLessThanOrEqual(400);
  });
});
