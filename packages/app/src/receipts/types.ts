/**
 * What a receipt reading gives back, shared by the engine (worker side) and its callers. Money is
 * always an integer count of the currency's minor unit; a field that could not be read is null,
 * never a guess.
 */

/** A rectangle in the image's pixels, top-left origin. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface OcrWord {
  text: string;
  box: Box;
  /** 0 to 100, as the OCR engine reports it. */
  confidence: number;
}

export interface OcrLine {
  text: string;
  box: Box;
  confidence: number;
  words: OcrWord[];
}

/** How sure the reader is of a field, from 0 (a guess) to 1 (printed, labelled and consistent). */
export type Confidence = number;

export interface ReadField<T> {
  value: T;
  confidence: Confidence;
}

export interface ReceiptItem {
  description: string;
  /** The line's amount: quantity times unit price when both are printed. */
  minor: number;
  quantity: number | null;
  unitMinor: number | null;
  confidence: Confidence;
  /**
   * The amount as the OCR read it, when that reading did not add up and exactly one other
   * reading of it (a confused digit, its quantity times its unit price) did: `minor` is that one.
   */
  read?: number;
}

/**
 * A consistency check, reported as found. The reader changes an amount to make it hold only in
 * one case, and says so on the item (`ReceiptItem.read`): one misread item, one reading of it.
 */
export interface ReceiptCheck {
  ok: boolean;
  /** What the parts add up to. */
  expected: number;
  /** What the receipt prints. */
  printed: number;
  /** printed - expected. */
  difference: number;
}

export interface ReceiptChecks {
  /** The items against the subtotal (or against the total when no subtotal, tax or tip is printed). */
  itemsVsSubtotal: ReceiptCheck | null;
  /** Subtotal + tax + tip + service charge - discount against the total. */
  partsVsTotal: ReceiptCheck | null;
  /** The tax was printed as included in the prices ("incl. VAT", "inkl. MwSt", "dont TVA"). */
  taxIncluded: boolean;
}

/** Everything read from a receipt's text. */
export interface ReceiptFields {
  total: ReadField<number> | null;
  currency: ReadField<string> | null;
  /** ISO date, YYYY-MM-DD. */
  date: ReadField<string> | null;
  /** The merchant, from the top lines: the expense's description. */
  merchant: ReadField<string> | null;
  subtotal: ReadField<number> | null;
  tax: ReadField<number> | null;
  tip: ReadField<number> | null;
  serviceCharge: ReadField<number> | null;
  /** A positive amount taken off. */
  discount: ReadField<number> | null;
  items: ReceiptItem[];
  checks: ReceiptChecks;
}

export interface ReceiptReading extends ReceiptFields {
  ok: true;
  /** Seconds spent on the reading, in the worker. */
  seconds: number;
  /** The OCR's mean word confidence, 0 to 100. */
  ocrConfidence: number;
  /** The lines as the OCR read them, for a person to check against. */
  text: string;
}

export type ReceiptFailureReason =
  /** Not a PNG, JPEG, WebP or GIF (by its first bytes). */
  | 'not_image'
  /** More bytes than the cap. */
  | 'too_large'
  /** The header announces more pixels than the cap (a decompression bomb, or a huge photo). */
  | 'too_many_pixels'
  /** The reading took longer than its time limit; the worker was stopped. */
  | 'timeout'
  /** A reading is running and the queue behind it is full. */
  | 'busy'
  /** An image, but no receipt could be read from it (damaged file, no text, no amount). */
  | 'unreadable'
  /** The reader was closed before this reading ran. */
  | 'closed';

export interface ReceiptFailure {
  ok: false;
  reason: ReceiptFailureReason;
  /** For logs: what went wrong, with no image content in it. */
  detail: string;
}

/** The languages whose OCR data the engine ships. */
export const RECEIPT_LANGUAGES = ['eng', 'deu', 'fra', 'spa', 'por'] as const;
export type ReceiptLanguage = (typeof RECEIPT_LANGUAGES)[number];
