import { createHash } from 'node:crypto';
import { safeEqual } from './auth.js';
import type { Emulator, Exchange } from './context.js';
import {
  HttpError,
  isFormBody,
  NOT_FOUND,
  NOT_LOGGED_IN,
  parseBody,
  parseFormPairs,
  sendForm,
  sendJson,
} from './http.js';
import { baseStringUri, verifyOAuth1 } from './oauth1.js';

/** Token responses must never be cached (OAuth 2.0, RFC 6749). */
const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function oauthError(status: number, error: string, description?: string): HttpError {
  return new HttpError(
    status,
    description ? { error, error_description: description } : { error },
    NO_STORE,
  );
}

/**
 * POST /oauth/token. Client credentials come in the body only: the real service answers HTTP Basic
 * client authentication with 404, and so does this one, so that a client sending Basic fails here
 * the way it would in production.
 */
export async function tokenEndpoint(emu: Emulator, ex: Exchange): Promise<void> {
  if (/^Basic\s/i.test(ex.req.headers.authorization ?? '')) throw new HttpError(404, NOT_FOUND);
  const { params } = await parseBody(ex.req);
  const grantType = params.grant_type;
  if (!grantType) throw oauthError(400, 'invalid_request', 'grant_type is required');
  if (grantType !== 'authorization_code' && grantType !== 'client_credentials') {
    throw oauthError(400, 'unsupported_grant_type');
  }
  const app = emu.auth.apps.get(params.client_id ?? '');
  if (!app || !safeEqual(app.client_secret, params.client_secret ?? '')) {
    throw oauthError(401, 'invalid_client');
  }

  let userId: number;
  if (grantType === 'client_credentials') {
    // Some client libraries use this grant for a token acting as the app's owner.
    if (app.owner_id === null) {
      throw oauthError(400, 'unauthorized_client', 'this app has no owner to act as');
    }
    userId = app.owner_id;
    const token = emu.auth.issueAccessToken(userId, app.client_id);
    ex.actorId = userId;
    await emu.durable();
    sendJson(ex.res, ex.startedAt, 200, { access_token: token, token_type: 'bearer' }, NO_STORE);
    return;
  }

  const found = emu.auth.findCode(params.code ?? '');
  if (!found || found.record.client_id !== app.client_id) throw oauthError(400, 'invalid_grant');
  const { hash, record } = found;
  if (record.used) {
    // A code presented twice was probably stolen: revoke what it already produced (RFC 6749).
    emu.auth.revokeTokensFromCode(hash);
    await emu.durable();
    throw oauthError(400, 'invalid_grant', 'the authorization code was already used');
  }
  record.used = true;
  if (record.expires_at < emu.clock.now().getTime()) {
    throw oauthError(400, 'invalid_grant', 'the authorization code has expired');
  }
  const redirectUri = params.redirect_uri;
  const redirectOk =
    record.redirect_uri !== undefined
      ? redirectUri === record.redirect_uri
      : redirectUri === undefined || redirectUri === app.redirect_uri;
  if (!redirectOk) throw oauthError(400, 'invalid_grant', 'redirect_uri does not match');
  if (record.code_challenge !== undefined) {
    const verifier = params.code_verifier ?? '';
    const computed =
      record.code_challenge_method === 'S256'
        ? createHash('sha256').update(verifier).digest('base64url')
        : verifier;
    if (verifier === '' || !safeEqual(computed, record.code_challenge)) {
      throw oauthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge');
    }
  }
  userId = record.user_id;
  if (!emu.ledger.getUser(userId)) throw oauthError(400, 'invalid_grant');
  const token = emu.auth.issueAccessToken(userId, app.client_id, hash);
  ex.actorId = userId;
  await emu.durable();
  sendJson(ex.res, ex.startedAt, 200, { access_token: token, token_type: 'bearer' }, NO_STORE);
}

async function signedRequest(emu: Emulator, ex: Exchange, tokenKind: 'request' | 'none') {
  const body = await parseBody(ex.req);
  const formPairs = isFormBody(ex.req) ? body.formPairs : [];
  const verified = verifyOAuth1(
    {
      method: ex.method,
      baseUri: baseStringUri(ex.req, ex.pathname),
      header: ex.req.headers.authorization ?? '',
      pairs: [...parseFormPairs(ex.search), ...formPairs],
    },
    emu.auth,
    emu.clock,
    tokenKind,
  );
  if (!verified) throw new HttpError(401, NOT_LOGGED_IN);
  return verified;
}

function isCallback(value: string): boolean {
  if (value === 'oob') return true;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** POST /oauth/request_token and /api/v3.0/get_request_token, signed with the consumer only. */
export async function requestTokenEndpoint(emu: Emulator, ex: Exchange): Promise<void> {
  const { app, protocol } = await signedRequest(emu, ex, 'none');
  const callback = protocol.oauth_callback ?? 'oob';
  if (!isCallback(callback)) {
    throw new HttpError(400, {
      errors: { base: ['oauth_callback must be an absolute URL or oob'] },
    });
  }
  const token = emu.auth.issueRequestToken(app.client_id, callback);
  sendForm(ex.res, ex.startedAt, 200, {
    oauth_token: token.token,
    oauth_token_secret: token.secret,
    oauth_callback_confirmed: 'true',
  });
}

/** POST /oauth/access_token and /api/v3.0/get_access_token: request token + verifier -> access token. */
export async function accessTokenEndpoint(emu: Emulator, ex: Exchange): Promise<void> {
  const { app, token, protocol } = await signedRequest(emu, ex, 'request');
  const verifier = protocol.oauth_verifier ?? '';
  if (
    !token ||
    token.user_id === undefined ||
    !token.verifier ||
    !safeEqual(token.verifier, verifier)
  ) {
    throw new HttpError(401, NOT_LOGGED_IN);
  }
  emu.auth.deleteOAuth1Token(token.token);
  const access = emu.auth.issueOAuth1AccessToken(app.client_id, token.user_id);
  ex.actorId = token.user_id;
  await emu.durable();
  sendForm(ex.res, ex.startedAt, 200, {
    oauth_token: access.token,
    oauth_token_secret: access.secret,
  });
}
