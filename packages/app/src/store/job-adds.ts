/**
 * The write before each ack, grouped: the jobs queued in one turn of the event loop, or while the
 * group before them was being written, go to SQLite or PostgreSQL as one multi-row INSERT, one
 * commit, instead of one commit each. Measured with the /split benchmark's ack-only runs: the
 * job's own commit was about half of the app's processor time per ack (write-ahead-log pages,
 * their checkpoints, the hop to SQLite's thread and back); a burst of fifty commands now shares a
 * few. A lone command waits for nothing but the end of its turn.
 *
 * Each add still answers for its own id: whether it was new (RETURNING lists the ids inserted).
 * An id given twice in one group is new only the first time, as two separate inserts would have
 * it. A group refused for one of its rows is tried again row by row, so that the row the store
 * cannot take fails alone, never the other people's commands beside it; a store that fails
 * (busy past its wait, unreachable) fails the whole group at once, as it would each write.
 */

/** One job's row: id, payload, owner, lease_until, created_at. */
export type JobRow = readonly [string, string, string, number, number];

/** Runs one statement written with `?` placeholders; returns its rows. */
type Query = (sql: string, params: unknown[]) => Promise<unknown[]>;

/**
 * Rows per statement, largest first: a group is cut into these sizes, so that only a handful of
 * statement texts exist (each is prepared once and kept), and PostgreSQL's limit on parameters is
 * far off.
 */
const SIZES = [64, 32, 16, 8, 4, 2, 1] as const;

function insertSql(table: string, rows: number): string {
  const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?)').join(', ');
  return `INSERT INTO ${table} (id, payload, owner, lease_until, created_at) VALUES ${values}
         ON CONFLICT (id) DO NOTHING RETURNING id`;
}

interface Waiting {
  row: JobRow;
  resolve: (added: boolean) => void;
  reject: (error: unknown) => void;
}

/**
 * Whether a statement failed for something in its rows (a broken constraint, a value the store
 * cannot take) rather than for the store: SQLite's result codes, PostgreSQL's classes 22 (data)
 * and 23 (integrity).
 */
function rowLevel(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  return /^SQLITE_(?:CONSTRAINT|TOOBIG|MISMATCH)$/.test(code) || /^2[23][0-9A-Z]{3}$/.test(code);
}

/** Inserts one chunk's rows (ids all different) and answers each: new or already known. */
async function insertChunk(q: Query, table: string, chunk: readonly Waiting[]): Promise<void> {
  const returned = (await q(
    insertSql(table, chunk.length),
    chunk.flatMap((entry) => entry.row),
  )) as { id: string }[];
  const inserted = new Set(returned.map((row) => row.id));
  for (const entry of chunk) entry.resolve(inserted.has(entry.row[0]));
}

/**
 * A chunk the store refused, row by row: only a row it cannot take fails. Gives the ids that
 * failed, with their errors.
 */
async function oneByOne(
  q: Query,
  table: string,
  chunk: readonly Waiting[],
  failed: Map<string, unknown>,
): Promise<void> {
  for (const entry of chunk) {
    await insertChunk(q, table, [entry]).catch((error: unknown) => {
      failed.set(entry.row[0], error);
      entry.reject(error);
    });
  }
}

async function insertGroup(q: Query, table: string, group: readonly Waiting[]): Promise<void> {
  // A repeated id goes to the store once, and its later adds learn what the first did: within one
  // statement a second row with it would be skipped anyway, and PostgreSQL refuses some
  // statements that touch a row twice.
  const firsts = new Map<string, Waiting>();
  const repeats: Waiting[] = [];
  for (const entry of group) {
    if (firsts.has(entry.row[0])) repeats.push(entry);
    else firsts.set(entry.row[0], entry);
  }
  const unique = [...firsts.values()];
  const failed = new Map<string, unknown>();
  let at = 0;
  while (at < unique.length) {
    const size = SIZES.find((n) => n <= unique.length - at) ?? 1;
    const chunk = unique.slice(at, at + size);
    at += size;
    try {
      await insertChunk(q, table, chunk);
    } catch (error) {
      if (chunk.length > 1 && rowLevel(error)) {
        await oneByOne(q, table, chunk, failed);
        continue;
      }
      // The store itself failing (busy past its wait, gone): every row left fails with it now,
      // rather than each waiting out the same failure in turn.
      for (const entry of [...chunk, ...unique.slice(at)]) {
        failed.set(entry.row[0], error);
        entry.reject(error);
      }
      break;
    }
  }
  for (const entry of repeats) {
    if (failed.has(entry.row[0])) entry.reject(failed.get(entry.row[0]));
    else entry.resolve(false);
  }
}

export function groupedAdds(q: Query, table: string): (row: JobRow) => Promise<boolean> {
  let waiting: Waiting[] = [];
  let writing = false;
  const write = () => {
    const group = waiting;
    waiting = [];
    writing = true;
    const written = () => {
      writing = false;
      // What came while this group was written goes now, as one group.
      if (waiting.length > 0) write();
    };
    insertGroup(q, table, group).then(written, written);
  };
  return (row) =>
    new Promise<boolean>((resolve, reject) => {
      waiting.push({ row, resolve, reject });
      // After this turn's I/O callbacks: the commands read from the sockets in one poll share it.
      // While a group is being written, the next waits for it to end rather than queueing a
      // statement of its own behind it: in a burst each commit then carries many rows.
      if (waiting.length === 1 && !writing)
        setImmediate(() => {
          if (!writing && waiting.length > 0) write();
        });
    });
}
