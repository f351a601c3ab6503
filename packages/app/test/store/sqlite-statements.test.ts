/**
 * The store's SQLite connection prepares each statement text once and runs it again and again,
 * and a statement that cannot be prepared yet fails its call instead of leaving it waiting.
 */
import sqlite3 from 'sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sqliteConnection } from '../../src/store/sqlite.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the SQLite connection', () => {
  it('prepares a statement once for many runs, and still closes', async () => {
    const prepare = vi.spyOn(sqlite3.Database.prototype, 'prepare');
    const connection = await sqliteConnection('sqlite://:memory:');
    await connection.all('CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT)');
    const write = 'INSERT INTO kv (key, value) VALUES (?, ?)';
    const read = 'SELECT value FROM kv WHERE key = ?';
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => connection.all(write, [`k${i}`, `v${i}`])),
    );
    const rows = await Promise.all(
      Array.from({ length: 50 }, (_, i) => connection.all(read, [`k${i}`])),
    );
    expect(rows.map((r) => (r[0] as { value: string }).value)).toEqual(
      Array.from({ length: 50 }, (_, i) => `v${i}`),
    );
    const texts = prepare.mock.calls.map((call) => call[0]);
    expect(texts.filter((sql) => sql === write)).toHaveLength(1);
    expect(texts.filter((sql) => sql === read)).toHaveLength(1);
    await connection.close();
  });

  it('fails a run whose statement cannot be prepared, and prepares it again later', async () => {
    const connection = await sqliteConnection('sqlite://:memory:');
    const read = 'SELECT value FROM later WHERE key = ?';
    await expect(connection.all(read, ['a'])).rejects.toThrow(/no such table/);
    await expect(connection.all(read, ['a'])).rejects.toThrow(/no such table/);
    await connection.all('CREATE TABLE later (key TEXT, value TEXT)');
    await connection.all("INSERT INTO later VALUES ('a', 'b')");
    expect(await connection.all(read, ['a'])).toEqual([{ value: 'b' }]);
    // A statement that fails when run (a broken constraint) is dropped and made again.
    await connection.all('CREATE UNIQUE INDEX later_key ON later (key)');
    const write = 'INSERT INTO later VALUES (?, ?)';
    await expect(connection.all(write, ['a', 'c'])).rejects.toThrow(/UNIQUE/);
    await connection.all(write, ['d', 'e']);
    expect(await connection.all('SELECT count(*) AS n FROM later')).toEqual([{ n: 2 }]);
    await connection.close();
  });
});
