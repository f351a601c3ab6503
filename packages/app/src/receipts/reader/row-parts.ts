/**
 * One row of a receipt taken apart: the amount at its right end (right-aligned, as receipts print
 * them), the label in front of it, and a quantity with a unit price ("2 x 4.50", "2 @ 4.50",
 * "2x Flat White").
 */
import type { OcrWord } from '../types.js';
import { type Amount, currencyOf, parseAmount } from './amounts.js';
import { type Label, labelOf } from './labels.js';
import type { Row } from './rows.js';

export interface RowParts {
  row: Row;
  /** The amount at the right end, with the words it was read from. */
  amount: Amount | null;
  amountWords: OcrWord[];
  /** The words in front of the amount. */
  labelText: string;
  label: Label | null;
  /** Currencies named anywhere in the row ("EUR" alone, "Total EUR", "£"). */
  currencies: string[];
  /** A quantity and unit price printed in the row. */
  quantity: number | null;
  unit: Amount | null;
  /** The label text without the quantity and unit price: an item's description. */
  description: string;
}

const TIMES = new Set(['x', 'X', '×', '*', '@']);
const SIGNS = new Set(['-', '–']);

function isCurrencyWord(text: string): boolean {
  return currencyOf(text) !== null || text === '¢';
}

/**
 * A speck the OCR reads after a price at the paper's right edge, or a mark on the paper: a bar,
 * a quote, a hash ("4,50 |", "7,00 '"). Signs and brackets are no specks: they belong to the amount.
 */
function isSpeck(text: string): boolean {
  return /^[^\p{L}\p{N}\-–()€$£¥¢]{1,2}$/u.test(text);
}

/** Whether two neighbouring words may be one amount split by the OCR ("€ 12.50", "12 ,50"). */
function joins(left: string, right: string): boolean {
  return (
    isCurrencyWord(left) ||
    SIGNS.has(left) ||
    isCurrencyWord(right) ||
    right === '-' ||
    right.startsWith(',') ||
    right.startsWith('.') ||
    left.endsWith(',') ||
    left.endsWith('.') ||
    // "12 50": the decimal separator read as a space.
    (/^\d{1,4}$/.test(left) && /^\d\d$/.test(right))
  );
}

/** A single capital letter or star after an amount: the tax class many tills print ("2,50 A"). */
function isTaxClass(text: string): boolean {
  return text.length === 1 && ((text >= 'A' && text <= 'Z') || text === '*');
}

function trailingAmount(words: OcrWord[]): { amount: Amount; start: number; end: number } | null {
  let end = words.length;
  if (end > 1 && isSpeck(words[end - 1]!.text)) end--;
  // The words the amount is read from, a tax class after it included: it stands in the column.
  let shown = end;
  if (end > 1 && isTaxClass(words[end - 1]!.text) && !isCurrencyWord(words[end - 1]!.text)) end--;
  if (end === 0) return null;
  // A tax class the OCR read as a digit, or doubled ("0,25 8", "0,25 8B" for "0,25 B"): one
  // digit, or two characters with a capital, after a price; or a speck read as a digit after a
  // price and its symbol ("2.355,20 € 3").
  const last = words[end - 1]!.text;
  const classLike = /^\d$/.test(last) || /^(?=.*[A-Z])[A-Z\d]{2}$/.test(last);
  if (end > 1 && classLike && !isCurrencyWord(last)) {
    const symbol = end > 2 && isCurrencyWord(words[end - 2]!.text) ? 1 : 0;
    const before = parseAmount(words[end - 2 - symbol]!.text);
    if (before && before.decimals > 0) {
      end--;
      if (symbol) shown = end;
    }
  }
  let start = end - 1;
  while (start > 0 && end - start < 3 && joins(words[start - 1]!.text, words[start]!.text)) start--;
  // Decimals printed first; then a number that lost its separator; then a whole number (a price
  // in a currency without decimals, or no price at all: the reader decides).
  let whole: { amount: Amount; start: number; end: number } | null = null;
  for (const loose of [false, true]) {
    for (let from = start; from < end; from++) {
      const text = words
        .slice(from, end)
        .map((w) => w.text)
        .join('');
      const amount = parseAmount(text, loose);
      if (amount && (amount.decimals > 0 || loose)) return { amount, start: from, end: shown };
      if (amount && !whole) whole = { amount, start: from, end: shown };
    }
  }
  return whole;
}

