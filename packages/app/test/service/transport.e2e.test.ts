/**
 * The transport policy against emulator faults: reads retried on 5xx, 429 (honouring Retry-After),
 * timeouts and dropped connections; writes never retried, and their unknown outcome reported.
 */
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ServiceConnectionException,
  ServiceRateLimitedException,
  ServiceServerException,
  ServiceTimeoutException,
} from '../../src/service/index.js';
import { backoffDelay, parseRetryAfter } from '../../src/service/request.js';
import {
  addFault,
  type CreatedUser,
  clearFaults,
  clientFor,
  emulator,
  type RunningEmulator,
  recorder,
  resetRequests,
  seen,
  someUser,
} from './helpers.js';

let emu: RunningEmulator;
let ann: CreatedUser;
let bob: CreatedUser;
let groupId: number;

const ME = '/api/v3.0/get_current_user';
const CREATE = '/api/v3.0/create_expense';

beforeAll(async () => {
  emu = await emulator();
  ann = await someUser(emu.url, 'Ann');
  bob = await someUser(emu.url, 'Bob');
  const setup = clientFor(emu.url, { apiKey: ann.api_key });
  // The service adds people to a group by user_id only once they are acquainted.
  await setup.createFriend({ email: bob.user.email });
  groupId = (
    await setup.createGroup({
      name: 'Transport',
      users: [{ user_id: bob.user.id }],
    })
  ).group!.id;
});

afterEach(async () => {
  await clearFaults(emu.url);
  await resetRequests(emu.url);
});

afterAll(async () => {
  await emu?.close();
});

const client = (options: Parameters<typeof clientFor>[1] = {}) =>
  clientFor(emu.url, { apiKey: ann.api_key, ...options });

describe('reads are retried', () => {
  it('503 then 200: the read succeeds on the second attempt', async () => {
    await addFault(emu.url, { path: ME, status: 503, times: 1 });
    expect((await client().getCurrentUser()).id).toBe(ann.user.id);
    expect(await seen(emu.url, `GET ${ME}`)).toBe(2);
  });

  it('429 with Retry-After: waits the given seconds, then succeeds', async () => {
    await addFault(emu.url, { path: ME, status: 429, retry_after: 1, times: 1 });
    const started = Date.now();
    expect((await client().getCurrentUser()).id).toBe(ann.user.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(await seen(emu.url, `GET ${ME}`)).toBe(2);
  });

  it('429 with a Retry-After beyond the cap fails at once, saying how long to wait', async () => {
    await addFault(emu.url, { path: ME, status: 429, retry_after: 60 });
    const started = Date.now();
    const error = await client({ maxRetryAfterMs: 5_000 })
      .getCurrentUser()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceRateLimitedException);
    expect((error as ServiceRateLimitedException).retry_after_ms).toBe(60_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await seen(emu.url, `GET ${ME}`)).toBe(1);
  });

  it('gives up after `retries` extra attempts with the last error', async () => {
    await addFault(emu.url, { path: ME, status: 502 });
    const error = await client({ retries: 3 })
      .getCurrentUser()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceServerException);
    expect((error as ServiceServerException).http_status).toBe(502);
    expect(await seen(emu.url, `GET ${ME}`)).toBe(4);
  });

  it('retries: 0 sends a read once', async () => {
    await addFault(emu.url, { path: ME, status: 503 });
    await expect(client({ retries: 0 }).getCurrentUser()).rejects.toBeInstanceOf(
      ServiceServerException,
    );
    expect(await seen(emu.url, `GET ${ME}`)).toBe(1);
  });

  it('a 4xx is not retried', async () => {
    await expect(client().getExpense(987654321)).rejects.toMatchObject({ http_status: 404 });
    expect(await seen(emu.url, 'GET /api/v3.0/get_expense')).toBe(1);
  });

  it('a dropped connection is retried', async () => {
    await addFault(emu.url, { path: ME, drop: true, times: 1 });
    expect((await client().getCurrentUser()).id).toBe(ann.user.id);
  });

  it('a timed-out read is retried', async () => {
    await addFault(emu.url, { path: ME, latency_ms: 400, times: 1 });
    expect((await client({ timeoutMs: 150 }).getCurrentUser()).id).toBe(ann.user.id);
    // The emulator logs a request when it has answered it: let the abandoned one finish.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await seen(emu.url, `GET ${ME}`)).toBe(2);
  });
});

