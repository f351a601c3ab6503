/**
 * Rows of a receipt from the OCR's lines. An OCR engine often reads a row's label and its amount,
 * far to the right, as two lines (or two blocks); the row is what a person reads across. Lines are
 * joined into one row when they overlap vertically by at least half the lower one's height.
 */
import type { Box, OcrLine, OcrWord } from '../types.js';

/** Caps on what one reading looks at: an image of text that is not a receipt stops here. */
export const MAX_LINES = 400;
export const MAX_WORDS_PER_ROW = 60;
export const MAX_WORD_TEXT = 48;

export interface Row {
  words: OcrWord[];
  box: Box;
  /** Mean word confidence, 0 to 100. */
  confidence: number;
}

function union(a: Box, b: Box): Box {
  return {
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
  };
}

function overlapsVertically(a: Box, b: Box): boolean {
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  const smaller = Math.min(a.y1 - a.y0, b.y1 - b.y0);
  return smaller > 0 && overlap >= smaller / 2;
}

/** The words of a line, or its text split on spaces with boxes shared out along it. */
function wordsOf(line: OcrLine): OcrWord[] {
  const words = line.words.filter((w) => w.text.trim() !== '');
  if (words.length > 0) return words;
  const parts = line.text.trim().split(/\s+/).filter(Boolean);
  const total = parts.reduce((n, p) => n + p.length + 1, 0);
  const width = line.box.x1 - line.box.x0;
  let at = 0;
  return parts.map((text) => {
    const x0 = line.box.x0 + (width * at) / total;
    at += text.length + 1;
    const x1 = line.box.x0 + (width * (at - 1)) / total;
    return { text, box: { ...line.box, x0, x1 }, confidence: line.confidence };
  });
}

/**
 * The height a line's text takes, for joining lines into rows: its words' boxes without the
 * marks that are no text (a bar of the paper's edge read as "|" can be three lines tall) and
 * without any word more than twice as tall as the line's middle one.
 */
function textBox(line: OcrLine, words: OcrWord[]): Box {
  const texty = words.filter((w) => /[\p{L}\p{N}]/u.test(w.text));
  if (texty.length === 0) return line.box;
  const heights = texty.map((w) => w.box.y1 - w.box.y0).sort((a, b) => a - b);
  const middle = heights[Math.floor(heights.length / 2)]!;
  const kept = texty.filter((w) => w.box.y1 - w.box.y0 <= 2 * middle);
  return kept.map((w) => w.box).reduce(union);
}

/** Rows from top to bottom, each with its words from left to right. */
export function buildRows(lines: readonly OcrLine[]): Row[] {
  const sorted = lines
    .slice(0, MAX_LINES)
    .filter((line) => line.text.trim() !== '' || line.words.length > 0)
    .map((line) => {
      const words = wordsOf(line).map((w) => ({ ...w, text: w.text.slice(0, MAX_WORD_TEXT) }));
      return { words, box: textBox(line, words) };
    })
    .sort((a, b) => a.box.y0 + a.box.y1 - (b.box.y0 + b.box.y1));
  const rows: { words: OcrWord[]; box: Box }[] = [];
  for (const line of sorted) {
    const words = line.words;
    // Only the last few rows can overlap a line that starts lower than all before it.
    let joined = false;
    for (let k = rows.length - 1; k >= 0 && k >= rows.length - 3; k--) {
      const row = rows[k]!;
      if (overlapsVertically(row.box, line.box)) {
        row.words.push(...words);
        row.box = union(row.box, line.box);
        joined = true;
        break;
      }
    }
    if (!joined) rows.push({ words: [...words], box: { ...line.box } });
  }
  return rows.map((row) => {
    const words = row.words.sort((a, b) => a.box.x0 - b.box.x0).slice(0, MAX_WORDS_PER_ROW);
    const confidence = words.reduce((n, w) => n + w.confidence, 0) / Math.max(1, words.length);
    return { words, box: row.box, confidence };
  });
}
