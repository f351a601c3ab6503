/**
 * A photo read into the expense form, end to end: the real app, the simulated workspace and the
 * expense emulator in this process (the test harness), the reader's worker thread as the app
 * starts it.
 *
 *   nice -n 10 npx tsx bench/receipt-form.ts      BENCH_ROUNDS=N (9)
 *
 * Each round: Ann posts one of the sandbox's three demo photos (phone photos, JPEG) in #general
 * and uses "Split this" on it; the clock runs from the shortcut to the form first put up (the
 * line saying the photo is read) and to the form filled from the reading. The first round starts
 * the worker (tesseract loads); the median is of the rounds after it. Meanwhile a second person
 * sends `/split help` every 100 ms: its acknowledgement time while photos are read, beside the
 * same with no reading, says whether a reading slows anyone else's answer.
 */
import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type Harness,
  SIGNING_SECRET,
  startHarness,
} from '../packages/app/test/support/harness.js';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const demos = resolve(import.meta.dirname, '..', 'packages', 'sandbox', 'demo-receipts');
const PHOTOS = ['restaurant.jpg', 'groceries.jpg', 'taxi.jpg'];

const p95 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
const ms = (value: number) => `${Math.round(value)} ms`;

/** Sends `/split help` as Bob every 100 ms until stopped; returns each acknowledgement's time. */
function acks(h: Harness): { stop: () => Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await h.sender.command({ text: 'help', user_id: 'U0BOB' });
      times.push(performance.now() - started);
      await new Promise((done) => setTimeout(done, 100));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return times;
    },
  };
}

async function round(h: Harness, photo: string, index: number) {
  const content = await readFile(join(demos, photo));
  await h.slack.act.message({
    as: 'U0ANN',
    channel: 'C0001',
    text: '',
    file: { name: photo, mimetype: 'image/jpeg', content },
  });
  const message = h.slack.messages('C0001').at(-1) as { ts: string };
  const since = h.slack.now();
  const started = performance.now();
  await h.slack.act.shortcut({
    as: 'U0ANN',
    callback_id: 'split_message',
    channel: 'C0001',
    ts: message.ts,
  });
  const opened = await h.slack.waitForCall('views.open', (c) => c.at >= since, 10_000);
  const viewId = (opened.response as { view: { id: string } }).view.id;
  const first = await h.slack.waitForCall('views.update', (c) => c.args.view_id === viewId, 10_000);
  const shown = performance.now() - started;
  const filled = await h.slack.waitForCall(
    'views.update',
    (c) => c.args.view_id === viewId && c.at > first.at,
    60_000,
  );
  const read = JSON.stringify(filled.args.view).includes('Read from the receipt');
  const end = performance.now() - started;
  console.log(
    `round ${index + 1} ${photo}: form shown ${ms(shown)}, filled ${ms(end)}${read ? '' : ' (not read)'}`,
  );
  return { shown, filled: end, read };
}

const h = await startHarness({ env: { LOG_LEVEL: 'error' } });
try {
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
  await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'USD' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
  const idle = acks(h);
  await new Promise((done) => setTimeout(done, 3_000));
  const idleAcks = await idle.stop();
  const busy = acks(h);
  const rounds = [];
  for (let i = 0; i < ROUNDS; i += 1) rounds.push(await round(h, PHOTOS[i % PHOTOS.length]!, i));
  const busyAcks = await busy.stop();
  const warm = rounds.slice(1);
  console.log(
    `\nNode ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `first round (worker start): shown ${ms(rounds[0]!.shown)}, filled ${ms(rounds[0]!.filled)}`,
  );
  console.log(
    `after it (${warm.length} rounds): shown median ${ms(median(warm.map((r) => r.shown)))}, filled median ${ms(median(warm.map((r) => r.filled)))}, p95 ${ms(p95(warm.map((r) => r.filled)))}`,
  );
  console.log(`read: ${rounds.filter((r) => r.read).length} of ${rounds.length}`);
  console.log(
    `/split help acks, no reading: median ${ms(median(idleAcks))}, p95 ${ms(p95(idleAcks))} (${idleAcks.length}); while reading: median ${ms(median(busyAcks))}, p95 ${ms(p95(busyAcks))} (${busyAcks.length})`,
  );
} finally {
  await h.close();
}
