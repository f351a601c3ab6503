/**
 * A receipt chosen in the form's file input: Slack gives the file's id; the bytes are fetched
 * from url_private_download with the bot token (files:read) and kept in a temporary file for the
 * client to upload as the multipart part `receipt`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { webApi } from '@slack/bolt';

/**
 * The largest receipt sent: the service takes a request of at most 5 MB with the receipt in it
 * (the emulator answers 413 beyond, as for any body over its limit); the expense's other fields
 * need far less than the 64 KB kept back for them.
 */
export const RECEIPT_MAX_BYTES = 5 * 1024 * 1024 - 64 * 1024;

export class ReceiptError extends Error {
  override name = 'ReceiptError';
}

export interface FetchedReceipt {
  path: string;
  remove(): Promise<void>;
}

export async function fetchReceipt(
  client: webApi.WebClient,
  botToken: string,
  fileId: string,
): Promise<FetchedReceipt> {
  const info = await client.files.info({ file: fileId });
  const file = info.file;
  const url = file?.url_private_download ?? file?.url_private;
  if (!url) throw new ReceiptError('Slack gave no download address for the receipt');
  const response = await fetch(url, { headers: { authorization: `Bearer ${botToken}` } });
  const type = response.headers.get('content-type') ?? '';
  // Without access Slack answers a sign-in page with status 200, not the file.
  if (!response.ok || type.startsWith('text/html'))
    throw new ReceiptError(`Slack didn't hand over the receipt (HTTP ${response.status})`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > RECEIPT_MAX_BYTES)
    throw new ReceiptError(
      `the receipt is larger than ${(RECEIPT_MAX_BYTES / (1024 * 1024)).toFixed(1)} MB`,
    );
  const dir = await mkdtemp(join(tmpdir(), 'split-receipt-'));
  const name = (file?.name ?? 'receipt').replace(/[^\w.-]+/g, '_').slice(-100) || 'receipt';
  const path = join(dir, name);
  await writeFile(path, bytes);
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}
