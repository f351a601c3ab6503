// Every page the workspace serves has an icon that loads: the sandbox page and the
// server-rendered sign-in and install pages link to it, and /favicon.ico, which browsers ask for
// on their own, answers it too.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildPage } from '../../scripts/build-page.js';
import {
  AUTHORIZE_PATH,
  INSTALL_AUTHORIZE_PATH,
  type OidcClient,
  startWorkspace,
  type Workspace,
} from '../../src/index.js';
import { CHROMIUM_ARGS } from './stub.js';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

const REDIRECT = 'http://app.test/callback';
let dir: string;
let ws: Workspace;
let client: OidcClient;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-favicon-'));
  await buildPage(join(dir, 'page'));
  ws = await startWorkspace({ pageDir: join(dir, 'page') });
  ws.addUser({ id: 'U0ANN', name: 'ann', real_name: 'Ann Example', email: 'ann@example.com' });
  client = ws.addOidcClient({ redirectUris: [REDIRECT], name: 'Split' });
  browser = await chromium.launch({ executablePath: chromiumPath!, args: CHROMIUM_ARGS });
  page = await browser.newPage();
  page.setDefaultTimeout(4000);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await ws?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The page's icon link, fetched from within the page, and what came back. */
async function pageIcon(): Promise<unknown> {
  return page.evaluate(async () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel~="icon"]');
    if (!link) return 'no icon link';
    const response = await fetch(link.href);
    const text = await response.text();
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      path: new URL(link.href).pathname,
      status: response.status,
      type: response.headers.get('content-type'),
      svg: svg.documentElement.nodeName === 'svg' && !svg.querySelector('parsererror'),
    };
  });
}

const ICON = { path: '/favicon.svg', status: 200, type: 'image/svg+xml', svg: true };

describe.skipIf(!chromiumPath)('the icon', () => {
  it('is linked from the sandbox page and from the sign-in and install pages, and loads', async () => {
    await page.goto(`${ws.url}/`);
    await page.getByRole('navigation').waitFor();
    expect(await pageIcon()).toEqual(ICON);

    const signIn = new URLSearchParams({
      response_type: 'code',
      scope: 'openid',
      client_id: client.clientId,
      redirect_uri: REDIRECT,
      state: 's',
      nonce: 'n',
    });
    await page.goto(`${ws.url}${AUTHORIZE_PATH}?${signIn}`);
    await page.getByRole('heading').first().waitFor();
    expect(await pageIcon()).toEqual(ICON);

    const install = new URLSearchParams({
      client_id: client.clientId,
      scope: 'commands',
      redirect_uri: REDIRECT,
      state: 's',
    });
    await page.goto(`${ws.url}${INSTALL_AUTHORIZE_PATH}?${install}`);
    await page.getByRole('heading').first().waitFor();
    expect(await pageIcon()).toEqual(ICON);
  });

  it('answers at /favicon.ico, where browsers look when a page links none', async () => {
    const response = await fetch(`${ws.url}/favicon.ico`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(await response.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });
});
