// The workspace's HTML pages (the page, sign-in, install) under their Content-Security-Policy in a
// real (headless) Chromium: the policy is sent, and everything each page needs still loads, with
// no violation reported.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildPage } from '../scripts/build-page.js';
import {
  AUTHORIZE_PATH,
  INSTALL_AUTHORIZE_PATH,
  type OidcClient,
  startWorkspace,
  type Workspace,
} from '../src/index.js';
import { PEOPLE } from './support.js';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

const REDIRECT = 'http://127.0.0.1:9/oauth/callback';

let dir: string;
let ws: Workspace;
let client: OidcClient;
let browser: Browser;
let page: Page;
const violations: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-csp-'));
  await buildPage(join(dir, 'page'));
  ws = await startWorkspace({ pageDir: join(dir, 'page') });
  for (const person of PEOPLE) ws.addUser(person);
  client = ws.addOidcClient({ redirectUris: [REDIRECT], name: 'Split' });
  browser = await chromium.launch({
    executablePath: chromiumPath!,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(4000);
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await ws?.close();
  await rm(dir, { recursive: true, force: true });
});

// Page functions are given as text: the tests are compiled without the DOM's types.
const background = () => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');

describe.skipIf(!chromiumPath)('the Content-Security-Policy', () => {
  it('is sent with the page, which still loads, talks to the workspace and renders', async () => {
    violations.length = 0;
    const response = await page.goto(`${ws.url}/?as=U0ANN&channel=C0001`);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.getByRole('navigation').waitFor();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Lunch with *Bob*');
    await box.press('Enter');
    await expect.poll(() => ws.messages('C0001').at(-1)?.text).toBe('Lunch with *Bob*');
    await page.getByRole('article').filter({ hasText: 'Lunch with' }).waitFor();
    expect(violations).toEqual([]);
  });

  it('is sent with the sign-in and install pages, whose style sheet still applies', async () => {
    const sign = new URLSearchParams({
      response_type: 'code',
      scope: 'openid',
      client_id: client.clientId,
      redirect_uri: REDIRECT,
    });
    const install = new URLSearchParams({
      client_id: client.clientId,
      scope: 'commands,chat:write',
      redirect_uri: REDIRECT,
    });
    for (const url of [`${AUTHORIZE_PATH}?${sign}`, `${INSTALL_AUTHORIZE_PATH}?${install}`]) {
      violations.length = 0;
      const response = await page.goto(`${ws.url}${url}`);
      expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await background()).toBe('rgb(244, 237, 228)');
      expect(violations).toEqual([]);
    }
  });

  it('blocks inline script in a page the workspace serves', async () => {
    violations.length = 0;
    await page.goto(`${ws.url}${AUTHORIZE_PATH}?client_id=nobody`);
    const ran = await page.evaluate<string>(`(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.ran = "yes"';
      document.body.append(script);
      return document.body.dataset.ran ?? 'no';
    })()`);
    expect(ran).toBe('no');
    expect(violations.join('\n')).toMatch(/inline script/i);
  });
});