function quantityOf(text: string): number | null {
  let t = text;
  if (t.endsWith('x') || t.endsWith('X') || t.endsWith('×')) t = t.slice(0, -1);
  else if (t.startsWith('x') || t.startsWith('X') || t.startsWith('×')) t = t.slice(1);
  if (t.length === 0 || t.length > 3) return null;
  for (const c of t) if (c < '0' || c > '9') return null;
  const n = Number(t);
  return n >= 1 && n <= 999 ? n : null;
}

/** A quantity and unit price among the words in front of the amount; the words used go in `used`. */
function quantityIn(
  front: OcrWord[],
  used: Set<number>,
): { quantity: number | null; unit: Amount | null } {
  let quantity: number | null = null;
  let unit: Amount | null = null;
  for (let i = 0; i < front.length && quantity === null; i++) {
    const text = front[i]!.text;
    const next = front[i + 1]?.text ?? '';
    const fused = quantityOf(text);
    // "2x7,25", "4x475": the quantity and the unit price read as one word.
    const stuck = /^(\d{1,2})[xX×@](\d[\d.,]{2,8})$/.exec(text);
    const stuckUnit = stuck ? parseAmount(stuck[2]!, true) : null;
    if (stuck && stuckUnit && Number(stuck[1]) >= 1) {
      quantity = Number(stuck[1]);
      unit = stuckUnit;
      used.add(i);
    } else if (fused !== null && text !== String(fused)) {
      quantity = fused;
      used.add(i);
    } else if (fused !== null && TIMES.has(next)) {
      quantity = fused;
      used.add(i).add(i + 1);
      const price = front[i + 2] ? parseAmount(front[i + 2]!.text) : null;
      if (price && price.separator !== null) {
        unit = price;
        used.add(i + 2);
      }
    } else if (TIMES.has(text) && i > 0 && front[i + 1]) {
      const price = parseAmount(front[i - 1]!.text);
      const count = quantityOf(front[i + 1]!.text);
      if (price && price.separator !== null && count !== null) {
        quantity = count;
        unit = price;
        used
          .add(i - 1)
          .add(i)
          .add(i + 1);
      }
    }
  }
  return { quantity, unit };
}

/** Takes the row apart; a row with no words gives nothing. */
export function rowParts(row: Row): RowParts {
  const words = row.words;
  const trailing = trailingAmount(words);
  const amountWords = trailing ? words.slice(trailing.start, trailing.end) : [];
  const front = trailing ? words.slice(0, trailing.start) : words;
  const labelText = front.map((w) => w.text).join(' ');
  const currencies: string[] = [];
  for (const w of words) {
    const c = currencyOf(w.text);
    if (c) currencies.push(c);
  }
  if (trailing?.amount.currency) currencies.push(trailing.amount.currency);

  // Quantity: "2 x 4.50", "2 @ 4.50", "4.50 x 2", "2x7,25", "2x Coffee", "2 Coffee".
  const used = new Set<number>();
  let { quantity, unit } = quantityIn(front, used);
  if (quantity === null && front.length > 1 && /^\d{1,2}$/.test(front[0]!.text)) {
    const n = Number(front[0]!.text);
    if (n >= 1) {
      quantity = n;
      used.add(0);
    }
  }
  // "2 x 4.50" with nothing after it but the amount: the amount is the unit price.
  if (quantity !== null && unit === null && trailing && front.length > 0) {
    const last = front[front.length - 1]!.text;
    if (TIMES.has(last) || last === 'x' || /^\d{1,3}[xX×]$/.test(last)) unit = trailing.amount;
  }
  if (trailing && unit === trailing.amount && TIMES.has(front[front.length - 1]?.text ?? '')) {
    used.add(front.length - 1);
  }
  const description = front
    .filter((_, i) => !used.has(i))
    .map((w) => w.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return {
    row,
    amount: trailing?.amount ?? null,
    amountWords,
    labelText,
    label: labelOf(labelText),
    currencies,
    quantity,
    unit,
    description,
  };
}
