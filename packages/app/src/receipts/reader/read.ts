/**
 * The layout-aware reader: from the OCR's lines (text with boxes) to a receipt's fields, each with
 * how sure the reader is, and the checks of its sums. Pure: no I/O, no clock, linear in the
 * (capped) number of lines, so it is tested on tables of lines alone.
 *
 * The receipt is read as a person reads it: the merchant at the top, a date somewhere, items with
 * their amounts at the right edge, then the summary rows named by their labels (subtotal, tax,
 * tip, service, discount, total), then how it was paid. Sums are checked and reported; an item's
 * amount is changed only when one reading of one doubtful item, and no other, makes them hold
 * (reconcile.ts), and the item keeps what was read.
 */
import { currencyExponent } from '../../core/money.js';
import type { OcrLine, ReadField, ReceiptCheck, ReceiptFields, ReceiptItem } from '../types.js';
import { toMinor } from './amounts.js';
import { findDate } from './dates.js';
import { foldLabel } from './labels.js';
import { type Candidate, confusedReadings, DOUBT_CONFIDENCE, reconcile } from './reconcile.js';
import { type RowParts, rowParts } from './row-parts.js';
import { buildRows } from './rows.js';

export interface ReaderHints {
  /** The person's usual currency: chosen when the receipt names none and its numbers fit it. */
  currency?: string;
}

/** Currencies whose amounts are usually written with a decimal comma. */
const COMMA_CURRENCIES = new Set(['EUR', 'BRL', 'ARS', 'CLP', 'COP', 'SEK', 'NOK', 'DKK', 'PLN']);

const HEADER_NOISE = [
  'receipt',
  'invoice',
  'rechnung',
  'quittung',
  'beleg',
  'kassenbon',
  'ticket',
  'facture',
  'recu',
  'recibo',
  'factura',
  'fatura',
  'cupom',
  'welcome',
  'willkommen',
  'bienvenue',
  'bienvenido',
  'bem vindo',
  'tel',
  'phone',
  'www',
  'http',
  'vat no',
  'ust id',
  'siret',
  'nif',
  'cnpj',
  'table',
  'tisch',
  'server',
  'cashier',
  'order',
];

const clamp = (n: number) => Math.max(0, Math.min(0.99, Math.round(n * 100) / 100));
const ocrFactor = (confidence: number) =>
  0.6 + (0.4 * Math.max(0, Math.min(100, confidence))) / 100;

function field<T>(value: T, confidence: number): ReadField<T> {
  return { value, confidence: clamp(confidence) };
}

function letterCount(text: string): number {
  let n = 0;
  for (const c of text) if (c.toLowerCase() !== c.toUpperCase()) n++;
  return n;
}

function check(expected: number, printed: number): ReceiptCheck {
  return { ok: expected === printed, expected, printed, difference: printed - expected };
}

interface Currency {
  code: string;
  confidence: number;
  monthFirst: boolean;
}

function chooseCurrency(parts: RowParts[], hints: ReaderHints): Currency {
  const votes = new Map<string, number>();
  let commas = 0;
  let points = 0;
  let vat = false;
  for (const p of parts) {
    const weight = p.label?.kind === 'total' ? 3 : 1;
    for (const c of p.currencies) votes.set(c, (votes.get(c) ?? 0) + weight);
    if (p.amount?.separator === ',') commas++;
    if (p.amount?.separator === '.') points++;
    const folded = ` ${foldLabel(p.labelText)} `;
    if (folded.includes(' vat ')) vat = true;
  }
  const hint = hints.currency?.toUpperCase();
  let best: string | null = null;
  let bestVotes = 0;
  for (const [code, n] of votes) {
    if (n > bestVotes) {
      best = code;
      bestVotes = n;
    }
  }
  if (best === 'USD' && hint && hint !== 'USD' && ['CAD', 'AUD', 'NZD', 'MXN'].includes(hint)) {
    best = hint;
  }
  if (best) {
    return {
      code: best,
      confidence: bestVotes >= 3 ? 0.95 : bestVotes >= 2 ? 0.9 : 0.8,
      monthFirst: best === 'USD' && points >= commas,
    };
  }
  // No symbol or code: the way the numbers are written says which side of the Atlantic.
  const comma = commas > points;
  if (hint && COMMA_CURRENCIES.has(hint) === comma) {
    return { code: hint, confidence: 0.6, monthFirst: hint === 'USD' };
  }
  if (comma) return { code: 'EUR', confidence: 0.55, monthFirst: false };
  return vat
    ? { code: 'GBP', confidence: 0.5, monthFirst: false }
    : { code: 'USD', confidence: 0.45, monthFirst: true };
}

