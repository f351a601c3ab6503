/**
 * Sign in with Slack (OpenID Connect), the app's side: the authorize URL a linking browser is
 * sent to, and the code it comes back with turned into the Slack team and user it proves.
 *
 * The id_token is taken straight from Slack's token method, over the app's own connection to
 * SLACK_API_URL, so its signature is not checked against Slack's key set (OpenID Connect Core 1.0
 * allows that for a token received directly from the token endpoint over TLS); what it says is
 * still checked: issuer, audience, expiry and the nonce this flow sent.
 *
 * The flow's OIDC state and nonce, and the proof that a browser has signed in, are derived from
 * the link's own state with an HMAC under the client secret, so nothing more is stored: only the
 * browser holding the link's state can present them, and nobody without the secret can make them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SignInProblem } from './pages.js';

const SIGN_IN_PATH = '/openid/connect/authorize';
const SCOPES = 'openid email profile';
/** Allowance for the two clocks disagreeing when checking the id_token's expiry. */
const CLOCK_SKEW_S = 60;

export interface SlackSignInOptions {
  /** Slack's browser pages (the id_token's issuer), no trailing slash. */
  webUrl: string;
  clientId: string;
  clientSecret: string;
  /** `${publicUrl}/oauth/slack/callback`, one of the Slack app's redirect URLs. */
  redirectUrl: string;
  /** openid.connect.token; throws when Slack refuses or cannot be reached. */
  exchange(args: {
    client_id: string;
    client_secret: string;
    code: string;
    redirect_uri: string;
  }): Promise<{ id_token?: string | undefined }>;
  /** ms since the epoch. */
  now(): number;
}

/** Who Slack says signed in. */
interface SlackIdentity {
  team_id: string;
  user_id: string;
  email: string | undefined;
}

type SignInOutcome =
  | { ok: true; identity: SlackIdentity }
  /**
   * `exchange`: Slack refused the code or did not answer; `token`: its id_token is unusable.
   * `detail` says why for the log; `why`, for the person's page.
   */
  | { ok: false; reason: 'exchange' | 'token'; detail: string; why: SignInProblem };

type TokenProblem = Exclude<
  SignInProblem['problem'],
  'slack_error' | 'http_error' | 'no_answer' | 'unreadable' | 'no_id_token'
>;

interface SlackSignIn {
  /** Where to send the browser for the link with this state. */
  authorizeUrl(linkState: string, teamId: string): string;
  /** The OIDC state Slack must send back for this link. */
  oidcState(linkState: string): string;
  /** The proof a browser holds once it signed in as the link's person. */
  proof(linkState: string): string;
  finish(code: string, linkState: string): Promise<SignInOutcome>;
}

export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function claimsOf(idToken: string): Record<string, unknown> | undefined {
  const parts = idToken.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What is wrong with the id_token's claims, or the identity it proves. */
export function checkIdToken(
  idToken: string,
  expected: { issuer: string; clientId: string; nonce: string; nowS: number },
): { ok: true; identity: SlackIdentity } | { ok: false; detail: string; problem: TokenProblem } {
  const refused = (problem: TokenProblem, detail: string) =>
    ({ ok: false, detail, problem }) as const;
  const claims = claimsOf(idToken);
  if (!claims) return refused('not_jwt', 'the id_token is not a JWT');
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (claims.iss !== expected.issuer) return refused('issuer', 'it was issued by someone else');
  if (!audience.includes(expected.clientId))
    return refused('audience', 'it was issued to another app');
  if (typeof claims.exp !== 'number' || claims.exp + CLOCK_SKEW_S < expected.nowS)
    return refused('expired', 'it has expired');
  if (typeof claims.nonce !== 'string' || !sameText(claims.nonce, expected.nonce))
    return refused('nonce', 'it belongs to another sign-in');
  const user = claims['https://slack.com/user_id'] ?? claims.sub;
  const team = claims['https://slack.com/team_id'];
  if (typeof user !== 'string' || typeof team !== 'string' || user === '' || team === '')
    return refused('no_identity', 'it names no Slack team and user');
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  return { ok: true, identity: { team_id: team, user_id: user, email } };
}

/** Slack's error code, or the kind of failure; never a message that could carry arguments. */
function describe(error: unknown): { detail: string; why: SignInProblem } {
  const data = (error as { data?: { error?: unknown } }).data;
  if (typeof data?.error === 'string')
    return { detail: data.error, why: { problem: 'slack_error', code: data.error } };
  const code = (error as { code?: unknown }).code;
  return code === 'slack_webapi_http_error'
    ? { detail: 'an HTTP error', why: { problem: 'http_error' } }
    : { detail: 'no answer', why: { problem: 'no_answer' } };
}

export function createSlackSignIn(options: SlackSignInOptions): SlackSignIn {
  const derive = (purpose: string, linkState: string) =>
    createHmac('sha256', options.clientSecret)
      .update(`${purpose}:${linkState}`)
      .digest('base64url');
  const nonce = (linkState: string) => derive('oidc-nonce', linkState);

  return {
    oidcState: (linkState) => derive('oidc-state', linkState),
    proof: (linkState) => derive('signed-in', linkState),
    authorizeUrl(linkState, teamId) {
      const url = new URL(`${options.webUrl}${SIGN_IN_PATH}`);
      url.search = new URLSearchParams({
        response_type: 'code',
        scope: SCOPES,
        client_id: options.clientId,
        redirect_uri: options.redirectUrl,
        state: derive('oidc-state', linkState),
        nonce: nonce(linkState),
        team: teamId,
      }).toString();
      return url.toString();
    },
    async finish(code, linkState) {
      let idToken: string | undefined;
      try {
        const answer = await options.exchange({
          client_id: options.clientId,
          client_secret: options.clientSecret,
          code,
          redirect_uri: options.redirectUrl,
        });
        idToken = answer.id_token;
      } catch (error) {
        return { ok: false, reason: 'exchange', ...describe(error) };
      }
      if (!idToken)
        return {
          ok: false,
          reason: 'token',
          detail: 'no id_token came back',
          why: { problem: 'no_id_token' },
        };
      const checked = checkIdToken(idToken, {
        issuer: options.webUrl,
        clientId: options.clientId,
        nonce: nonce(linkState),
        nowS: Math.floor(options.now() / 1000),
      });
      return checked.ok
        ? checked
        : {
            ok: false,
            reason: 'token',
            detail: checked.detail,
            why: { problem: checked.problem },
          };
    },
  };
}
