/**
 * OAuth 1.0a request signing (RFC 5849), HMAC-SHA1, with node:crypto. Form-urlencoded body
 * parameters and query parameters are part of the signature base string; multipart parts are not.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** RFC 3986 percent-encoding, as RFC 5849 requires (encodeURIComponent leaves !'()* alone). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

interface OAuth1SignInput {
  method: string;
  /** Full URL; its query parameters are signed too. */
  url: string;
  consumerKey: string;
  consumerSecret: string;
  token?: string;
  tokenSecret?: string;
  /** Form body parameters (only for application/x-www-form-urlencoded bodies). */
  bodyParams?: ReadonlyArray<readonly [string, string]>;
  /** Extra protocol parameters: oauth_callback, oauth_verifier. */
  extra?: Record<string, string>;
  /** Fixed for tests; fresh per request otherwise. */
  nonce?: string;
  timestamp?: string;
}

/** The base string URI: scheme and host lower-case, default port dropped, no query or fragment. */
function baseUri(url: URL): string {
  const scheme = url.protocol.toLowerCase();
  const host = url.hostname.toLowerCase();
  const defaultPort =
    (scheme === 'http:' && url.port === '80') || (scheme === 'https:' && url.port === '443');
  const port = url.port && !defaultPort ? `:${url.port}` : '';
  return `${scheme}//${host}${port}${url.pathname}`;
}

/** Returns the `Authorization: OAuth ...` header value for a request. */
export function oauth1Header(input: OAuth1SignInput): string {
  const url = new URL(input.url);
  const protocol: Record<string, string> = {
    oauth_consumer_key: input.consumerKey,
    oauth_nonce: input.nonce ?? randomBytes(16).toString('hex'),
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: input.timestamp ?? String(Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
    ...(input.token === undefined ? {} : { oauth_token: input.token }),
    ...input.extra,
  };
  const params: Array<[string, string]> = [
    ...[...url.searchParams.entries()],
    ...(input.bodyParams ?? []).map(([k, v]) => [k, v] as [string, string]),
    ...Object.entries(protocol),
  ].map(([k, v]) => [percentEncode(k), percentEncode(v)]);
  params.sort(([ak, av], [bk, bv]) =>
    ak === bk ? (av < bv ? -1 : av > bv ? 1 : 0) : ak < bk ? -1 : 1,
  );
  const normalised = params.map(([k, v]) => `${k}=${v}`).join('&');
  const base = [
    input.method.toUpperCase(),
    percentEncode(baseUri(url)),
    percentEncode(normalised),
  ].join('&');
  const key = `${percentEncode(input.consumerSecret)}&${percentEncode(input.tokenSecret ?? '')}`;
  const signature = createHmac('sha1', key).update(base).digest('base64');
  const header = Object.entries({ ...protocol, oauth_signature: signature })
    .map(([k, v]) => `${percentEncode(k)}="${percentEncode(v)}"`)
    .join(', ');
  return `OAuth ${header}`;
}
