/**
 * One SQLite connection per database file for the whole process, shared by every namespace, the
 * claims and the jobs. Each connection costs about a quarter of a megabyte of native memory
 * whatever it holds (measured: eleven connections to one small file, 3.1 MB; one, 0.3 MB), and the
 * app's statements are single statements (no transaction spans two), so nothing needs a
 * connection of its own. The last user to close it closes the connection.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Database, Statement } from 'sqlite3';

export interface SqliteConnection {
  /** Runs one statement and resolves with its rows (none for a statement without RETURNING). */
  all(sql: string, params?: readonly unknown[]): Promise<unknown[]>;
  /** This user is done with it; the connection closes when its last user is. */
  close(): Promise<void>;
}

/** SQLite answers SQLITE_BUSY at once by default; replicas sharing one file wait instead. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Every connection's settings: write-ahead logging, so that a commit appends to the log instead
 * of syncing the database file twice (and readers stop waiting for writers), synced at checkpoints
 * rather than at every commit. A crash of the app loses nothing; a power cut may lose the last
 * commits. Measured: a second write per /split (the record behind /split undo) had doubled the
 * app's system time and its ack p99 with the default rollback journal.
 */
const SQLITE_PRAGMAS = ['PRAGMA journal_mode = WAL', 'PRAGMA synchronous = NORMAL'];

/**
 * The SQLite file a sqlite:// URL names, resolved against cwd, with its directory created so
 * that the first run works on a fresh checkout or an empty volume.
 *
 * The file holds sealed tokens beside people's preferences and records, so it is readable by its
 * owner only: a directory this creates is 0700 and the file is created 0600 before SQLite opens
 * it (SQLite gives its -wal and -shm files the database file's mode). Files a release before this
 * one left group- or world-readable are narrowed to 0600 too.
 */
export function sqliteFile(storeUrl: string, cwd = process.cwd()): string {
  const path = storeUrl.replace(/^sqlite:\/\//i, '');
  if (path === '' || path === ':memory:') return ':memory:';
  const file = resolve(cwd, path);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  // Created only when missing. Closing any descriptor of the database file drops every POSIX
  // lock this process holds on it, SQLite's included: another process opening the file then
  // believes it is alone, checkpoints and deletes the write-ahead log under the open
  // connections, whose later commits go to a log nobody else sees (and are lost at restart).
  if (!existsSync(file)) {
    try {
      closeSync(openSync(file, 'wx', 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  for (const name of [file, `${file}-wal`, `${file}-shm`]) ownerOnly(name);
  return file;
}

function ownerOnly(file: string): void {
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  } catch (error) {
    // Absent (-wal and -shm come and go), or owned by another account that set its own modes.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}

interface Connection {
  db: Database;
  ready: Promise<void>;
  /** Prepared once per SQL text (see prepared()). */
  statements: Map<string, Promise<Statement>>;
}

interface Shared {
  /** The connection once open, with the pragmas run. */
  opening: Promise<Connection>;
  /** Counted when a caller asks, before any await: a close never pulls it from under an open. */
  users: number;
}

const shared = new Map<string, Shared>();

function allOn(db: Database, sql: string, params: readonly unknown[]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    db.all(sql, params as unknown[], (error, rows) => (error ? reject(error) : resolve(rows)));
  });
}

/**
 * The app's statements are a few dozen fixed texts run again and again (six for each booking).
 * `db.all` prepares, runs and finalizes a statement for each call, three hops to SQLite's thread
 * and back; a statement prepared once takes one. Texts past the cap run as before: no text is
 * ever evicted from under a queued run.
 */
const STATEMENTS_CAP = 200;

async function prepared(
  connection: Connection,
  sql: string,
  params: readonly unknown[],
): Promise<unknown[]> {
  let preparing = connection.statements.get(sql);
  if (!preparing) {
    if (connection.statements.size >= STATEMENTS_CAP) return allOn(connection.db, sql, params);
    // Awaited before the first run: runs queued on a statement whose prepare failed (a table not
    // made yet) are never called back.
    const made = new Promise<Statement>((resolve, reject) => {
      const statement = connection.db.prepare(sql, (error) =>
        error ? reject(error) : resolve(statement),
      );
    });
    preparing = made;
    connection.statements.set(sql, made);
    made.catch(() => {
      if (connection.statements.get(sql) === made) connection.statements.delete(sql);
    });
  }
  const statement = await preparing;
  return new Promise((resolve, reject) => {
    statement.all(params as unknown[], (error, rows) => {
      if (!error) return resolve(rows);
      // Not kept after an error: the next run prepares it afresh.
      if (connection.statements.get(sql) === preparing) {
        connection.statements.delete(sql);
        statement.finalize(() => undefined);
      }
      reject(error);
    });
  });
}

/** Statements are finalized first: SQLite does not close a connection that still has some. */
async function closeConnection(connection: Connection): Promise<void> {
  const statements = [...connection.statements.values()];
  connection.statements.clear();
  await Promise.all(
    statements.map((preparing) =>
      preparing.then(
        (statement) => new Promise<void>((resolve) => statement.finalize(() => resolve())),
        () => undefined,
      ),
    ),
  );
  await new Promise<void>((resolve, reject) =>
    connection.db.close((error) => (error ? reject(error) : resolve())),
  );
}

async function openDatabase(file: string): Promise<Database> {
  const { default: sqlite3 } = await import('sqlite3');
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (error) => {
      if (error) reject(error);
      else {
        db.configure('busyTimeout', BUSY_TIMEOUT_MS);
        resolve(db);
      }
    });
  });
}

async function connect(file: string): Promise<Connection> {
  const db = await openDatabase(file);
  // A file system that refuses WAL keeps SQLite's default journal, which still works.
  const ready = (async () => {
    for (const pragma of SQLITE_PRAGMAS) await allOn(db, pragma, []).catch(() => undefined);
  })();
  return { db, ready, statements: new Map() };
}

/**
 * A connection to the file a sqlite:// URL names (created, owner-only, as sqliteFile says). An
 * in-memory database is private to its caller, as SQLite makes each one.
 */
export async function sqliteConnection(storeUrl: string): Promise<SqliteConnection> {
  const file = sqliteFile(storeUrl);
  let entry = file === ':memory:' ? undefined : shared.get(file);
  if (!entry) {
    entry = { opening: connect(file), users: 0 };
    if (file !== ':memory:') shared.set(file, entry);
  }
  const mine = entry;
  mine.users++;
  let connection: Awaited<Shared['opening']>;
  try {
    connection = await mine.opening;
  } catch (error) {
    // A failed open is not kept: the next caller tries again.
    mine.users--;
    if (shared.get(file) === mine) shared.delete(file);
    throw error;
  }
  let closed = false;
  return {
    async all(sql, params = []) {
      await connection.ready;
      return prepared(connection, sql, params);
    },
    async close() {
      if (closed) return;
      closed = true;
      mine.users--;
      if (mine.users > 0) return;
      if (shared.get(file) === mine) shared.delete(file);
      await closeConnection(connection);
    },
  };
}
