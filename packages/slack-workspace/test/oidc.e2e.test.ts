/**
 * Sign in with Slack as the workspace serves it: the sign-in page shows who is signed in to the
 * workspace in this browser (the page's acting person), Continue sends a one-time code to a
 * registered redirect URL only, and openid.connect.token exchanges it, for that app only, for an
 * id_token signed with the key set at /openid/connect/keys.
 */
import { createPublicKey, verify } from 'node:crypto';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTHORIZE_PATH,
  KEYS_PATH,
  type OidcClient,
  startWorkspace,
  type Workspace,
} from '../src/index.js';
import { PEOPLE } from './support.js';

const REDIRECT = 'http://app.test/oauth/slack/callback';
let ws: Workspace;
let client: OidcClient;
let other: OidcClient;

beforeAll(async () => {
  ws = await startWorkspace();
  for (const person of PEOPLE) ws.addUser(person);
  client = ws.addOidcClient({ redirectUris: [REDIRECT], name: 'Split' });
  other = ws.addOidcClient({ redirectUris: ['http://other.test/cb'], name: 'Other' });
});
afterAll(() => ws?.close());

function authorizeUrl(params: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    scope: 'openid email profile',
    client_id: client.clientId,
    redirect_uri: REDIRECT,
    state: 'app-state-1',
    nonce: 'nonce-1',
    ...params,
  });
  return `${ws.url}${AUTHORIZE_PATH}?${query}`;
}

/** Every field of the page's forms: hidden ones as given, and the named button pressed. */
function formFields(html: string, button: 'allow' | 'deny'): URLSearchParams {
  const forms = html.split('<form').slice(1);
  const form = forms.find((f) => f.includes(`value="${button}"`));
  if (!form) throw new Error(`no ${button} form in ${html.slice(0, 400)}`);
  const fields = new URLSearchParams();
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(m[1]!, m[2]!.replace(/&amp;/g, '&'));
  }
  fields.set('decision', button);
  return fields;
}

