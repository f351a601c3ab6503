/**
 * When the items do not add up, one misread amount may be why: a blurred or faded "7" read as
 * "1", a "0" as "6", a price that lost its separator where its quantity line says otherwise. The
 * sums say by how much the items are off; an amount whose other readings include exactly that
 * difference is a candidate. One is taken only when the choice is unambiguous: exactly one
 * reading of exactly one amount, among all the items, makes the sum hold, and that amount is one
 * the OCR was unsure of. Otherwise nothing changes and the check reports the mismatch.
 */

/** Digits an OCR engine confuses in worn, faded or shaken print, both ways. */
const CONFUSED: readonly (readonly [string, string])[] = [
  ['0', '6'],
  ['0', '8'],
  ['0', '9'],
  ['1', '7'],
  ['3', '8'],
  ['5', '6'],
  ['6', '8'],
];

/** Below this word confidence (tesseract's 0 to 100) an amount's reading is in doubt. */
export const DOUBT_CONFIDENCE = 80;

/**
 * The values an amount might have been printed as, one confused digit apart: 1064,00 may have
 * been 1004,00 or 1068,00. In minor units, with the amount's sign.
 */
export function confusedReadings(minor: number): number[] {
  const sign = minor < 0 ? -1 : 1;
  const digits = String(Math.abs(minor));
  const out: number[] = [];
  for (let i = 0; i < digits.length; i++) {
    for (const [a, b] of CONFUSED) {
      const c = digits[i] === a ? b : digits[i] === b ? a : null;
      // A leading zero would be no reading of a printed number.
      if (c === null || (i === 0 && c === '0' && digits.length > 1)) continue;
      out.push(sign * Number(digits.slice(0, i) + c + digits.slice(i + 1)));
    }
  }
  return out;
}

export interface Candidate {
  /** The amount as read. */
  minor: number;
  /** Whether the OCR was unsure of it (low confidence, or a separator lost). */
  doubtful: boolean;
  /** What else it may have been printed as. */
  readings: readonly number[];
}

/**
 * The one change that makes the amounts sum to `difference` more than they do, as the index of
 * the amount and its new value, or null when there is none or more than one.
 */
export function reconcile(
  candidates: readonly Candidate[],
  difference: number,
): { index: number; minor: number } | null {
  if (difference === 0) return null;
  let found: { index: number; minor: number } | null = null;
  for (let index = 0; index < candidates.length; index++) {
    const c = candidates[index]!;
    for (const minor of new Set(c.readings)) {
      if (minor - c.minor !== difference) continue;
      if (found) return null;
      found = { index, minor };
    }
  }
  return found && candidates[found.index]!.doubtful ? found : null;
}
