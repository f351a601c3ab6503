import { call, control, createUser, raw, requestCounts } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(() => emu.close());

describe('control plane', () => {
  it('creates a user with a working API key, and refuses a taken or missing e-mail', async () => {
    const created = await control(emu.url, 'POST', 'users', {
      email: 'cara@example.com',
      first_name: 'Cara',
      last_name: 'Diaz',
      default_currency: 'EUR',
    });
    expect(created.status).toBe(201);
    expect(created.body.user).toMatchObject({ first_name: 'Cara', last_name: 'Diaz' });
    expect(created.body.api_key).toMatch(/^[A-Za-z0-9_-]{40}$/);
    const me = await call(emu.url, created.body.api_key, 'GET', 'get_current_user');
    expect(me.body.user.default_currency).toBe('EUR');

    const taken = await control(emu.url, 'POST', 'users', {
      email: 'cara@example.com',
      first_name: 'C',
    });
    expect(taken.status).toBe(400);
    expect(taken.body.errors.base).toHaveLength(1);
    const missing = await control(emu.url, 'POST', 'users', { first_name: 'Nobody' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.base).toEqual(['email is required']);
  });

  it('issues further API keys for an existing user', async () => {
    const { user } = await createUser(emu.url, { email: 'keys@example.com', first_name: 'Kay' });
    const issued = await control(emu.url, 'POST', 'api_keys', { user_id: user.id });
    expect(issued.status).toBe(201);
    expect((await call(emu.url, issued.body.api_key, 'GET', 'get_current_user')).status).toBe(200);
    expect((await control(emu.url, 'POST', 'api_keys', { user_id: 987654 })).status).toBe(400);
  });

  it('registers apps, refusing a redirect_uri that is not an absolute http(s) URL', async () => {
    const app = await control(emu.url, 'POST', 'apps', {
      redirect_uri: 'http://localhost:3000/oauth/callback',
      name: 'Slack app',
    });
    expect(app.status).toBe(201);
    expect(app.body).toEqual({
      client_id: expect.any(String),
      client_secret: expect.any(String),
      redirect_uri: 'http://localhost:3000/oauth/callback',
      name: 'Slack app',
      owner_id: null,
    });
    for (const redirect_uri of ['/relative', 'javascript:alert(1)', 42]) {
      expect((await control(emu.url, 'POST', 'apps', { redirect_uri })).status).toBe(400);
    }
  });

  it('issues OAuth tokens without the consent screens, for tests', async () => {
    const { user } = await createUser(emu.url, { email: 'tok@example.com', first_name: 'Tok' });
    const app = (await control(emu.url, 'POST', 'apps', { redirect_uri: 'https://x.example/cb' }))
      .body;
    const token = await control(emu.url, 'POST', 'tokens', {
      user_id: user.id,
      client_id: app.client_id,
    });
    expect(token.status).toBe(201);
    expect(token.body.token_type).toBe('bearer');
    const me = await call(emu.url, token.body.access_token, 'GET', 'get_current_user');
    expect(me.body.user.id).toBe(user.id);
    expect(
      (await control(emu.url, 'POST', 'tokens', { user_id: user.id, client_id: 'nope' })).status,
    ).toBe(400);
    expect(
      (await control(emu.url, 'POST', 'tokens/revoke', { access_token: 'never-issued' })).body,
    ).toEqual({ revoked: false });
  });

  it('logs API requests with counts per route, and clears the log', async () => {
    await control(emu.url, 'DELETE', 'requests');
    const { user, api_key } = await createUser(emu.url, {
      email: 'log@example.com',
      first_name: 'Log',
    });
    await call(emu.url, api_key, 'GET', 'get_groups');
    await call(emu.url, api_key, 'GET', 'get_groups');
    await call(emu.url, api_key, 'GET', 'get_group/0');
    await call(emu.url, undefined, 'GET', 'get_groups');
    const log = (await control(emu.url, 'GET', 'requests')).body;
    expect(log.total).toBe(4);
    expect(log.counts).toEqual({ 'GET /api/v3.0/get_groups': 3, 'GET /api/v3.0/get_group': 1 });
    expect(log.requests[0]).toEqual({
      method: 'GET',
      path: '/api/v3.0/get_groups',
      op: 'get_groups',
      status: 200,
      actor_id: user.id,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(log.requests[3]).toMatchObject({ status: 401, actor_id: null });
    expect(log.requests[2].path).toBe('/api/v3.0/get_group/0');
    await control(emu.url, 'DELETE', 'requests');
    expect(await requestCounts(emu.url)).toEqual({});
  });

  it('moves the clock forward or to a given instant', async () => {
    const set = await control(emu.url, 'POST', 'clock', { now: '2030-01-02T03:04:05Z' });
    expect(set.status).toBe(200);
    expect(Date.parse(set.body.now) - Date.parse('2030-01-02T03:04:05Z')).toBeLessThan(1000);
    const advanced = await control(emu.url, 'POST', 'clock', { advance_ms: 86_400_000 });
    expect(Date.parse(advanced.body.now) - Date.parse('2030-01-03T03:04:05Z')).toBeLessThan(1000);
    expect(emu.clock.now().getUTCFullYear()).toBe(2030);
    expect((await control(emu.url, 'GET', 'clock')).body.now.slice(0, 10)).toBe('2030-01-03');
    expect((await control(emu.url, 'POST', 'clock', { now: 'soon' })).status).toBe(400);
    expect((await control(emu.url, 'POST', 'clock', { advance_ms: '5' })).status).toBe(400);
    emu.clock.set(new Date());
  });

  it('answers unknown control routes and malformed JSON with specific errors', async () => {
    const unknown = await control(emu.url, 'GET', 'nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors.base[0]).toContain('Unknown control-plane route');
    const bad = await raw(emu.url, '/__emulator/users', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.base[0]).toMatch(/^Malformed JSON/);
  });

  it('seeds demo people with API keys, and reset forgets everything', async () => {
    const seeded = await control(emu.url, 'POST', 'seed');
    expect(seeded.status).toBe(201);
    expect(seeded.body.users.length).toBeGreaterThanOrEqual(2);
    const [first] = seeded.body.users;
    const groups = await call(emu.url, first.api_key, 'GET', 'get_groups');
    expect(groups.status).toBe(200);
    expect(groups.body.groups.length).toBeGreaterThan(1);

    const reset = await control(emu.url, 'POST', 'reset');
    expect(reset.status).toBe(200);
    expect((await call(emu.url, first.api_key, 'GET', 'get_groups')).status).toBe(401);
    const again = await createUser(emu.url, { email: first.user.email, first_name: 'Again' });
    expect(again.user.first_name).toBe('Again');
  });
});
