import {
  type CreatedUser,
  call,
  createUser,
  NOT_FOUND,
  raw,
} from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index.js';

const NOT_LOGGED_IN = { error: 'Invalid API request: you are not logged in' };

let emu: RunningEmulator;
let ann: CreatedUser;

beforeAll(async () => {
  emu = await startEmulator();
  ann = await createUser(emu.url, {
    email: 'ann@example.com',
    first_name: 'Ann',
    last_name: 'Lee',
  });
});
afterAll(() => emu.close());

describe('emulator routing and responses', () => {
  it('serves on loopback with a URL without a trailing slash', () => {
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.port).toBeGreaterThan(0);
  });

  it('answers an API-key call with the real service headers', async () => {
    const reply = await call(emu.url, ann.api_key, 'GET', 'get_current_user');
    expect(reply.status).toBe(200);
    expect(reply.body.user).toMatchObject({
      id: ann.user.id,
      first_name: 'Ann',
      email: 'ann@example.com',
    });
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe(
      'no-cache, no-store, max-age=0, must-revalidate',
    );
    expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(reply.headers.get('x-runtime')).toMatch(/^\d+\.\d{6}$/);
  });

  it('answers missing, unknown and malformed credentials with the real 401 body', async () => {
    const cases: (Record<string, string> | undefined)[] = [
      undefined,
      { authorization: 'Bearer not-a-real-key' },
      { authorization: `Bearer ${ann.api_key}x` },
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      { authorization: 'OAuth oauth_consumer_key="nobody"' },
      { authorization: 'Bearer' },
    ];
    for (const headers of cases) {
      const reply = await raw(emu.url, '/api/v3.0/get_friends', headers ? { headers } : {});
      expect(reply.status, JSON.stringify(headers)).toBe(401);
      expect(reply.body).toEqual(NOT_LOGGED_IN);
    }
  });

  it('serves currencies and categories without credentials', async () => {
    const currencies = await call(emu.url, undefined, 'GET', 'get_currencies');
    expect(currencies.status).toBe(200);
    expect(currencies.body.currencies.length).toBeGreaterThan(100);
    const categories = await call(emu.url, undefined, 'GET', 'get_categories');
    expect(categories.status).toBe(200);
    expect(categories.body.categories.length).toBeGreaterThan(3);
  });

  it('answers unknown routes, wrong verbs and /api/v3 without .0 with the 404 body', async () => {
    const misses: [string, string][] = [
      ['GET', '/api/v3.0/parse_sentence'],
      ['GET', '/api/v3.0/create_expense'],
      ['POST', '/api/v3.0/get_expenses'],
      ['GET', '/api/v3/get_currencies'],
      ['GET', '/api/v3.0/constructor'],
      ['GET', '/api/v3.0/__proto__'],
      ['GET', '/nowhere'],
      ['PUT', '/api/v3.0/create_expense'],
    ];
    for (const [method, path] of misses) {
      const reply = await raw(emu.url, path, {
        method,
        headers: { authorization: `Bearer ${ann.api_key}` },
      });
      expect(reply.status, `${method} ${path}`).toBe(404);
      expect(reply.body).toEqual(NOT_FOUND);
    }
  });

  it('passes the path id to the ledger', async () => {
    const reply = await call(emu.url, ann.api_key, 'GET', `get_user/${ann.user.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.user.id).toBe(ann.user.id);
    expect((await call(emu.url, ann.api_key, 'GET', 'get_user/999999')).status).toBe(404);
  });

  it('tolerates PUT for update_user and DELETE for delete_friend, as older clients send', async () => {
    const put = await raw(emu.url, `/api/v3.0/update_user/${ann.user.id}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${ann.api_key}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'last_name=Leigh',
    });
    expect(put.status).toBe(200);
    expect(put.body.user.last_name).toBe('Leigh');

    const friend = await call(emu.url, ann.api_key, 'POST', 'create_friend', {
      user_email: 'fred@example.com',
      user_first_name: 'Fred',
    });
    expect(friend.status).toBe(200);
    const removed = await raw(emu.url, `/api/v3.0/delete_friend/${friend.body.friend.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ann.api_key}` },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.success).toBe(true);
  });

  it('echoes the credential on /test with only its last four characters', async () => {
    const reply = await raw(emu.url, '/api/v3.0/test?probe=1', {
      headers: { authorization: `Bearer ${ann.api_key}` },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      client_id: null,
      token: { access_token: `…${ann.api_key.slice(-4)}`, token_type: 'bearer' },
      request_url: `${emu.url}/api/v3.0/test`,
      params: { probe: '1' },
    });
    expect(JSON.stringify(reply.body)).not.toContain(ann.api_key);
    expect((await raw(emu.url, '/api/v3.0/test')).status).toBe(401);
  });

  it('serves a small HTML index page at /', async () => {
    const reply = await raw<string>(emu.url, '/');
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('emulator is running');
  });
});

describe('closing', () => {
  it('lets a request made right after close() reach a new emulator on the same port', async () => {
    let first = await startEmulator();
    const port = first.port;
    for (let round = 0; round < 5; round++) {
      await Promise.all([1, 2, 3].map(() => call(first.url, undefined, 'GET', 'get_categories')));
      await first.close();
      first = await startEmulator({ port });
      expect((await call(first.url, undefined, 'GET', 'get_categories')).status).toBe(200);
    }
    await first.close();
  });
});
