/**
 * Slack's install page, `/oauth/v2/authorize`: the person signed in to the workspace in this
 * browser sees which app asks for which permissions in their workspace, and allows it (back to
 * the app's redirect URL with a one-time code and the app's state) or cancels (back with
 * error=access_denied). An app allowed on Enterprise Grid orgs may be installed on the person's
 * whole org. A browser nobody is signed in to is first asked which person it is.
 *
 * An unknown app, an unregistered redirect URL or unknown scopes get an error page and the
 * browser is sent nowhere: only a registered redirect URL may receive a code.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, send } from './http-util.js';
import type { Installs } from './install.js';
import { type Oidc, type OidcClient, sessionCookie } from './oidc.js';
import {
  backToApp,
  chooserPage,
  escapeHtml,
  hiddenInputs,
  html,
  invalidLinkPage,
  redirect,
} from './oidc-page.js';
import { people } from './page-state.js';
import { signInRefusal } from './same-origin.js';
import type { WorkspaceState } from './state.js';
import type { User } from './types.js';

export const INSTALL_AUTHORIZE_PATH = '/oauth/v2/authorize';

/** The scopes this workspace knows, with what Slack's install page says of each. */
export const KNOWN_SCOPES = new Map<string, string>([
  ['commands', 'Add shortcuts and/or slash commands that people can use'],
  ['chat:write', 'Send messages as the app'],
  ['chat:write.public', "Send messages to channels the app isn't a member of"],
  ['users:read', 'View people in a workspace'],
  ['users:read.email', 'View email addresses of people in a workspace'],
  ['im:write', 'Start direct messages with people'],
  ['files:read', 'View files shared in channels and conversations that the app has been added to'],
  ['files:write', 'Upload, edit, and delete files as the app'],
  ['team:read', 'View the name, email domain, and icon for workspaces the app is connected to'],
  [
    'app_mentions:read',
    'View messages that directly mention the app in conversations that the app is in',
  ],
  [
    'channels:history',
    'View messages and other content in public channels that the app has been added to',
  ],
  [
    'groups:history',
    'View messages and other content in private channels that the app has been added to',
  ],
  [
    'im:history',
    'View messages and other content in direct messages that the app has been added to',
  ],
  ['links:read', 'View URLs in messages'],
  ['links:write', 'Show previews of URLs in messages'],
]);

const PARAMS = ['client_id', 'scope', 'user_scope', 'redirect_uri', 'state', 'team'];

const hidden = (params: URLSearchParams) => hiddenInputs(PARAMS, params);
const errorPage = (res: ServerResponse, error: string, explanation: string) =>
  invalidLinkPage(res, 'This install link is not valid', error, explanation);

