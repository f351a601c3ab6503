/**
 * The app's one receipt reader (receipts/, docs/receipts.md), built by the composition root:
 * nothing of it loads before the first photo is read, and its process stops after a minute idle.
 */
import type { Logger } from '@slack/bolt';
import {
  createReceiptReader,
  type ReceiptReader,
  type ReceiptReaderOptions,
} from './receipts/index.js';

/** A reader's options, a reader already made (tests, benchmarks), or false for none. */
export type ReceiptsOption = ReceiptReaderOptions | ReceiptReader | false;

export function receiptReader(
  option: ReceiptsOption | undefined,
  logger: Pick<Logger, 'info' | 'warn'>,
): ReceiptReader | undefined {
  if (option === false) return undefined;
  if (option && 'read' in option) return option;
  return createReceiptReader({
    ...option,
    onEvent: (event) => {
      if (event.kind === 'fetch_refused') {
        logger.warn({ msg: 'receipts: a fetch was refused: {url}', url: event.url });
      } else logger.info({ msg: 'receipts: {kind}', ...event });
    },
  });
}
