/**
 * "Split this" on a photo of a receipt, through the app, the simulated workspace and the emulator,
 * with the real reader (its own process, tesseract offline): the form opens at once saying the
 * photo is being read, and is then filled with what was read, keeping what the person typed
 * meanwhile; the Itemise step lists the items with the tip and tax filled. A file that is no
 * image, a decompression bomb, a photo with no receipt in it, a busy reader and a reader process
 * that dies mid-reading each leave a clear line on the form, and a reading taken over after its
 * replica died says it stopped.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Loose } from '@split/service-emulator/testing';
import { readManifest } from '@split/slack-workspace';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReceiptReader, type ReceiptReader } from '../../../src/receipts/index.js';
import { READ_JOB } from '../../../src/slack/expense-form/receipt/receipt-reading.js';
import { blocksText, type Harness, SIGNING_SECRET, startHarness } from '../../support/harness.js';
import { formOpened, formValues, submit } from '../../support/modal-support.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../../receipts/fixtures/${name}`, import.meta.url));

/** The real reader, behind a gate the test may close to act before a reading starts. */
function gatedReader(reader: ReceiptReader) {
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  const wrapped: ReceiptReader = {
    async read(input, options) {
      await gate;
      return reader.read(input, options);
    },
    close: () => reader.close(),
    get workerRunning() {
      return reader.workerRunning;
    },
  };
  return {
    reader: wrapped,
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release: () => open(),
  };
}

/** The reader's processes as they start; the next one is killed at its start when `crashNext`. */
const readerPids: number[] = [];
let crashNext = false;
const real = createReceiptReader({
  queue: 1,
  idleMs: 5_000,
  onEvent: (event) => {
    if (event.kind !== 'worker_started') return;
    readerPids.push(event.pid);
    if (crashNext) {
      crashNext = false;
      process.kill(event.pid, 'SIGKILL');
    }
  },
});
const gated = gatedReader(real);
let h: Harness;
const channel = 'C0001';

beforeAll(async () => {
  h = await startHarness({ receipts: gated.reader });
  // The app as manifest.yml declares it: its shortcut, events and scopes.
  h.slack.setApp(readManifest(readFileSync('manifest.yml', 'utf8')));
  h.slack.connectApp({ appUrl: h.eventsUrl, signingSecret: SIGNING_SECRET });
  await h.link({ slackId: 'U0ANN', first_name: 'Ann', default_currency: 'USD' });
  await h.link({ slackId: 'U0BOB', first_name: 'Bob' });
}, 30_000);
afterAll(async () => {
  gated.release();
  await h?.close();
  await real.close();
});

/** Ann posts a photo with `text` and uses "Split this" on it; returns the form as first filled. */
async function splitPhoto(name: string, mimetype: string, content: Buffer, text = '') {
  await h.slack.act.message({ as: 'U0ANN', channel, text, file: { name, mimetype, content } });
  const message = h.slack.messages(channel).at(-1) as { ts: string };
  const since = h.slack.now();
  await h.slack.act.shortcut({
    as: 'U0ANN',
    callback_id: 'split_message',
    channel,
    ts: message.ts,
  });
  const opened = await h.slack.waitForCall('views.open', (c) => c.at >= since, 5_000);
  const viewId = (opened.response as Loose).view.id as string;
  const filled = await h.slack.waitForCall(
    'views.update',
    (c) => c.args.view_id === viewId && c.status === 200,
    10_000,
  );
  return { viewId, view: filled.args.view as Loose, since: filled.at };
}

/** The update that puts up the reading's outcome. */
async function readingArrives(viewId: string, after: number, timeoutMs = 60_000): Promise<Loose> {
  const call = await h.slack.waitForCall(
    'views.update',
    (c) => c.args.view_id === viewId && c.at > after && c.status === 200,
    timeoutMs,
  );
  return call.args.view as Loose;
}

