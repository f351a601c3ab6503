/**
 * The emulator, the simulated Slack with more than one team, and the app installed into many
 * workspaces (SLACK_STATE_SECRET, no bot token), all on loopback; and a browser-less walk through
 * an install: the app's Add to Slack page, Slack's install page, back to the app.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningEmulator, startEmulator } from '@split/service-emulator';
import { control, createUser } from '@split/service-emulator/testing';
import { readManifest, startWorkspace, type Workspace } from '@split/slack-workspace';
import { type RunningApp, startApp } from '../../../src/compose.js';
import { loadConfig } from '../../../src/config.js';
import { quietLogger } from '../../support/harness.js';

export const SIGNING_SECRET = 'install-signing-secret-0123456789';
export const STATE_SECRET = 'install-state-secret-0123456789abcdef';
export const PUBLIC_URL = 'http://split.test';

export interface World {
  emu: RunningEmulator;
  ws: Workspace;
  app: RunningApp;
  logger: ReturnType<typeof quietLogger>;
  /** The app's clock: tests move it together with the workspace's. */
  advance(ms: number): void;
  local(url: string): string;
  /** Links a Slack person to a fresh service account (the emulator's token shortcut). */
  link(team_id: string, user_id: string, first_name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startWorld(
  options: { tokenRotation?: boolean; storeUrl?: string } = {},
): Promise<World> {
  const emu = await startEmulator();
  const manifest = readManifest(
    readFileSync(new URL('../../../../../manifest.yml', import.meta.url), 'utf8'),
  );
  const ws = await startWorkspace({ app: manifest });
  const dir = await mkdtemp(join(tmpdir(), 'split-install-'));
  const service = (
    await control(emu.url, 'POST', 'apps', {
      redirect_uri: `${PUBLIC_URL}/oauth/callback`,
      name: 'Split for Slack',
    })
  ).body as { client_id: string; client_secret: string };
  const client = ws.addOidcClient({
    redirectUris: [`${PUBLIC_URL}/slack/oauth_redirect`, `${PUBLIC_URL}/oauth/slack/callback`],
    name: 'Split',
    orgDeploy: true,
    ...(options.tokenRotation ? { tokenRotation: true } : {}),
  });
  const config = loadConfig({
    SLACK_STATE_SECRET: STATE_SECRET,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: ws.apiUrl,
    SLACK_WEB_URL: ws.origin,
    SLACK_CLIENT_ID: client.clientId,
    SLACK_CLIENT_SECRET: client.clientSecret,
    SERVICE_API_URL: `${emu.url}/api/v3.0`,
    SERVICE_AUTHORIZE_URL: `${emu.url}/oauth/authorize`,
    SERVICE_TOKEN_URL: `${emu.url}/oauth/token`,
    SERVICE_CLIENT_ID: service.client_id,
    SERVICE_CLIENT_SECRET: service.client_secret,
    PUBLIC_URL,
    PORT: '0',
    STORE_URL: options.storeUrl ?? `sqlite://${join(dir, 'app.sqlite')}`,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'error',
  });
  let offset = 0;
  const logger = quietLogger();
  const app = await startApp({
    config,
    logger,
    slackRetries: 0,
    serviceRetries: 0,
    reconcileDelayMs: 0,
    serviceSettleMs: 1_500,
    now: () => new Date(Date.now() + offset),
    digest: { scheduler: false },
  });
  ws.connectApp({ appUrl: `${app.url}/slack/events`, signingSecret: SIGNING_SECRET });
  return {
    emu,
    ws,
    app,
    logger,
    advance(ms) {
      offset += ms;
      ws.advance(ms);
    },
    local: (url) => url.replace(PUBLIC_URL, app.url),
    async link(team_id, user_id, first_name) {
      const email = `${first_name.toLowerCase()}.${randomBytes(3).toString('hex')}@example.com`;
      const created = await createUser(emu.url, { email, first_name });
      const token = (
        await control(emu.url, 'POST', 'tokens', {
          user_id: created.user.id,
          client_id: service.client_id,
        })
      ).body as { access_token: string };
      await app.deps.tokens.set(
        { team_id, user_id },
        {
          access_token: token.access_token,
          token_type: 'bearer',
          service_user_id: created.user.id,
          name: first_name,
          linked_at: new Date().toISOString(),
        },
      );
    },
    async close() {
      await app.stop();
      await Promise.allSettled([emu.close(), ws.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface InstallWalk {
  /** The app's Add to Slack page. */
  installPage: { status: number; body: string };
  /** Slack's install page the link led to. */
  authorizeUrl: URL;
  consentPage: string;
  /** Where Slack sent the browser back (the app's redirect URL, with code or error). */
  returned: URL;
  /** The app's answer there. */
  done: { status: number; body: string };
}

/**
 * A browser installs the app: opens /slack/install (keeping the app's state cookie), follows the
 * Add to Slack link to Slack's install page signed in as `as`, presses Allow or Cancel (choosing
 * the whole org when `org`), and follows Slack's redirect back to the app with the cookie.
 */
export async function install(
  w: World,
  as: string,
  options: {
    decision?: 'allow' | 'deny';
    org?: boolean;
    /** The browser's Accept-Language. */
    language?: string;
  } = {},
): Promise<InstallWalk> {
  const start = await fetch(`${w.app.url}/slack/install`);
  const installBody = await start.text();
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const href = /href="([^"]+oauth\/v2\/authorize[^"]*)"/.exec(installBody)?.[1];
  if (!href) throw new Error(`no Add to Slack link on the install page: ${installBody}`);
  const authorizeUrl = new URL(href.replace(/&amp;/g, '&'));
  const session = w.ws.signInBrowser(as);
  const consent = await fetch(authorizeUrl, { headers: { cookie: session } });
  const consentPage = await consent.text();
  if (consent.status !== 200) throw new Error(`install page ${consent.status}: ${consentPage}`);
  const fields = new URLSearchParams();
  for (const m of consentPage.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields.set(m[1]!, m[2]!.replace(/&amp;/g, '&'));
  }
  fields.set('decision', options.decision ?? 'allow');
  if (options.org) fields.set('install_on', 'org');
  const decided = await fetch(authorizeUrl.origin + authorizeUrl.pathname, {
    method: 'POST',
    headers: { cookie: session, 'content-type': 'application/x-www-form-urlencoded' },
    body: fields.toString(),
    redirect: 'manual',
  });
  const location = decided.headers.get('location');
  if (decided.status !== 302 || !location)
    throw new Error(`install page answered ${decided.status}`);
  const returned = new URL(location);
  const back = await fetch(w.local(location), {
    headers: { cookie, ...(options.language ? { 'accept-language': options.language } : {}) },
    redirect: 'manual',
  });
  return {
    installPage: { status: start.status, body: installBody },
    authorizeUrl,
    consentPage,
    returned,
    done: { status: back.status, body: await back.text() },
  };
}
