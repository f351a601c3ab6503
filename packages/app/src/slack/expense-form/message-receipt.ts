/**
 * "Split this" on a message with files: which of them can be the expense's receipt. The service
 * takes an image; the first image small enough is offered (the person can leave it out), and
 * otherwise the form says why none can be.
 */
import { RECEIPT_MAX_BYTES } from './receipt.js';

/** A file as a message_action payload carries it (Slack's file object, the fields read here). */
export interface MessageFile {
  id?: string;
  name?: string;
  title?: string;
  mimetype?: string;
  size?: number;
}

export type MessageReceipt =
  | { kind: 'attach'; id: string; name: string }
  | { kind: 'refused'; name: string; problem: string };

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function messageReceipt(
  files: readonly MessageFile[] | undefined,
): MessageReceipt | undefined {
  const usable = (files ?? []).filter((f) => typeof f.id === 'string' && f.id !== '');
  if (usable.length === 0) return undefined;
  const nameOf = (f: MessageFile) => f.name || f.title || 'the file';
  const images = usable.filter((f) => (f.mimetype ?? '').toLowerCase().startsWith('image/'));
  const fits = images.find((f) => typeof f.size === 'number' && f.size <= RECEIPT_MAX_BYTES);
  if (fits) return { kind: 'attach', id: fits.id as string, name: nameOf(fits) };
  const image = images[0];
  if (image) {
    return {
      kind: 'refused',
      name: nameOf(image),
      problem:
        typeof image.size === 'number'
          ? `it is larger than the ${megabytes(RECEIPT_MAX_BYTES)} a receipt can be`
          : 'Slack did not say how large it is',
    };
  }
  const first = usable[0] as MessageFile;
  return {
    kind: 'refused',
    name: nameOf(first),
    problem: `it is not an image (${first.mimetype || 'unknown type'}), and a receipt must be one`,
  };
}