describe('timeouts', () => {
  it('a read that outlasts the timeout fails with ServiceTimeoutException', async () => {
    await addFault(emu.url, { path: ME, latency_ms: 1_000 });
    const started = Date.now();
    const error = await client({ timeoutMs: 150, retries: 0 })
      .getCurrentUser()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceTimeoutException);
    expect(error).toBeInstanceOf(ServiceConnectionException);
    expect((error as ServiceTimeoutException).message).toMatch(/timed out after 150 ms/);
    expect((error as ServiceTimeoutException).outcome_unknown).toBe(false);
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe('writes are never retried', () => {
  it('503 on create_expense: one request, a ServiceServerException whose outcome is unknown', async () => {
    await addFault(emu.url, { path: CREATE, status: 503 });
    const error = await client({ retries: 5 })
      .createExpense({ description: 'Once', cost: '4', group_id: groupId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceServerException);
    expect((error as ServiceServerException).outcome_unknown).toBe(true);
    expect(await seen(emu.url, `POST ${CREATE}`)).toBe(1);
  });

  it('429 on a write: one request, even with a short Retry-After', async () => {
    await addFault(emu.url, { path: CREATE, status: 429, retry_after: 0 });
    await expect(
      client().createExpense({ description: 'Once', cost: '4', group_id: groupId }),
    ).rejects.toBeInstanceOf(ServiceRateLimitedException);
    expect(await seen(emu.url, `POST ${CREATE}`)).toBe(1);
  });

  it('a dropped write: one request, outcome unknown', async () => {
    await addFault(emu.url, { path: CREATE, drop: true });
    const error = await client()
      .createExpense({ description: 'Dropped', cost: '4', group_id: groupId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceConnectionException);
    expect((error as ServiceConnectionException).outcome_unknown).toBe(true);
    expect(await seen(emu.url, `POST ${CREATE}`)).toBe(1);
  });

  it('a timed-out write is sent once and reported as of unknown outcome, for the caller to reconcile', async () => {
    await addFault(emu.url, { path: CREATE, latency_ms: 600, times: 1 });
    const rec = recorder();
    const writer = client({ timeoutMs: 150, retries: 5, fetch: rec.fetch });
    const error = await writer
      .createExpense({ description: 'Slow write', cost: '7', group_id: groupId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceTimeoutException);
    expect((error as ServiceTimeoutException).outcome_unknown).toBe(true);
    expect((error as Error).message).toMatch(/may have applied it/);
    expect(rec.calls).toHaveLength(1);
    // The slow service still applies what it received: once, which is what the caller must find
    // when it reconciles instead of sending the write again.
    await expect.poll(() => seen(emu.url, `POST ${CREATE}`), { timeout: 3_000 }).toBe(1);
    const booked = await client().getExpenses({ group_id: groupId, limit: 0 });
    expect(booked.filter((e) => e.description === 'Slow write')).toHaveLength(1);
  });

  it('connection refused: the write certainly did not happen', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const address = server.address() as { port: number };
        server.close(() => resolve(address.port));
      });
    });
    const dead = clientFor(`http://127.0.0.1:${port}`, { apiKey: ann.api_key });
    const error = await dead
      .createExpense({ description: 'Nowhere', cost: '1', group_id: groupId })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceConnectionException);
    expect(error).not.toBeInstanceOf(ServiceTimeoutException);
    expect((error as ServiceConnectionException).outcome_unknown).toBe(false);
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });
});

describe('policy arithmetic', () => {
  it('Retry-After is read as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-05-03T04:38:12Z');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Sun, 03 May 2026 04:38:42 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 03 May 2026 04:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('backoff doubles per attempt, is capped, and jitters within the upper half of the step', () => {
    const policy = { retries: 5, baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 0 };
    expect(backoffDelay(0, policy, () => 0)).toBe(50);
    expect(backoffDelay(0, policy, () => 1)).toBe(100);
    expect(backoffDelay(2, policy, () => 1)).toBe(400);
    expect(backoffDelay(6, policy, () => 0)).toBe(500);
    expect(backoffDelay(6, policy, () => 1)).toBe(1_000);
  });
});
