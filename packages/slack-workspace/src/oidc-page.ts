/**
 * Slack's browser side of Sign in with Slack: `/openid/connect/authorize` shows who is signed in
 * to the workspace in this browser and asks them to Continue (back to the app with a one-time
 * code) or Cancel (back with error=access_denied); `/openid/connect/keys` serves the key set the
 * id_tokens are signed with. A browser nobody is signed in to is first asked which person it is.
 *
 * A request whose app or redirect URL is unknown gets an error page and is never sent anywhere:
 * only a registered redirect URL may receive a code.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FAVICON_LINK } from './favicon.js';
import { readBody, send } from './http-util.js';
import { type Oidc, type OidcClient, sessionCookie } from './oidc.js';
import { type PageWords, pageWords } from './page/words.js';
import { people } from './page-state.js';
import { signInRefusal } from './same-origin.js';
import type { WorkspaceState } from './state.js';

export const AUTHORIZE_PATH = '/openid/connect/authorize';
export const KEYS_PATH = '/openid/connect/keys';

/** The authorize request's own parameters, carried through the page's forms unchanged. */
const PARAMS = ['response_type', 'scope', 'client_id', 'redirect_uri', 'state', 'nonce', 'team'];

/** Longest Accept-Language header read: browsers send a few dozen characters. */
const ACCEPT_LANGUAGE_MAX = 256;

