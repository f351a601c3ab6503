/**
 * The receipt worker thread: takes one image at a time from the reader (engine.ts), answers with
 * a reading or a failure. Tesseract is loaded at the first image and kept until the reader stops
 * the thread, which gives all its memory back.
 */
import { parentPort } from 'node:worker_threads';
import type { ImageHeader } from './intake.js';
import { type Ocr, startOcr } from './ocr.js';
import { readImage } from './pipeline.js';
import type { ReceiptFailure, ReceiptLanguage, ReceiptReading } from './types.js';

export interface WorkerRequest {
  id: number;
  bytes: Uint8Array;
  header: ImageHeader;
  languages: ReceiptLanguage[];
  currency?: string;
  maxPixels: number;
}

export type WorkerMessage =
  | { kind: 'result'; id: number; result: ReceiptReading | ReceiptFailure }
  | { kind: 'fetch'; url: string };

const port = parentPort;
if (port) {
  let ocr: Promise<Ocr> | null = null;
  port.on('message', async (request: WorkerRequest) => {
    let result: ReceiptReading | ReceiptFailure;
    try {
      ocr ??= startOcr((url) =>
        port.postMessage({ kind: 'fetch', url } satisfies WorkerMessage),
      ).catch((error: unknown) => {
        // A failed start is tried again by the next image rather than remembered.
        ocr = null;
        throw error;
      });
      result = await readImage(await ocr, request.bytes, request.header, request);
    } catch (error) {
      result = { ok: false, reason: 'unreadable', detail: String(error).slice(0, 300) };
    }
    port.postMessage({ kind: 'result', id: request.id, result } satisfies WorkerMessage);
  });
}
