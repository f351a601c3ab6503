/**
 * The receipt reader's own process (engine.ts forks it): takes one image at a time from the app
 * over its IPC channel, answers with a reading or a failure. Tesseract is loaded at the first
 * image and kept until the app stops the process, which gives all its memory back to the system.
 * It leaves when the app's end of the channel closes, so an app that dies leaves no reader behind.
 */
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

const send = process.send?.bind(process);
if (send) {
  const reply = (message: WorkerMessage) => send(message);
  let ocr: Promise<Ocr> | null = null;
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (request: WorkerRequest) => {
    let result: ReceiptReading | ReceiptFailure;
    try {
      ocr ??= startOcr((url) => reply({ kind: 'fetch', url })).catch((error: unknown) => {
        // A failed start is tried again by the next image rather than remembered.
        ocr = null;
        throw error;
      });
      result = await readImage(await ocr, request.bytes, request.header, request);
    } catch (error) {
      result = { ok: false, reason: 'unreadable', detail: String(error).slice(0, 300) };
    }
    reply({ kind: 'result', id: request.id, result });
  });
}
