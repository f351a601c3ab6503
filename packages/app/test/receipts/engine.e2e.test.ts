/**
 * The receipt reader end to end, with its real worker thread: a fixture receipt read offline, the
 * worker started on first use and stopped after its idle time, refusals that never start the
 * worker, the queue's busy answer, and the timeout that stops a reading's worker.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createReceiptReader,
  type ReceiptReader,
  type ReceiptReaderEvent,
} from '../../src/receipts/index.js';
import { corePath, languageFile } from '../../src/receipts/ocr.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const readers: ReceiptReader[] = [];
afterEach(async () => {
  for (const reader of readers.splice(0)) await reader.close();
});

function reader(options: Parameters<typeof createReceiptReader>[0] = {}) {
  const events: ReceiptReaderEvent[] = [];
  const r = createReceiptReader({ ...options, onEvent: (e) => events.push(e) });
  readers.push(r);
  return { r, events };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the receipt reader', () => {
  it('loads tesseract and every language from installed packages', () => {
    expect(existsSync(corePath())).toBe(true);
    for (const language of ['eng', 'deu', 'fra', 'spa', 'por'] as const) {
      expect(existsSync(languageFile(language))).toBe(true);
    }
  });

  it('reads a restaurant bill end to end, offline, and stops its worker after the idle time', async () => {
    const { r, events } = reader({ idleMs: 500 });
    expect(r.workerRunning).toBe(false);
    const reading = await r.read(fixture('restaurant.png'));
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.total?.value).toBe(12878);
    expect(reading.currency?.value).toBe('USD');
    expect(reading.date?.value).toBe('2025-03-14');
    expect(reading.merchant?.value).toBe('Trattoria Da Luca');
    expect(reading.tip?.value).toBe(1827);
    expect(reading.tax?.value).toBe(901);
    expect(reading.items.reduce((n, item) => n + item.minor, 0)).toBe(10150);
    expect(reading.checks.itemsVsSubtotal?.ok).toBe(true);
    expect(reading.checks.partsVsTotal?.ok).toBe(true);
    // The OCR's only way out is the adapter's fetch, which reports any attempt.
    expect(events.filter((e) => e.kind === 'fetch_refused')).toEqual([]);
    expect(r.workerRunning).toBe(true);
    await sleep(1500);
    expect(r.workerRunning).toBe(false);
    expect(events).toContainEqual({ kind: 'worker_stopped', why: 'idle' });
  }, 60_000);

  it('reads bytes as well as a path, and a phone photo as JPEG', async () => {
    const { r } = reader();
    const reading = await r.read(new Uint8Array(await readFile(fixture('taxi-photo.jpg'))), {
      languages: ['eng'],
    });
    expect(reading).toMatchObject({ ok: true, total: { value: 3700 }, currency: { value: 'GBP' } });
  }, 60_000);

  it('refuses a decompression bomb and a text file without starting the worker', async () => {
    const { r, events } = reader();
    const bomb = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(bomb);
    bomb.write('IHDR', 12, 'latin1');
    bomb.writeUInt32BE(100_000, 16);
    bomb.writeUInt32BE(100_000, 20);
    expect(await r.read(bomb)).toMatchObject({ ok: false, reason: 'too_many_pixels' });
    expect(await r.read(fileURLToPath(import.meta.url))).toMatchObject({
      ok: false,
      reason: 'not_image',
    });
    expect(await r.read('/nonexistent/receipt.png')).toMatchObject({
      ok: false,
      reason: 'unreadable',
    });
    expect(r.workerRunning).toBe(false);
    expect(events).toEqual([]);
  });

  it('answers busy past the queue, and times out a reading by stopping its worker', async () => {
    const { r, events } = reader({ queue: 1, timeoutMs: 200 });
    const bytes = new Uint8Array(await readFile(fixture('restaurant.png')));
    const first = r.read(bytes);
    const second = r.read(bytes);
    expect(await r.read(bytes)).toMatchObject({ ok: false, reason: 'busy' });
    expect(await first).toMatchObject({ ok: false, reason: 'timeout' });
    expect(await second).toMatchObject({ ok: false, reason: 'timeout' });
    expect(events.filter((e) => e.kind === 'worker_stopped')).toEqual([
      { kind: 'worker_stopped', why: 'timeout' },
      { kind: 'worker_stopped', why: 'timeout' },
    ]);
    expect(r.workerRunning).toBe(false);
  }, 30_000);

  it('answers closed to what waits when closed', async () => {
    const { r } = reader({ queue: 2 });
    const bytes = new Uint8Array(await readFile(fixture('restaurant.png')));
    const first = r.read(bytes);
    const waiting = r.read(bytes);
    await r.close();
    expect(await waiting).toMatchObject({ ok: false, reason: 'closed' });
    expect(await first).toMatchObject({ ok: false, reason: 'closed' });
    expect(await r.read(bytes)).toMatchObject({ ok: false, reason: 'closed' });
  }, 30_000);
});
