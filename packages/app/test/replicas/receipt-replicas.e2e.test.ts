/**
 * A photo read once with two replicas on one store: "Split this" delivered to both (Slack hands
 * a retry to whichever replica its load balancer picks) opens one form, and its photo is read by
 * one replica only, which fills the form.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceiptReader, type ReceiptReader } from '../../src/receipts/index.js';
import { messageShortcut } from '../support/slack-requests.js';
import { CHANNEL, eventually, type ReplicaWorld, startReplicaWorld } from './world.js';

const fixture = fileURLToPath(new URL('../receipts/fixtures/restaurant.png', import.meta.url));
const reader = createReceiptReader({ idleMs: 5_000 });
const reads = [0, 0];

/** The one reader, counting the readings each replica asks of it. */
function counted(replica: number): ReceiptReader {
  return {
    read(input, options) {
      reads[replica] = (reads[replica] ?? 0) + 1;
      return reader.read(input, options);
    },
    close: async () => {},
    get workerRunning() {
      return reader.workerRunning;
    },
  };
}

let dir: string;
let world: ReplicaWorld;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-receipt-replicas-'));
  const shared = `sqlite://${join(dir, 'shared.sqlite')}`;
  world = await startReplicaWorld(
    [shared, shared],
    [{ receipts: counted(0) }, { receipts: counted(1) }],
  );
  await world.link('U0ANN', 'Ann');
}, 30_000);
afterAll(async () => {
  await world?.close();
  await reader.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a photo read into the form by two replicas on one store', () => {
  it('is read once, by one replica, and fills the one form opened', async () => {
    const content = await readFile(fixture);
    world.slack.addFile({
      id: 'F0BILL',
      name: 'bill.png',
      mimetype: 'image/png',
      content,
      user: 'U0ANN',
    });
    const trigger = world.slack.issueTrigger(undefined, 'U0ANN');
    const request = () =>
      messageShortcut({
        user_id: 'U0ANN',
        channel_id: CHANNEL,
        trigger_id: trigger,
        response_url: world.responseUrl('receipt'),
        message: {
          ts: '1700000500.000100',
          user: 'U0ANN',
          text: '',
          files: [{ id: 'F0BILL', name: 'bill.png', mimetype: 'image/png', size: content.length }],
        },
      });
    const [a, b] = world.replicas;
    await Promise.all([world.deliver(a, request()), world.deliver(b, request())]);
    const filled = () =>
      world.slack
        .callsTo('views.update')
        .filter(
          (c) => c.status === 200 && JSON.stringify(c.args.view).includes('Read from the receipt'),
        );
    await eventually(() => filled().length > 0, 60_000, 'the form filled from the photo');
    // One form opened (a trigger works once), one reading, one fill.
    const opened = world.slack
      .callsTo('views.open')
      .filter((c) => (c.response as { ok?: boolean }).ok);
    expect(opened).toHaveLength(1);
    expect(reads[0]! + reads[1]!).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(filled()).toHaveLength(1);
  }, 90_000);
});