/** Ann opens the form with /split, as she would type it. */
async function openBySplit() {
  const since = h.slack.now();
  await h.slack.act.message({ as: 'U0ANN', channel, text: '/split' });
  return formOpened(h, since);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const block = (view: Loose, base: string): Loose =>
  (view.blocks as Loose[]).find(
    (b) => b.block_id === base || String(b.block_id).startsWith(`${base}~`),
  );
const note = (view: Loose) => blocksText([block(view, 'form_receipt_note')]);

describe('"Split this" on a photo of a receipt', () => {
  it('opens the form at once saying the photo is read, then fills it, keeping a typed description', async () => {
    gated.hold();
    const photo = await readFile(fixture('restaurant.png'));
    const { viewId, view, since } = await splitPhoto('bill.png', 'image/png', photo);
    expect(note(view)).toContain('Reading the receipt');
    // The fields the reading fills report each change while it runs.
    expect(block(view, 'form_description').dispatch_action).toBe(true);

    // Ann types a description before the reading arrives.
    const typed = formValues({
      amount: '',
      currency: 'USD',
      description: 'Dinner with Bob',
      date: view.blocks.find((b: Loose) => b.block_id === 'form_date').element.initial_date,
      participants: ['U0ANN'],
      payer: 'U0ANN',
    });
    await h.slack.act.action({
      as: 'U0ANN',
      container: { type: 'view', view_id: viewId },
      action: {
        type: 'plain_text_input',
        block_id: 'form_description',
        action_id: 'form_description',
        value: 'Dinner with Bob',
      },
      state: typed as never,
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    gated.release();

    const filled = await readingArrives(viewId, since);
    const amount = block(filled, 'form_amount');
    // Itemised: the amount is the subtotal, and the split is ready for the items.
    expect(amount.block_id).toBe('form_amount~1');
    expect(amount.element.initial_value).toBe('101.50');
    expect(block(filled, 'form_date').element.initial_date).toBe('2025-03-14');
    expect(block(filled, 'form_currency').element.initial_option.value).toBe('USD');
    expect(block(filled, 'form_split').element.initial_option.value).toBe('itemise');
    // The description Ann typed stays: same block, so Slack keeps her text.
    expect(block(filled, 'form_description').block_id).toBe('form_description');
    expect(block(filled, 'form_description').dispatch_action).toBeUndefined();
    const line = note(filled);
    expect(line).toContain('Read from the receipt');
    expect(line).toContain('$128.78');
    expect(line).toContain('Trattoria Da Luca');
    expect(line).toContain('6 items');
    expect(line).toContain('next step lists the items');

    // Nothing is booked from the photo: the person submits, and gets the Itemise step. Slack
    // sends each input's state under the block_id it has now.
    const {
      form_amount: _,
      form_split: __,
      ...shownValues
    } = formValues({
      currency: 'USD',
      description: 'Dinner with Bob',
      date: '2025-03-14',
      participants: ['U0ANN', 'U0BOB'],
      payer: 'U0ANN',
    });
    const splitId = block(filled, 'form_split').block_id as string;
    const ack = await submit(h, {
      viewId,
      meta: filled.private_metadata,
      values: {
        ...shownValues,
        'form_amount~1': { form_amount: { type: 'plain_text_input', value: '101.50' } },
        [splitId]: { form_split: { type: 'radio_buttons', selected_option: { value: 'itemise' } } },
      },
    });
    expect(ack.response_action).toBe('push');
    const step = ack.view as Loose;
    expect(blocksText(step.blocks)).toContain('On the receipt:');
    const field = (id: string) => step.blocks.find((b: Loose) => b.block_id === id).element;
    expect(field('form_item_tip').initial_value).toBe('18.27');
    expect(field('form_item_tax').initial_value).toBe('9.01');
  }, 90_000);

  it('says a file that is not an image cannot be read', async () => {
    const { viewId, since } = await splitPhoto(
      'photo.png',
      'image/png',
      Buffer.from('this is a text file'),
    );
    expect(note(await readingArrives(viewId, since))).toContain(
      'That file is not a photo I can read',
    );
  }, 30_000);

  it('refuses a photo claiming too many pixels, before decoding any', async () => {
    const bomb = Buffer.from('89504e470d0a1a0a0000000d49484452000186a0000186a00806000000', 'hex');
    const { viewId, since } = await splitPhoto('huge.png', 'image/png', bomb);
    expect(note(await readingArrives(viewId, since))).toContain('too many pixels');
  }, 30_000);

  it('says when no receipt can be read in a photo, and leaves the amount empty', async () => {
    const blank = new PNG({ width: 200, height: 300 });
    blank.data.fill(255);
    const { viewId, since } = await splitPhoto('wall.png', 'image/png', PNG.sync.write(blank));
    const filled = await readingArrives(viewId, since);
    expect(note(filled)).toContain('I could not read a receipt in that photo');
    expect(block(filled, 'form_amount').block_id).toBe('form_amount');
  }, 60_000);

  it('says the reader is busy when another reading holds it', async () => {
    // The reader takes one reading at a time and one waiting: two others fill it.
    const others = [real.read(fixture('restaurant.png')), real.read(fixture('restaurant.png'))];
    const photo = await readFile(fixture('taxi-photo.jpg'));
    const { viewId, since } = await splitPhoto('taxi.jpg', 'image/jpeg', photo);
    expect(note(await readingArrives(viewId, since))).toContain('The receipt reader is busy');
    await Promise.all(others);
  }, 60_000);

  it("says the photo was not read when the reader's process dies reading it, and reads the next", async () => {
    // A process still up from an earlier reading is killed while idle, so that this photo starts
    // a new one; that one is killed as it takes the photo (as the out-of-memory killer would).
    const idle = readerPids.at(-1);
    if (real.workerRunning && idle) process.kill(idle, 'SIGKILL');
    for (let waited = 0; real.workerRunning && waited < 5_000; waited += 50) await sleep(50);
    crashNext = true;
    const photo = await readFile(fixture('restaurant.png'));
    const crashed = await splitPhoto('bill3.png', 'image/png', photo);
    const note3 = note(await readingArrives(crashed.viewId, crashed.since));
    expect(note3).toContain('I could not read a receipt in that photo');
    expect(note3).toContain('Type the amounts in');
    expect(crashNext).toBe(false);
    // The next photo starts a process of its own and is read.
    const next = await splitPhoto('bill4.png', 'image/png', photo);
    expect(note(await readingArrives(next.viewId, next.since))).toContain('Read from the receipt');
  }, 90_000);

  it('says the reading stopped when a replica takes it over from one that died reading it', async () => {
    gated.hold();
    const photo = await readFile(fixture('restaurant.png'));
    const { viewId, since } = await splitPhoto('bill2.png', 'image/png', photo);
    const file = (h.slack.messages(channel).at(-1) as { files: string[] }).files[0];
    // What a replica that took the job over runs: the job as written, with the progress the
    // dead one saved before reading.
    const handler = (
      await import('../../../src/slack/expense-form/receipt/receipt-reading.js')
    ).readJob(h.app.deps);
    await handler(
      {
        v: 1,
        team_id: 'T0001',
        user_id: 'U0ANN',
        view_id: viewId,
        file_id: file,
        offered: 1,
        currency: 'USD',
      },
      { id: `receipt:T0001:${viewId}`, progress: 'reading', createdAt: 0, save: async () => {} },
      h.logger,
    );
    try {
      const filled = await readingArrives(viewId, since, 10_000);
      expect(note(filled)).toContain('stopped before it finished');
      expect(READ_JOB).toBe('receipt-read');
    } finally {
      gated.release();
    }
    // This replica's own run of the job goes on (it did not die): it is let finish, so that the
    // reader is free for the next test.
    for (let waited = 0; h.app.deps.durable.size > 0 && waited < 20_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 40_000);

  it('reads a photo chosen in the form when it is submitted without an amount', async () => {
    const photo = await readFile(fixture('restaurant.png'));
    h.slack.addFile({
      id: 'F0CHOSEN',
      name: 'bill.png',
      mimetype: 'image/png',
      content: photo,
      user: 'U0ANN',
    });
    const form = await openBySplit();
    const values = formValues({
      currency: 'USD',
      description: 'Team dinner',
      participants: ['U0ANN', 'U0BOB'],
      payer: 'U0ANN',
      files: [{ id: 'F0CHOSEN', name: 'bill.png', size: photo.length }],
    });
    const at = h.slack.now();
    await h.slack.act.submitView({ as: 'U0ANN', view_id: form.viewId, values: values as never });
    // Nothing booked: the form stays, saying the photo is read.
    expect(note(h.slack.view(form.viewId)?.view as Loose)).toContain('Reading the receipt');
    const filled = await readingArrives(form.viewId, at);
    expect(block(filled, 'form_amount').element.initial_value).toBe('101.50');
    expect(block(filled, 'form_amount').block_id).toBe('form_amount~1');
    // The description typed before Submit stays.
    expect(block(filled, 'form_description').block_id).toBe('form_description');
    expect(note(filled)).toContain('Trattoria Da Luca');
    expect(h.slack.callsTo('chat.postMessage').filter((c) => c.at >= at)).toEqual([]);
  }, 60_000);

  it('never reads a file of someone else chosen in the form', async () => {
    const photo = await readFile(fixture('restaurant.png'));
    h.slack.addFile({
      id: 'F0BOBS',
      name: 'bob.png',
      mimetype: 'image/png',
      content: photo,
      user: 'U0BOB',
    });
    const form = await openBySplit();
    const at = h.slack.now();
    const values = formValues({
      currency: 'USD',
      description: 'x',
      participants: ['U0ANN', 'U0BOB'],
      payer: 'U0ANN',
      files: [{ id: 'F0BOBS', name: 'bob.png', size: photo.length }],
    });
    await h.slack.act.submitView({ as: 'U0ANN', view_id: form.viewId, values: values as never });
    const filled = await readingArrives(form.viewId, at);
    expect(note(filled)).toContain('I could not get the photo');
    expect(blocksText(filled.blocks)).not.toContain('101.50');
  }, 30_000);

  it('answers a photo sent in the Messages tab with the form offered, which reads it', async () => {
    const photo = await readFile(fixture('restaurant.png'));
    await h.slack.act.message({
      as: 'U0ANN',
      channel: 'D0ANN',
      text: '',
      file: { name: 'bill.png', mimetype: 'image/png', content: photo },
    });
    const sent = h.slack.messages('D0ANN').at(-1) as { ts: string };
    let offer: Loose | undefined;
    for (let waited = 0; !offer && waited < 10_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      offer = h.slack.messages('D0ANN').find((m) => m.thread_ts === sent.ts && m.user !== 'U0ANN');
    }
    if (!offer) throw new Error('no offer in the DM');
    expect(blocksText(offer.blocks)).toContain('Split this photo?');
    const button = (offer.blocks as { elements?: Record<string, unknown>[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'talk_open_form') as Loose;
    const since = h.slack.now();
    await h.slack.act.action({
      as: 'U0ANN',
      container: { type: 'message', channel: 'D0ANN', ts: offer.ts },
      action: { type: 'button', action_id: button.action_id, value: button.value },
    });
    const form = await formOpened(h, since);
    expect(note(form.view)).toContain('Reading the receipt');
    const first = h.slack.callsTo('views.update').find((c) => c.args.view_id === form.viewId);
    const filled = await readingArrives(form.viewId, first?.at ?? since);
    expect(block(filled, 'form_date').element.initial_date).toBe('2025-03-14');
    expect(note(filled)).toContain('$128.78');
  }, 60_000);

  it('reads a HEIC photo through the JPEG thumbnail Slack makes of it', async () => {
    const thumbnail = await readFile(fixture('taxi-photo.jpg'));
    const heic = Buffer.concat([Buffer.from('0000001c6674797068656963', 'hex'), Buffer.alloc(64)]);
    h.slack.addFile({
      id: 'F0HEIC',
      name: 'IMG_0042.heic',
      mimetype: 'image/heic',
      content: heic,
      user: 'U0ANN',
      thumbnail,
    });
    const since = h.slack.now();
    await h.sender.messageShortcut({
      user_id: 'U0ANN',
      channel_id: channel,
      message: {
        ts: '1700000900.000100',
        user: 'U0ANN',
        text: '',
        files: [{ id: 'F0HEIC', name: 'IMG_0042.heic', mimetype: 'image/heic', size: heic.length }],
      },
    });
    const form = await formOpened(h, since);
    expect(note(form.view)).toContain('Reading the receipt');
    const first = h.slack.callsTo('views.update').find((c) => c.args.view_id === form.viewId);
    const filled = await readingArrives(form.viewId, first?.at ?? since);
    expect(note(filled)).toContain('£37.00');
  }, 60_000);
});
