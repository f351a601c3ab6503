import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type App, type AuthStore, OAUTH1_WINDOW_MS, type OAuth1Token, safeEqual } from './auth.js';
import type { Clock } from './types.js';

/** RFC 3986 unreserved characters stay, everything else is %XX in upper case (OAuth 1.0a, RFC 5849). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** The parameters of an `Authorization: OAuth ...` header, or undefined when it is not one. */
export function parseOAuthHeader(header: string): Record<string, string> | undefined {
  const match = /^OAuth\s+(.*)$/is.exec(header.trim());
  if (!match) return undefined;
  // Names are the client's: no prototype, so that none of them can reach Object.prototype.
  const params = Object.create(null) as Record<string, string>;
  for (const part of match[1]!.split(',')) {
    const pair = /^\s*([^=\s]+)\s*=\s*"([^"]*)"\s*$/.exec(part);
    if (!pair) {
      if (part.trim() === '') continue;
      return undefined;
    }
    try {
      params[decodeURIComponent(pair[1]!)] = decodeURIComponent(pair[2]!);
    } catch {
      return undefined;
    }
  }
  return params;
}

/** The signature base string URI: lower-case scheme and host, default ports dropped, no query. */
export function baseStringUri(req: IncomingMessage, pathname: string): string {
  const host = (req.headers.host ?? 'localhost').toLowerCase().replace(/:80$/, '');
  return `http://${host}${pathname}`;
}

/** The signature base string (RFC 5849): METHOD&base-uri&normalized-parameters. */
export function signatureBaseString(
  method: string,
  baseUri: string,
  pairs: [string, string][],
): string {
  const normalized = pairs
    .map(([key, value]) => [percentEncode(key), percentEncode(value)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  return [method.toUpperCase(), percentEncode(baseUri), percentEncode(normalized)].join('&');
}

export function hmacSha1(base: string, consumerSecret: string, tokenSecret: string): string {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac('sha1', key).update(base).digest('base64');
}

export interface OAuth1Request {
  method: string;
  baseUri: string;
  header: string;
  /** Query parameters and, for form-urlencoded bodies only, the body's parameters. */
  pairs: [string, string][];
}

export interface VerifiedOAuth1 {
  app: App;
  /** The token the request was signed with, when it carried one. */
  token?: OAuth1Token;
  /** Every oauth_* protocol parameter, from the header or the request. */
  protocol: Record<string, string>;
}

/**
 * Checks an HMAC-SHA1 signed request (RFC 5849): known consumer, token when one is required,
 * timestamp within the window, fresh nonce and a signature that matches. Any failure answers
 * undefined; the caller answers 401 without saying which check failed.
 */
export function verifyOAuth1(
  request: OAuth1Request,
  auth: AuthStore,
  clock: Clock,
  tokenKind: 'request' | 'access' | 'none',
): VerifiedOAuth1 | undefined {
  const header = parseOAuthHeader(request.header);
  if (!header) return undefined;
  const protocol = Object.create(null) as Record<string, string>;
  for (const [key, value] of request.pairs) if (key.startsWith('oauth_')) protocol[key] = value;
  for (const [key, value] of Object.entries(header)) if (key !== 'realm') protocol[key] = value;

  const signature = header.oauth_signature;
  if (!signature || protocol.oauth_signature_method !== 'HMAC-SHA1') return undefined;
  if (protocol.oauth_version !== undefined && protocol.oauth_version !== '1.0') return undefined;
  const app = auth.apps.get(protocol.oauth_consumer_key ?? '');
  if (!app) return undefined;

  let token: OAuth1Token | undefined;
  if (tokenKind !== 'none') {
    token = auth.findOAuth1Token(protocol.oauth_token ?? '');
    if (!token || token.kind !== tokenKind || token.client_id !== app.client_id) return undefined;
  }

  const timestamp = Number(protocol.oauth_timestamp) * 1000;
  if (
    !Number.isInteger(timestamp) ||
    Math.abs(clock.now().getTime() - timestamp) > OAUTH1_WINDOW_MS
  ) {
    return undefined;
  }
  const nonce = protocol.oauth_nonce;
  if (!nonce) return undefined;

  const signed: [string, string][] = [...request.pairs];
  for (const [key, value] of Object.entries(header)) {
    if (key !== 'realm' && key !== 'oauth_signature') signed.push([key, value]);
  }
  const base = signatureBaseString(request.method, request.baseUri, signed);
  const expected = hmacSha1(base, app.client_secret, token?.secret ?? '');
  if (!safeEqual(expected, signature)) return undefined;

  // The nonce is spent only by a valid request, so garbage cannot burn someone's nonces.
  const nonceKey = `${app.client_id}\n${protocol.oauth_token ?? ''}\n${timestamp}\n${nonce}`;
  if (!auth.useNonce(nonceKey, timestamp)) return undefined;
  return token ? { app, token, protocol } : { app, protocol };
}
