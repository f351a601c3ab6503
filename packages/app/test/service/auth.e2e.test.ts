/**
 * Every credential kind against the emulator: API key, OAuth 2.0 and OAuth 1.0a end to end
 * (consent screens included), which one wins when several are set, and the local refusal when an
 * operation that acts for a user has none.
 */
import { createHash } from 'node:crypto';
import { control } from '@split/service-emulator/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ServiceBadRequestException,
  type ServiceClient,
  ServiceEditionException,
  ServiceInputException,
  ServiceUnauthorizedException,
} from '../../src/service/index.js';
import {
  type CreatedUser,
  clientFor,
  consent,
  emulator,
  issueToken,
  type RunningEmulator,
  recorder,
  registerApp,
  resetRequests,
  someUser,
} from './helpers.js';

let emu: RunningEmulator;
let ann: CreatedUser;
let bob: CreatedUser;
let app: { client_id: string; client_secret: string; redirect_uri: string };

beforeAll(async () => {
  emu = await emulator();
  ann = await someUser(emu.url, 'Ann');
  bob = await someUser(emu.url, 'Bob');
  app = await registerApp(emu.url);
});

afterAll(async () => {
  await emu?.close();
});

function appClient(options: ConstructorParameters<typeof ServiceClient>[0] = {}) {
  return clientFor(emu.url, {
    consumerKey: app.client_id,
    consumerSecret: app.client_secret,
    ...options,
  });
}

describe('API key', () => {
  it('is sent as a Bearer token and acts as its owner', async () => {
    const rec = recorder();
    const client = clientFor(emu.url, { apiKey: ann.api_key, fetch: rec.fetch });
    expect((await client.getCurrentUser()).id).toBe(ann.user.id);
    expect(rec.last().headers.get('authorization')).toBe(`Bearer ${ann.api_key}`);
  });
});

describe('OAuth 2.0', () => {
  it('runs the authorization code flow end to end', async () => {
    const client = appClient();
    const { auth_url, state } = client.getOAuth2AuthorizeURL(app.redirect_uri);
    expect(state).toMatch(/^[0-9a-f]{32}$/);
    const url = new URL(auth_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${emu.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: app.client_id,
      redirect_uri: app.redirect_uri,
      state,
    });

    const decision = await consent(auth_url, ann.user.email);
    expect(decision.status).toBe(302);
    const back = new URL(decision.headers.get('location')!);
    expect(back.searchParams.get('state')).toBe(state);
    const code = back.searchParams.get('code')!;

    const token = await client.getOAuth2AccessToken(code, app.redirect_uri);
    expect(token.token_type.toLowerCase()).toBe('bearer');
    expect(token.access_token.length).toBeGreaterThan(10);

    // The client keeps nothing from the exchange: the token goes to whoever acts for Ann.
    await expect(client.getCurrentUser()).rejects.toBeInstanceOf(ServiceUnauthorizedException);
    client.setOAuth2AccessToken(token);
    expect((await client.getCurrentUser()).id).toBe(ann.user.id);
    const other = clientFor(emu.url, { oauth2AccessToken: token.access_token });
    expect((await other.getCurrentUser()).id).toBe(ann.user.id);
  });

  it('sends an S256 PKCE challenge, and the code is exchanged only with its verifier', async () => {
    const client = appClient();
    const verifier = `${'v'.repeat(20)}-._~0123456789abcdefghij`;
    const { auth_url } = client.getOAuth2AuthorizeURL(app.redirect_uri, 'pkce-state', {
      code_verifier: verifier,
    });
    const sent = new URL(auth_url).searchParams;
    expect(sent.get('code_challenge_method')).toBe('S256');
    expect(sent.get('code_challenge')).toBe(
      createHash('sha256').update(verifier).digest('base64url'),
    );
    expect(auth_url).not.toContain(verifier);

    const codeFor = async () => {
      const back = new URL((await consent(auth_url, ann.user.email)).headers.get('location')!);
      return back.searchParams.get('code')!;
    };
    const withoutVerifier = await client
      .getOAuth2AccessToken(await codeFor(), app.redirect_uri)
      .catch((e: unknown) => e);
    expect(withoutVerifier).toBeInstanceOf(ServiceBadRequestException);
    const wrong = await client
      .getOAuth2AccessToken(await codeFor(), app.redirect_uri, { code_verifier: 'w'.repeat(43) })
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ServiceBadRequestException);

    const token = await client.getOAuth2AccessToken(await codeFor(), app.redirect_uri, {
      code_verifier: verifier,
    });
    client.setOAuth2AccessToken(token);
    expect((await client.getCurrentUser()).id).toBe(ann.user.id);
  });

  it('refuses a PKCE verifier RFC 7636 does not allow, before sending anything', () => {
    expect(() =>
      appClient().getOAuth2AuthorizeURL(app.redirect_uri, undefined, { code_verifier: 'short' }),
    ).toThrow(ServiceInputException);
  });

  it('keeps a given state', () => {
    const { auth_url, state } = appClient().getOAuth2AuthorizeURL(app.redirect_uri, 'my-state');
    expect(state).toBe('my-state');
    expect(new URL(auth_url).searchParams.get('state')).toBe('my-state');
  });

  it('a used or unknown code is refused with invalid_grant', async () => {
    const error = await appClient()
      .getOAuth2AccessToken('not-a-code', app.redirect_uri)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceBadRequestException);
    const e = error as ServiceBadRequestException;
    expect(e.http_status).toBe(400);
    expect(e.errors).toEqual({ base: ['invalid_grant'] });
    expect(JSON.stringify(e)).not.toContain(app.client_secret);
  });

  it('needs the consumer key and secret', () => {
    expect(() => clientFor(emu.url).getOAuth2AuthorizeURL(app.redirect_uri)).toThrow(
      ServiceInputException,
    );
  });
});

