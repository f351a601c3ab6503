/**
 * The id_token checks of Sign in with Slack, by value: each claim that could make a token from
 * elsewhere pass for this sign-in is checked, and the identity is read from Slack's claims.
 */
import { describe, expect, it } from 'vitest';
import { checkIdToken, createSlackSignIn } from '../../src/accounts/sign-in.js';

const expected = { issuer: 'https://slack.com', clientId: '11.22', nonce: 'n-1', nowS: 1_000_000 };

function jwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

const good = {
  iss: 'https://slack.com',
  aud: '11.22',
  exp: 1_000_600,
  nonce: 'n-1',
  sub: 'U0ANN',
  'https://slack.com/user_id': 'U0ANN',
  'https://slack.com/team_id': 'T0001',
  email: 'ann@example.com',
};

describe('checkIdToken', () => {
  it("reads the team and user from Slack's claims", () => {
    expect(checkIdToken(jwt(good), expected)).toEqual({
      ok: true,
      identity: { team_id: 'T0001', user_id: 'U0ANN', email: 'ann@example.com' },
    });
    const { 'https://slack.com/user_id': _, email: _e, ...bySub } = good;
    expect(checkIdToken(jwt({ ...bySub, aud: ['11.22'] }), expected)).toEqual({
      ok: true,
      identity: { team_id: 'T0001', user_id: 'U0ANN', email: undefined },
    });
  });

  it.each([
    ['another issuer', { iss: 'https://evil.example' }, 'it was issued by someone else', 'issuer'],
    ['another app', { aud: '99.99' }, 'it was issued to another app', 'audience'],
    ['an expiry past the allowed skew', { exp: 1_000_000 - 61 }, 'it has expired', 'expired'],
    ['no expiry', { exp: undefined }, 'it has expired', 'expired'],
    ['another nonce', { nonce: 'n-2' }, 'it belongs to another sign-in', 'nonce'],
    ['no nonce', { nonce: undefined }, 'it belongs to another sign-in', 'nonce'],
    [
      'no team',
      { 'https://slack.com/team_id': undefined },
      'it names no Slack team and user',
      'no_identity',
    ],
  ])('refuses %s', (_what, change, detail, problem) => {
    expect(checkIdToken(jwt({ ...good, ...change }), expected)).toEqual({
      ok: false,
      detail,
      problem,
    });
  });

  it('refuses what is not a JWT', () => {
    expect(checkIdToken('not.a-jwt', expected)).toEqual({
      ok: false,
      detail: 'the id_token is not a JWT',
      problem: 'not_jwt',
    });
  });
});

describe('createSlackSignIn', () => {
  const signIn = (secret: string) =>
    createSlackSignIn({
      webUrl: 'https://slack.com',
      clientId: '11.22',
      clientSecret: secret,
      redirectUrl: 'https://split.example.com/oauth/slack/callback',
      exchange: async () => ({}),
      now: () => 0,
    });

  it('derives the OIDC state, the nonce and the proof from the link state and the secret', () => {
    const a = signIn('secret-a');
    const url = new URL(a.authorizeUrl('link-state-1', 'T0001'));
    expect(url.searchParams.get('state')).toBe(a.oidcState('link-state-1'));
    expect(url.searchParams.get('nonce')).not.toBe(a.oidcState('link-state-1'));
    expect(a.proof('link-state-1')).not.toBe(a.oidcState('link-state-1'));
    expect(a.proof('link-state-2')).not.toBe(a.proof('link-state-1'));
    expect(signIn('secret-b').proof('link-state-1')).not.toBe(a.proof('link-state-1'));
  });

  it("says what Slack said when the exchange fails, and nothing of the error's message", async () => {
    const failing = createSlackSignIn({
      webUrl: 'https://slack.com',
      clientId: '11.22',
      clientSecret: 'secret-a',
      redirectUrl: 'https://split.example.com/oauth/slack/callback',
      exchange: async () => {
        throw Object.assign(new Error('An API error occurred: invalid_code secret-a'), {
          data: { ok: false, error: 'invalid_code' },
        });
      },
      now: () => 0,
    });
    expect(await failing.finish('code', 'link-state-1')).toEqual({
      ok: false,
      reason: 'exchange',
      detail: 'invalid_code',
      why: { problem: 'slack_error', code: 'invalid_code' },
    });
  });
});
