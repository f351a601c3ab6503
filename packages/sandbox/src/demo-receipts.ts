/**
 * The sandbox's three demo receipts (demo-receipts/, phone photos made by bench/receipt-demos.ts),
 * posted in #lunch by the demo people, so that "Split this" on a photo can be tried at once.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Workspace } from '@split/slack-workspace';

/** Beside src/ and dist/ alike. */
const DIR = new URL('../demo-receipts/', import.meta.url);

const POSTS = [
  { as: 'U0GRACE', file: 'restaurant.jpg' },
  { as: 'U0ALAN', file: 'groceries.jpg' },
  { as: 'U0ADA', file: 'taxi.jpg' },
];

export const DEMO_RECEIPT_CHANNEL = 'C0LUNCH';

export async function postDemoReceipts(ws: Workspace): Promise<void> {
  for (const post of POSTS) {
    const content = await readFile(fileURLToPath(new URL(post.file, DIR)));
    await ws.act.message({
      as: post.as,
      channel: DEMO_RECEIPT_CHANNEL,
      text: '',
      file: { name: post.file, mimetype: 'image/jpeg', content },
    });
  }
}