function merchantOf(parts: RowParts[], firstAmountRow: number): ReadField<string> | null {
  const candidates: { text: string; height: number; confidence: number }[] = [];
  const end = Math.min(firstAmountRow === -1 ? parts.length : firstAmountRow, 8);
  for (let i = 0; i < end && candidates.length < 3; i++) {
    const p = parts[i]!;
    const text = p.row.words
      .map((w) => w.text)
      .join(' ')
      .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}.!')]+$/gu, '')
      .slice(0, 80);
    const letters = letterCount(text);
    if (letters < 3 || letters < text.replace(/\s/g, '').length * 0.6) continue;
    // A name has a word of three letters or more; specks at a torn edge read as "a Le" do not.
    if (!/\p{L}{3}/u.test(text) || p.row.confidence < 50) continue;
    const folded = ` ${foldLabel(text)} `;
    if (HEADER_NOISE.some((word) => folded.includes(` ${word} `))) continue;
    if (findDate(text, false)) continue;
    // Street numbers and postcodes: an address line is no name.
    if (/\d/.test(text) && candidates.length > 0) continue;
    const heights = p.row.words.map((w) => w.box.y1 - w.box.y0).sort((a, b) => a - b);
    const height = heights[Math.floor(heights.length / 2)] ?? 0;
    candidates.push({ text, height, confidence: p.row.confidence });
  }
  if (candidates.length === 0) return null;
  const tallest = candidates.reduce((a, b) => (b.height > a.height * 1.3 ? b : a));
  const first = candidates[0]!;
  const chosen = tallest.height > first.height * 1.3 ? tallest : first;
  return field(chosen.text, 0.75 * ocrFactor(chosen.confidence));
}

/** Whether the OCR was unsure of a row's amount: its separator lost, or its digits faint. */
function doubtful(p: RowParts): boolean {
  if (p.amount?.repaired) return true;
  const digits = p.amountWords.filter((w) => /\d/.test(w.text));
  return digits.some((w) => w.confidence < DOUBT_CONFIDENCE);
}

/** What is added to the subtotal to make the total, and what was printed as inside it. */
interface Added {
  tax: number;
  included: number;
  taxIncluded: boolean;
  tip: number;
  service: number;
  discount: number;
  seenTax: boolean;
}

/**
 * The checks of the sums: the parts against the total, and the items (less discounts printed
 * among them) against the subtotal, or, with none printed, against the total less what is added
 * to it. A tax line that the total only holds without is taken as included, and said so.
 */
function checkSums(
  itemsNet: number | null,
  subtotal: number | null,
  total: number | null,
  added: Added,
): { partsVsTotal: ReceiptCheck | null; itemsVsSubtotal: ReceiptCheck | null; added: Added } {
  let a = added;
  let partsVsTotal: ReceiptCheck | null = null;
  const base = subtotal ?? itemsNet;
  if (total !== null && base !== null) {
    const expected = base + a.tax + a.tip + a.service - a.discount;
    partsVsTotal = check(expected, total);
    if (!partsVsTotal.ok && a.seenTax && !a.taxIncluded && expected - a.tax === total) {
      // The tax line was inside the prices although it did not say so: reported as such.
      partsVsTotal = check(expected - a.tax, total);
      a = { ...a, taxIncluded: true, included: a.included + a.tax, tax: 0 };
    }
  }
  let itemsVsSubtotal: ReceiptCheck | null = null;
  if (itemsNet !== null) {
    const printed =
      subtotal ?? (total === null ? null : total - a.tax - a.tip - a.service + a.discount);
    if (printed !== null) itemsVsSubtotal = check(itemsNet, printed);
  }
  return { partsVsTotal, itemsVsSubtotal, added: a };
}

