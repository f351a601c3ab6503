/**
 * Who a request acts for: the Authorization header of each credential kind, and the two OAuth 1.0a
 * token endpoints, which are signed with the consumer (and the request token) instead of a user's
 * access token and answer form-encoded text rather than JSON.
 */
import { ServiceException, ServiceInputException, ServiceUnauthorizedException } from './errors.js';
import { oauth1Header } from './oauth1.js';
import { type ApiCall, send, type TransportConfig } from './request.js';
import { asRecord } from './results.js';

/** An OAuth 1.0a token and its secret: a request token, or a person's access token. */
export interface OAuth1Token {
  oauth_token: string;
  oauth_token_secret: string;
}

export type UserCredential =
  | { kind: 'oauth2'; token: string }
  | { kind: 'oauth1'; token: string; secret: string };

export interface Credentials {
  user: UserCredential | undefined;
  consumerKey: string | undefined;
  consumerSecret: string | undefined;
  apiKey: string | undefined;
}

interface Consumer {
  key: string;
  secret: string;
}

export function consumerOf(credentials: Credentials): Consumer {
  const { consumerKey, consumerSecret } = credentials;
  if (!consumerKey || !consumerSecret) {
    throw new ServiceInputException('OAuth 1.0a needs the consumerKey and consumerSecret');
  }
  return { key: consumerKey, secret: consumerSecret };
}

/**
 * The Authorization header maker for one call: the user's token, else the API key; with neither,
 * nothing for an operation that needs no user, and a local failure for one that does.
 */
export function authorization(
  credentials: Credentials,
  operation: string,
  required: boolean,
): ApiCall['authorization'] {
  const user = credentials.user;
  if (user?.kind === 'oauth2') return () => `Bearer ${user.token}`;
  if (user?.kind === 'oauth1') {
    const consumer = consumerOf(credentials);
    // Signed anew for every attempt: each signature carries its own nonce and timestamp.
    return (method, url, formPairs) =>
      oauth1Header({
        method,
        url,
        consumerKey: consumer.key,
        consumerSecret: consumer.secret,
        token: user.token,
        tokenSecret: user.secret,
        ...(formPairs ? { bodyParams: formPairs } : {}),
      });
  }
  const apiKey = credentials.apiKey;
  if (apiKey) return () => `Bearer ${apiKey}`;
  if (!required) return undefined;
  throw new ServiceUnauthorizedException(
    `${operation} acts for a user: set an OAuth 2.0 token, an OAuth 1.0a token or an apiKey first`,
  );
}

/** get_request_token or get_access_token: a token and its secret, whichever format they come in. */
export async function oauth1Token(
  transport: TransportConfig,
  url: string,
  what: string,
  consumer: Consumer,
  token: { token: string; secret: string } | undefined,
  extra: Record<string, string>,
): Promise<OAuth1Token> {
  const text = (await send(transport, {
    what,
    method: 'POST',
    url,
    expect: 'text',
    authorization: (method, signedUrl) =>
      oauth1Header({
        method,
        url: signedUrl,
        consumerKey: consumer.key,
        consumerSecret: consumer.secret,
        ...(token ? { token: token.token, tokenSecret: token.secret } : {}),
        extra,
      }),
  })) as string;
  let fields: Record<string, unknown>;
  try {
    fields = asRecord(JSON.parse(text));
  } catch {
    fields = Object.fromEntries(new URLSearchParams(text));
  }
  const oauth_token = fields.oauth_token;
  const oauth_token_secret = fields.oauth_token_secret;
  if (typeof oauth_token !== 'string' || typeof oauth_token_secret !== 'string') {
    throw new ServiceException(`${what} failed: the answer carried no oauth_token`);
  }
  return { oauth_token, oauth_token_secret };
}
