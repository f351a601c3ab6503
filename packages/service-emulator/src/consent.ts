import { newSecret, safeEqual } from './auth.js';
import { type Pending, SESSION_COOKIE, SESSION_TTL_MS } from './consent-store.js';
import type { Emulator, Exchange } from './context.js';
import { parseBody, redirect, sendHtml } from './http.js';
import { LedgerInputError } from './ledger.js';
import { consentPage, errorPage, signInPage, verifierPage } from './pages.js';

function sessionCookie(ex: Exchange): string | undefined {
  for (const part of (ex.req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE) return value.join('=');
  }
  return undefined;
}

/** Appends parameters to a redirect URI, keeping any query it already has. */
export function withQuery(uri: string, values: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return url.toString();
}

const PKCE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** GET /oauth/authorize (OAuth 2.0, or OAuth 1.0a with oauth_token) and GET /authorize. */
export function consentGet(emu: Emulator, ex: Exchange): void {
  const query = new URLSearchParams(ex.search);
  const html = (status: number, page: string) => sendHtml(ex.res, ex.startedAt, status, page);
  const action = ex.pathname;

  const requestToken = query.get('oauth_token');
  if (requestToken !== null) {
    const token = emu.auth.findOAuth1Token(requestToken);
    const app = token && emu.auth.apps.get(token.client_id);
    if (token?.kind !== 'request' || !app || token.user_id !== undefined) {
      html(400, errorPage('Link expired', 'This authorization link is invalid or has expired.'));
      return;
    }
    const pending = emu.consent.create({
      client_id: app.client_id,
      oauth1: { request_token: token.token },
    });
    startFlow(emu, ex, pending, app.name, action);
    return;
  }

  const clientId = query.get('client_id') ?? '';
  const app = emu.auth.apps.get(clientId);
  if (!app) {
    html(
      400,
      errorPage('Unknown application', 'No application is registered with this client_id.'),
    );
    return;
  }
  const redirectUri = query.get('redirect_uri') ?? undefined;
  if (redirectUri !== undefined && redirectUri !== app.redirect_uri) {
    // Never redirect to an address the app did not register: that is how codes get stolen.
    html(
      400,
      errorPage(
        'Redirect address mismatch',
        `The redirect_uri does not match the one registered for ${app.name}.`,
      ),
    );
    return;
  }
  const state = query.get('state') ?? undefined;
  const fail = (error: string, description: string) =>
    redirect(
      ex.res,
      ex.startedAt,
      withQuery(app.redirect_uri, { error, error_description: description, state }),
    );
  if (query.get('response_type') !== 'code') {
    fail('unsupported_response_type', 'response_type must be code');
    return;
  }
  const challenge = query.get('code_challenge') ?? undefined;
  const method = query.get('code_challenge_method') ?? undefined;
  if (challenge !== undefined && !PKCE_CHALLENGE.test(challenge)) {
    fail('invalid_request', 'code_challenge must be 43 to 128 unreserved characters');
    return;
  }
  if (
    method !== undefined &&
    (challenge === undefined || (method !== 'S256' && method !== 'plain'))
  ) {
    fail('invalid_request', 'code_challenge_method must be S256 or plain, with a code_challenge');
    return;
  }
  const oauth2: NonNullable<Pending['oauth2']> = {};
  if (redirectUri !== undefined) oauth2.redirect_uri = redirectUri;
  if (state !== undefined) oauth2.state = state;
  if (challenge !== undefined) {
    oauth2.code_challenge = challenge;
    oauth2.code_challenge_method = method === 'S256' ? 'S256' : 'plain';
  }
  const loginHint = query.get('login_hint')?.trim();
  if (loginHint && EMAIL.test(loginHint)) oauth2.login_hint = loginHint;
  const pending = emu.consent.create({ client_id: app.client_id, oauth2 });
  startFlow(emu, ex, pending, app.name, action);
}

/** Someone already signed in (session cookie) goes straight to the decision, else signs in. */
function startFlow(
  emu: Emulator,
  ex: Exchange,
  pending: Pending,
  appName: string,
  action: string,
): void {
  const userId = emu.consent.sessionUser(sessionCookie(ex));
  const user = userId === undefined ? undefined : emu.ledger.getUser(userId);
  const hint = pending.oauth2?.login_hint;
  // A browser signed in as someone other than the expected person signs in again (pre-filled),
  // so that a shared browser does not hand one person's account to another's link.
  if (!user || (hint !== undefined && user.email?.toLowerCase() !== hint.toLowerCase())) {
    showSignIn(emu, ex, pending, appName, action, hint === undefined ? {} : { email: hint });
    return;
  }
  pending.user_id = user.id;
  showConsent(ex, pending, appName, action, user, true);
}

function showConsent(
  ex: Exchange,
  pending: Pending,
  appName: string,
  action: string,
  user: { first_name: string; last_name?: string | null; email?: string | null },
  canSwitch: boolean,
  headers: Record<string, string> = {},
): void {
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  sendHtml(
    ex.res,
    ex.startedAt,
    200,
    consentPage({
      appName,
      action,
      fields: formFields(pending),
      userName: name,
      userEmail: user.email ?? '',
      canSwitch,
    }),
    headers,
  );
}

function formFields(pending: Pending): Record<string, string> {
  pending.csrf = newSecret(18);
  return { request_id: pending.id, csrf_token: pending.csrf };
}