async function press(cookie: string, button: 'allow' | 'deny', url = authorizeUrl()) {
  const page = await fetch(url, { headers: { cookie } });
  expect(page.status).toBe(200);
  const fields = formFields(await page.text(), button);
  return fetch(`${ws.url}${AUTHORIZE_PATH}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
}

async function codeFor(userId: string, url = authorizeUrl()): Promise<string> {
  const back = await press(ws.signInBrowser(userId), 'allow', url);
  expect(back.status).toBe(302);
  const location = new URL(back.headers.get('location')!);
  return location.searchParams.get('code')!;
}

async function token(fields: Record<string, string>) {
  const reply = await fetch(`${ws.apiUrl}openid.connect.token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return (await reply.json()) as Record<string, unknown>;
}

function claimsOf(idToken: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8'));
}

describe('the sign-in page', () => {
  it('shows the person signed in to the workspace in this browser, with Continue and Cancel', async () => {
    const page = await fetch(authorizeUrl(), { headers: { cookie: ws.signInBrowser('U0BOB') } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Signed in as <strong>Bob Example</strong> (bob@example.com)');
    expect(html).toContain('>Continue</button>');
    expect(html).toContain('>Cancel</button>');
    expect(html).not.toContain('Ann Example');
  });

  it('speaks the language the signed-in person chose, and the browser’s to a stranger', async () => {
    await ws.act.setLocale({ as: 'U0BOB', locale: 'de-DE' });
    try {
      const page = await fetch(authorizeUrl(), { headers: { cookie: ws.signInBrowser('U0BOB') } });
      const html = await page.text();
      expect(html).toContain('<html lang="de">');
      expect(html).toContain('Angemeldet als <strong>Bob Example</strong>');
      expect(html).toContain('value="allow">Weiter</button>');
      expect(html).toContain('value="deny">Abbrechen</button>');
      expect(html).not.toMatch(/Signed in as|Continue|Cancel/);
    } finally {
      await ws.act.setLocale({ as: 'U0BOB', locale: 'en-US' });
    }
    const stranger = await fetch(authorizeUrl(), {
      headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' },
    });
    const chooser = await stranger.text();
    expect(chooser).toContain('<html lang="fr">');
    expect(chooser).toContain('Qui êtes-vous\u202f?');
    expect(chooser).toContain('>Se connecter</button>');
    const english = await (await fetch(authorizeUrl())).text();
    expect(english).toContain('Who are you?');
  });

  it('signs the browser in as the acting person of the workspace page', async () => {
    const signIn = (as: string, cookie = '') =>
      fetch(`${ws.url}/workspace-api/sign-in`, {
        method: 'POST',
        headers: { origin: ws.url, 'content-type': 'application/json', cookie },
        body: JSON.stringify({ as }),
      });
    const signed = await signIn('U0ANN');
    const cookie = signed.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toMatch(/^ws_session=[A-Za-z0-9_-]+$/);
    const page = await fetch(authorizeUrl(), { headers: { cookie } });
    expect(await page.text()).toContain('Signed in as <strong>Ann Example</strong>');
    // The page switching to Bob signs this browser in as Bob instead.
    const switched = await signIn('U0BOB', cookie);
    const bobCookie = switched.headers.get('set-cookie')!.split(';')[0]!;
    const again = await fetch(authorizeUrl(), { headers: { cookie: bobCookie } });
    expect(await again.text()).toContain('Signed in as <strong>Bob Example</strong>');
    // The same person again keeps the session as it is.
    const same = await signIn('U0BOB', bobCookie);
    expect(same.status).toBe(200);
    expect(same.headers.get('set-cookie')).toBeNull();
  });

  it('asks which person this browser is when nobody is signed in, then shows them', async () => {
    const page = await fetch(authorizeUrl());
    const html = await page.text();
    expect(html).toContain('Who are you?');
    expect(html).toContain('<option value="U0ANN">Ann Example (ann@example.com)</option>');
    const fields = new URLSearchParams(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
        (m) => [m[1]!, m[2]!] as [string, string],
      ),
    );
    fields.set('sign_in_as', 'U0ANN');
    // A page elsewhere posting the chooser signs nobody in: the chooser shows again.
    const forged = await fetch(`${ws.url}${AUTHORIZE_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://evil.example',
        'sec-fetch-site': 'cross-site',
      },
      body: fields.toString(),
      redirect: 'manual',
    });
    expect(forged.status).toBe(200);
    expect(forged.headers.get('set-cookie')).toBeNull();
    expect(await forged.text()).toContain('Who are you?');
    const signedIn = await fetch(`${ws.url}${AUTHORIZE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ws.url },
      body: fields.toString(),
      redirect: 'manual',
    });
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    const back = await fetch(`${ws.url}${signedIn.headers.get('location')}`, {
      headers: { cookie },
    });
    expect(await back.text()).toContain('Signed in as <strong>Ann Example</strong>');
  });

  it('refuses an unknown app or an unregistered redirect URL on the page, sending nobody anywhere', async () => {
    const unknown = await fetch(authorizeUrl({ client_id: '1.2' }), { redirect: 'manual' });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('invalid_client_id');
    const elsewhere = await fetch(authorizeUrl({ redirect_uri: 'http://evil.test/cb' }), {
      redirect: 'manual',
    });
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.text()).toContain('bad_redirect_uri');
  });

  it('sends a request without the openid scope back to the app with invalid_scope', async () => {
    const reply = await fetch(authorizeUrl({ scope: 'email,profile' }), { redirect: 'manual' });
    expect(reply.status).toBe(302);
    const location = new URL(reply.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('state')).toBe('app-state-1');
  });

  it('Continue sends a code and the state back to the redirect URL; scopes may be comma-joined', async () => {
    const back = await press(
      ws.signInBrowser('U0ANN'),
      'allow',
      authorizeUrl({ scope: 'openid,email,profile' }),
    );
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('app-state-1');
    expect(location.searchParams.get('code')).toMatch(/^[0-9a-f]{8}\.[A-Za-z0-9_-]{32}$/);
  });

  it('Cancel sends access_denied and the state back, with no code', async () => {
    const back = await press(ws.signInBrowser('U0ANN'), 'deny');
    const location = new URL(back.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('app-state-1');
    expect(location.searchParams.has('code')).toBe(false);
  });

  it('gives no code for a Continue posted without the session’s form token', async () => {
    const cookie = ws.signInBrowser('U0ANN');
    const page = await fetch(authorizeUrl(), { headers: { cookie } });
    const fields = formFields(await page.text(), 'allow');
    fields.set('form_token', 'forged');
    const reply = await fetch(`${ws.url}${AUTHORIZE_PATH}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: fields.toString(),
      redirect: 'manual',
    });
    expect(reply.status).toBe(303);
    expect(reply.headers.get('location')).toMatch(/^\/openid\/connect\/authorize\?/);
  });
});

describe('openid.connect.token and userInfo', () => {
  it('exchanges a code (through @slack/web-api, as an app does) for a signed id_token naming the person', async () => {
    const code = await codeFor('U0BOB');
    const slack = new webApi.WebClient(undefined, {
      slackApiUrl: ws.apiUrl,
      retryConfig: { retries: 0 },
    });
    const answer = await slack.openid.connect.token({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      code,
      redirect_uri: REDIRECT,
    });
    expect(answer.ok).toBe(true);
    expect(answer.token_type).toBe('Bearer');
    const idToken = answer.id_token!;
    const claims = claimsOf(idToken);
    expect(claims).toMatchObject({
      iss: ws.url,
      aud: client.clientId,
      sub: 'U0BOB',
      nonce: 'nonce-1',
      'https://slack.com/user_id': 'U0BOB',
      'https://slack.com/team_id': 'T0001',
      email: 'bob@example.com',
      name: 'Bob Example',
    });
    expect(claims.exp as number).toBeGreaterThan(Date.now() / 1000);

    const [header, payload, signature] = idToken.split('.') as [string, string, string];
    const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    expect(alg).toBe('RS256');
    const keys = (await (await fetch(`${ws.url}${KEYS_PATH}`)).json()) as {
      keys: { kid: string }[];
    };
    const jwk = keys.keys.find((k) => k.kid === kid)!;
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    const data = Buffer.from(`${header}.${payload}`);
    expect(verify('sha256', data, key, Buffer.from(signature, 'base64url'))).toBe(true);
    expect(
      verify(
        'sha256',
        Buffer.from(`${header}.x${payload}`),
        key,
        Buffer.from(signature, 'base64url'),
      ),
    ).toBe(false);

    const info = await new webApi.WebClient(answer.access_token, {
      slackApiUrl: ws.apiUrl,
      retryConfig: { retries: 0 },
    }).openid.connect.userInfo();
    expect(info).toMatchObject({
      ok: true,
      sub: 'U0BOB',
      'https://slack.com/team_id': 'T0001',
      'https://slack.com/team_name': 'Acme',
    });
  });

  it('takes the client id and secret in HTTP Basic too', async () => {
    const code = await codeFor('U0ANN');
    const basic = Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64');
    const reply = await fetch(`${ws.apiUrl}openid.connect.token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ code, redirect_uri: REDIRECT }).toString(),
    });
    expect(claimsOf(((await reply.json()) as { id_token: string }).id_token).sub).toBe('U0ANN');
  });

  it('refuses a wrong secret, another app’s code, a changed redirect URL, a used or expired code', async () => {
    const base = {
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uri: REDIRECT,
    };
    const code = await codeFor('U0ANN');
    expect(await token({ ...base, code, client_secret: 'nope' })).toEqual({
      ok: false,
      error: 'bad_client_secret',
    });
    expect(await token({ ...base, code, client_id: '9.9' })).toEqual({
      ok: false,
      error: 'invalid_client_id',
    });
    // The other app, with its own valid credentials, cannot use a code issued to this one.
    expect(
      await token({
        client_id: other.clientId,
        client_secret: other.clientSecret,
        redirect_uri: 'http://other.test/cb',
        code,
      }),
    ).toEqual({ ok: false, error: 'invalid_code' });
    expect(await token({ ...base, code, redirect_uri: 'http://app.test/elsewhere' })).toEqual({
      ok: false,
      error: 'bad_redirect_uri',
    });
    expect(await token({ ...base, code, grant_type: 'password' })).toEqual({
      ok: false,
      error: 'unsupported_grant_type',
    });
    // The failures above left the code unused; it works once.
    expect((await token({ ...base, code })).ok).toBe(true);
    expect(await token({ ...base, code })).toEqual({ ok: false, error: 'invalid_grant' });
    expect(await token({ ...base, code: 'made-up' })).toEqual({ ok: false, error: 'invalid_code' });

    const late = await codeFor('U0ANN');
    ws.advance(11 * 60_000);
    try {
      expect(await token({ ...base, code: late })).toEqual({ ok: false, error: 'invalid_grant' });
    } finally {
      ws.advance(-11 * 60_000);
    }
  });

  it('answers userInfo only for a token it issued', async () => {
    const reply = await fetch(`${ws.apiUrl}openid.connect.userInfo`, {
      method: 'POST',
      headers: { authorization: 'Bearer xoxp-made-up' },
    });
    expect(await reply.json()).toEqual({ ok: false, error: 'invalid_auth' });
  });
});
