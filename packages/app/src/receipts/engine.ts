/**
 * The receipt reader as the app uses it: `createReceiptReader(options)` gives `read()` and
 * `close()`. Nothing of the engine is loaded until the first reading: the first `read()` starts a
 * child process of its own (worker.ts: decoders, tesseract and its language data load there), and
 * that process is stopped after `idleMs` without a reading. A process of its own rather than a
 * worker thread: when it exits the system takes back all of its memory, where a thread's freed
 * memory stayed in the app's allocator (docs/receipts.md, "Memory"), and it runs without the V8
 * flags heap.ts sets for the app's idle footprint, which slowed tesseract's WebAssembly.
 *
 * One reading runs at a time per app, `queue` more may wait; past that `read()` answers `busy` at
 * once. A reading that outlives `timeoutMs` is answered `timeout` and its process is killed (the
 * next reading starts a fresh one): it writes nothing and holds nothing of the app's, so killing
 * it mid-reading is safe. Every failure is a value, never a throw.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { admit, DEFAULT_INTAKE_LIMITS, type ImageHeader } from './intake.js';
import type { ReceiptFailure, ReceiptLanguage, ReceiptReading } from './types.js';
import type { WorkerMessage, WorkerRequest } from './worker.js';

export interface ReceiptReaderOptions {
  /** Stop the reader's process after this long without a reading (default one minute). */
  idleMs?: number;
  /** Give up on one reading after this long, killing its process (default 20 s). */
  timeoutMs?: number;
  /** Readings that may wait behind the running one (default 2). */
  queue?: number;
  /** The most bytes an image may have (default: the receipt download's cap). */
  maxBytes?: number;
  /** The most pixels an image's header may announce (default 24 million). */
  maxPixels?: number;
  /** OCR languages when a reading names none (default English). */
  languages?: ReceiptLanguage[];
  /** The reader process's script; by default the one beside this module (source or built). */
  worker?: ReaderScript;
  /** Told of what happens, for logs and metrics. */
  onEvent?: (event: ReceiptReaderEvent) => void;
}

export type ReceiptReaderEvent =
  | { kind: 'worker_started'; pid: number }
  | { kind: 'worker_stopped'; why: 'idle' | 'timeout' | 'closed' | 'crashed' }
  | { kind: 'read'; ok: boolean; reason?: string; seconds: number }
  /** The OCR engine tried to fetch something (it never may; the attempt was refused). */
  | { kind: 'fetch_refused'; url: string };

export interface ReadOptions {
  languages?: ReceiptLanguage[];
  /** The person's usual currency, chosen when a receipt names none and its numbers fit it. */
  currency?: string;
}

export interface ReceiptReader {
  /** Reads an image's bytes, or the file at a path. Never throws. */
  read(input: Uint8Array | string, options?: ReadOptions): Promise<ReceiptReading | ReceiptFailure>;
  /** Stops the reader's process; waiting readings are answered `closed`. */
  close(): Promise<void>;
  /** Whether the reader's process is running now. */
  readonly workerRunning: boolean;
}

interface Job {
  bytes: Uint8Array;
  header: ImageHeader;
  options: ReadOptions;
  resolve: (result: ReceiptReading | ReceiptFailure) => void;
}

/** The reader process's script, and the node options it starts with (none of the app's). */
interface ReaderScript {
  path: string;
  execArgv: string[];
}

function defaultScript(): ReaderScript {
  const here = import.meta.url;
  // From the TypeScript sources (tests, tsx), the script is TypeScript too: tsx, a development
  // tool, loads it.
  if (here.endsWith('.ts')) {
    return {
      path: fileURLToPath(new URL('./worker.ts', here)),
      execArgv: ['--import', import.meta.resolve('tsx')],
    };
  }
  // The build puts the script beside main.js, and this module in main.js, index.js or a chunk.
  const built = here.includes('/chunks/') ? '../receipts-worker.js' : './receipts-worker.js';
  return { path: fileURLToPath(new URL(built, here)), execArgv: [] };
}

/**
 * The reader's whole environment: none of the app's (no secret reaches it), only glibc's
 * allocator settings of its own. With glibc's defaults, the memory V8's compiler and collector
 * threads free stays in an arena each: the reader's peak was about 200 MB rather than 155 MB with
 * two arenas and large buffers mapped apart (bench/README.md, "Receipts").
 */
const READER_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

const failure = (reason: ReceiptFailure['reason'], detail: string): ReceiptFailure => ({
  ok: false,
  reason,
  detail,
});

