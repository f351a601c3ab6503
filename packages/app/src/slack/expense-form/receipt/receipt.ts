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
import { Lru } from '../../../core/lru.js';
import { LOCALES_KEPT } from '../../../voice/index.js';
import type { FileHosts } from '../../shared/file-hosts.js';
import type { Voice } from '../../shared/voice.js';

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

/** Why a receipt was not fetched, as a person reads it (receiptProblem writes it out). */
export type ReceiptProblem =
  | { kind: 'slack_refused'; code: string | undefined }
  | { kind: 'too_large'; size: number | undefined; max: number }
  | { kind: 'no_address' }
  | { kind: 'bad_address' }
  | { kind: 'timeout'; ms: number }
  | { kind: 'other_host'; host: string; allowed: string }
  | { kind: 'redirects' }
  | { kind: 'unreachable' }
  | { kind: 'not_handed' }
  | { kind: 'nothing_sent' }
  | { kind: 'broken_off' }
  | { kind: 'no_token' }
  | { kind: 'not_offered' };

/** Why a receipt was not fetched, with the file's name when Slack said it. */
export class ReceiptError extends Error {
  override name = 'ReceiptError';
  constructor(
    readonly problem: ReceiptProblem,
    readonly fileName: string | undefined = undefined,
    /** What went wrong underneath, for the logs. */
    cause?: string,
  ) {
    super(`${problem.kind}${cause ? `: ${cause}` : ''}`);
  }
}

const sizes = new Lru<string, Intl.NumberFormat>(LOCALES_KEPT, 'receipt.sizes');

/** "5.4 MB", "5,4 MB": a file's size as the reader writes numbers. */
export function megabytes(bytes: number, voice: Pick<Voice, 'locale'>): string {
  const format = sizes.getOrMake(
    voice.locale,
    (locale) =>
      new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
  );
  return `${format.format(bytes / (1024 * 1024))} MB`;
}

/** What the person reads about a receipt that could not be fetched (after "I couldn't attach it:"). */
export function receiptProblem(p: ReceiptProblem, voice: Voice): string {
  switch (p.kind) {
    case 'slack_refused':
      return voice.t('form.receipt_slack_refused', { code: p.code ?? 'none' });
    case 'too_large':
      return p.size === undefined
        ? voice.t('form.receipt_larger', { max: megabytes(p.max, voice) })
        : voice.t('form.receipt_size', {
            size: megabytes(p.size, voice),
            max: megabytes(p.max, voice),
          });
    case 'no_address':
      return voice.t('form.receipt_no_address');
    case 'bad_address':
      return voice.t('form.receipt_bad_address');
    case 'timeout':
      return voice.t('form.receipt_timeout', {
        time:
          p.ms >= 1000 ? `${voice.number(Math.round(p.ms / 1000))} s` : `${voice.number(p.ms)} ms`,
      });
    case 'other_host':
      return voice.t('form.receipt_other_host', { host: p.host, allowed: p.allowed });
    case 'redirects':
      return voice.t('form.receipt_redirects');
    case 'unreachable':
      return voice.t('form.receipt_unreachable');
    case 'not_handed':
      return voice.t('form.receipt_not_handed');
    case 'nothing_sent':
      return voice.t('form.receipt_nothing_sent');
    case 'broken_off':
      return voice.t('form.receipt_broken_off');
    case 'no_token':
      return voice.t('form.receipt_no_token');
    case 'not_offered':
      return voice.t('form.receipt_not_offered');
  }
}

export interface FetchedReceipt {
  path: string;
  name: string;
  remove(): Promise<void>;
}

/** What files.info says of a file that decides whether the person may attach it. */
export interface FileFacts {
  id: string;
  /** Who shared it: for a file chosen in the form's file input, the person who chose it. */
  user: string | undefined;
}

