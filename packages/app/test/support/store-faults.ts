/** Store faults the e2e tests cause on purpose, on the harness's SQLite store. */
import sqlite3 from 'sqlite3';

/** A connection of the test's own to the harness's SQLite file. */
function connect(storeUrl: string) {
  const db = new sqlite3.Database(storeUrl.replace(/^sqlite:\/\//, ''));
  return {
    run: (sql: string) =>
      new Promise<void>((resolve, reject) =>
        db.run(sql, (error) => (error ? reject(error) : resolve())),
      ),
    close: () => new Promise<void>((resolve) => db.close(() => resolve())),
  };
}

/**
 * Makes the app's store refuse every write to its job queue, at once, until restored: the table
 * is moved aside from a connection of the test's own (the app's next statement finds it gone).
 */
export async function breakJobQueue(storeUrl: string): Promise<() => Promise<void>> {
  const { run, close } = connect(storeUrl);
  await run('ALTER TABLE split_jobs RENAME TO split_jobs_aside');
  return async () => {
    await run('ALTER TABLE split_jobs_aside RENAME TO split_jobs');
    await close();
  };
}

/**
 * Holds the store's write lock from a connection of the test's own for `ms`, as another process
 * in the middle of a long write would: the app's writes wait (up to their busy timeout), its reads
 * go on. Resolves once the lock is held, with a promise of its release.
 */
export async function holdWriteLock(
  storeUrl: string,
  ms: number,
): Promise<{ released: Promise<void> }> {
  const { run, close } = connect(storeUrl);
  await run('BEGIN EXCLUSIVE');
  const released = (async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await run('COMMIT');
    await close();
  })();
  return { released };
}