function showSignIn(
  _emu: Emulator,
  ex: Exchange,
  pending: Pending,
  appName: string,
  action: string,
  extra: { email?: string; askName?: boolean; error?: string; notice?: string } = {},
  status = 200,
): void {
  sendHtml(
    ex.res,
    ex.startedAt,
    status,
    signInPage({ appName, action, fields: formFields(pending), ...extra }),
  );
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** POST /oauth/authorize and /authorize: the sign-in step, then the allow/deny decision. */
export async function consentPost(emu: Emulator, ex: Exchange): Promise<void> {
  const { params } = await parseBody(ex.req);
  const html = (status: number, page: string) => sendHtml(ex.res, ex.startedAt, status, page);
  const pending = emu.consent.find(params.request_id ?? '');
  if (!pending?.csrf || !safeEqual(pending.csrf, params.csrf_token ?? '')) {
    html(
      400,
      errorPage(
        'This page has expired',
        'The form is no longer valid. Go back to the application and start connecting again.',
      ),
    );
    return;
  }
  const app = emu.auth.apps.get(pending.client_id);
  if (!app) {
    emu.consent.delete(pending.id);
    html(400, errorPage('Unknown application', 'This application is no longer registered.'));
    return;
  }
  const action = ex.pathname;

  if (params.step === 'sign_in') {
    const email = (params.email ?? '').trim();
    if (!EMAIL.test(email)) {
      showSignIn(
        emu,
        ex,
        pending,
        app.name,
        action,
        {
          email,
          error: 'Enter a valid e-mail address.',
        },
        422,
      );
      return;
    }
    let user = emu.ledger.findUserByEmail(email);
    // Someone invited by e-mail (a placeholder account) signs up here: createUser confirms the
    // placeholder and keeps its history, so they land in the expenses they were added to.
    const invited =
      user?.registration_status === 'dummy' || user?.registration_status === 'invited';
    if (!user || invited) {
      const firstName = (params.first_name ?? '').trim();
      if (firstName === '') {
        showSignIn(emu, ex, pending, app.name, action, {
          email,
          askName: true,
          notice: invited
            ? `You were invited as ${email}. Enter your first name to finish creating your account.`
            : `No account uses ${email} yet. Enter your first name to create one.`,
        });
        return;
      }
      try {
        const lastName = (params.last_name ?? '').trim();
        user = emu.ledger.createUser({
          email,
          first_name: firstName,
          ...(lastName ? { last_name: lastName } : {}),
        });
        await emu.durable();
      } catch (error) {
        if (!(error instanceof LedgerInputError)) throw error;
        showSignIn(
          emu,
          ex,
          pending,
          app.name,
          action,
          {
            email,
            askName: true,
            error: error.message,
          },
          422,
        );
        return;
      }
    }
    pending.user_id = user.id;
    emu.consent.endSession(sessionCookie(ex));
    const session = emu.consent.startSession(user.id);
    showConsent(ex, pending, app.name, action, user, false, {
      'Set-Cookie': `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_TTL_MS / 1000}`,
    });
    return;
  }

  if (params.step === 'decide' && params.decision === 'switch') {
    // "Not you?": forget the session and sign in again, keeping the authorization in progress.
    emu.consent.endSession(sessionCookie(ex));
    delete pending.user_id;
    sendHtml(
      ex.res,
      ex.startedAt,
      200,
      signInPage({ appName: app.name, action, fields: formFields(pending) }),
      { 'Set-Cookie': `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0` },
    );
    return;
  }

  if (params.step !== 'decide' || pending.user_id === undefined) {
    html(400, errorPage('Sign in first', 'Sign in before allowing or denying access.'));
    return;
  }
  emu.consent.delete(pending.id);
  const allow = params.decision === 'allow';

  if (pending.oauth2) {
    const { redirect_uri, state, code_challenge, code_challenge_method } = pending.oauth2;
    if (!allow) {
      redirect(
        ex.res,
        ex.startedAt,
        withQuery(app.redirect_uri, { error: 'access_denied', state }),
      );
      return;
    }
    const code = emu.auth.issueCode({
      client_id: app.client_id,
      user_id: pending.user_id,
      ...(redirect_uri !== undefined ? { redirect_uri } : {}),
      ...(code_challenge !== undefined ? { code_challenge, code_challenge_method } : {}),
    });
    redirect(ex.res, ex.startedAt, withQuery(app.redirect_uri, { code, state }));
    return;
  }

  const token = emu.auth.findOAuth1Token(pending.oauth1?.request_token ?? '');
  if (token?.kind !== 'request') {
    html(400, errorPage('Link expired', 'This authorization has expired. Start again.'));
    return;
  }
  const callback = token.callback ?? 'oob';
  if (!allow) {
    emu.auth.deleteOAuth1Token(token.token);
    if (callback === 'oob')
      html(200, errorPage('Access denied', `${app.name} was not authorized.`));
    else redirect(ex.res, ex.startedAt, withQuery(callback, { denied: token.token }));
    return;
  }
  token.user_id = pending.user_id;
  token.verifier = newSecret(15);
  if (callback === 'oob') html(200, verifierPage(app.name, token.verifier));
  else {
    redirect(
      ex.res,
      ex.startedAt,
      withQuery(callback, { oauth_token: token.token, oauth_verifier: token.verifier }),
    );
  }
}
