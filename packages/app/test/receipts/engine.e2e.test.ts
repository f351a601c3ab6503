/**
 * The receipt reader end to end, with its real process: a fixture receipt read offline, the
 * process started on first use and gone after its idle time, refusals that never start it, the
 * queue's busy answer, the timeout that kills a reading's process, a process that dies
 * mid-reading, and one whose app dies.
 */
import { spawn } from 'node:child_process';
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

/** Whether a process of that id exists (a process that exited is reaped by node at once). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Waits until the process is gone, up to five seconds; false if it is still there. */
async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 5000; waited += 50) {
    if (!alive(pid)) return true;
    await sleep(50);
  }
  return false;
}

const pids = (events: ReceiptReaderEvent[]) =>
  events.flatMap((e) => (e.kind === 'worker_started' ? [e.pid] : []));

describe('the receipt reader', () => {
  it('loads tesseract and every language from installed packages', () => {
    expect(existsSync(corePath())).toBe(true);
    for (const language of ['eng', 'deu', 'fra', 'spa', 'por'] as const) {
      expect(existsSync(languageFile(language))).toBe(true);
    }
  });

  it('reads a restaurant bill end to end, offline, and stops its process after the idle time', async () => {
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
    const [pid] = pids(events);
    expect(pid && alive(pid)).toBe(true);
    await sleep(1500);
    expect(r.workerRunning).toBe(false);
    expect(events).toContainEqual({ kind: 'worker_stopped', why: 'idle' });
    // Gone, not kept: what it held is the system's again.
    expect(await gone(pid!)).toBe(true);
  }, 60_000);

  it("starts its process without the app's environment, and one process for many readings", async () => {
    process.env.RECEIPTS_TEST_SECRET = 'not for the reader';
    try {
      const { r, events } = reader();
      const bytes = new Uint8Array(await readFile(fixture('restaurant.png')));
      expect((await r.read(bytes)).ok).toBe(true);
      expect((await r.read(bytes)).ok).toBe(true);
      const [pid, ...more] = pids(events);
      expect(more).toEqual([]);
      const environ = await readFile(`/proc/${pid}/environ`, 'utf8');
      expect(environ).not.toContain('RECEIPTS_TEST_SECRET');
      expect(environ).not.toContain('SLACK_');
    } finally {
      delete process.env.RECEIPTS_TEST_SECRET;
    }
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

  it('answers busy past the queue, and times out a reading by killing its process', async () => {
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
    // A fresh process for each, and neither left behind.
    const started = pids(events);
    expect(started).toHaveLength(2);
    for (const pid of started) expect(await gone(pid)).toBe(true);
  }, 30_000);

  it('answers a reading whose process dies under it as unreadable, and reads the next', async () => {
    let crash = true;
    const events: ReceiptReaderEvent[] = [];
    const r = createReceiptReader({
      onEvent: (e) => {
        events.push(e);
        // Killed from outside (as by the kernel's out-of-memory killer) once it has the photo.
        if (e.kind === 'worker_started' && crash) {
          crash = false;
          process.kill(e.pid, 'SIGKILL');
        }
      },
    });
    readers.push(r);
    const bytes = new Uint8Array(await readFile(fixture('taxi-photo.jpg')));
    expect(await r.read(bytes)).toMatchObject({ ok: false, reason: 'unreadable' });
    expect(events).toContainEqual({ kind: 'worker_stopped', why: 'crashed' });
    expect(r.workerRunning).toBe(false);
    expect(await r.read(bytes)).toMatchObject({ ok: true, total: { value: 3700 } });
    expect(pids(events)).toHaveLength(2);
  }, 60_000);

  it('leaves no reader process behind when the app dies', async () => {
    // An app of a few lines that reads a receipt, says its reader's process id, and waits.
    const script = [
      `import { createReceiptReader } from ${JSON.stringify(new URL('../../src/receipts/index.ts', import.meta.url).href)};`,
      'const r = createReceiptReader({ onEvent: (e) => { if (e.kind === "worker_started") console.log(e.pid); } });',
      `await r.read(${JSON.stringify(fixture('restaurant.png'))});`,
      'console.log("read");',
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const app = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      app.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('read')) resolve();
      });
      app.once('exit', (code) => reject(new Error(`the app exited ${code}: ${out}`)));
    });
    const pid = Number(out.split('\n')[0]);
    expect(alive(pid)).toBe(true);
    app.kill('SIGKILL');
    expect(await gone(pid)).toBe(true);
  }, 60_000);

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
