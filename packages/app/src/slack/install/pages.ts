/**
 * The pages at the end of an install, in the language of the browser that installed the app (its
 * Accept-Language; nobody's Slack locale is known to the app yet), else English: where Slack
 * sends the browser back, Bolt's callback answers with one of these.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Installation } from '@slack/bolt';
import { browserLocale, htmlPage, type Page } from '../../accounts/pages.js';
import { type Voice, voiceFor } from '../../voice/index.js';

/** Where the browser goes back to Slack once installed, as Slack's own flow does. */
function slackLinks(installation: Installation): {
  app: string;
  browser: string | undefined;
} {
  if (installation.isEnterpriseInstall && installation.enterpriseUrl && installation.appId) {
    const url = `${installation.enterpriseUrl}manage/organization/apps/profile/${installation.appId}/workspaces/add`;
    return { app: url, browser: undefined };
  }
  const team = installation.team?.id;
  if (!team) return { app: 'slack://open', browser: undefined };
  return {
    app: installation.appId
      ? `slack://app?team=${encodeURIComponent(team)}&id=${encodeURIComponent(installation.appId)}`
      : 'slack://open',
    browser: `https://app.slack.com/client/${encodeURIComponent(team)}`,
  };
}

export function installedPage(voice: Voice, installation: Installation): Page {
  const links = slackLinks(installation);
  return htmlPage(
    voice,
    200,
    voice.t('install.installed_title'),
    [voice.t('install.installed_text')],
    true,
    {
      refresh: links.app,
      links: [
        { href: links.app, text: voice.t('install.open_slack') },
        ...(links.browser ? [{ href: links.browser, text: voice.t('install.open_browser') }] : []),
      ],
    },
  );
}

/** What Bolt's installer says failed: one of its codes, and a message for the log. */
interface InstallError {
  code: string;
  message: string;
}

/** Bolt's codes for a callback that was not Slack's answer to an install begun here. */
const BAD_REQUEST = new Set([
  'slack_oauth_missing_state',
  'slack_oauth_invalid_state',
  'slack_oauth_missing_code',
]);

export function installFailedPage(voice: Voice, error: InstallError, installPath: string): Page {
  // Slack sends `error=access_denied` back when the person pressed Cancel; Bolt tells it so.
  const cancelled =
    error.code === 'slack_oauth_installer_authorization_error' && /cancel/i.test(error.message);
  return htmlPage(
    voice,
    BAD_REQUEST.has(error.code) ? 400 : cancelled ? 200 : 500,
    voice.t('install.failed_title'),
    [
      cancelled
        ? voice.t('install.cancelled')
        : voice.t('install.failed_text', { code: String(error.code) }),
    ],
    false,
    { links: [{ href: installPath, text: voice.t('install.try_again') }] },
  );
}

function send(res: ServerResponse, page: Page): void {
  if (res.headersSent) return;
  res.writeHead(page.status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  });
  res.end(page.html);
}

const browserVoice = (req: IncomingMessage) =>
  voiceFor({ locale: browserLocale(req.headers['accept-language']) });

/** Bolt's callbackOptions: the end of an install, told in the browser's language. */
export function installCallbacks(installPath: string) {
  return {
    successAsync: async (
      installation: Installation,
      _options: unknown,
      req: IncomingMessage,
      res: ServerResponse,
    ) => send(res, installedPage(await browserVoice(req), installation)),
    failureAsync: async (
      error: InstallError,
      _options: unknown,
      req: IncomingMessage,
      res: ServerResponse,
    ) => send(res, installFailedPage(await browserVoice(req), error, installPath)),
  };
}
