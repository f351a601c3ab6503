/**
 * OCR lines for the reader's tests, laid out as on a receipt: each row's label from the left
 * margin, its amount ending at the right one, one word box per word.
 */
import type { OcrLine, OcrWord } from '../../src/receipts/types.js';

const CHAR = 12;
const HEIGHT = 20;
const WIDTH = 600;

function words(text: string, x: number, y: number): OcrWord[] {
  const out: OcrWord[] = [];
  let at = x;
  for (const part of text.split(' ')) {
    if (part)
      out.push({
        text: part,
        box: { x0: at, y0: y, x1: at + part.length * CHAR, y1: y + HEIGHT },
        confidence: 92,
      });
    at += (part.length + 1) * CHAR;
  }
  return out;
}

/**
 * `rows` are 'label | amount' (amount right-aligned) or plain text. With `split`, the label and
 * the amount come as two separate OCR lines, as tesseract gives a row whose parts are far apart.
 */
export function receiptLines(rows: string[], split = false): OcrLine[] {
  const lines: OcrLine[] = [];
  rows.forEach((row, i) => {
    const y = 20 + i * 30;
    const [label = '', amount] = row.split(' | ');
    const left = words(label, 20, y);
    const right = amount ? words(amount, WIDTH - 20 - amount.length * CHAR, y) : [];
    const line = (ws: OcrWord[], text: string): OcrLine => ({
      text,
      box: {
        x0: ws[0]?.box.x0 ?? 20,
        y0: y,
        x1: ws[ws.length - 1]?.box.x1 ?? 20,
        y1: y + HEIGHT,
      },
      confidence: 92,
      words: ws,
    });
    if (split && right.length > 0) {
      lines.push(line(left, label), line(right, amount!));
    } else if (left.length + right.length > 0) {
      lines.push(line([...left, ...right], [label, amount].filter(Boolean).join(' ')));
    }
  });
  return lines;
}
