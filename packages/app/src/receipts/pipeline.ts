/**
 * One reading, start to end, as the worker runs it: decode, prepare, OCR, read. Also called
 * directly by the benchmark and the tests that look at a stage.
 */
import { decodeGrey } from './decode.js';
import type { ImageHeader } from './intake.js';
import type { Ocr } from './ocr.js';
import { prepare, toPgm } from './preprocess.js';
import { readReceipt } from './reader/read.js';
import type { ReceiptFailure, ReceiptLanguage, ReceiptReading } from './types.js';

export interface PipelineOptions {
  languages: readonly ReceiptLanguage[];
  currency?: string;
  maxPixels: number;
}

/** The longest OCR text kept in a reading, for a person to look at. */
const MAX_TEXT = 4000;

export async function readImage(
  ocr: Ocr,
  bytes: Uint8Array,
  header: ImageHeader,
  options: PipelineOptions,
): Promise<ReceiptReading | ReceiptFailure> {
  const started = performance.now();
  let decoded: Awaited<ReturnType<typeof decodeGrey>>;
  try {
    decoded = await decodeGrey(bytes, header, options.maxPixels);
  } catch (error) {
    return {
      ok: false,
      reason: 'unreadable',
      detail: `the ${header.format} could not be decoded: ${String(error).slice(0, 200)}`,
    };
  }
  const prepared = prepare(decoded);
  const { lines, text, confidence } = await ocr.lines(toPgm(prepared.image), options.languages);
  const fields = readReceipt(lines, options.currency ? { currency: options.currency } : {});
  if (fields.total === null && fields.items.length === 0) {
    return {
      ok: false,
      reason: 'unreadable',
      detail: `no amount found in ${lines.length} lines of text`,
    };
  }
  return {
    ok: true,
    ...fields,
    seconds: Math.round(performance.now() - started) / 1000,
    ocrConfidence: Math.round(confidence),
    text: text.slice(0, MAX_TEXT),
  };
}
