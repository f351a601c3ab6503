/**
 * What Bolt needs to install the app into many workspaces through Slack's OAuth v2, on its
 * default paths: `GET /slack/install` shows an "Add to Slack" page whose link leads to Slack's
 * `${SLACK_WEB_URL}/oauth/v2/authorize`, and `GET /slack/oauth_redirect` exchanges the code with
 * `oauth.v2.access` at SLACK_API_URL and keeps the installation. The state is a JWT signed with
 * SLACK_STATE_SECRET and tied to the browser by a cookie, so any replica can finish an install
 * another one started.
 */
import type { InstallationStore, webApi } from '@slack/bolt';
import { INSTALL_REDIRECT_PATH } from '../../config.js';
import { installCallbacks } from './pages.js';

const INSTALL_PATH = '/slack/install';

/** The bot scopes asked for at install; manifest.yml lists the same (a test compares them). */
export const BOT_SCOPES = [
  'commands',
  'chat:write',
  'chat:write.public',
  'users:read',
  'users:read.email',
  'im:write',
  'files:read',
  'files:write',
  'app_mentions:read',
  'im:history',
  'channels:history',
  'groups:history',
  'links:read',
  'links:write',
];

interface InstallerSettings {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  /** `${PUBLIC_URL}/slack/oauth_redirect`, registered in the app's OAuth settings. */
  redirectUrl: string;
  /** Slack's browser pages, no trailing slash. */
  webUrl: string;
  installationStore: InstallationStore;
  /** For oauth.v2.access and auth.test during the install (SLACK_API_URL, retries, logger). */
  clientOptions: webApi.WebClientOptions;
}

/** Options for Bolt's App or HTTPReceiver: the install routes and the authorize built on them. */
export function installerOptions(settings: InstallerSettings) {
  return {
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    stateSecret: settings.stateSecret,
    redirectUri: settings.redirectUrl,
    scopes: BOT_SCOPES,
    installationStore: settings.installationStore,
    installerOptions: {
      installPath: INSTALL_PATH,
      redirectUriPath: INSTALL_REDIRECT_PATH,
      directInstall: false,
      stateVerification: true,
      authorizationUrl: `${settings.webUrl}/oauth/v2/authorize`,
      // Where Slack sends the browser back: our pages, in the browser's language.
      callbackOptions: installCallbacks(INSTALL_PATH),
      // No retry: a code is spent by its first exchange.
      clientOptions: { ...settings.clientOptions, retryConfig: { retries: 0 } },
    },
  };
}
