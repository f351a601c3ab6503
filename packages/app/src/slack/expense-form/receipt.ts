/**
 * A receipt chosen in the form's file input: Slack gives the file's id; the bytes are fetched
 * from url_private_download with the bot token (files:read) and kept in a temporary file for the
 * client to upload as the multipart part `receipt`.
 *
 * The work is bounded before any byte arrives and while they do: files.info's `size` and the
 * answer's `content-length` are checked first, the bytes are streamed to the file with a cap and
 * the whole download has a time limit, so a file of any size costs at most the cap in memory and
 * on disk. The token goes only to Slack's file host (shared/file-hosts.ts), redirects included.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { webApi } from '@slack/bolt';
import type { FileHosts } from '../shared/file-hosts.js';

/**
 * The largest receipt sent: the service takes a request of at most 5 MB with the receipt in it
 * (the emulator answers 413 beyond, as for any body over its limit); the expense's other fields
 * need far less than the 64 KB kept back for them.
 */
export const RECEIPT_MAX_BYTES = 5 * 1024 * 1024 - 64 * 1024;
/** The whole download, headers and bytes: a file host that trickles is given up on. */
export const RECEIPT_TIMEOUT_MS = 20_000;
/** Redirects followed, each to an allowed host only. */
const MAX_REDIRECTS = 3;

/** Why a receipt was not fetched, with the file's name when Slack said it. */
export class ReceiptError extends Error {
  override name = 'ReceiptError';
  constructor(
    readonly reason: string,
    readonly fileName: string | undefined = undefined,
  ) {
    super(reason);
  }
}

export interface FetchedReceipt {
  path: string;
  name: string;
  remove(): Promise<void>;
}

export interface ReceiptLimits {
  hosts: FileHosts;
  maxBytes?: number;
  timeoutMs?: number;
}

export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const tooLarge = (max: number, size?: number) =>
  size === undefined
    ? `it is larger than the ${megabytes(max)} a receipt can be`
    : `it is ${megabytes(size)}, larger than the ${megabytes(max)} a receipt can be`;

/** Counts the bytes going through and fails once they pass `max`. */
function capped(max: number, fail: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) done(fail());
      else done(null, chunk);
    },
  });
}

export async function fetchReceipt(
  client: webApi.WebClient,
  botToken: string,
  fileId: string,
  limits: ReceiptLimits,
): Promise<FetchedReceipt> {
  const max = limits.maxBytes ?? RECEIPT_MAX_BYTES;
  const info = await client.files.info({ file: fileId }).catch((error: unknown) => {
    const code = (error as { data?: { error?: unknown } }).data?.error;
    throw new ReceiptError(
      `Slack wouldn't give it to me (${typeof code === 'string' ? code : 'no answer'})`,
    );
  });
  const file = info.file;
  const name = file?.name || file?.title || 'the receipt';
  const refuse = (reason: string) => new ReceiptError(reason, name);
  if (typeof file?.size === 'number' && file.size > max) throw refuse(tooLarge(max, file.size));
  const address = file?.url_private_download ?? file?.url_private;
  if (!address) throw refuse('Slack gave no download address for it');
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw refuse('Slack gave a download address for it that is not a URL');
  }

  const limitMs = limits.timeoutMs ?? RECEIPT_TIMEOUT_MS;
  const timedOut = () =>
    refuse(
      `Slack took longer than ${limitMs >= 1000 ? `${Math.round(limitMs / 1000)} s` : `${limitMs} ms`} to send it`,
    );
  const signal = AbortSignal.timeout(limitMs);
  let response: Response | undefined;
  try {
    for (let hop = 0; ; hop += 1) {
      // The token goes to Slack's file host and nowhere else, however the address was reached.
      if (!limits.hosts.allows(url)) {
        throw refuse(
          `its download address is on ${url.host}, not on Slack's file host (${limits.hosts.described}), so I didn't ask for it`,
        );
      }
      response = await fetch(url, {
        headers: { authorization: `Bearer ${botToken}` },
        redirect: 'manual',
        signal,
      });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) break;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) throw refuse('Slack sent it through too many redirects');
      url = new URL(location, url);
    }
  } catch (error) {
    if (error instanceof ReceiptError) throw error;
    if (signal.aborted) throw timedOut();
    throw refuse(`Slack's file host could not be reached (${(error as Error).message})`);
  }

  const type = response.headers.get('content-type') ?? '';
  // Without access Slack answers a sign-in page with status 200, not the file.
  if (!response.ok || type.startsWith('text/html')) {
    await response.body?.cancel();
    throw refuse(`Slack didn't hand it over (HTTP ${response.status})`);
  }
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(length) && length > max) {
    await response.body?.cancel();
    throw refuse(tooLarge(max, length));
  }
  if (!response.body) throw refuse('Slack sent nothing for it');

  const dir = await mkdtemp(join(tmpdir(), 'split-receipt-'));
  const safe = name.replace(/[^\w.-]+/g, '_').slice(-100) || 'receipt';
  const path = join(dir, safe);
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream),
      capped(max, () => refuse(tooLarge(max))),
      createWriteStream(path, { mode: 0o600 }),
      { signal },
    );
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    if (error instanceof ReceiptError) throw error;
    if (signal.aborted) throw timedOut();
    throw refuse(`the download broke off (${(error as Error).message})`);
  }
  return { path, name, remove: () => rm(dir, { recursive: true, force: true }) };
}
