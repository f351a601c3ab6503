// The composer's file attach in a real (headless) Chromium, against the real simulated
// workspace: the chosen file is sent with the message, kept, and shown with it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildPage } from '../../scripts/build-page.js';
import { startWorkspace, type Workspace } from '../../src/index.js';

// Chromium's path, or null: then every test here is skipped (test/support/chromium.ts).
const chromiumPath = inject('chromiumPath');

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPj/HwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

let dir: string;
let ws: Workspace;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'split-attach-'));
  await buildPage(join(dir, 'page'));
  await writeFile(join(dir, 'receipt.png'), PNG);
  ws = await startWorkspace({ pageDir: join(dir, 'page') });
  ws.addUser({ id: 'U0ANN', name: 'ann', real_name: 'Ann Example', email: 'ann@example.com' });
  browser = await chromium.launch({
    executablePath: chromiumPath!,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(4000);
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await ws?.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!chromiumPath)('the composer', () => {
  it('attaches a file to a message, which the workspace keeps and the page shows', async () => {
    await page.goto(`${ws.url}/?as=U0ANN&channel=C0001`);
    await page.getByRole('navigation').waitFor();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach a file' }).first().click();
    await (await chooser).setFiles(join(dir, 'receipt.png'));
    await page.getByText('receipt.png').first().waitFor();
    // Removing it and choosing it again: what is sent is what is shown.
    await page.getByRole('button', { name: 'Remove receipt.png' }).click();
    expect(await page.getByRole('button', { name: 'Remove receipt.png' }).count()).toBe(0);
    const again = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach a file' }).first().click();
    await (await again).setFiles(join(dir, 'receipt.png'));
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Lunch 24');
    await box.press('Enter');

    await expect.poll(() => ws.messages('C0001').at(-1)?.files?.length ?? 0).toBe(1);
    const message = ws.messages('C0001').at(-1)!;
    expect(message.text).toBe('Lunch 24');
    const served = await fetch(`${ws.url}/workspace-api/files/${message.files![0]}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    await page
      .getByRole('article')
      .filter({ hasText: 'Lunch 24' })
      .getByText('receipt.png')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Remove receipt.png' }).count()).toBe(0);
    await page.screenshot({ path: '/tmp/page-attach.png' });
  });
});
