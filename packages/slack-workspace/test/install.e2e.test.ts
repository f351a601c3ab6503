/**
 * Installing an app through Slack's OAuth v2 as the workspace serves it: the install page
 * (`/oauth/v2/authorize`) shows the scopes to the person signed in and sends a one-time code (or
 * error=access_denied) to a registered redirect URL only; `oauth.v2.access` exchanges the code
 * once, for that app and redirect URL, for the team's bot token; with rotation, tokens expire
 * and each refresh token works once; each team's token acts in its own team only; uninstalling
 * revokes the tokens.
 */
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTHORIZE_PATH,
  INSTALL_AUTHORIZE_PATH,
  type OidcClient,
  startWorkspace,
  type Team,
  type Workspace,
} from '../src/index.js';

const REDIRECT = 'http://app.test/slack/oauth_redirect';
let ws: Workspace;
let client: OidcClient;
let rotating: OidcClient;
let globex: Team;

beforeAll(async () => {
  ws = await startWorkspace();
  ws.addUser({ id: 'U0ANN', name: 'ann', real_name: 'Ann Acme' });
  globex = ws.addTeam({ id: 'T0002', name: 'Globex' });
  ws.addUser({ id: 'U2BOB', team_id: 'T0002', name: 'bob', real_name: 'Bob Globex' });
  ws.addChannel({ id: 'C2001', name: 'general', team_id: 'T0002' });
  ws.addEnterprise('E0001', 'Initech');
  ws.addTeam({ id: 'T0003', name: 'Initech Paris', enterprise_id: 'E0001' });
  ws.addUser({ id: 'U3CAT', team_id: 'T0003', name: 'cat', real_name: 'Cat Initech' });
  client = ws.addOidcClient({ redirectUris: [REDIRECT], name: 'Split', orgDeploy: true });
  rotating = ws.addOidcClient({
    redirectUris: [REDIRECT],
    name: 'Rotating',
    tokenRotation: true,
    tokenLifetimeS: 3_600,
  });
});
afterAll(() => ws?.close());

const api = (token?: string) =>
  new webApi.WebClient(token, { slackApiUrl: ws.apiUrl, retryConfig: { retries: 0 } });

function params(extra: Record<string, string> = {}, app = client): Record<string, string> {
  return {
    client_id: app.clientId,
    scope: 'commands,chat:write',
    redirect_uri: REDIRECT,
    state: 'app-state-1',
    ...extra,
  };
}

async function page(as: string | undefined, query: Record<string, string>) {
  const cookie = as ? ws.signInBrowser(as) : '';
  const res = await fetch(`${ws.url}${INSTALL_AUTHORIZE_PATH}?${new URLSearchParams(query)}`, {
    headers: { cookie },
  });
  return { status: res.status, html: await res.text(), cookie };
}