export interface ReceiptLimits {
  hosts: FileHosts;
  /**
   * Whether the person may attach this file. The id came back from their Slack client, and the
   * bot can read files they cannot see (another person's export in a DM, a private channel's
   * photo): only one they shared themselves, or the one the form offered them, is fetched.
   */
  mayRead(file: FileFacts): boolean;
  maxBytes?: number;
  timeoutMs?: number;
  /**
   * To be read rather than attached: a HEIC photo is fetched as the JPEG thumbnail Slack makes of
   * it (the largest), which the reader decodes.
   */
  thumbnail?: boolean;
}

/** Slack's thumbnails of an image, largest first. */
const THUMBNAILS = ['thumb_1024', 'thumb_960', 'thumb_720', 'thumb_480', 'thumb_360'] as const;

function thumbnailOf(file: Record<string, unknown> | undefined): string | undefined {
  if (!/^image\/hei[cf]/i.test(String(file?.mimetype ?? ''))) return undefined;
  const found = THUMBNAILS.map((key) => file?.[key]).find((url) => typeof url === 'string');
  return found as string | undefined;
}

const tooLarge = (max: number, size?: number): ReceiptProblem => ({ kind: 'too_large', size, max });

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
      { kind: 'slack_refused', code: typeof code === 'string' ? code.slice(0, 60) : undefined },
      undefined,
      (error as Error).message,
    );
  });
  const file = info.file;
  // Nothing of a file the person may not read is told them, its name included.
  if (!limits.mayRead({ id: fileId, user: file?.user }))
    throw new ReceiptError({ kind: 'not_offered' });
  // Unnamed, the refusal says "your receipt" in the person's words (form.receipt_left_out).
  const name = file?.name || file?.title || undefined;
  const refuse = (problem: ReceiptProblem, cause?: string) =>
    new ReceiptError(problem, name, cause);
  if (typeof file?.size === 'number' && file.size > max) throw refuse(tooLarge(max, file.size));
  const address =
    (limits.thumbnail ? thumbnailOf(file as Record<string, unknown> | undefined) : undefined) ??
    file?.url_private_download ??
    file?.url_private;
  if (!address) throw refuse({ kind: 'no_address' });
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw refuse({ kind: 'bad_address' });
  }

  const limitMs = limits.timeoutMs ?? RECEIPT_TIMEOUT_MS;
  const timedOut = () => refuse({ kind: 'timeout', ms: limitMs });
  const signal = AbortSignal.timeout(limitMs);
  let response: Response | undefined;
  try {
    for (let hop = 0; ; hop += 1) {
      // The token goes to Slack's file host and nowhere else, however the address was reached.
      if (!limits.hosts.allows(url)) {
        throw refuse({ kind: 'other_host', host: url.host, allowed: limits.hosts.described });
      }
      response = await fetch(url, {
        headers: { authorization: `Bearer ${botToken}` },
        redirect: 'manual',
        signal,
      });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) break;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS) throw refuse({ kind: 'redirects' });
      url = new URL(location, url);
    }
  } catch (error) {
    if (error instanceof ReceiptError) throw error;
    if (signal.aborted) throw timedOut();
    throw refuse({ kind: 'unreachable' }, (error as Error).message);
  }

  const type = response.headers.get('content-type') ?? '';
  // Without access Slack answers a sign-in page with status 200, not the file.
  if (!response.ok || type.startsWith('text/html')) {
    await response.body?.cancel();
    // The status is for the logs: the person reads that Slack did not hand the file over.
    throw refuse({ kind: 'not_handed' }, `HTTP ${response.status}`);
  }
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(length) && length > max) {
    await response.body?.cancel();
    throw refuse(tooLarge(max, length));
  }
  if (!response.body) throw refuse({ kind: 'nothing_sent' });

  const dir = await mkdtemp(join(tmpdir(), 'split-receipt-'));
  const safe = (name ?? '').replace(/[^\w.-]+/g, '_').slice(-100) || 'receipt';
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
    throw refuse({ kind: 'broken_off' }, (error as Error).message);
  }
  return { path, name: name ?? safe, remove: () => rm(dir, { recursive: true, force: true }) };
}
