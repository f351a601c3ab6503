import { existsSync, readFileSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';

/** What a --data file holds. */
export interface Snapshot {
  format: 'expense-service-emulator';
  version: 1;
  saved_at: string;
  ledger: unknown;
  auth: unknown;
}

/** Reads a --data file; undefined when it does not exist yet, a clear error when it is unusable. */
export function readSnapshot(file: string): Snapshot | undefined {
  if (!existsSync(file)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot read emulator data file ${file}: ${detail}`);
  }
  const snapshot = data as Partial<Snapshot> | null;
  if (snapshot?.format !== 'expense-service-emulator' || snapshot.version !== 1) {
    throw new Error(`${file} is not an emulator data file (format/version not recognised)`);
  }
  return snapshot as Snapshot;
}

/** How long a save waits for more changes, so that a burst of writes costs one file write. */
const COALESCE_MS = 50;

/**
 * Keeps the --data file up to date. Changes only mark the state dirty; one write at a time then
 * serialises the whole state (synchronously, so the snapshot is consistent: Node runs one handler
 * at a time) to a temporary file, syncs it and renames it over the old one, which is atomic, so a
 * crash leaves either the previous file or the new one, never a torn one.
 */
export class Persister {
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private counter = 0;
  lastError: unknown;
  private quiet = false;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => Omit<Snapshot, 'format' | 'version' | 'saved_at'>,
  ) {}

  schedule(): void {
    this.dirty = true;
    if (this.timer || this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.drain();
    }, COALESCE_MS);
  }

  /** Writes any pending change and waits for it; used on close. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.running) await this.running;
    if (this.dirty) {
      this.running = this.drain();
      await this.running;
    }
  }

  /** Writes the state now, throwing if the file cannot be written (used at start-up). */
  async saveNow(): Promise<void> {
    this.dirty = true;
    this.lastError = undefined;
    this.quiet = true;
    try {
      await this.flush();
    } finally {
      this.quiet = false;
    }
    if (this.lastError) {
      const detail =
        this.lastError instanceof Error ? this.lastError.message : String(this.lastError);
      throw new Error(`cannot write emulator data file ${this.file}: ${detail}`);
    }
  }

  private async drain(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        const snapshot: Snapshot = {
          format: 'expense-service-emulator',
          version: 1,
          saved_at: new Date().toISOString(),
          ...this.snapshot(),
        };
        await this.write(JSON.stringify(snapshot));
      }
    } catch (error) {
      this.lastError = error;
      if (!this.quiet) console.error(`emulator: could not save ${this.file}:`, error);
    } finally {
      this.running = undefined;
    }
  }

  private async write(text: string): Promise<void> {
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
}
