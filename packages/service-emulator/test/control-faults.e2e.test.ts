import { type CreatedUser, call, control, createUser } from '@split/service-emulator/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index.js';

let emu: RunningEmulator;
let ann: CreatedUser;

beforeAll(async () => {
  emu = await startEmulator();
  ann = await createUser(emu.url, { email: 'ann@example.com', first_name: 'Ann' });
});
afterEach(() => control(emu.url, 'DELETE', 'faults'));
afterAll(() => emu.close());

const friends = () => call(emu.url, ann.api_key, 'GET', 'get_friends');

describe('fault injection', () => {
  it('adds latency before the handler and still answers normally', async () => {
    await control(emu.url, 'POST', 'faults', { path: '/api/v3.0/get_friends', latency_ms: 150 });
    const started = performance.now();
    const reply = await friends();
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(reply.status).toBe(200);
    expect(reply.body.friends).toEqual([]);
  });

  it('answers 503 for the next N requests, then serves normally again', async () => {
    const added = await control(emu.url, 'POST', 'faults', {
      path: '/api/v3.0/*',
      status: 503,
      times: 2,
    });
    expect(added.status).toBe(201);
    expect(added.body.id).toEqual(expect.any(String));
    const first = await friends();
    expect(first.status).toBe(503);
    expect(first.body).toEqual({ errors: { base: ['The service is temporarily unavailable'] } });
    expect((await friends()).status).toBe(503);
    expect((await friends()).status).toBe(200);
    expect((await control(emu.url, 'GET', 'faults')).body.faults).toEqual([]);
  });

  it('answers 429 with Retry-After and the throttling body the service uses', async () => {
    await control(emu.url, 'POST', 'faults', {
      path: '/api/v3.0/get_friends',
      status: 429,
      retry_after: 7,
    });
    const reply = await friends();
    expect(reply.status).toBe(429);
    expect(reply.headers.get('retry-after')).toBe('7');
    expect(reply.body).toEqual({
      error: 'That action is forbidden. Please wait a few minutes before making further requests.',
    });
  });

  it('answers with a custom body and matches by method', async () => {
    await control(emu.url, 'POST', 'faults', {
      path: '/api/v3.0/*',
      method: 'POST',
      status: 500,
      body: { errors: { base: ['boom'] } },
    });
    expect((await friends()).status).toBe(200);
    const reply = await call(emu.url, ann.api_key, 'POST', 'create_group', { name: 'X' });
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ errors: { base: ['boom'] } });
    const groups = await call(emu.url, ann.api_key, 'GET', 'get_groups');
    expect(groups.body.groups.map((g: { name: string }) => g.name)).not.toContain('X');
  });

  it('still applies and logs a slow write whose client gave up waiting', async () => {
    await control(emu.url, 'DELETE', 'requests');
    await control(emu.url, 'POST', 'faults', {
      path: '/api/v3.0/create_group',
      latency_ms: 300,
      times: 1,
    });
    const abandoned = fetch(`${emu.url}/api/v3.0/create_group`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ann.api_key}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'name=Slow+but+saved',
      signal: AbortSignal.timeout(80),
    });
    await expect(abandoned).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 450));
    const log = (await control(emu.url, 'GET', 'requests')).body;
    expect(log.counts['POST /api/v3.0/create_group']).toBe(1);
    const groups = await call(emu.url, ann.api_key, 'GET', 'get_groups');
    const names = groups.body.groups.map((g: { name: string }) => g.name);
    expect(names.filter((name: string) => name === 'Slow but saved')).toHaveLength(1);
  });

  it('drops the connection without an answer', async () => {
    await control(emu.url, 'POST', 'faults', {
      path: '/api/v3.0/get_friends',
      drop: true,
      times: 1,
    });
    await expect(friends()).rejects.toThrow();
    expect((await friends()).status).toBe(200);
  });

  it('applies error_rate to a share of requests', async () => {
    await control(emu.url, 'POST', 'faults', {
      path: '/api/v3.0/get_friends',
      status: 503,
      error_rate: 0.5,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await friends()).status);
    const failed = statuses.filter((status) => status === 503).length;
    // Binomial(200, 0.5): outside 60..140 has a probability below 1e-8.
    expect(failed).toBeGreaterThan(60);
    expect(failed).toBeLessThan(140);
    expect(statuses.every((status) => status === 503 || status === 200)).toBe(true);
  });

  it('never fires with error_rate 0', async () => {
    await control(emu.url, 'POST', 'faults', { path: '/api/v3.0/*', status: 503, error_rate: 0 });
    for (let i = 0; i < 20; i++) expect((await friends()).status).toBe(200);
  });

  it('lists faults and deletes one by id', async () => {
    const one = (await control(emu.url, 'POST', 'faults', { path: '/a', latency_ms: 1 })).body;
    const two = (await control(emu.url, 'POST', 'faults', { path: '/b', status: 500 })).body;
    const listed = (await control(emu.url, 'GET', 'faults')).body.faults;
    expect(listed.map((fault: { id: string }) => fault.id)).toEqual([one.id, two.id]);
    expect((await control(emu.url, 'DELETE', `faults/${one.id}`)).status).toBe(200);
    expect((await control(emu.url, 'DELETE', `faults/${one.id}`)).status).toBe(404);
    const left = (await control(emu.url, 'GET', 'faults')).body.faults;
    expect(left.map((fault: { id: string }) => fault.id)).toEqual([two.id]);
  });

  it('refuses malformed faults with a message naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ status: 503 }, /path/],
      [{ path: '/x' }, /latency_ms, status or drop/],
      [{ path: '/x', status: 42 }, /status/],
      [{ path: '/x', status: 503, error_rate: 2 }, /error_rate/],
      [{ path: '/x', status: 503, times: 0 }, /times/],
      [{ path: '/x', drop: 'yes' }, /drop/],
    ];
    for (const [body, message] of cases) {
      const reply = await control(emu.url, 'POST', 'faults', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.errors.base[0]).toMatch(message);
    }
  });
});