const scopeList = (value: string | null) =>
  (value ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');

export function createInstallPage(state: WorkspaceState, oidc: Oidc, installs: Installs) {
  /** The client, its redirect URL and the scopes asked for; else an error page already sent. */
  function check(params: URLSearchParams, res: ServerResponse) {
    const client = oidc.clients.get(params.get('client_id') ?? '');
    if (!client) {
      errorPage(res, 'invalid_client_id', 'No app with this client id exists here.');
      return undefined;
    }
    const given = params.get('redirect_uri');
    if (given !== null && !client.redirectUris.includes(given)) {
      errorPage(res, 'bad_redirect_uri', "The redirect URL is not one of the app's redirect URLs.");
      return undefined;
    }
    const redirectUri = given ?? client.redirectUris[0];
    if (redirectUri === undefined) {
      errorPage(res, 'bad_redirect_uri', 'The app has no redirect URL to send you back to.');
      return undefined;
    }
    const scopes = scopeList(params.get('scope'));
    if (scopes.length === 0 && scopeList(params.get('user_scope')).length === 0) {
      errorPage(res, 'invalid_scope', 'The app asked for no permissions at all.');
      return undefined;
    }
    const unknown = scopes.filter((s) => !KNOWN_SCOPES.has(s));
    if (unknown.length > 0) {
      errorPage(res, 'invalid_scope', `Unknown permissions: ${unknown.join(', ')}.`);
      return undefined;
    }
    return { client, redirectUri, given: given ?? undefined, scopes };
  }

  function chooser(res: ServerResponse, params: URLSearchParams, client: OidcClient): void {
    const page = chooserPage({
      title: 'Sign in to Slack',
      intro: `${escapeHtml(client.name)} asks to be installed, and nobody is signed in to Slack in this browser.`,
      action: INSTALL_AUTHORIZE_PATH,
      hidden: hidden(params),
      people: people(state, true).map((u) => ({
        id: u.id,
        label: `${u.real_name} (${state.teams.get(u.team_id)?.name ?? u.team_id})`,
      })),
    });
    send(res, 200, page, { 'cache-control': 'no-store' });
  }

  function consent(
    res: ServerResponse,
    params: URLSearchParams,
    checked: { client: OidcClient; scopes: string[] },
    who: { user: User; formToken: string },
  ): void {
    const team = state.teams.get(who.user.team_id);
    const org = team?.enterprise_id;
    const orgChoice =
      checked.client.orgDeploy && org
        ? `<p><label for="install_on">Install on</label>
      <select id="install_on" name="install_on">
        <option value="team">${escapeHtml(team?.name ?? '')} only</option>
        <option value="org">the whole ${escapeHtml(state.enterprises.get(org) ?? org)} org</option>
      </select></p>`
        : '';
    const scopes = checked.scopes
      .map(
        (s) => `<li>${escapeHtml(KNOWN_SCOPES.get(s) ?? s)} <small>(${escapeHtml(s)})</small></li>`,
      )
      .join('');
    const button = (decision: string, label: string, primary: boolean) =>
      `<button${primary ? ' class="primary"' : ''} type="submit" name="decision" value="${decision}">${label}</button>`;
    send(
      res,
      200,
      html(
        `${checked.client.name} is requesting permission to access the ${team?.name ?? 'Slack'} Slack workspace`,
        `<p class="who">Signed in as <strong>${escapeHtml(who.user.real_name)}</strong> in ${escapeHtml(team?.name ?? '')}</p>
    <p>What will ${escapeHtml(checked.client.name)} be able to do?</p>
    <ul>${scopes}</ul>
    <form method="post" action="${INSTALL_AUTHORIZE_PATH}">${hidden(params)}
      <input type="hidden" name="form_token" value="${escapeHtml(who.formToken)}">
      ${orgChoice}
      <div class="buttons">${button('allow', 'Allow', true)}${button('deny', 'Cancel', false)}</div>
    </form>`,
      ),
      { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
    );
  }

  async function authorize(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const params =
      req.method === 'POST' ? new URLSearchParams(await readBody(req, 100_000)) : url.searchParams;
    const checked = check(params, res);
    if (!checked) return;
    const appState = params.get('state');
    const withState = (answer: Record<string, string>) =>
      appState === null ? answer : { ...answer, state: appState };
    const again = () => {
      const query = new URLSearchParams();
      for (const name of PARAMS) {
        const value = params.get(name);
        if (value !== null) query.set(name, value);
      }
      return `${INSTALL_AUTHORIZE_PATH}?${query}`;
    };
    const signInAs = params.get('sign_in_as');
    if (req.method === 'POST' && signInAs !== null) {
      // Only the chooser on this origin signs the browser in; anything else sees it again.
      if (signInRefusal(req) || !people(state, true).some((u) => u.id === signInAs))
        return chooser(res, params, checked.client);
      return redirect(res, again(), { 'set-cookie': sessionCookie(oidc.signIn(signInAs)) });
    }
    const session = oidc.session(req.headers.cookie);
    if (!session) return chooser(res, params, checked.client);
    if (req.method !== 'POST') return consent(res, params, checked, session);
    // A press without this session's form token came from somewhere else: show the page again.
    if (params.get('form_token') !== session.formToken) return redirect(res, again());
    if (params.get('decision') !== 'allow') {
      return backToApp(res, checked.redirectUri, withState({ error: 'access_denied' }));
    }
    const team = state.teams.get(session.user.team_id);
    const org =
      params.get('install_on') === 'org' &&
      checked.client.orgDeploy === true &&
      team?.enterprise_id !== undefined;
    const code = installs.issueCode({
      clientId: checked.client.clientId,
      redirectUri: checked.given,
      teamId: session.user.team_id,
      userId: session.user.id,
      scopes: checked.scopes,
      org,
    });
    backToApp(res, checked.redirectUri, withState({ code }));
  }

  return (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> | boolean => {
    if (url.pathname === INSTALL_AUTHORIZE_PATH && (req.method === 'GET' || req.method === 'POST'))
      return authorize(req, res, url).then(() => true);
    return false;
  };
}
