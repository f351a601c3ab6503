import { createHmac, randomBytes } from 'node:crypto';
import { control, createUser, parseForm, raw, submitForm } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index.js';

/**
 * An OAuth 1.0a HMAC-SHA1 signer written from RFC 5849 for this test, independent of the
 * emulator's verifier, so that the two cannot share a mistake.
 */
function rfc3986(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9\-._~]/.test(char)
        ? char
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

interface Credentials {
  consumerKey: string;
  consumerSecret: string;
  token?: string;
  tokenSecret?: string;
}

function sign(
  method: string,
  url: string,
  credentials: Credentials,
  extra: Record<string, string> = {},
  bodyParams: Record<string, string> = {},
  overrides: { nonce?: string; timestamp?: number } = {},
): string {
  const target = new URL(url);
  const oauth: Record<string, string> = {
    oauth_consumer_key: credentials.consumerKey,
    oauth_nonce: overrides.nonce ?? randomBytes(12).toString('hex'),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: String(overrides.timestamp ?? Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
    ...(credentials.token ? { oauth_token: credentials.token } : {}),
    ...extra,
  };
  const params: [string, string][] = [
    ...target.searchParams.entries(),
    ...Object.entries(bodyParams),
    ...Object.entries(oauth),
  ];
  // RFC 5849 normalizes parameters: sorted by encoded name, then by encoded value, byte order.
  const normalized = params
    .map(([key, value]) => [rfc3986(key), rfc3986(value)])
    .sort((a, b) => Buffer.compare(Buffer.from(a.join('\u0000')), Buffer.from(b.join('\u0000'))))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const base = `${method}&${rfc3986(`${target.origin}${target.pathname}`)}&${rfc3986(normalized)}`;
  const key = `${rfc3986(credentials.consumerSecret)}&${rfc3986(credentials.tokenSecret ?? '')}`;
  oauth.oauth_signature = createHmac('sha1', key).update(base).digest('base64');
  return `OAuth realm="", ${Object.entries(oauth)
    .map(([name, value]) => `${rfc3986(name)}="${rfc3986(value)}"`)
    .join(', ')}`;
}

let emu: RunningEmulator;
let app: { client_id: string; client_secret: string };
const CALLBACK = 'https://legacy.example.com/oauth1/done';

beforeAll(async () => {
  emu = await startEmulator();
  app = (await control(emu.url, 'POST', 'apps', { redirect_uri: CALLBACK, name: 'Legacy Tool' }))
    .body;
});
afterAll(() => emu.close());

async function post(path: string, authorization: string, body?: Record<string, string>) {
  return raw<string>(emu.url, path, {
    method: 'POST',
    headers: {
      authorization,
      ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(body ? { body: new URLSearchParams(body).toString() } : {}),
  });
}

/** Request token, consent screens and access token, as the Python SDK's e2e tests do it. */
async function connect(
  email: string,
  paths = {
    request: '/api/v3.0/get_request_token',
    authorize: '/authorize',
    access: '/api/v3.0/get_access_token',
  },
) {
  const consumer = { consumerKey: app.client_id, consumerSecret: app.client_secret };
  const requested = await post(
    paths.request,
    sign('POST', `${emu.url}${paths.request}`, consumer, { oauth_callback: CALLBACK }),
  );
  expect(requested.status).toBe(200);
  const request = new URLSearchParams(requested.body);
  expect(request.get('oauth_callback_confirmed')).toBe('true');
  const requestToken = request.get('oauth_token')!;
  const requestSecret = request.get('oauth_token_secret')!;

  const page = await raw<string>(emu.url, `${paths.authorize}?oauth_token=${requestToken}`);
  expect(page.status).toBe(200);
  expect(page.body).toContain('Legacy Tool');
  const consentPage = await submitForm(emu.url, parseForm(page.body), { email });
  const decided = await submitForm(emu.url, parseForm(consentPage.body), { decision: 'allow' });
  expect(decided.status).toBe(302);
  const back = new URL(decided.headers.get('location')!);
  expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
  expect(back.searchParams.get('oauth_token')).toBe(requestToken);
  const verifier = back.searchParams.get('oauth_verifier')!;

  const exchanged = await post(
    paths.access,
    sign(
      'POST',
      `${emu.url}${paths.access}`,
      { ...consumer, token: requestToken, tokenSecret: requestSecret },
      { oauth_verifier: verifier },
    ),
  );
  expect(exchanged.status).toBe(200);
  expect(exchanged.headers.get('content-type')).toContain('application/x-www-form-urlencoded');
  const access = new URLSearchParams(exchanged.body);
  return {
    ...consumer,
    token: access.get('oauth_token')!,
    tokenSecret: access.get('oauth_token_secret')!,
  };
}

describe('OAuth 1.0a', () => {
  it('signs in through request token, consent and access token, then makes signed calls', async () => {
    const { user } = await createUser(emu.url, { email: 'leg@example.com', first_name: 'Leg' });
    const credentials = await connect('leg@example.com');

    const url = `${emu.url}/api/v3.0/get_current_user`;
    const me = await raw(emu.url, '/api/v3.0/get_current_user', {
      headers: { authorization: sign('GET', url, credentials) },
    });
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(user.id);

    // Query parameters are part of the signature.
    const withQuery = `${emu.url}/api/v3.0/get_expenses?limit=5&visible=true`;
    const listed = await raw(emu.url, '/api/v3.0/get_expenses?limit=5&visible=true', {
      headers: { authorization: sign('GET', withQuery, credentials) },
    });
    expect(listed.status).toBe(200);
  });

  it('signs form-urlencoded body parameters too', async () => {
    await createUser(emu.url, { email: 'form1@example.com', first_name: 'Form' });
    const credentials = await connect('form1@example.com', {
      request: '/oauth/request_token',
      authorize: '/oauth/authorize',
      access: '/oauth/access_token',
    });
    const url = `${emu.url}/api/v3.0/create_group`;
    const body = { name: 'Signed trip & co', group_type: 'trip' };
    const created = await post(
      '/api/v3.0/create_group',
      sign('POST', url, credentials, {}, body),
      body,
    );
    expect(created.status).toBe(200);

    // The same signature over different body values must fail.
    const tampered = await post(
      '/api/v3.0/create_group',
      sign('POST', url, credentials, {}, body),
      {
        ...body,
        name: 'Changed in transit',
      },
    );
    expect(tampered.status).toBe(401);
  });

  it('refuses a tampered signature, a wrong secret, a replayed nonce and a stale timestamp', async () => {
    await createUser(emu.url, { email: 'tamper@example.com', first_name: 'Tam' });
    const credentials = await connect('tamper@example.com');
    const url = `${emu.url}/api/v3.0/get_current_user`;
    const get = (authorization: string) =>
      raw(emu.url, '/api/v3.0/get_current_user', { headers: { authorization } });

    const good = sign('GET', url, credentials);
    const flipped = good.replace(/oauth_signature="([^"]+)"/, (_, value: string) => {
      const bytes = Buffer.from(decodeURIComponent(value), 'base64');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return `oauth_signature="${rfc3986(bytes.toString('base64'))}"`;
    });
    const refused = await get(flipped);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'Invalid API request: you are not logged in' });

    expect((await get(sign('GET', url, { ...credentials, tokenSecret: 'nope' }))).status).toBe(401);

    const once = sign('GET', url, credentials, {}, {}, { nonce: 'fixed-nonce' });
    expect((await get(once)).status).toBe(200);
    expect((await get(once)).status).toBe(401);

    const stale = Math.floor(Date.now() / 1000) - 13 * 60 * 60;
    expect((await get(sign('GET', url, credentials, {}, {}, { timestamp: stale }))).status).toBe(
      401,
    );
  });

  it('refuses an access-token exchange without the verifier the consent screen gave', async () => {
    const consumer = { consumerKey: app.client_id, consumerSecret: app.client_secret };
    const path = '/api/v3.0/get_request_token';
    const requested = new URLSearchParams(
      (await post(path, sign('POST', `${emu.url}${path}`, consumer, { oauth_callback: CALLBACK })))
        .body,
    );
    const exchange = await post(
      '/api/v3.0/get_access_token',
      sign(
        'POST',
        `${emu.url}/api/v3.0/get_access_token`,
        {
          ...consumer,
          token: requested.get('oauth_token')!,
          tokenSecret: requested.get('oauth_token_secret')!,
        },
        { oauth_verifier: 'guessed' },
      ),
    );
    expect(exchange.status).toBe(401);
  });

  it('answers GET on the token routes with 404', async () => {
    for (const path of [
      '/api/v3.0/get_request_token',
      '/api/v3.0/get_access_token',
      '/oauth/request_token',
      '/oauth/access_token',
    ]) {
      expect((await raw(emu.url, path)).status, path).toBe(404);
    }
  });

  it('refuses a request token signed with the wrong consumer secret', async () => {
    const path = '/oauth/request_token';
    const reply = await post(
      path,
      sign('POST', `${emu.url}${path}`, { consumerKey: app.client_id, consumerSecret: 'wrong' }),
    );
    expect(reply.status).toBe(401);
  });
});