describe('OAuth 1.0a', () => {
  it('runs the request token, consent and access token steps end to end, out of band', async () => {
    const client = appClient();
    const { auth_url, oauth_token, oauth_token_secret } = await client.getAuthorizeURL();
    expect(auth_url).toBe(`${emu.url}/authorize?oauth_token=${encodeURIComponent(oauth_token)}`);
    expect(oauth_token_secret.length).toBeGreaterThan(0);

    const page = await consent(auth_url, bob.user.email);
    expect(page.status).toBe(200);
    const verifier = /<code>([^<]+)<\/code>/.exec(await page.text())?.[1];
    expect(verifier).toBeTruthy();

    const access = await client.getAccessToken(oauth_token, oauth_token_secret, verifier!);
    expect(access.oauth_token).not.toBe(oauth_token);
    client.setAccessToken(access);
    expect((await client.getCurrentUser()).id).toBe(bob.user.id);

    // A signed POST with form parameters (they are part of the signature base string).
    const rec = recorder();
    const signed = appClient({ accessToken: access, fetch: rec.fetch });
    const friend = await signed.createFriend({ email: ann.user.email });
    expect(friend.errors).toEqual({});
    expect(rec.last().headers.get('authorization')).toMatch(
      /^OAuth .*oauth_signature_method="HMAC-SHA1"/,
    );
  });

  it('sends oauth_callback and the consent redirects back with the verifier', async () => {
    const client = appClient();
    const { auth_url, oauth_token, oauth_token_secret } = await client.getAuthorizeURL(
      'http://127.0.0.1:9/oauth1-callback',
    );
    const decision = await consent(auth_url, ann.user.email);
    expect(decision.status).toBe(302);
    const back = new URL(decision.headers.get('location')!);
    expect(back.searchParams.get('oauth_token')).toBe(oauth_token);
    const access = await client.getAccessToken(
      oauth_token,
      oauth_token_secret,
      back.searchParams.get('oauth_verifier')!,
    );
    expect((await appClient({ accessToken: access }).getCurrentUser()).id).toBe(ann.user.id);
  });

  it('a wrong verifier is refused without leaking the secrets', async () => {
    const client = appClient();
    const { oauth_token, oauth_token_secret } = await client.getAuthorizeURL();
    const error = await client
      .getAccessToken(oauth_token, oauth_token_secret, 'wrong')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnauthorizedException);
    const text = JSON.stringify(error) + String((error as Error).message);
    expect(text).not.toContain(app.client_secret);
    expect(text).not.toContain(oauth_token_secret);
  });

  it('without the consumer key and secret, both token steps reject and send nothing', async () => {
    const rec = recorder();
    const client = clientFor(emu.url, { fetch: rec.fetch });
    // Called bare, so that a synchronous throw instead of a rejection fails the test.
    const outcomes = await Promise.allSettled([
      client.getAuthorizeURL(),
      client.getAccessToken('token', 'secret', 'verifier'),
    ]);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(ServiceInputException);
      expect(reason.message).toBe('OAuth 1.0a needs the consumerKey and consumerSecret');
    }
    expect(rec.calls).toHaveLength(0);
  });
});

