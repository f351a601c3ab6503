/**
 * The app's SQLite store while another process opens the same file (an operator's sqlite3, a
 * bench reading it): the app's commits stay visible, and so kept, after that process closes it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import sqlite3 from 'sqlite3';
import { describe, expect, it } from 'vitest';

describe('a SQLite store another process opens', () => {
  it("keeps showing the app's commits after that process closes the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'split-wal-'));
    const file = join(dir, 'app.sqlite');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'wal-worker.ts'), `sqlite://${file}`, dir],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const write = async () => {
      child.stdin!.write('\n');
      return Number((await lines.next()).value);
    };
    // What an operator's `sqlite3 app.sqlite` does: open the file, read, close it.
    const count = async () => {
      const db = new sqlite3.Database(file);
      const rows = await new Promise<{ n: number }[]>((resolve, reject) =>
        db.all("SELECT count(*) AS n FROM keyv WHERE key LIKE 'user-preferences:%'", (e, r) =>
          e ? reject(e) : resolve(r as { n: number }[]),
        ),
      );
      await new Promise((resolve) => db.close(resolve));
      return rows[0]?.n;
    };
    try {
      expect(await write()).toBe(1);
      expect(await write()).toBe(2);
      expect(await count()).toBe(2);
      expect(await write()).toBe(3);
      expect(await count()).toBe(3);
      expect(await write()).toBe(4);
      expect(await count()).toBe(4);
    } finally {
      child.stdin!.end();
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