/** The browser's first language (`de-DE,de;q=0.9` -> `de-DE`), or undefined. */
export function browserLanguage(header: string | undefined): string | undefined {
  const first = (header ?? '').slice(0, ACCEPT_LANGUAGE_MAX).split(',')[0]?.split(';')[0]?.trim();
  return first === '' ? undefined : first;
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The sign-in and install pages' style sheet, served as a file: the pages' CSP allows no inline style. */
export const PAGES_CSS_PATH = '/pages.css';

export const PAGES_CSS = `body { font: 15px/1.5 system-ui, sans-serif; margin: 0; background: #f4ede4; color: #1d1c1d; }
main { max-width: 30rem; margin: 10vh auto; background: #fff; padding: 2rem 2.5rem;
       border-radius: 10px; box-shadow: 0 1px 4px rgba(0,0,0,.1); }
h1 { font-size: 1.35rem; margin-top: 0; }
.who { background: #f8f8f8; border-radius: 6px; padding: .75rem 1rem; }
.buttons { display: flex; gap: .75rem; margin-top: 1.5rem; }
button { font: inherit; padding: .5rem 1.25rem; border-radius: 6px; cursor: pointer;
         border: 1px solid #bbb; background: #fff; }
button.primary { background: #007a5a; border-color: #007a5a; color: #fff; font-weight: 600; }
select { font: inherit; padding: .35rem; }
`;

export function html(title: string, body: string, lang = 'en'): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Slack</title>
  ${FAVICON_LINK}
  <link rel="stylesheet" href="${PAGES_CSS_PATH}">
</head>
<body>
  <main>
    <h1>${escapeHtml(title)}</h1>
    ${body}
  </main>
</body>
</html>
`;
}

/** The request's parameters among `names`, carried from the page's form to its POST. */
export function hiddenInputs(names: readonly string[], params: URLSearchParams): string {
  return names
    .filter((name) => params.has(name))
    .map(
      (name) =>
        `<input type="hidden" name="${name}" value="${escapeHtml(params.get(name) ?? '')}">`,
    )
    .join('');
}

/**
 * "Who are you?": the page shown when nobody is signed in to Slack in this browser, a choice of
 * people posted back to `action` with the request's parameters.
 */
export function chooserPage(input: {
  title: string;
  /** Already escaped. */
  intro: string;
  action: string;
  hidden: string;
  people: ReadonlyArray<{ id: string; label: string }>;
  /** The page's own words; English unless the browser asks for another language. */
  words?: PageWords;
}): string {
  const words = input.words ?? pageWords('en');
  const options = input.people
    .map((p) => `<option value="${escapeHtml(p.id)}">${escapeHtml(p.label)}</option>`)
    .join('');
  return html(
    input.title,
    `<p>${input.intro}</p>
    <form method="post" action="${input.action}">${input.hidden}
      <label for="sign_in_as">${escapeHtml(words.whoAreYou)}</label>
      <select id="sign_in_as" name="sign_in_as">${options}</select>
      <div class="buttons"><button class="primary" type="submit">${escapeHtml(words.signIn)}</button></div>
    </form>`,
    words.lang,
  );
}

/** A link that cannot be honoured: a 400 page saying why, and no redirect anywhere. */
export function invalidLinkPage(
  res: ServerResponse,
  title: string,
  error: string,
  explanation: string,
): void {
  send(res, 400, html(title, `<p>${escapeHtml(explanation)}</p><p>(${error})</p>`), {
    'cache-control': 'no-store',
  });
}

const hidden = (params: URLSearchParams) => hiddenInputs(PARAMS, params);
const errorPage = (res: ServerResponse, error: string, explanation: string) =>
  invalidLinkPage(res, 'This sign-in link is not valid', error, explanation);

export function redirect(
  res: ServerResponse,
  to: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(303, { location: to, 'cache-control': 'no-store', ...headers });
  res.end();
}

export function backToApp(
  res: ServerResponse,
  redirectUri: string,
  answer: Record<string, string>,
) {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(answer)) url.searchParams.set(name, value);
  res.writeHead(302, { location: url.toString(), 'cache-control': 'no-store' });
  res.end();
}

export function createOidcPage(state: WorkspaceState, oidc: Oidc) {
  /** The registered client and redirect URL, or an error page already sent. */
  function checkClient(params: URLSearchParams, res: ServerResponse): OidcClient | undefined {
    const client = oidc.clients.get(params.get('client_id') ?? '');
    if (!client) {
      errorPage(res, 'invalid_client_id', 'No app with this client id is installed here.');
      return undefined;
    }
    if (!client.redirectUris.includes(params.get('redirect_uri') ?? '')) {
      errorPage(res, 'bad_redirect_uri', "The redirect URL is not one of the app's redirect URLs.");
      return undefined;
    }
    return client;
  }

  /** Errors OpenID Connect sends back to the app rather than showing here. */
  function requestError(params: URLSearchParams): string | undefined {
    if (params.get('response_type') !== 'code') return 'unsupported_response_type';
    const scopes = (params.get('scope') ?? '').split(/[\s,]+/);
    if (!scopes.includes('openid')) return 'invalid_scope';
    return undefined;
  }

  function chooser(
    req: IncomingMessage,
    res: ServerResponse,
    params: URLSearchParams,
    client: OidcClient,
  ): void {
    // Nobody is signed in: the page is in the browser's language, as Slack's signed-out pages are.
    const words = pageWords(browserLanguage(req.headers['accept-language']));
    const page = chooserPage({
      title: words.signInTo(state.defaultTeam()?.name ?? 'Slack'),
      intro: escapeHtml(words.wantsToKnow(client.name)),
      words,
      action: AUTHORIZE_PATH,
      hidden: hidden(params),
      people: people(state).map((u) => ({
        id: u.id,
        label: `${u.real_name} (${u.email ?? u.name})`,
      })),
    });
    send(res, 200, page, { 'cache-control': 'no-store' });
  }

  function consent(
    res: ServerResponse,
    params: URLSearchParams,
    client: OidcClient,
    who: {
      user: {
        real_name: string;
        email: string | undefined;
        team_id: string;
        locale?: string | undefined;
      };
      formToken: string;
    },
  ): void {
    const team = state.teams.get(who.user.team_id);
    // Signed in: the page is in the language the person chose in the workspace.
    const words = pageWords(who.user.locale);
    const form = (decision: string, label: string, primary: boolean) =>
      `<form method="post" action="${AUTHORIZE_PATH}">${hidden(params)}
        <input type="hidden" name="form_token" value="${escapeHtml(who.formToken)}">
        <button${primary ? ' class="primary"' : ''} type="submit" name="decision" value="${decision}">${label}</button>
      </form>`;
    send(
      res,
      200,
      html(
        words.signInTo(client.name),
        `<p>${escapeHtml(words.wantsToConfirm(client.name, team?.name ?? 'Slack'))}</p>
    <p class="who">${escapeHtml(words.signedInAs)} <strong>${escapeHtml(who.user.real_name)}</strong>${who.user.email ? ` (${escapeHtml(who.user.email)})` : ''}</p>
    <p>${escapeHtml(words.willSee)}</p>
    <div class="buttons">${form('allow', escapeHtml(words.continue), true)}${form('deny', escapeHtml(words.cancel), false)}</div>
    <p><small>${escapeHtml(words.notYou)}</small></p>`,
        words.lang,
      ),
      { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    );
  }

  async function authorize(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const params =
      req.method === 'POST' ? new URLSearchParams(await readBody(req, 100_000)) : url.searchParams;
    const client = checkClient(params, res);
    if (!client) return;
    const redirectUri = params.get('redirect_uri') as string;
    const appState = params.get('state');
    const withState = (answer: Record<string, string>) =>
      appState === null ? answer : { ...answer, state: appState };
    const invalid = requestError(params);
    if (invalid) return backToApp(res, redirectUri, withState({ error: invalid }));

    const again = () => {
      const query = new URLSearchParams();
      for (const name of PARAMS) {
        const value = params.get(name);
        if (value !== null) query.set(name, value);
      }
      return `${AUTHORIZE_PATH}?${query}`;
    };
    const signInAs = params.get('sign_in_as');
    if (req.method === 'POST' && signInAs !== null) {
      // Only the chooser on this origin signs the browser in; anything else sees it again.
      if (signInRefusal(req) || !people(state).some((u) => u.id === signInAs))
        return chooser(req, res, params, client);
      return redirect(res, again(), { 'set-cookie': sessionCookie(oidc.signIn(signInAs)) });
    }
    const session = oidc.session(req.headers.cookie);
    if (!session) return chooser(req, res, params, client);
    if (req.method !== 'POST') return consent(res, params, client, session);

    // A press without this session's form token came from somewhere else: show the page again.
    if (params.get('form_token') !== session.formToken) return redirect(res, again());
    if (params.get('decision') !== 'allow') {
      return backToApp(res, redirectUri, withState({ error: 'access_denied' }));
    }
    const code = oidc.issueCode({
      clientId: client.clientId,
      redirectUri,
      userId: session.user.id,
      teamId: session.user.team_id,
      nonce: params.get('nonce') ?? undefined,
    });
    backToApp(res, redirectUri, withState({ code }));
  }

  /** Handles the two paths; false for anything else. */
  return (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> | boolean => {
    if (url.pathname === KEYS_PATH && req.method === 'GET') {
      send(res, 200, oidc.jwks());
      return true;
    }
    if (url.pathname === AUTHORIZE_PATH && (req.method === 'GET' || req.method === 'POST')) {
      return authorize(req, res, url).then(() => true);
    }
    return false;
  };
}
