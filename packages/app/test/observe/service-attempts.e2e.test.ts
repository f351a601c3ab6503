/**
 * What the service client tells its watcher (logs and metrics) about each HTTP attempt, against
 * the emulator's faults: operation, status, outcome, duration, and whether it is tried again.
 */
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptReport } from '../../src/service/index.js';
import {
  addFault,
  type CreatedUser,
  clearFaults,
  clientFor,
  emulator,
  type RunningEmulator,
  someUser,
} from '../service/helpers.js';

let emu: RunningEmulator;
let ann: CreatedUser;

beforeAll(async () => {
  emu = await emulator();
  ann = await someUser(emu.url, 'Ann');
});
afterEach(() => clearFaults(emu.url));
afterAll(() => emu?.close());

function watched(options: Parameters<typeof clientFor>[1] = {}, url = emu.url) {
  const reports: AttemptReport[] = [];
  const client = clientFor(url, {
    apiKey: ann.api_key,
    onAttempt: (report) => reports.push(report),
    ...options,
  });
  return { client, reports };
}

describe('onAttempt', () => {
  it('reports a read that failed with 503 and was tried again, then succeeded', async () => {
    await addFault(emu.url, { path: '/api/v3.0/get_friends', status: 503, times: 1 });
    const { client, reports } = watched({ retries: 1 });
    await client.getFriends();
    expect(reports.map(({ durationMs: _, ...rest }) => rest)).toEqual([
      {
        operation: 'get_friends',
        method: 'GET',
        attempt: 0,
        status: 503,
        outcome: 'error',
        retrying: true,
      },
      {
        operation: 'get_friends',
        method: 'GET',
        attempt: 1,
        status: 200,
        outcome: 'ok',
        retrying: false,
      },
    ]);
    for (const report of reports) expect(report.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reports a 429 as rate_limited, and a Retry-After too long to wait as not retried', async () => {
    await addFault(emu.url, { path: '/api/v3.0/get_friends', status: 429, retry_after: 60 });
    const { client, reports } = watched({ retries: 2 });
    await expect(client.getFriends()).rejects.toThrow();
    expect(reports).toMatchObject([{ status: 429, outcome: 'rate_limited', retrying: false }]);
  });

  it('reports a timeout, and a write as never retried', async () => {
    await addFault(emu.url, { path: '/api/v3.0/create_group', latency_ms: 300 });
    const { client, reports } = watched({ timeoutMs: 50, retries: 2 });
    await expect(client.createGroup({ name: 'Slow' })).rejects.toThrow(/timed out/);
    expect(reports).toMatchObject([
      {
        operation: 'create_group',
        method: 'POST',
        status: undefined,
        outcome: 'timeout',
        retrying: false,
      },
    ]);
  });

  it('reports a service nobody listens on as unreachable', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const { client, reports } = watched({ retries: 0 }, `http://127.0.0.1:${closed}`);
    await expect(client.getFriends()).rejects.toThrow();
    expect(reports).toMatchObject([
      { operation: 'get_friends', status: undefined, outcome: 'unreachable' },
    ]);
  });

  it('keeps the call going when the watcher throws', async () => {
    const client = clientFor(emu.url, {
      apiKey: ann.api_key,
      onAttempt: () => {
        throw new Error('a broken watcher');
      },
    });
    await expect(client.getFriends()).resolves.toEqual(expect.any(Array));
  });
});
