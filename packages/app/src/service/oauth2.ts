/**
 * OAuth 2.0 authorization code flow. The authorization URL is built here; the token exchange runs
 * on simple-oauth2, loaded only when a code is exchanged (it brings an HTTP and a validation
 * library that an idle process has no use for). The service wants the client credentials in the
 * form body, never HTTP Basic (it answers Basic with a 404). simple-oauth2 talks HTTP through its
 * own library, so the token exchange does not go through an injected `fetch`.
 */
import { createHash } from 'node:crypto';
import type { AuthorizationCode } from 'simple-oauth2';
import {
  errorFromResponse,
  type Redactor,
  ServiceConnectionException,
  ServiceException,
  ServiceInputException,
  ServiceTimeoutException,
} from './errors.js';
import { USER_AGENT } from './version.js';

/** What the token endpoint gives for a code: the person's access token and its type. */
export interface OAuth2Token {
  access_token: string;
  token_type: string;
}

export interface OAuth2Config {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  timeoutMs: number;
  redact: Redactor;
}

let library: Promise<typeof import('simple-oauth2')> | undefined;

/**
 * simple-oauth2, imported by the first exchange and kept; exchanges that start while it loads wait
 * for the same import. An import that fails (the package missing from an install) is reported as
 * that, not as a service that did not answer, and is tried again by the next exchange.
 */
function oauthLibrary(): Promise<typeof import('simple-oauth2')> {
  library ??= import('simple-oauth2').catch((error: Error) => {
    library = undefined;
    throw new ServiceException(
      `oauth token exchange failed: the OAuth client library (simple-oauth2) could not be loaded: ${error.message}`,
    );
  });
  return library;
}

function authorizationCode(
  { AuthorizationCode }: typeof import('simple-oauth2'),
  config: OAuth2Config,
): AuthorizationCode {
  const authorize = new URL(config.authorizeUrl);
  const token = new URL(config.tokenUrl);
  return new AuthorizationCode({
    client: { id: config.clientId, secret: config.clientSecret },
    auth: {
      tokenHost: token.origin,
      tokenPath: `${token.pathname}${token.search}`,
      authorizeHost: authorize.origin,
      authorizePath: authorize.pathname,
    },
    options: { authorizationMethod: 'body', bodyFormat: 'form' },
    http: { timeout: config.timeoutMs, headers: { 'User-Agent': USER_AGENT } },
  });
}

/** RFC 7636 S256: the challenge sent with the consent request is the verifier's SHA-256. */
function pkceChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier).digest('base64url');
}

/** RFC 7636: 43 to 128 characters of [A-Za-z0-9-._~]. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function checkVerifier(codeVerifier: string): void {
  if (!VERIFIER.test(codeVerifier)) {
    throw new ServiceInputException(
      'a PKCE code_verifier must be 43 to 128 characters of letters, digits and -._~',
    );
  }
}

export function oauth2AuthorizeUrl(
  config: OAuth2Config,
  redirectUri: string,
  state: string,
  options: { code_verifier?: string; login_hint?: string } = {},
): string {
  const { code_verifier: codeVerifier, login_hint: loginHint } = options;
  const url = new URL(config.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  if (codeVerifier) {
    url.searchParams.set('code_challenge', pkceChallenge(codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
  }
  // OpenID Connect's name for "who is probably signing in": a server that knows it pre-fills
  // its sign-in form, one that does not ignores it.
  if (loginHint) url.searchParams.set('login_hint', loginHint);
  return url.toString();
}

interface WreckError {
  isBoom?: boolean;
  output?: { statusCode?: number };
  message?: string;
  data?: {
    isResponseError?: boolean;
    headers?: Record<string, string | string[] | undefined>;
    payload?: unknown;
    res?: { statusCode?: number; headers?: Record<string, string | string[] | undefined> };
  } | null;
}

function payloadText(payload: unknown): string {
  if (payload === undefined || payload === null) return '';
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  if (typeof payload === 'string') return payload;
  return JSON.stringify(payload);
}

function plainHeaders(
  headers: Record<string, string | string[] | undefined> | undefined,
  redact: Redactor,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    const name = key.toLowerCase();
    if (value === undefined || name === 'set-cookie' || name === 'www-authenticate') continue;
    out[name] = redact(Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

/** Exchanges an authorization code for an access token. Never retried (the code is single-use). */
export async function oauth2ExchangeCode(
  config: OAuth2Config,
  code: string,
  redirectUri: string,
  codeVerifier?: string,
): Promise<OAuth2Token> {
  const library = await oauthLibrary();
  let token: Record<string, unknown>;
  try {
    const result = await authorizationCode(library, config).getToken({
      code,
      redirect_uri: redirectUri,
      ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
    });
    token = result.token as Record<string, unknown>;
  } catch (caught) {
    throw mapTokenError(caught as WreckError, config.redact);
  }
  if (typeof token.access_token !== 'string' || token.access_token === '') {
    throw new ServiceException('oauth token exchange failed: the answer carried no access_token');
  }
  return {
    access_token: token.access_token,
    token_type: typeof token.token_type === 'string' ? token.token_type : 'bearer',
  };
}

function mapTokenError(error: WreckError, redact: Redactor): Error {
  const what = 'oauth token exchange';
  const data = error.data ?? undefined;
  const status =
    data?.res?.statusCode ?? (data?.isResponseError ? error.output?.statusCode : undefined);
  if (status !== undefined && data) {
    return errorFromResponse(
      what,
      {
        status,
        headers: plainHeaders(data.headers ?? data.res?.headers, redact),
        body: payloadText(data.payload),
      },
      { redact, write: true },
    );
  }
  if (error.isBoom && error.output?.statusCode === 504) {
    return new ServiceTimeoutException(`${what} timed out`, { outcomeUnknown: true });
  }
  return new ServiceConnectionException(
    `${what} failed: no response from the service (${redact(error.message ?? 'unknown error')})`,
    { outcomeUnknown: true },
  );
}
