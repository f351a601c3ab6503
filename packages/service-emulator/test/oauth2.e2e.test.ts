import { createHash, randomBytes } from 'node:crypto';
import {
  call,
  control,
  createUser,
  parseForm,
  raw,
  submitForm,
} from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index.js';

const REDIRECT = 'https://app.example.com/oauth/callback';

let emu: RunningEmulator;
let app: { client_id: string; client_secret: string; redirect_uri: string; name: string };

beforeAll(async () => {
  emu = await startEmulator();
  app = (await control(emu.url, 'POST', 'apps', { redirect_uri: REDIRECT, name: 'Lunch Splitter' }))
    .body;
});
afterAll(() => emu.close());

function authorizeUrl(params: Record<string, string>): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: app.client_id,
    redirect_uri: REDIRECT,
    state: 'xyz-123',
    ...params,
  });
  return `/oauth/authorize?${query}`;
}

/** Walks the consent screens like a person: open the page, sign in by e-mail, press a button. */
async function consent(
  email: string,
  decision: 'allow' | 'deny',
  params: Record<string, string> = {},
  firstName?: string,
): Promise<URL> {
  const page = await raw<string>(emu.url, authorizeUrl(params));
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.body).toContain('Lunch Splitter');
  let form = parseForm(page.body);
  expect(form.inputs).toContain('email');
  let reply = await submitForm(emu.url, form, { email });
  if (firstName !== undefined) {
    expect(reply.body).toContain('Enter your first name');
    form = parseForm(reply.body);
    expect(form.inputs).toContain('first_name');
    reply = await submitForm(emu.url, form, { email, first_name: firstName });
  }
  expect(reply.status).toBe(200);
  expect(reply.body).toContain('Allow Lunch Splitter to use your account?');
  form = parseForm(reply.body);
  expect(form.buttons.map((button) => button.value)).toEqual(['deny', 'allow']);
  const decided = await submitForm(emu.url, form, { decision });
  expect(decided.status).toBe(302);
  return new URL(decided.headers.get('location')!);
}

async function exchange(fields: Record<string, string>) {
  return raw(emu.url, '/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      redirect_uri: REDIRECT,
      client_id: app.client_id,
      client_secret: app.client_secret,
      ...fields,
    }).toString(),
  });
}