/** The bytes of a file, refusing one over `maxBytes` before reading it whole. */
async function readCapped(path: string, maxBytes: number): Promise<Uint8Array | ReceiptFailure> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const { size } = await handle.stat();
    if (size > maxBytes) return failure('too_large', `${size} bytes, more than ${maxBytes}`);
    const bytes = new Uint8Array(size);
    const { bytesRead } = await handle.read(bytes, 0, size, 0);
    return bytes.subarray(0, bytesRead);
  } catch (error) {
    return failure(
      'unreadable',
      `the file could not be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  } finally {
    await handle?.close();
  }
}

export function createReceiptReader(options: ReceiptReaderOptions = {}): ReceiptReader {
  const idleMs = options.idleMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const queueSize = options.queue ?? 2;
  const limits = {
    maxBytes: options.maxBytes ?? DEFAULT_INTAKE_LIMITS.maxBytes,
    maxPixels: options.maxPixels ?? DEFAULT_INTAKE_LIMITS.maxPixels,
  };
  const emit = options.onEvent ?? (() => {});
  const waiting: Job[] = [];
  let running: Job | null = null;
  let worker: ChildProcess | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let closed = false;
  let nextId = 0;

  /** Kills the reader's process; resolves once it has exited and its memory is the system's. */
  const stopWorker = (why: 'idle' | 'timeout' | 'closed' | 'crashed') => {
    if (!worker) return Promise.resolve();
    const stopping = worker;
    worker = null;
    emit({ kind: 'worker_stopped', why });
    if (stopping.exitCode !== null || stopping.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => stopping.once('exit', () => resolve()));
    // Held until it has exited, so that whoever awaits this (close()) sees it happen.
    stopping.ref();
    stopping.kill('SIGKILL');
    return exited;
  };

  const armIdle = () => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (!running) void stopWorker('idle');
    }, idleMs);
    idleTimer.unref();
  };

  const startWorker = (): ChildProcess => {
    const script = options.worker ?? defaultScript();
    const started = fork(script.path, [], {
      // The heap of the decoders and the reader; the OCR's WebAssembly memory is apart from it.
      execArgv: [...script.execArgv, '--max-old-space-size=256'],
      env: { ...READER_ENV },
      // Images go over the channel as bytes, not as JSON arrays of numbers.
      serialization: 'advanced',
      // Whatever the OCR prints goes to stderr, never among the app's logs on stdout.
      stdio: ['ignore', 2, 2, 'ipc'],
    });
    // An idle reader keeps the app from exiting no more than a worker thread did.
    started.unref();
    started.channel?.unref();
    // Between readings too: a process that dies while idle is forgotten, and a failed start or
    // send is no uncaught exception of the app's.
    started.on('error', () => {});
    started.on('exit', () => {
      // Not stopped by us (stopWorker forgets it first): it crashed or was killed from outside.
      if (worker === started) {
        worker = null;
        emit({ kind: 'worker_stopped', why: 'crashed' });
      }
    });
    emit({ kind: 'worker_started', pid: started.pid ?? 0 });
    return started;
  };

  const runNext = () => {
    if (running || closed) return;
    const job = waiting.shift();
    if (!job) {
      armIdle();
      return;
    }
    if (idleTimer) {
      clearTimeout(idleTimer);
      idleTimer = null;
    }
    running = job;
    worker ??= startWorker();
    const current = worker;
    const id = ++nextId;
    const started = performance.now();
    let settled = false;
    const finish = (result: ReceiptReading | ReceiptFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      current.off('message', onMessage);
      current.off('error', onError);
      current.off('exit', onExit);
      running = null;
      emit({
        kind: 'read',
        ok: result.ok,
        ...(result.ok ? {} : { reason: result.reason }),
        seconds: Math.round(performance.now() - started) / 1000,
      });
      job.resolve(result);
      runNext();
    };
    const onMessage = (message: WorkerMessage) => {
      if (message.kind === 'fetch') emit({ kind: 'fetch_refused', url: message.url });
      else if (message.id === id) finish(message.result);
    };
    const onError = (error: Error) => {
      if (worker === current) void stopWorker('crashed');
      finish(failure('unreadable', `the reader stopped: ${error.message.slice(0, 200)}`));
    };
    const onExit = () => {
      finish(
        closed
          ? failure('closed', 'the reader was closed')
          : failure('unreadable', 'the reader stopped'),
      );
    };
    const timer = setTimeout(() => {
      void stopWorker('timeout');
      finish(failure('timeout', `no reading after ${timeoutMs} ms`));
    }, timeoutMs);
    current.on('message', onMessage);
    current.on('error', onError);
    current.on('exit', onExit);
    const request: WorkerRequest = {
      id,
      bytes: job.bytes,
      header: job.header,
      languages: job.options.languages ?? options.languages ?? ['eng'],
      ...(job.options.currency ? { currency: job.options.currency } : {}),
      maxPixels: limits.maxPixels,
    };
    current.send(request, (error) => {
      if (error) onError(error);
    });
  };

  return {
    get workerRunning() {
      return worker !== null;
    },
    async read(input, readOptions = {}) {
      if (closed) return failure('closed', 'the reader is closed');
      // Refused at once when full, before the file is even read.
      if (waiting.length >= queueSize && running)
        return failure('busy', 'a reading is running and the queue is full');
      const loaded = typeof input === 'string' ? await readCapped(input, limits.maxBytes) : input;
      if (!(loaded instanceof Uint8Array)) return loaded;
      const admitted = admit(loaded, limits);
      if (!admitted.ok) return admitted;
      if (waiting.length >= queueSize && running)
        return failure('busy', 'a reading is running and the queue is full');
      // A copy of its own: the caller's bytes may change while the reading waits its turn.
      const bytes = typeof input === 'string' ? loaded : loaded.slice();
      return new Promise((resolve) => {
        waiting.push({ bytes, header: admitted.header, options: readOptions, resolve });
        runNext();
      });
    },
    async close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      for (const job of waiting.splice(0)) job.resolve(failure('closed', 'the reader was closed'));
      await stopWorker('closed');
    },
  };
}