describe('which credential wins', () => {
  it('an OAuth token beats the API key', async () => {
    const bobToken = await issueToken(emu.url, bob.user.id, app.client_id);
    const client = clientFor(emu.url, { apiKey: ann.api_key, oauth2AccessToken: bobToken });
    expect((await client.getCurrentUser()).id).toBe(bob.user.id);
  });

  it('given both OAuth tokens, OAuth 2.0 wins; afterwards the token set last wins', async () => {
    const rec = recorder();
    const bobToken = await issueToken(emu.url, bob.user.id, app.client_id);
    const oauth1 = { oauth_token: 'tok-1', oauth_token_secret: 'sec-1' };
    const client = appClient({
      accessToken: oauth1,
      oauth2AccessToken: bobToken,
      apiKey: ann.api_key,
      fetch: rec.fetch,
    });
    expect((await client.getCurrentUser()).id).toBe(bob.user.id);
    expect(rec.last().headers.get('authorization')).toBe(`Bearer ${bobToken}`);

    client.setAccessToken(oauth1);
    await client.getCurrentUser().catch(() => undefined);
    expect(rec.last().headers.get('authorization')).toMatch(/^OAuth .*oauth_token="tok-1"/);

    client.setOAuth2AccessToken({ access_token: bobToken, token_type: 'bearer' });
    expect((await client.getCurrentUser()).id).toBe(bob.user.id);
  });

  it('with no OAuth token, the API key is used', async () => {
    const client = appClient({ apiKey: ann.api_key });
    expect((await client.getCurrentUser()).id).toBe(ann.user.id);
  });

  it('edition 1 has no API key credential', () => {
    expect(() => clientFor(emu.url, { apiKey: ann.api_key, edition: 1 })).toThrow(
      ServiceEditionException,
    );
  });
});

describe('no credential', () => {
  it('an operation that acts for a user fails before sending anything', async () => {
    const rec = recorder();
    const client = clientFor(emu.url, { fetch: rec.fetch });
    await resetRequests(emu.url);
    for (const run of [
      () => client.getCurrentUser(),
      () => client.getExpenses(),
      () => client.createExpense({ description: 'x', cost: '1', group_id: 1 }),
      () => client.deleteExpense(1),
    ]) {
      const error = await run().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceUnauthorizedException);
      expect((error as Error).message).toMatch(/acts for a user/);
      expect((error as ServiceUnauthorizedException).http_status).toBeUndefined();
    }
    expect(rec.calls).toHaveLength(0);
    const counts = (await control(emu.url, 'GET', 'requests')).body.counts as Record<
      string,
      number
    >;
    expect(Object.keys(counts).filter((route) => route.includes('/api/'))).toEqual([]);
  });
});