describe('OAuth 2.0 authorization code', () => {
  it('runs the full dance through the consent form and the token serves API calls', async () => {
    const { user } = await createUser(emu.url, {
      email: 'olivia@example.com',
      first_name: 'Olivia',
      last_name: 'Oak',
    });
    const back = await consent('olivia@example.com', 'allow');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('xyz-123');
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    const token = await exchange({ code });
    expect(token.status).toBe(200);
    expect(token.body).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    expect(token.headers.get('cache-control')).toBe('no-store');

    const me = await call(emu.url, token.body.access_token, 'GET', 'get_current_user');
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(user.id);

    const whoami = await call(emu.url, token.body.access_token, 'GET', 'test');
    expect(whoami.body.client_id).toBe(app.client_id);
    expect(whoami.body.token.access_token).toBe(`…${token.body.access_token.slice(-4)}`);
  });

  it('creates an account for an unknown e-mail once a first name is given', async () => {
    const back = await consent('newcomer@example.com', 'allow', {}, 'Nadia');
    const token = await exchange({ code: back.searchParams.get('code')! });
    const me = await call(emu.url, token.body.access_token, 'GET', 'get_current_user');
    expect(me.body.user).toMatchObject({ first_name: 'Nadia', email: 'newcomer@example.com' });
  });

  it('lets an invited person claim their placeholder account, keeping what they were added to', async () => {
    const inviter = await createUser(emu.url, { email: 'ivy@example.com', first_name: 'Ivy' });
    const expense = await call(emu.url, inviter.api_key, 'POST', 'create_expense', {
      cost: '30',
      description: 'Taxi',
      users__0__user_id: inviter.user.id,
      users__0__paid_share: '30',
      users__0__owed_share: '15',
      users__1__email: 'quinn@example.com',
      users__1__first_name: 'Q',
      users__1__paid_share: '0',
      users__1__owed_share: '15',
    });
    expect(expense.body.errors).toEqual({});

    const back = await consent('quinn@example.com', 'allow', {}, 'Quinn');
    const token = await exchange({ code: back.searchParams.get('code')! });
    const me = await call(emu.url, token.body.access_token, 'GET', 'get_current_user');
    expect(me.body.user).toMatchObject({
      first_name: 'Quinn',
      email: 'quinn@example.com',
      registration_status: 'confirmed',
    });
    const mine = await call(emu.url, token.body.access_token, 'GET', 'get_expenses');
    expect(mine.body.expenses.map((e: { description: string }) => e.description)).toEqual(['Taxi']);
  });

  it('remembers who signed in, and lets them switch account', async () => {
    await createUser(emu.url, { email: 'sam@example.com', first_name: 'Sam' });
    await createUser(emu.url, { email: 'tess@example.com', first_name: 'Tess' });
    const page = await raw<string>(emu.url, authorizeUrl({}));
    const signedIn = await submitForm(emu.url, parseForm(page.body), { email: 'sam@example.com' });
    const cookie = signedIn.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^emulator_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
    const session = cookie.split(';')[0]!;

    const again = await raw<string>(emu.url, authorizeUrl({}), { headers: { cookie: session } });
    expect(again.body).toContain('Signed in as <strong>Sam</strong>');
    const form = parseForm(again.body);
    expect(form.buttons.map((button) => button.value)).toEqual(['deny', 'allow', 'switch']);

    const switched = await submitForm(emu.url, form, { decision: 'switch' });
    expect(switched.headers.get('set-cookie')).toMatch(/^emulator_session=; .*Max-Age=0/);
    const asTess = await submitForm(emu.url, parseForm(switched.body), {
      email: 'tess@example.com',
    });
    expect(asTess.body).toContain('Signed in as <strong>Tess</strong>');
    const back = await submitForm(emu.url, parseForm(asTess.body), { decision: 'allow' });
    const token = await exchange({
      code: new URL(back.headers.get('location')!).searchParams.get('code')!,
    });
    const me = await call(emu.url, token.body.access_token, 'GET', 'get_current_user');
    expect(me.body.user.email).toBe('tess@example.com');
  });

  it('pre-fills sign-in from login_hint, and asks again when another person is signed in', async () => {
    await createUser(emu.url, { email: 'uma@example.com', first_name: 'Uma' });
    await createUser(emu.url, { email: 'vic@example.com', first_name: 'Vic' });
    const hinted = await raw<string>(emu.url, authorizeUrl({ login_hint: 'uma@example.com' }));
    const prefilled = (html: string) => /id="email"[^>]* value="([^"]*)"/.exec(html)?.[1];
    expect(prefilled(hinted.body)).toBe('uma@example.com');
    // What the browser sends with the pre-filled field left as it is.
    const signedIn = await submitForm(emu.url, parseForm(hinted.body), {
      email: 'uma@example.com',
    });
    expect(signedIn.body).toContain('Signed in as <strong>Uma</strong>');
    const session = signedIn.headers.get('set-cookie')!.split(';')[0]!;

    // Same browser, a link for Vic: Uma's session must not be offered for Vic's link.
    const forVic = await raw<string>(emu.url, authorizeUrl({ login_hint: 'vic@example.com' }), {
      headers: { cookie: session },
    });
    expect(forVic.body).not.toContain('Signed in as');
    expect(prefilled(forVic.body)).toBe('vic@example.com');
    // Uma again, with her own hint: straight to the decision.
    const forUma = await raw<string>(emu.url, authorizeUrl({ login_hint: 'UMA@example.com' }), {
      headers: { cookie: session },
    });
    expect(forUma.body).toContain('Signed in as <strong>Uma</strong>');
    // Not an e-mail address: ignored, the form starts empty.
    const junk = await raw<string>(emu.url, authorizeUrl({ login_hint: '"><script>' }));
    expect(prefilled(junk.body)).toBe('');
  });

  it('answers Deny with access_denied and the state, and issues no code', async () => {
    await createUser(emu.url, { email: 'dan@example.com', first_name: 'Dan' });
    const back = await consent('dan@example.com', 'deny');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('xyz-123');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('accepts a code once; a replay is invalid_grant and revokes the token it produced', async () => {
    await createUser(emu.url, { email: 'rita@example.com', first_name: 'Rita' });
    const code = (await consent('rita@example.com', 'allow')).searchParams.get('code')!;
    const first = await exchange({ code });
    expect(first.status).toBe(200);
    const second = await exchange({ code });
    expect(second.status).toBe(400);
    expect(second.body.error).toBe('invalid_grant');
    const me = await call(emu.url, first.body.access_token, 'GET', 'get_current_user');
    expect(me.status).toBe(401);
  });

  it('expires codes after ten minutes of the emulator clock', async () => {
    await createUser(emu.url, { email: 'eve@example.com', first_name: 'Eve' });
    const code = (await consent('eve@example.com', 'allow')).searchParams.get('code')!;
    await control(emu.url, 'POST', 'clock', { advance_ms: 10 * 60 * 1000 + 1000 });
    const reply = await exchange({ code });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('invalid_grant');
  });

  it('refuses a token request whose redirect_uri differs from the authorization request', async () => {
    await createUser(emu.url, { email: 'mo@example.com', first_name: 'Mo' });
    const code = (await consent('mo@example.com', 'allow')).searchParams.get('code')!;
    const reply = await exchange({ code, redirect_uri: 'https://evil.example.net/cb' });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('invalid_grant');
  });

  it('shows an error page, never a redirect, for an unregistered redirect_uri or client', async () => {
    const mismatch = await raw<string>(
      emu.url,
      authorizeUrl({ redirect_uri: 'https://evil.example.net/steal' }),
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.headers.get('location')).toBeNull();
    expect(mismatch.body).toContain('Redirect address mismatch');
    expect(mismatch.body).not.toContain('evil.example.net');

    const unknown = await raw<string>(emu.url, authorizeUrl({ client_id: 'nope' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toContain('Unknown application');
  });

  it('refuses a consent form post without the token of the page it came from', async () => {
    const page = await raw<string>(emu.url, authorizeUrl({}));
    const form = parseForm(page.body);
    const forged = await submitForm(
      emu.url,
      { ...form, fields: { ...form.fields, csrf_token: 'forged' } },
      { email: 'olivia@example.com' },
    );
    expect(forged.status).toBe(400);
    expect(forged.body).toContain('This page has expired');
  });

  it('answers a wrong client secret with 401 invalid_client', async () => {
    const reply = await exchange({ code: 'whatever', client_secret: 'wrong' });
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ error: 'invalid_client' });
  });

  it('answers unknown grant types with unsupported_grant_type', async () => {
    const reply = await exchange({ grant_type: 'password' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'unsupported_grant_type' });
  });

  it('answers HTTP Basic client authentication with 404, as the real service does', async () => {
    const reply = await raw(emu.url, '/oauth/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=authorization_code&code=x',
    });
    expect(reply.status).toBe(404);
  });

  it('parses a token request sent with no Content-Type as a form (the Python SDK does that)', async () => {
    await createUser(emu.url, { email: 'pyt@example.com', first_name: 'Py' });
    const code = (await consent('pyt@example.com', 'allow')).searchParams.get('code')!;
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: app.client_id,
      client_secret: app.client_secret,
    }).toString();
    const reply = await raw(emu.url, '/oauth/token', {
      method: 'POST',
      body: new TextEncoder().encode(body),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.token_type).toBe('bearer');
  });

  it('checks the PKCE verifier against an S256 challenge', async () => {
    await createUser(emu.url, { email: 'pk@example.com', first_name: 'Pk' });
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };

    const wrong = (await consent('pk@example.com', 'allow', pkce)).searchParams.get('code')!;
    const refused = await exchange({
      code: wrong,
      code_verifier: randomBytes(32).toString('base64url'),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');

    const missing = (await consent('pk@example.com', 'allow', pkce)).searchParams.get('code')!;
    expect((await exchange({ code: missing })).body.error).toBe('invalid_grant');

    const right = (await consent('pk@example.com', 'allow', pkce)).searchParams.get('code')!;
    const accepted = await exchange({ code: right, code_verifier: verifier });
    expect(accepted.status).toBe(200);
  });

  it('sends response_type errors back to the registered redirect_uri', async () => {
    const reply = await raw(emu.url, authorizeUrl({ response_type: 'token' }));
    expect(reply.status).toBe(302);
    const back = new URL(reply.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('unsupported_response_type');
    expect(back.searchParams.get('state')).toBe('xyz-123');
  });

  it('gives a token for the app owner with client_credentials, and refuses it for apps without one', async () => {
    const { user } = await createUser(emu.url, { email: 'owner@example.com', first_name: 'Owen' });
    const owned = (
      await control(emu.url, 'POST', 'apps', { redirect_uri: REDIRECT, owner_id: user.id })
    ).body;
    const grant = (client: { client_id: string; client_secret: string }) =>
      raw(emu.url, '/oauth/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', ...client }).toString(),
      });
    const ok = await grant({ client_id: owned.client_id, client_secret: owned.client_secret });
    expect(ok.status).toBe(200);
    const me = await call(emu.url, ok.body.access_token, 'GET', 'get_current_user');
    expect(me.body.user.id).toBe(user.id);
    const refused = await grant({ client_id: app.client_id, client_secret: app.client_secret });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('unauthorized_client');
  });

  it('stops accepting a token revoked through the control plane', async () => {
    const { user } = await createUser(emu.url, { email: 'rev@example.com', first_name: 'Rev' });
    const { access_token } = (
      await control(emu.url, 'POST', 'tokens', { user_id: user.id, client_id: app.client_id })
    ).body;
    expect((await call(emu.url, access_token, 'GET', 'get_current_user')).status).toBe(200);
    const revoked = await control(emu.url, 'POST', 'tokens/revoke', { access_token });
    expect(revoked.body).toEqual({ revoked: true });
    const after = await call(emu.url, access_token, 'GET', 'get_current_user');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'Invalid API request: you are not logged in' });
  });

  it('answers GET on the token endpoint with 404', async () => {
    expect((await raw(emu.url, '/oauth/token')).status).toBe(404);
  });
});
