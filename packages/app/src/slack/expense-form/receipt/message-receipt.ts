/**
 * "Split this" on a message with files: which of them can be the expense's receipt. The service
 * takes an image; the first image small enough is offered (the person can leave it out), and
 * otherwise the form says why none can be.
 */
import type { MessageFile } from '../../shared/message-files.js';
import { RECEIPT_MAX_BYTES } from './receipt.js';

/** Why the message's file can't be the receipt. */
export type MessageReceiptProblem =
  | { kind: 'too_large'; max: number }
  | { kind: 'size_unknown' }
  | { kind: 'not_image'; mimetype: string | undefined };

export type MessageReceipt =
  | { kind: 'attach'; id: string; name: string }
  | { kind: 'refused'; name: string; problem: MessageReceiptProblem };

export function messageReceipt(
  files: readonly MessageFile[] | undefined,
): MessageReceipt | undefined {
  const usable = (files ?? []).filter((f) => typeof f.id === 'string' && f.id !== '');
  if (usable.length === 0) return undefined;
  // An empty name is one Slack did not give: the form says "the file" in the person's words.
  const nameOf = (f: MessageFile) => f.name || f.title || '';
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
          ? { kind: 'too_large', max: RECEIPT_MAX_BYTES }
          : { kind: 'size_unknown' },
    };
  }
  const first = usable[0] as MessageFile;
  return {
    kind: 'refused',
    name: nameOf(first),
    problem: { kind: 'not_image', mimetype: first.mimetype || undefined },
  };
}
