/**
 * Uploaded receipts, served back at the URL an expense gives: `/__emulator/receipts/<key>/<name>`.
 * The key is 128 random bits, so no receipt is found by counting; and, as every other read of an
 * expense, the bytes go only to a caller who shows the API's credentials (a personal API key or
 * OAuth 2.0 token as Bearer, or an OAuth 1.0a signature) of someone who may see the expense. A
 * receipt replaced by a newer one is no longer served. An unknown key and an expense the caller
 * may not see get the same 404, so that a key cannot be tested for existence.
 */
import type { Emulator, Exchange } from './context.js';
import { baseHeaders, HttpError, NOT_FOUND, NOT_LOGGED_IN } from './http.js';

export const RECEIPT_PATH = /^\/__emulator\/receipts\/([^/]+)(?:\/[^/]*)?$/;

/** Answers GET of a receipt for `actorId` (undefined when the credentials are missing or wrong). */
export async function serveReceipt(
  emu: Emulator,
  ex: Exchange,
  key: string,
  actorId: number | undefined,
): Promise<void> {
  if (actorId === undefined) throw new HttpError(401, NOT_LOGGED_IN);
  ex.actorId = actorId;
  const found = emu.ledger.receiptFor(key, actorId);
  if (!found) throw new HttpError(404, NOT_FOUND);
  await emu.durable();
  ex.res.writeHead(200, {
    ...baseHeaders(ex.startedAt),
    'Content-Type': found.contentType,
    'Content-Length': found.data.length,
    // Uploaded bytes are whatever a client sent: never let a browser run them on this origin.
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  });
  ex.res.end(found.data);
}
