/**
 * Keyv's store on the process's shared SQLite connection (sqlite.ts), one per namespace. It keeps
 * the table and key layout of the @keyv/sqlite adapter it replaces (table `keyv`, keys
 * `<namespace>:<key>`, values as Keyv serialises them), so a database written before reads the
 * same; what changed is that the namespaces no longer each open a connection.
 */
import { EventEmitter } from 'node:events';
import { likeEscape } from './match-escape.js';
import { type SqliteConnection, sqliteConnection } from './sqlite.js';

const TABLE = 'keyv';
const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS ${TABLE}(key VARCHAR(255) PRIMARY KEY, value TEXT )`;
/** Rows read per page of a walk. */
const PAGE = 100;

interface Row {
  key: string;
  value: string;
}

export class SqliteKeyvStore extends EventEmitter {
  /** Set by Keyv to its namespace; `clear` and a walk keep to it. */
  namespace: string | undefined;
  /** Read by Keyv: a store of this dialect can be walked with `iterator`. */
  readonly opts: { dialect: 'sqlite'; url: string };
  private readonly ready: Promise<SqliteConnection>;

  constructor(storeUrl: string) {
    super();
    this.opts = { dialect: 'sqlite', url: storeUrl };
    this.ready = sqliteConnection(storeUrl).then(async (connection) => {
      await connection.all(CREATE_TABLE);
      return connection;
    });
    // Failures reach callers through rejected calls; the event only needs a listener.
    this.ready.catch((error: unknown) => this.emit('error', error));
  }

  private async all(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await (await this.ready).all(sql, params)) as Row[];
  }

  async get(key: string): Promise<string | undefined> {
    const rows = await this.all(`SELECT value FROM ${TABLE} WHERE key = ?`, [key]);
    return rows[0]?.value;
  }

  async getMany(keys: string[]): Promise<Array<string | undefined>> {
    const rows = await this.all(
      `SELECT key, value FROM ${TABLE} WHERE key IN (SELECT value FROM json_each(?))`,
      [JSON.stringify(keys)],
    );
    const found = new Map(rows.map((row) => [row.key, row.value]));
    return keys.map((key) => found.get(key));
  }

  async set(key: string, value: string): Promise<void> {
    await this.all(
      `INSERT INTO ${TABLE} (key, value) VALUES (?, ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      [key, value],
    );
  }

  async delete(key: string): Promise<boolean> {
    const rows = await this.all(`DELETE FROM ${TABLE} WHERE key = ? RETURNING key`, [key]);
    return rows.length > 0;
  }

  async deleteMany(keys: string[]): Promise<boolean> {
    const rows = await this.all(
      `DELETE FROM ${TABLE} WHERE key IN (SELECT value FROM json_each(?)) RETURNING key`,
      [JSON.stringify(keys)],
    );
    return rows.length > 0;
  }

  async has(key: string): Promise<boolean> {
    const rows = await this.all(`SELECT key FROM ${TABLE} WHERE key = ?`, [key]);
    return rows.length > 0;
  }

  async clear(): Promise<void> {
    await this.all(`DELETE FROM ${TABLE} WHERE key LIKE ? ESCAPE '\\'`, [
      this.namespace ? `${likeEscape(this.namespace)}:%` : '%',
    ]);
  }

  /**
   * The namespace's entries in key order, a page at a time. Each page starts after the last key
   * of the one before (not at an offset), so entries removed during the walk skip nothing.
   */
  async *iterator(namespace: string | undefined): AsyncGenerator<[string, string]> {
    const prefix = namespace ? `${likeEscape(namespace)}:%` : '%';
    let after = '';
    for (;;) {
      const rows = await this.all(
        `SELECT key, value FROM ${TABLE} WHERE key LIKE ? ESCAPE '\\' AND key > ? ORDER BY key LIMIT ?`,
        [prefix, after, PAGE],
      );
      for (const row of rows) yield [row.key, row.value];
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]!.key;
    }
  }

  async disconnect(): Promise<void> {
    await (await this.ready).close();
  }
}