/** Opens the page as a person and presses a button; returns where the browser is sent. */
async function decide(
  as: string,
  decision: 'allow' | 'deny',
  query = params(),
  extra: Record<string, string> = {},
): Promise<URL> {
  const shown = await page(as, query);
  expect(shown.status).toBe(200);
  const formToken = /name="form_token" value="([^"]+)"/.exec(shown.html)?.[1] ?? '';
  const res = await fetch(`${ws.url}${INSTALL_AUTHORIZE_PATH}`, {
    method: 'POST',
    headers: { cookie: shown.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...query, form_token: formToken, decision, ...extra }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') ?? '');
}

async function codeFor(as: string, app = client, extra: Record<string, string> = {}) {
  const back = await decide(as, 'allow', params({}, app), extra);
  return back.searchParams.get('code') ?? '';
}

describe('the install page', () => {
  it("shows the person's team and what each scope allows, with Allow and Cancel", async () => {
    const shown = await page('U2BOB', params());
    expect(shown.status).toBe(200);
    expect(shown.html).toContain(
      'Split is requesting permission to access the Globex Slack workspace',
    );
    expect(shown.html).toContain('Send messages as the app');
    expect(shown.html).toContain('value="allow"');
    expect(shown.html).toContain('value="deny"');
  });

  it('asks who you are when nobody is signed in to this browser', async () => {
    const shown = await page(undefined, params());
    expect(shown.html).toContain('Who are you?');
  });

  it('sends a code and the state back to the redirect URL on Allow', async () => {
    const back = await decide('U2BOB', 'allow');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('code')).toBeTruthy();
    expect(back.searchParams.get('state')).toBe('app-state-1');
  });

  it('sends error=access_denied and the state back on Cancel', async () => {
    const back = await decide('U2BOB', 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('app-state-1');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it.each([
    ['an unknown app', { client_id: 'nobody' }, 'invalid_client_id'],
    ['an unregistered redirect URL', { redirect_uri: 'http://evil.test/cb' }, 'bad_redirect_uri'],
    ['an unknown scope', { scope: 'commands,admin' }, 'invalid_scope'],
    ['no scope at all', { scope: '' }, 'invalid_scope'],
  ])('shows an error page and sends nobody anywhere for %s', async (_what, extra, error) => {
    const shown = await page('U2BOB', params(extra));
    expect(shown.status).toBe(400);
    expect(shown.html).toContain(error);
  });

  it('offers the whole org only to an app allowed on orgs, in a team of an org', async () => {
    expect((await page('U3CAT', params())).html).toContain('the whole Initech org');
    expect((await page('U2BOB', params())).html).not.toContain('install_on');
    expect((await page('U3CAT', params({}, rotating))).html).not.toContain('install_on');
  });
});

describe('oauth.v2.access', () => {
  const exchange = (args: Record<string, string>) =>
    api()
      .oauth.v2.access(args as never)
      .catch((e: { data?: { error?: string } }) => e.data);

  it("exchanges a code once for the team's bot token, which acts in that team", async () => {
    const code = await codeFor('U2BOB');
    const answer = await exchange({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      code,
      redirect_uri: REDIRECT,
    });
    expect(answer).toMatchObject({
      ok: true,
      token_type: 'bot',
      scope: 'commands,chat:write',
      team: { id: 'T0002', name: 'Globex' },
      enterprise: null,
      is_enterprise_install: false,
      authed_user: { id: 'U2BOB' },
    });
    const token = (answer as { access_token: string }).access_token;
    expect(token).toBe(globex.botToken);
    await expect(api(token).auth.test()).resolves.toMatchObject({ team_id: 'T0002' });
    expect(
      await exchange({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code,
        redirect_uri: REDIRECT,
      }),
    ).toMatchObject({ ok: false, error: 'invalid_code' });
  });

  it('refuses a Sign in with Slack code: it was not handed out by the install page', async () => {
    const query = {
      response_type: 'code',
      scope: 'openid',
      client_id: client.clientId,
      redirect_uri: REDIRECT,
    };
    const cookie = ws.signInBrowser('U2BOB');
    const shown = await fetch(`${ws.url}${AUTHORIZE_PATH}?${new URLSearchParams(query)}`, {
      headers: { cookie },
    });
    const formToken = /name="form_token" value="([^"]+)"/.exec(await shown.text())?.[1] ?? '';
    const back = await fetch(`${ws.url}${AUTHORIZE_PATH}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...query, form_token: formToken, decision: 'allow' }).toString(),
      redirect: 'manual',
    });
    const code = new URL(back.headers.get('location') ?? '').searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    expect(
      await exchange({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code,
        redirect_uri: REDIRECT,
      }),
    ).toMatchObject({ ok: false, error: 'oauth_authorization_url_mismatch' });
  });

  it('accepts the client credentials in HTTP Basic too', async () => {
    const code = await codeFor('U2BOB');
    const res = await fetch(`${ws.apiUrl}oauth.v2.access`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ code, redirect_uri: REDIRECT }).toString(),
    });
    expect(await res.json()).toMatchObject({ ok: true, team: { id: 'T0002' } });
  });

  it.each([
    ['a wrong secret', { client_secret: 'wrong' }, 'bad_client_secret'],
    ['an unknown client', { client_id: 'nobody' }, 'invalid_client_id'],
    ['another redirect URL', { redirect_uri: 'http://app.test/other' }, 'bad_redirect_uri'],
    ['a made-up code', { code: 'made-up' }, 'invalid_code'],
  ])('refuses %s', async (_what, extra, error) => {
    const code = await codeFor('U2BOB');
    const answer = await exchange({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      code,
      redirect_uri: REDIRECT,
      ...extra,
    });
    expect(answer).toMatchObject({ ok: false, error });
  });

  it("refuses another app's code, and a code older than ten minutes", async () => {
    const theirs = await codeFor('U2BOB', rotating);
    expect(
      await exchange({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code: theirs,
        redirect_uri: REDIRECT,
      }),
    ).toMatchObject({ ok: false, error: 'invalid_code' });
    const old = await codeFor('U2BOB');
    ws.advance(10 * 60_000 + 1);
    expect(
      await exchange({
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code: old,
        redirect_uri: REDIRECT,
      }),
    ).toMatchObject({ ok: false, error: 'invalid_code' });
  });

  it('gives expiring tokens with rotation, and each refresh token works once', async () => {
    const code = await codeFor('U2BOB', rotating);
    const granted = (await exchange({
      client_id: rotating.clientId,
      client_secret: rotating.clientSecret,
      code,
      redirect_uri: REDIRECT,
    })) as { access_token: string; refresh_token: string; expires_in: number };
    expect(granted).toMatchObject({ ok: true, expires_in: 3_600 });
    const refresh = () =>
      exchange({
        client_id: rotating.clientId,
        client_secret: rotating.clientSecret,
        grant_type: 'refresh_token',
        refresh_token: granted.refresh_token,
      });
    const renewed = (await refresh()) as { access_token: string; refresh_token: string };
    expect(renewed).toMatchObject({ ok: true, expires_in: 3_600, team: { id: 'T0002' } });
    expect(renewed.access_token).not.toBe(granted.access_token);
    expect(renewed.refresh_token).not.toBe(granted.refresh_token);
    expect(await refresh()).toMatchObject({ ok: false, error: 'invalid_refresh_token' });
    ws.advance(3_600_000);
    await expect(api(granted.access_token).auth.test()).rejects.toThrow(/token_expired/);
  });

  it('installs on the whole org: no team, the org, and a bot acting in every team of it', async () => {
    const code = await codeFor('U3CAT', client, { install_on: 'org' });
    const answer = (await exchange({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      code,
      redirect_uri: REDIRECT,
    })) as { access_token: string };
    expect(answer).toMatchObject({
      ok: true,
      team: null,
      enterprise: { id: 'E0001', name: 'Initech' },
      is_enterprise_install: true,
    });
    const org = api(answer.access_token);
    await expect(org.chat.postMessage({ channel: 'U3CAT', text: 'hi' })).resolves.toMatchObject({
      ok: true,
    });
    await expect(org.chat.postMessage({ channel: 'U2BOB', text: 'hi' })).rejects.toThrow(
      /channel_not_found/,
    );
  });

  it("keeps each team's token to its own team, and uninstalling revokes it", async () => {
    const acme = api(ws.team.botToken);
    await expect(acme.chat.postMessage({ channel: 'C2001', text: 'hi' })).rejects.toThrow(
      /channel_not_found/,
    );
    await expect(acme.users.info({ user: 'U2BOB' })).rejects.toThrow(/user_not_visible/);
    const installed = (await exchange({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      code: await codeFor('U2BOB'),
      redirect_uri: REDIRECT,
    })) as { access_token: string };
    const token = installed.access_token;
    await expect(
      api(token).chat.postMessage({ channel: 'C2001', text: 'hi' }),
    ).resolves.toMatchObject({ ok: true });
    await ws.uninstallApp('T0002');
    await expect(api(token).auth.test()).rejects.toThrow(/invalid_auth/);
  });
});
