/**
 * A replica killed (SIGKILL) while it reads a photo into the form: the app, started again on the
 * same store, takes the reading's job over once its lease lapses, does not read the photo again,
 * and puts a line on the form saying the reading stopped, rather than leaving it saying the photo
 * is being read.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Loose } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CrashWorld, eventually, startCrashWorld } from '../../support/crash-support.js';
import { SIGNING_SECRET } from '../../support/harness.js';
import { messageShortcut, send } from '../../support/slack-requests.js';

const fixture = fileURLToPath(new URL('../../receipts/fixtures/restaurant.png', import.meta.url));
/** A lease that lapses quickly, so that the restarted app takes the job over at once. */
const JOBS = { jobs: { leaseMs: 1_000, pollMs: 200 } };

let world: CrashWorld;

beforeAll(async () => {
  world = await startCrashWorld();
}, 30_000);
afterAll(async () => {
  await world?.close();
});

const updatesOf = (viewId: string) =>
  world.slack
    .callsTo('views.update')
    .filter((c) => c.args.view_id === viewId && (c.response as { ok?: boolean }).ok);

describe('a replica killed mid-reading', () => {
  it('leaves the form saying the reading stopped, not that it is being read', async () => {
    const content = await readFile(fixture);
    world.slack.addFile({
      id: 'F0CRASH',
      name: 'bill.png',
      mimetype: 'image/png',
      content,
      user: 'U0ANN',
    });
    const first = await world.start(JOBS);
    const response = await send(
      first.eventsUrl,
      SIGNING_SECRET,
      messageShortcut({
        user_id: 'U0ANN',
        channel_id: 'C0001',
        trigger_id: world.slack.issueTrigger(),
        message: {
          ts: '1700000700.000100',
          user: 'U0ANN',
          text: '',
          files: [{ id: 'F0CRASH', name: 'bill.png', mimetype: 'image/png', size: content.length }],
        },
      }),
    );
    expect(response.status).toBe(200);
    // The photo is fetched once the job has marked itself as reading; the reader's process then
    // takes a second or more to start: the kill lands mid-reading.
    await eventually(() => world.slack.fileDownloads('F0CRASH') > 0, 20_000, 'the download');
    await first.kill();
    const opened = world.slack.callsTo('views.open').at(-1)?.response as Loose;
    const viewId = opened.view.id as string;
    expect(updatesOf(viewId)).toHaveLength(1);
    expect(JSON.stringify(updatesOf(viewId)[0]?.args.view)).toContain('Reading the receipt');

    const again = await world.start(JOBS);
    try {
      await eventually(() => updatesOf(viewId).length === 2, 20_000, 'the form updated again');
      const text = JSON.stringify(updatesOf(viewId)[1]?.args.view);
      expect(text).toContain('stopped before it finished');
      expect(text).not.toContain('Reading the receipt');
      // Not read again: the photo was downloaded once, by the replica that died.
      expect(world.slack.fileDownloads('F0CRASH')).toBe(1);
    } finally {
      await again.stop();
    }
  }, 90_000);
});
