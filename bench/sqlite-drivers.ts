/**
 * What one SQLite statement costs the process, through the `sqlite3` package the store uses (each
 * statement handed to SQLite's thread and its answer back) and, where Node has it, through the
 * built-in `node:sqlite` (synchronous, on the caller's thread).
 *
 *   npx tsx bench/sqlite-drivers.ts     BENCH_ROUNDS=N (5), BENCH_OPS=N statements a round (2000)
 *
 * Each round runs an upsert of a 300-byte value and a read by key, each BENCH_OPS times one after
 * the other (each awaited, as the store awaits them), on a write-ahead-logged file of its own in
 * the OS temp directory, with the store's pragmas; the drivers alternate which goes first. The
 * table gives the medians of the rounds after a warm-up round: CPU of the whole process (every
 * thread) and wall time, in µs per statement.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { median } from './median.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const OPS = Number(process.env.BENCH_OPS ?? 2_000);
const SETUP = [
  'PRAGMA journal_mode = WAL',
  'PRAGMA synchronous = NORMAL',
  'CREATE TABLE IF NOT EXISTS kv (key TEXT PRIMARY KEY, value TEXT)',
];
const UPSERT =
  'INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value';
const READ = 'SELECT value FROM kv WHERE key = ?';
const VALUE = 'x'.repeat(300);

/** Runs one statement with its parameters and resolves with its rows. */
type Run = (sql: string, params: string[]) => Promise<unknown>;

interface Driver {
  name: string;
  run: Run;
  close(): Promise<void>;
}

async function packageDriver(file: string): Promise<Driver> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, (error) => (error ? reject(error) : resolve(opened)));
  });
  for (const sql of SETUP) {
    await new Promise<void>((resolve, reject) => db.run(sql, (e) => (e ? reject(e) : resolve())));
  }
  // Prepared once per text, as the store does.
  const statements = new Map<string, sqlite3.Statement>();
  for (const sql of [UPSERT, READ]) {
    statements.set(
      sql,
      await new Promise<sqlite3.Statement>((resolve, reject) => {
        const made = db.prepare(sql, (error) => (error ? reject(error) : resolve(made)));
      }),
    );
  }
  return {
    name: 'sqlite3 package',
    run: (sql, params) =>
      new Promise((resolve, reject) =>
        statements.get(sql)!.all(params, (error, rows) => (error ? reject(error) : resolve(rows))),
      ),
    close: async () => {
      for (const statement of statements.values()) {
        await new Promise<void>((resolve) => statement.finalize(() => resolve()));
      }
      await new Promise<void>((resolve, reject) => db.close((e) => (e ? reject(e) : resolve())));
    },
  };
}

interface SyncStatement {
  all(...params: string[]): unknown[];
}
interface SyncDatabase {
  exec(sql: string): void;
  prepare(sql: string): SyncStatement;
  close(): void;
}

function builtinDriver(file: string): Driver | undefined {
  const major = Number(process.versions.node.split('.')[0]);
  // Node 22 has it too, behind a warning that it is experimental; the image runs 24.
  if (major < 24) return undefined;
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite') as {
    DatabaseSync: new (path: string) => SyncDatabase;
  };
  const db = new DatabaseSync(file);
  for (const sql of SETUP) db.exec(sql);
  const statements = new Map([UPSERT, READ].map((sql) => [sql, db.prepare(sql)]));
  return {
    name: 'node:sqlite',
    run: async (sql, params) => statements.get(sql)!.all(...params),
    close: async () => db.close(),
  };
}

const dir = await mkdtemp(join(tmpdir(), 'sqlite-drivers-'));
try {
  const drivers = [await packageDriver(join(dir, 'package.sqlite'))];
  const builtin = builtinDriver(join(dir, 'builtin.sqlite'));
  if (builtin) drivers.push(builtin);
  else console.log(`node:sqlite left out: Node ${process.version} is older than 24`);
  const kinds: Array<[string, string, (i: number) => string[]]> = [
    ['upsert', UPSERT, (i) => [`key-${i % 100}`, VALUE]],
    ['read by key', READ, (i) => [`key-${i % 100}`]],
  ];
  const times = new Map<string, { cpu: number[]; wall: number[] }>();
  for (let round = 0; round <= ROUNDS; round++) {
    const order = round % 2 === 0 ? drivers : [...drivers].reverse();
    for (const [kind, sql, params] of kinds) {
      for (const driver of order) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        for (let i = 0; i < OPS; i++) await driver.run(sql, params(i));
        const wall = ((performance.now() - started) * 1000) / OPS;
        const used = process.cpuUsage(cpu);
        // Round 0 warms up.
        if (round === 0) continue;
        const key = `${kind}|${driver.name}`;
        const entry = times.get(key) ?? { cpu: [], wall: [] };
        entry.cpu.push((used.user + used.system) / OPS);
        entry.wall.push(wall);
        times.set(key, entry);
      }
    }
  }
  console.log(`Node ${process.version}, ${ROUNDS} rounds of ${OPS} statements, medians`);
  console.log('| statement | driver | CPU µs | wall µs |');
  console.log('|---|---|---:|---:|');
  for (const [kind] of kinds) {
    for (const driver of drivers) {
      const entry = times.get(`${kind}|${driver.name}`)!;
      console.log(
        `| ${kind} | ${driver.name} | ${median(entry.cpu).toFixed(1)} | ${median(entry.wall).toFixed(1)} |`,
      );
    }
  }
  for (const driver of drivers) await driver.close();
} finally {
  await rm(dir, { recursive: true, force: true });
}
