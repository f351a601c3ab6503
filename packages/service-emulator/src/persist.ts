/**
 * The --data file: a snapshot of the whole state in FILE, and a journal of every change since in
 * FILE.journal. A change is appended to the journal and synced to disk before its answer is sent,
 * so an answered change survives a crash (even kill -9 or a power cut); the snapshot is rewritten
 * (compaction) when the journal grows, at start and at close.
 */
import { existsSync, readFileSync } from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

const FORMAT = 'expense-service-emulator';

/** What FILE holds. */
export interface Snapshot {
  format: typeof FORMAT;
  version: 1;
  saved_at: string;
  /** The last journal entry the snapshot includes; later entries are applied on top of it. */
  journal_seq?: number;
  ledger: unknown;
  auth: unknown;
}

/** What the state of a data file is made of once loaded: a snapshot and the changes since. */
export interface Recovered<E> {
  snapshot: Snapshot | undefined;
  entries: E[];
  /** The last journal entry seen, so that new entries continue the numbering. */
  seq: number;
}

/**
 * When the journal passes this size, the next write rewrites the snapshot instead and empties the
 * journal: large enough that compaction (a full serialisation) is rare, small enough that replaying
 * the journal at start stays quick.
 */
const COMPACT_AFTER_BYTES = 8 * 1024 * 1024;

export function journalFile(file: string): string {
  return `${file}.journal`;
}

/** Reads a --data file and its journal; a clear error when either is unusable. */
export function recover<E>(file: string): Recovered<E> {
  const snapshot = readSnapshot(file);
  const after = snapshot?.journal_seq ?? 0;
  const entries: E[] = [];
  let seq = after;
  const journal = journalFile(file);
  if (!existsSync(journal)) return { snapshot, entries, seq };
  const lines = readFileSync(journal, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    let record: { seq: number; entry: E };
    try {
      record = JSON.parse(line);
    } catch (error) {
      // Only the last line can be torn (a crash during its write); it was never answered.
      if (i === lines.length - 1) break;
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`cannot read emulator journal ${journal}, line ${i + 1}: ${detail}`);
    }
    if (record.seq <= after) continue;
    entries.push(record.entry);
    seq = record.seq;
  }
  return { snapshot, entries, seq };
}

function readSnapshot(file: string): Snapshot | undefined {
  if (!existsSync(file)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot read emulator data file ${file}: ${detail}`);
  }
  const snapshot = data as Partial<Snapshot> | null;
  if (snapshot?.format !== FORMAT || snapshot.version !== 1) {
    throw new Error(`${file} is not an emulator data file (format/version not recognised)`);
  }
  return snapshot as Snapshot;
}

/** A rename is durable only once the directory holding it is synced. */
async function syncDirectory(dir: string): Promise<void> {
  // Windows cannot open a directory for syncing; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

interface Waiter {
  seq: number;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Keeps a --data file up to date. `append` is synchronous and called in the same step as the
 * change it records (Node runs one handler at a time, so the journal's order is the order changes
 * were applied, and a snapshot taken between two steps holds exactly the entries appended so far).
 * One writer at a time drains what was appended: one write and one fdatasync for however many
 * entries arrived meanwhile, so a burst of concurrent requests shares a sync.
 */
export class DataFile<E> {
  private journal: FileHandle | undefined;
  private readonly journalPath: string;
  private pending: string[] = [];
  private appended: number;
  private synced: number;
  private journalBytes = 0;
  private waiters: Waiter[] = [];
  private writing: Promise<void> | undefined;
  private failure: Error | undefined;
  private closed = false;
  private counter = 0;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => Pick<Snapshot, 'ledger' | 'auth'>,
    seq: number,
  ) {
    this.journalPath = journalFile(file);
    this.appended = seq;
    this.synced = seq;
  }

  /**
   * Writes a fresh snapshot (folding in whatever the journal held) and starts an empty journal.
   * Throws when the file cannot be written, so that a bad path fails at start, not later.
   */
  async start(): Promise<void> {
    try {
      await this.writeSnapshot();
      // Append mode: after a compaction truncates the file, writes start again at its beginning.
      this.journal = await open(this.journalPath, 'a', 0o600);
      await this.journal.truncate(0);
      await this.journal.sync();
      await syncDirectory(dirname(this.file));
    } catch (error) {
      await this.journal?.close();
      this.journal = undefined;
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`cannot write emulator data file ${this.file}: ${detail}`);
    }
  }

  append(entry: E): void {
    if (this.closed || this.failure) return;
    this.appended += 1;
    this.pending.push(`${JSON.stringify({ seq: this.appended, entry })}\n`);
    this.kick();
  }

  /**
   * Settles once everything appended so far is on disk; undefined when it already is. Rejects
   * when the journal cannot be written: the change is then in memory only, and must not be
   * reported as done.
   */
  durable(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.synced >= this.appended) return undefined;
    return new Promise((resolve, reject) => {
      this.waiters.push({ seq: this.appended, resolve, reject });
      this.kick();
    });
  }

  /** Writes a last snapshot and removes the journal: a cleanly closed data file is one file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writing;
    if (!this.journal) return;
    try {
      if (!this.failure) {
        await this.compact();
        await this.journal.close();
        this.journal = undefined;
        await unlink(this.journalPath);
        await syncDirectory(dirname(this.file));
      }
    } finally {
      await this.journal?.close();
    }
  }

  private kick(): void {
    if (this.writing || !this.journal || this.failure) return;
    this.writing = this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        if (this.journalBytes >= COMPACT_AFTER_BYTES) {
          await this.compact();
          continue;
        }
        const text = this.pending.join('');
        const upTo = this.appended;
        this.pending = [];
        await this.journal!.write(text);
        await this.journal!.datasync();
        this.journalBytes += Buffer.byteLength(text);
        this.settle(upTo);
      }
    } catch (error) {
      this.fail(error);
    } finally {
      this.writing = undefined;
    }
  }

  /**
   * Folds the journal into the snapshot. Everything appended so far, written or not, is in the
   * snapshot; if the process dies between the rename and the truncation, the journal's entries
   * are skipped on load by their sequence number.
   */
  private async compact(): Promise<void> {
    const upTo = this.appended;
    this.pending = [];
    await this.writeSnapshot();
    await syncDirectory(dirname(this.file));
    await this.journal!.truncate(0);
    await this.journal!.datasync();
    this.journalBytes = 0;
    this.settle(upTo);
  }

  private async writeSnapshot(): Promise<void> {
    const snapshot: Snapshot = {
      format: FORMAT,
      version: 1,
      saved_at: new Date().toISOString(),
      journal_seq: this.appended,
      ...this.snapshot(),
    };
    const text = JSON.stringify(snapshot);
    this.counter += 1;
    const temp = `${this.file}.${process.pid}.${this.counter}.tmp`;
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, this.file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  private settle(upTo: number): void {
    this.synced = Math.max(this.synced, upTo);
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (waiter.seq <= this.synced) waiter.resolve();
      else this.waiters.push(waiter);
    }
  }

  private fail(error: unknown): void {
    const detail = error instanceof Error ? error.message : String(error);
    this.failure = new Error(`cannot write emulator data file ${this.file}: ${detail}`);
    console.error(`emulator: ${this.failure.message}; changes from now on are not saved`);
    for (const waiter of this.waiters) waiter.reject(this.failure);
    this.waiters = [];
  }
}