/** Reads a receipt's fields from the OCR's lines. */
export function readReceipt(lines: readonly OcrLine[], hints: ReaderHints = {}): ReceiptFields {
  const parts = buildRows(lines).map(rowParts);
  const currency = chooseCurrency(parts, hints);
  const exponent = currencyExponent(currency.code);
  const rightOf = (p: RowParts) => p.amountWords[p.amountWords.length - 1]!.box.x1;
  const charWidth = (p: RowParts) => {
    const w = p.amountWords[p.amountWords.length - 1]!;
    return (w.box.x1 - w.box.x0) / Math.max(1, w.text.length);
  };
  // The amount column: where the amounts printed with their decimals end, at the right.
  let rights = parts
    .filter((p) => p.amount && !p.amount.repaired && p.amount.decimals === exponent)
    .map(rightOf)
    .sort((a, b) => a - b);
  if (rights.length < 2) {
    // A blurred photo can lose nearly every separator: then the column is where three or more
    // of the numbers that lost it end, within two characters of each other.
    const lost = parts.filter((p) => p.amount?.repaired);
    const middle = lost.map(rightOf).sort((a, b) => a - b)[Math.floor(lost.length / 2)] ?? 0;
    const aligned = lost.filter((p) => Math.abs(rightOf(p) - middle) <= 2 * charWidth(p));
    if (aligned.length >= 3) rights = aligned.map(rightOf).sort((a, b) => a - b);
  }
  const column = rights[Math.floor(rights.length / 2)];
  const minorOf = (p: RowParts) => {
    if (!p.amount) return null;
    const x1 = rightOf(p);
    const off = column === undefined ? 0 : Math.abs(x1 - column) / charWidth(p);
    // A number that lost its separator is a price only where the prices are; a number far left
    // of them ("Bier 0,5l") is part of a name.
    if (p.amount.repaired && (rights.length < 2 || off > 3)) return null;
    if (rights.length >= 3 && off > 6) return null;
    return toMinor(p.amount, exponent);
  };
  const repairFactor = (p: RowParts) => (p.amount?.repaired ? 0.8 : 1);

  let date: ReadField<string> | null = null;
  for (const p of parts) {
    const found = findDate(p.row.words.map((w) => w.text).join(' '), currency.monthFirst);
    if (found) {
      date = field(found.iso, (found.ambiguous ? 0.55 : 0.9) * ocrFactor(p.row.confidence));
      break;
    }
  }

  const priced = parts.map((p) => ({ p, minor: minorOf(p) }));
  const firstAmountRow = priced.findIndex(({ minor }) => minor !== null);
  const merchant = merchantOf(parts, firstAmountRow);

  // The summary starts at the first row naming a subtotal, total, tax, tip or service charge.
  const summaryKinds = new Set(['subtotal', 'total', 'tax', 'tip', 'service']);
  let summaryStart = priced.findIndex(
    ({ p, minor }) => minor !== null && p.label !== null && summaryKinds.has(p.label.kind),
  );
  if (summaryStart === -1) summaryStart = priced.length;

  // Total: the strongest label, and among equals the one the parts add up to, else the last.
  const totals = priced.filter(
    ({ p, minor }, i) =>
      i >= summaryStart && p.label?.kind === 'total' && minor !== null && minor > 0,
  );
  const topWeight = totals.reduce((w, t) => Math.max(w, t.p.label!.weight), 0);
  const strongest = totals.filter((t) => t.p.label!.weight === topWeight);
  const totalIndex = (t: (typeof priced)[number] | undefined) => (t ? priced.indexOf(t) : -1);

  let subtotal: ReadField<number> | null = null;
  let taxAdded = 0;
  let taxIncludedSum = 0;
  let taxIncluded = false;
  let taxConfidence = 1;
  let tip = 0;
  let tipConfidence = 1;
  let service = 0;
  let serviceConfidence = 1;
  let discount = 0;
  let discountConfidence = 1;
  let seenTax = false;
  let seenTip = false;
  let seenService = false;
  let seenDiscount = false;
  const lastTotal = strongest[strongest.length - 1];
  const totalAt = totalIndex(lastTotal);

  const items: ReceiptItem[] = [];
  const candidates: Candidate[] = [];
  let itemDiscount = 0;
  for (let i = 0; i < priced.length; i++) {
    const { p, minor } = priced[i]!;
    if (minor === null) continue;
    const kind = p.label?.kind;
    const factor = ocrFactor(p.row.confidence);
    if (i < summaryStart) {
      if (kind === 'discount' || (minor < 0 && i > firstAmountRow)) {
        itemDiscount += Math.abs(minor);
        continue;
      }
      if (kind !== undefined || i < firstAmountRow) continue;
      let description = p.description;
      if (letterCount(description) < 2 && i > 0 && priced[i - 1]!.minor === null) {
        // The name on the line above, whole: a number in it is part of it ("Bier 0,5l").
        description = priced[i - 1]!.p.row.words.map((w) => w.text).join(' ');
      }
      if (letterCount(description) < 2) continue;
      const unitMinor = p.unit ? toMinor(p.unit, exponent) : null;
      let amount = minor;
      let confidence = 0.85 * factor * repairFactor(p);
      let readings = confusedReadings(minor);
      if (p.quantity !== null && unitMinor !== null) {
        const quantity = p.quantity;
        if (p.unit === p.amount) {
          amount = quantity * unitMinor;
          readings = readings.map((unit) => quantity * unit);
        } else if (quantity * unitMinor !== minor) {
          confidence *= 0.7;
          readings.push(quantity * unitMinor);
        }
      }
      candidates.push({ minor: amount, doubtful: doubtful(p), readings });
      items.push({
        description: description.slice(0, 80),
        minor: amount,
        quantity: p.quantity,
        unitMinor,
        confidence: clamp(confidence),
      });
      continue;
    }
    const value = Math.abs(minor);
    if (kind === 'subtotal' && (totalAt === -1 || i < totalAt)) {
      subtotal = field(value, 0.85 * factor);
    } else if (kind === 'tax') {
      seenTax = true;
      taxConfidence = Math.min(taxConfidence, factor);
      if (p.label!.included || (totalAt !== -1 && i > totalAt)) {
        taxIncluded = true;
        taxIncludedSum += value;
      } else {
        taxAdded += value;
      }
    } else if (kind === 'tip' && (totalAt === -1 || i < totalAt)) {
      seenTip = true;
      tip += value;
      tipConfidence = Math.min(tipConfidence, factor);
    } else if (kind === 'service' && (totalAt === -1 || i < totalAt)) {
      seenService = true;
      service += value;
      serviceConfidence = Math.min(serviceConfidence, factor);
    } else if (kind === 'discount' && (totalAt === -1 || i < totalAt)) {
      seenDiscount = true;
      discount += value;
      discountConfidence = Math.min(discountConfidence, factor);
    }
  }

  const itemsSum = items.reduce((n, item) => n + item.minor, 0);
  const base = subtotal?.value ?? (items.length > 0 ? itemsSum - itemDiscount : null);
  const expectedTotal = base === null ? null : base + taxAdded + tip + service - discount;

  // Among totals of the strongest label, the one the parts add up to.
  const matching = strongest.find((t) => t.minor === expectedTotal);
  const chosen = matching ?? lastTotal;
  let total: ReadField<number> | null = null;
  if (chosen && chosen.minor !== null) {
    const weight = chosen.p.label!.weight;
    total = field(
      chosen.minor,
      (weight >= 3 ? 0.85 : weight === 2 ? 0.8 : 0.55) *
        ocrFactor(chosen.p.row.confidence) *
        repairFactor(chosen.p),
    );
  } else {
    // No line says "total" (or the OCR garbled it): the largest amount printed twice (a total
    // and its payment line), else the amount the parts add up to, else the largest, each less sure.
    const seen = new Map<number, number>();
    let largest: number | null = null;
    for (const { minor } of priced.slice(summaryStart === priced.length ? 0 : summaryStart)) {
      if (minor === null || minor <= 0) continue;
      seen.set(minor, (seen.get(minor) ?? 0) + 1);
      if (largest === null || minor > largest) largest = minor;
    }
    let twice: number | null = null;
    for (const [minor, n] of seen) if (n >= 2 && (twice === null || minor > twice)) twice = minor;
    if (twice !== null) {
      total = field(twice, 0.5);
    } else if (expectedTotal !== null && expectedTotal > 0 && seen.has(expectedTotal)) {
      total = field(expectedTotal, 0.45);
    } else if (largest !== null) {
      total = field(largest, 0.3);
    }
  }

  const added: Added = {
    tax: taxAdded,
    included: taxIncludedSum,
    taxIncluded,
    tip,
    service,
    discount,
    seenTax,
  };
  const net = () =>
    items.length > 0 ? items.reduce((n, item) => n + item.minor, 0) - itemDiscount : null;
  let sums = checkSums(net(), subtotal?.value ?? null, total?.value ?? null, added);
  const off = sums.itemsVsSubtotal;
  const fix = off && !off.ok ? reconcile(candidates, off.difference) : null;
  if (fix) {
    // One misread amount, and only one reading of it makes the sums hold: taken, less sure,
    // and the reading as the OCR gave it kept beside it.
    const item = items[fix.index]!;
    items[fix.index] = {
      ...item,
      minor: fix.minor,
      read: item.minor,
      confidence: clamp(item.confidence * 0.8),
    };
    sums = checkSums(net(), subtotal?.value ?? null, total?.value ?? null, added);
  }
  const { partsVsTotal, itemsVsSubtotal } = sums;
  ({ tax: taxAdded, included: taxIncludedSum, taxIncluded } = sums.added);

  if (total && (partsVsTotal?.ok || (itemsVsSubtotal?.ok && !subtotal))) {
    total = field(total.value, total.confidence + 0.15);
  }
  if (subtotal && itemsVsSubtotal?.ok) subtotal = field(subtotal.value, subtotal.confidence + 0.1);
  const items2 = itemsVsSubtotal?.ok
    ? items.map((item) =>
        item.read === undefined ? { ...item, confidence: clamp(item.confidence + 0.1) } : item,
      )
    : items;

  const taxValue = taxAdded + taxIncludedSum;
  return {
    total,
    currency: field(currency.code, currency.confidence),
    date,
    merchant,
    subtotal,
    tax: seenTax ? field(taxValue, 0.8 * taxConfidence) : null,
    tip: seenTip ? field(tip, 0.8 * tipConfidence) : null,
    serviceCharge: seenService ? field(service, 0.8 * serviceConfidence) : null,
    discount:
      seenDiscount || itemDiscount > 0
        ? field(discount + itemDiscount, 0.75 * discountConfidence)
        : null,
    items: items2,
    checks: { itemsVsSubtotal, partsVsTotal, taxIncluded },
  };
}
