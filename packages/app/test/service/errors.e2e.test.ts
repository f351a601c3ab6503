/**
 * Every error kind, produced by the emulator over HTTP, with the fields it carries; and no error
 * ever carrying a credential.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ServiceBadRequestException,
  ServiceBaseException,
  ServiceException,
  ServiceNotAllowedException,
  ServiceNotFoundException,
  ServiceRateLimitedException,
  ServiceServerException,
  ServiceUnauthorizedException,
} from '../../src/service/index.js';
import {
  addFault,
  type CreatedUser,
  clearFaults,
  clientFor,
  emulator,
  type RunningEmulator,
  registerApp,
  someUser,
} from './helpers.js';

let emu: RunningEmulator;
let ann: CreatedUser;
let bob: CreatedUser;

beforeAll(async () => {
  emu = await emulator();
  ann = await someUser(emu.url, 'Ann');
  bob = await someUser(emu.url, 'Bob');
});

afterEach(async () => {
  await clearFaults(emu.url);
});

afterAll(async () => {
  await emu?.close();
});

async function failure(promise: Promise<unknown>): Promise<ServiceBaseException> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceBaseException);
  return error as ServiceBaseException;
}

describe('status -> error kind', () => {
  it('401 -> ServiceUnauthorizedException, a ServiceException', async () => {
    const e = await failure(clientFor(emu.url, { apiKey: 'not-a-real-key-0000' }).getCurrentUser());
    expect(e).toBeInstanceOf(ServiceUnauthorizedException);
    expect(e).toBeInstanceOf(ServiceException);
    expect(e.name).toBe('ServiceUnauthorizedException');
    expect(e.http_status).toBe(401);
    expect(e.errors).toEqual({ base: ['Invalid API request: you are not logged in'] });
    expect(JSON.parse(e.http_body!)).toEqual({
      error: 'Invalid API request: you are not logged in',
    });
    expect(e.http_headers?.['content-type']).toMatch(/application\/json/);
    expect(e.message).toBe(
      'get_current_user failed: HTTP 401 Invalid API request: you are not logged in',
    );
    expect(e.outcome_unknown).toBe(false);
  });

  it('403 -> ServiceNotAllowedException', async () => {
    const bobs = clientFor(emu.url, { apiKey: bob.api_key });
    const group = (await bobs.createGroup({ name: 'Private' })).group!;
    const e = await failure(clientFor(emu.url, { apiKey: ann.api_key }).getGroup(group.id));
    expect(e).toBeInstanceOf(ServiceNotAllowedException);
    expect(e).toBeInstanceOf(ServiceException);
    expect(e.http_status).toBe(403);
    expect(e.errors?.base?.[0]).toMatch(/do not have permission/);
  });

  it('404 -> ServiceNotFoundException, directly under ServiceBaseException', async () => {
    const e = await failure(clientFor(emu.url, { apiKey: ann.api_key }).getExpense(987654321));
    expect(e).toBeInstanceOf(ServiceNotFoundException);
    expect(e).not.toBeInstanceOf(ServiceException);
    expect(e.http_status).toBe(404);
    expect(e.errors).toEqual({ base: ['Invalid API Request: record not found'] });
  });

  it('400 -> ServiceBadRequestException with the service errors', async () => {
    const e = await failure(
      clientFor(emu.url, { apiKey: ann.api_key }).createGroup({
        name: 'Ghosts',
        users: [{ user_id: 987654321 }],
      }),
    );
    expect(e).toBeInstanceOf(ServiceBadRequestException);
    expect(e).toBeInstanceOf(ServiceException);
    expect(e.http_status).toBe(400);
    expect(e.errors?.base?.length).toBeGreaterThan(0);
  });

  it('429 -> ServiceRateLimitedException with the Retry-After wait', async () => {
    await addFault(emu.url, { path: '/api/v3.0/get_current_user', status: 429, retry_after: 120 });
    const e = await failure(clientFor(emu.url, { apiKey: ann.api_key }).getCurrentUser());
    expect(e).toBeInstanceOf(ServiceRateLimitedException);
    expect(e.http_status).toBe(429);
    expect((e as ServiceRateLimitedException).retry_after_ms).toBe(120_000);
    expect(e.http_headers?.['retry-after']).toBe('120');
    expect(e.errors?.base?.[0]).toMatch(/wait a few minutes/);
  });

  it('5xx -> ServiceServerException; on a read the outcome is not in question', async () => {
    await addFault(emu.url, { path: '/api/v3.0/get_friends', status: 500 });
    const e = await failure(clientFor(emu.url, { apiKey: ann.api_key, retries: 0 }).getFriends());
    expect(e).toBeInstanceOf(ServiceServerException);
    expect(e.http_status).toBe(500);
    expect(e.outcome_unknown).toBe(false);
  });

  it('another status -> a plain ServiceException', async () => {
    await addFault(emu.url, {
      path: '/api/v3.0/get_friends',
      status: 409,
      body: { errors: { base: ['conflict'] } },
    });
    const e = await failure(clientFor(emu.url, { apiKey: ann.api_key }).getFriends());
    expect(e.constructor).toBe(ServiceException);
    expect(e.http_status).toBe(409);
    expect(e.errors).toEqual({ base: ['conflict'] });
  });

  it('normalises the service’s error shapes: arrays, field keys, a single error string', async () => {
    const client = clientFor(emu.url, { apiKey: ann.api_key });
    await addFault(emu.url, {
      path: '/api/v3.0/get_friends',
      status: 400,
      body: { errors: ['one', 'two'] },
    });
    expect((await failure(client.getFriends())).errors).toEqual({ base: ['one', 'two'] });
    await clearFaults(emu.url);
    await addFault(emu.url, {
      path: '/api/v3.0/get_friends',
      status: 400,
      body: { errors: { 'memberships.user.first_name': ["can't be blank"], base: 'plain' } },
    });
    expect((await failure(client.getFriends())).errors).toEqual({
      'memberships.user.first_name': ["can't be blank"],
      base: ['plain'],
    });
  });
});

describe('HTTP 200 refusals resolve with errors, never as success', () => {
  const client = () => clientFor(emu.url, { apiKey: ann.api_key });
  const refuse = (op: string, body: unknown) =>
    addFault(emu.url, { path: `/api/v3.0/${op}`, method: 'POST', status: 200, body });

  it('create_group with errors inside the group object (the 2020 shape)', async () => {
    await refuse('create_group', {
      group: { id: null, name: null, errors: { name: ["can't be blank"] } },
    });
    expect(await client().createGroup({ name: 'x' })).toEqual({
      errors: { name: ["can't be blank"] },
    });
  });

  it('success:false with errors keyed by a field', async () => {
    await refuse('delete_expense/1', {
      success: false,
      errors: { expense: ['does not exist, or has already been deleted'] },
    });
    expect(await client().deleteExpense(1)).toEqual({
      success: false,
      errors: { expense: ['does not exist, or has already been deleted'] },
    });
  });

  it('success:false with an array of messages (undelete)', async () => {
    await refuse('undelete_expense/1', { success: false, errors: ['You do not have permission.'] });
    expect(await client().undeleteExpense(1)).toEqual({
      success: false,
      errors: { base: ['You do not have permission.'] },
    });
  });

  it('success:false with no message at all still says what failed', async () => {
    await refuse('delete_group/1', { success: false });
    expect(await client().deleteGroup(1)).toEqual({
      success: false,
      errors: { base: ['the service did not apply delete_group'] },
    });
  });

  it('success:true with "error": null is a success', async () => {
    await refuse('delete_friend/1', { success: true, error: null });
    expect(await client().deleteFriend(1)).toEqual({ success: true, errors: {} });
  });

  it('an empty expenses list with errors, and a comment refusal with an empty comment', async () => {
    await refuse('create_expense', {
      expenses: [],
      errors: { base: ['There are zero people involved in this expense!'] },
    });
    expect(await client().createExpense({ description: 'x', cost: '1', group_id: 1 })).toEqual({
      errors: { base: ['There are zero people involved in this expense!'] },
    });
    await refuse('create_comment', { comment: {}, errors: { base: ['Content is too long'] } });
    expect(await client().createComment(1, 'x')).toEqual({
      errors: { base: ['Content is too long'] },
    });
  });

  it('add_user_to_group refused with a null user', async () => {
    await refuse('add_user_to_group', {
      success: false,
      user: null,
      errors: { base: ['That user cannot be a member of this group'] },
    });
    expect(await client().addUserToGroup({ user_id: 1 }, 1)).toEqual({
      success: false,
      errors: { base: ['That user cannot be a member of this group'] },
    });
  });

  it('update_user refused with user null', async () => {
    await refuse(`update_user/${ann.user.id}`, {
      user: null,
      errors: { base: ['Email is taken'] },
    });
    expect(await client().updateUser({ id: ann.user.id, email: 'x@example.com' })).toEqual({
      errors: { base: ['Email is taken'] },
    });
  });
});

describe('no error carries a credential', () => {
  const fields = (e: ServiceBaseException) => [
    e.message,
    e.http_body ?? '',
    JSON.stringify(e.http_headers ?? {}),
    JSON.stringify(e.errors ?? {}),
    JSON.stringify(e),
    String(e.stack),
  ];

  it('an API key echoed by the service is redacted everywhere', async () => {
    const secret = 'apikey-SECRET-7c1f0e9a2b';
    await addFault(emu.url, {
      path: '/api/v3.0/get_friends',
      status: 400,
      body: { errors: { base: [`Bearer ${secret} is not valid`] }, echo: secret },
    });
    const e = await failure(clientFor(emu.url, { apiKey: secret }).getFriends());
    for (const text of fields(e)) expect(text).not.toContain(secret);
    expect(e.errors).toEqual({ base: ['Bearer [redacted] is not valid'] });
  });

  it('OAuth 2.0 tokens and the consumer secret are redacted; a 401 with a bad token leaks nothing', async () => {
    const app = await registerApp(emu.url);
    const token = 'oauth2-SECRET-token-5d2a9c';
    const client = clientFor(emu.url, {
      consumerKey: app.client_id,
      consumerSecret: app.client_secret,
      oauth2AccessToken: token,
    });
    const unauthorized = await failure(client.getCurrentUser());
    expect(unauthorized).toBeInstanceOf(ServiceUnauthorizedException);
    for (const text of fields(unauthorized)) expect(text).not.toContain(token);

    await addFault(emu.url, {
      path: '/api/v3.0/get_friends',
      status: 500,
      body: { error: `${app.client_secret} / ${token} / ${encodeURIComponent(token)}` },
    });
    const e = await failure(
      clientFor(emu.url, {
        consumerKey: app.client_id,
        consumerSecret: app.client_secret,
        oauth2AccessToken: token,
        retries: 0,
      }).getFriends(),
    );
    for (const text of fields(e)) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(app.client_secret);
    }
  });

  it('OAuth 1.0a token secrets are redacted', async () => {
    const app = await registerApp(emu.url);
    const access = {
      oauth_token: 'oauth1-TOKEN-3e8b1d',
      oauth_token_secret: 'oauth1-SECRET-9a4f7c',
    };
    await addFault(emu.url, {
      path: '/api/v3.0/get_friends',
      status: 403,
      body: { errors: { base: [`${access.oauth_token_secret} ${access.oauth_token}`] } },
    });
    const e = await failure(
      clientFor(emu.url, {
        consumerKey: app.client_id,
        consumerSecret: app.client_secret,
        accessToken: access,
      }).getFriends(),
    );
    expect(e).toBeInstanceOf(ServiceNotAllowedException);
    for (const text of fields(e)) {
      expect(text).not.toContain(access.oauth_token_secret);
      expect(text).not.toContain(access.oauth_token);
      expect(text).not.toContain(app.client_secret);
    }
  });
});
