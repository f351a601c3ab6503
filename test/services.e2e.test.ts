/**
 * What the e2e and browser tests' global setups find (scripts/services.ts): a Redis that answers
 * PING, a PostgreSQL with its database (created when the server has none of that name), one
 * started from npm, and a Chromium that is an executable file; and a missing one named.
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  findChromium,
  findPostgres,
  findRedis,
  firstUnreachable,
  npmPostgresBlocked,
  startPostgres,
} from '../scripts/services.js';
import { reportSkipped } from './support/skipped.js';

/** A TCP server on a free loopback port that answers every connection's first bytes with `reply`. */
async function answering(reply: string): Promise<{ port: number; server: Server }> {
  const server = createServer((socket) => socket.once('data', () => socket.end(reply)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

async function closedPort(): Promise<number> {
  const { port, server } = await answering('');
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('findRedis', () => {
  const servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise((done) => s.close(done)))));

  it('finds a server that answers PING, and drops the database number from its URL', async () => {
    const pong = await answering('+PONG\r\n');
    servers.push(pong.server);
    expect(await findRedis(`redis://127.0.0.1:${pong.port}/3`)).toEqual({
      found: `redis://127.0.0.1:${pong.port}`,
    });
    const locked = await answering('-NOAUTH Authentication required.\r\n');
    servers.push(locked.server);
    expect(await findRedis(`redis://:pw@127.0.0.1:${locked.port}`)).toEqual({
      found: `redis://:pw@127.0.0.1:${locked.port}`,
    });
  });

  it('names what it found instead: nothing listening, or a server that is not Redis', async () => {
    const port = await closedPort();
    expect(await findRedis(`redis://127.0.0.1:${port}`)).toEqual({
      missing: `nothing answers as Redis at 127.0.0.1:${port} (ECONNREFUSED)`,
    });
    const http = await answering('HTTP/1.1 400 Bad Request\r\n\r\n');
    servers.push(http.server);
    expect(await findRedis(`redis://127.0.0.1:${http.port}`)).toEqual({
      missing: `nothing answers as Redis at 127.0.0.1:${http.port} (HTTP/1.1 400 Bad Request)`,
    });
  });
});

describe('findChromium', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'split-chromium-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds an executable file, and nothing else', async () => {
    const executable = join(dir, 'chromium');
    await writeFile(executable, '#!/bin/sh\n');
    await chmod(executable, 0o755);
    expect(findChromium(executable)).toEqual({ found: executable });

    const plain = join(dir, 'notes.txt');
    await writeFile(plain, 'not a program');
    expect(findChromium(plain)).toEqual({ missing: `no Chromium at ${plain}` });
    expect(findChromium(join(dir, 'absent'))).toEqual({
      missing: `no Chromium at ${join(dir, 'absent')}`,
    });
    expect(findChromium(dir)).toEqual({ missing: `${dir} is not a Chromium executable` });
  });
});

// pg ships no type declarations; these are the calls made here.
const PG_MODULE = 'pg';
type PgClient = {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
};

async function pgClient(url: string): Promise<PgClient> {
  const { Client } = (
    (await import(PG_MODULE)) as {
      default: { Client: new (options: { connectionString: string }) => PgClient };
    }
  ).default;
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

async function dropDatabase(url: string, name: string): Promise<void> {
  const admin = await pgClient(url);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  } finally {
    await admin.end();
  }
}

// As root in a private folder PostgreSQL from npm cannot start (npmPostgresBlocked says why):
// its tests are skipped with that line, except under CI=true, where nothing may be skipped.
const npmBlocked = await npmPostgresBlocked();
const skipNpm = npmBlocked !== null && process.env.CI !== 'true';
if (skipNpm) reportSkipped([`PostgreSQL-from-npm tests skipped: ${npmBlocked}`]);

describe('PostgreSQL', () => {
  it('is missing where nothing listens', async () => {
    const port = await closedPort();
    expect(await findPostgres(`postgres://postgres@127.0.0.1:${port}/test`)).toEqual({
      missing: `no PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED)`,
    });
  });

  const postgresUrl = inject('postgresUrl');
  it.skipIf(!postgresUrl)(
    "is found with its database, created when the server doesn't have it yet",
    async () => {
      const name = `split_probe_${randomBytes(4).toString('hex')}`;
      const url = postgresUrl!.replace(/\/test$/, `/${name}`);
      try {
        expect(await findPostgres(url)).toEqual({ found: url });
        expect(await findPostgres(url)).toEqual({ found: url });
      } finally {
        await dropDatabase(postgresUrl!, name);
      }
    },
  );

  it('finds the folder a user cannot pass on the way to a file, by owner, group and others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'split-private-'));
    try {
      const file = join(dir, 'initdb');
      await writeFile(file, '');
      await chmod(file, 0o755);
      await chmod(dir, 0o700);
      // As a clone under /root is to the user "postgres": the folder is its owner's alone.
      const stranger = { uid: 54_321, gids: [54_321] };
      expect(firstUnreachable(file, stranger)).toBe(dir);
      const { uid, gid } = statSync(dir);
      expect(firstUnreachable(file, { uid, gids: [] })).toBeNull();
      await chmod(dir, 0o710);
      expect(firstUnreachable(file, { uid: 54_321, gids: [gid] })).toBeNull();
      await chmod(dir, 0o711);
      expect(firstUnreachable(file, stranger)).toBeNull();
      await chmod(file, 0o744);
      expect(firstUnreachable(file, stranger)).toBe(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(skipNpm)(
    'starts from npm on a free port with a database "test", and is gone once stopped',
    async () => {
      const started = await startPostgres();
      try {
        expect(started.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/test$/);
        expect(await findPostgres(started.url)).toEqual({ found: started.url });
      } finally {
        await started.stop();
      }
      expect(await findPostgres(started.url)).toMatchObject({ missing: /ECONNREFUSED/ });
    },
    60_000,
  );

  it.skipIf(skipNpm)(
    'waits, when asked, for the sessions still open to end before it stops',
    async () => {
      const started = await startPostgres();
      const client = await pgClient(started.url);
      const errors: Error[] = [];
      client.on('error', (error) => errors.push(error));
      setTimeout(() => void client.end(), 500);
      const asked = Date.now();
      await started.stop({ graceMs: 20_000 });
      const waited = Date.now() - asked;
      expect(waited).toBeGreaterThanOrEqual(400);
      expect(waited).toBeLessThan(20_000);
      // Ended by its owner, not cut by the stop.
      expect(errors).toEqual([]);
    },
    60_000,
  );
});
