/**
 * The preparation's steps on images drawn here: the slant found and undone, the dark around the
 * paper whitened while the ink on it stays, the paper found on a darker table.
 */
import { describe, expect, it } from 'vitest';
import type { GreyImage } from '../../src/receipts/decode.js';
import { clearBorder, findPaper, rotate, skewAngle } from '../../src/receipts/preprocess.js';

function draw(width: number, height: number, ink: (x: number, y: number) => number): GreyImage {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = ink(x, y);
  return { width, height, data };
}

/** Rows of "text" (short dashes) slanted by `degrees`. */
function slantedText(degrees: number): GreyImage {
  const slope = Math.tan((degrees * Math.PI) / 180);
  return draw(500, 400, (x, y) => {
    const v = y - x * slope;
    const inRow = ((v % 24) + 24) % 24 < 6;
    const inWord = x % 40 < 30;
    return x > 40 && x < 460 && y > 40 && y < 360 && inRow && inWord ? 20 : 245;
  });
}

describe('preparation', () => {
  it.each([-4, -2, 3])('finds a slant of %i degrees, and straightens it', (degrees) => {
    const img = slantedText(degrees);
    expect(skewAngle(img)).toBeCloseTo(degrees, 0);
    expect(Math.abs(skewAngle(rotate(img, -skewAngle(img))))).toBeLessThanOrEqual(0.5);
  });

  it('whitens the dark reaching the edge, and keeps the ink inside the paper', () => {
    const img = draw(200, 200, (x, y) => {
      if (x < 15 || y < 15 || x > 185 || y > 185) return 30;
      return x > 80 && x < 120 && y > 90 && y < 110 ? 20 : 240;
    });
    const out = clearBorder(img);
    expect(out.data[5 * 200 + 5]).toBe(255);
    expect(out.data[100 * 200 + 100]).toBe(20);
  });

  it('does not follow a shaded paper edge into the text at the margin', () => {
    // The table (x < 10), a shaded strip of paper (x < 40), text starting at its side (x 40-60).
    const img = draw(300, 300, (x, y) => {
      if (x < 10) return 30;
      if (x < 40) return 190;
      return x < 60 && y > 100 && y < 200 ? 20 : 240;
    });
    const out = clearBorder(img);
    expect(out.data[150 * 300 + 5]).toBe(255);
    expect(out.data[150 * 300 + 15]).toBe(255);
    expect(out.data[150 * 300 + 50]).toBe(20);
  });

  it('finds the paper on a darker table', () => {
    const img = draw(400, 600, (x, y) => (x >= 100 && x < 300 && y >= 60 && y < 540 ? 235 : 70));
    const paper = findPaper(img);
    expect(paper.x).toBeLessThanOrEqual(100);
    expect(paper.x).toBeGreaterThan(60);
    expect(paper.x + paper.width).toBeGreaterThanOrEqual(300);
    expect(paper.x + paper.width).toBeLessThan(340);
    expect(paper.y + paper.height).toBeGreaterThanOrEqual(540);
  });
});
