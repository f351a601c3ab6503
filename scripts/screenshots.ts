// `npm run screenshots`: starts a fresh sandbox, walks the main flows in headless Chromium the way
// a person would, and writes the README's pictures into docs/images/ (1280x800 each).
// Chromium is Debian's (/usr/bin/chromium) unless CHROMIUM_PATH names another one; the page shows
// Slack's emoji as Unicode, so the machine needs a colour emoji font (Debian:
// fonts-noto-color-emoji) or the pictures show empty boxes.
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import {
  actAs,
  lastMessage,
  messages,
  open,
  PEOPLE,
  replyInThread,
  send,
  startFlows,
  waitUntil,
} from '../packages/sandbox/test/harness.js';
import {
  createWorkflow,
  endedRun,
  startWorkflow,
} from '../packages/sandbox/test/workflow-steps.js';

const outDir = resolve(import.meta.dirname, '..', 'docs', 'images');

async function shoot(page: Page, name: string): Promise<void> {
  // Let the last render and any scroll-to-bottom settle before the picture.
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(outDir, name), animations: 'disabled', caret: 'hide' });
  console.log(`wrote docs/images/${name}`);
}

/**
 * Connects `person`'s demo account: `/split connect` in a channel no picture shows (so that the
 * pictures carry no stale prompt), the prompt's button (`button`, in their language), the
 * emulator's sign-in and consent; `consent` takes the consent page's picture.
 */
async function connect(
  flows: Awaited<ReturnType<typeof startFlows>>,
  person: keyof typeof PEOPLE,
  button: RegExp,
  consent: boolean,
): Promise<void> {
  const { page, context } = flows;
  await open(page, '#lisbon-trip');
  await send(page, '/split connect');
  const opened = context.waitForEvent('page');
  await lastMessage(page, /Only visible to you|Nur für dich sichtbar/)
    .getByRole('button', { name: button })
    .click();
  const popup = await opened;
  await popup.setViewportSize({ width: 1280, height: 800 });
  // The workspace's sign-in page speaks the person's language; the emulator's pages, English.
  await popup.getByText(/Signed in as|Angemeldet als/).waitFor();
  await popup.getByRole('button', { name: /^(?:Continue|Weiter)$/ }).click();
  const field = popup.getByLabel('E-mail address');
  if ((await field.inputValue()) !== PEOPLE[person]) await field.fill(PEOPLE[person]);
  await popup.getByRole('button', { name: 'Continue' }).click();
  await popup.getByRole('button', { name: 'Allow' }).waitFor();
  if (consent) await shoot(popup, 'consent.png');
  await popup.getByRole('button', { name: 'Allow' }).click();
  await popup.getByRole('heading', { name: /Connected as|Verbunden als/ }).waitFor();
  await popup.close();
}

async function main() {
  await mkdir(outDir, { recursive: true });
  const flows = await startFlows(process.env.CHROMIUM_PATH);
  const { page } = flows;
  try {
    await actAs(page, 'Ada');
    await connect(flows, 'Ada', /Connect account/, true);

    await open(page, '#lunch');
    await send(page, '/split 40 lunch @Grace');
    await lastMessage(page, 'lunch · US$40.00').waitFor();
    await shoot(page, 'split-answer.png');

    await send(page, 'Taxi 23.50');
    await messages(page)
      .filter({ hasText: 'Taxi 23.50' })
      .last()
      .getByRole('button', { name: 'More actions' })
      .click();
    await page.getByRole('menuitem', { name: /Split this/ }).click();
    const form = page.getByRole('dialog', { name: 'Split an expense' });
    const what = form.getByRole('textbox', { name: 'What for' });
    await waitUntil(async () => (await what.inputValue()) === 'Taxi', 'the form to fill');
    const people = form.getByRole('combobox', { name: /Shared by/ });
    await people.click();
    await people.fill('Gra');
    await form.getByRole('option', { name: 'Grace' }).click();
    await people.press('Escape');
    await what.focus();
    await shoot(page, 'expense-modal.png');
    await form.getByRole('button', { name: 'Book it' }).click();
    await form.waitFor({ state: 'detached' });

    // A photo of a bill from the demo receipts in #lunch, read into the form.
    const bill = messages(page).filter({ hasText: 'restaurant.jpg' }).last();
    await bill.scrollIntoViewIfNeeded();
    await bill.hover();
    await bill.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: /Split this/ }).click();
    const read = page.getByRole('dialog', { name: 'Split an expense' });
    const amount = read.getByRole('textbox', { name: 'Amount', exact: true });
    await waitUntil(async () => (await amount.inputValue()) !== '', 'the photo to be read', 60_000);
    await shoot(page, 'receipt-form.png');
    await read.getByRole('button', { name: 'Cancel' }).click();
    await read.waitFor({ state: 'detached' });

    await open(page, '#general');
    await send(page, '/split balance');
    await lastMessage(page, 'Your balances').waitFor();
    await shoot(page, 'balances.png');

    await open(page, 'Split');
    await page.getByRole('tab', { name: 'Home' }).click();
    const home = page.getByRole('tabpanel', { name: 'Home' });
    await home.getByRole('button', { name: 'Turn on' }).click();
    // Reminders have a "Turn off" of their own on this tab: the daily DM's new state tells.
    await home.getByText(/On, at 0?9:00 every day/).waitFor();
    await home.getByRole('heading', { name: 'Balances' }).scrollIntoViewIfNeeded();
    await shoot(page, 'app-home.png');

    await page.getByRole('tab', { name: 'Messages' }).click();
    const before = await messages(page).count();
    await page.getByRole('button', { name: 'Run daily digest now' }).click();
    await waitUntil(async () => (await messages(page).count()) > before, 'the daily DM');
    await messages(page).last().scrollIntoViewIfNeeded();
    await shoot(page, 'daily-dm.png');
    // The digest's "Sent 1 daily DM." is the sandbox's, not the app's: the threads go without it.
    await page.getByRole('button', { name: 'Dismiss' }).click();

    await open(page, '#general');
    await createWorkflow(page, {
      name: 'Friday lunch form',
      step: 'Book an expense',
      inputs: {
        Payer: { from: 'runner' },
        Amount: { from: 'form' },
        Description: { from: 'form' },
        'People who share it': { from: 'form' },
        Channel: { from: 'value', pick: '#general' },
      },
    });
    await startWorkflow(page, 'Friday lunch form', {
      Amount: '54',
      Description: 'Friday lunch',
      'People who share it': ['Grace', 'Alan'],
    });
    await endedRun(page, 'Friday lunch form');
    await lastMessage(page, 'Friday lunch').waitFor();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await shoot(page, 'workflows.png');
    await page.getByRole('button', { name: 'Close workflows' }).click();

    await open(page, '#lunch');
    await send(page, 'Dinner at the harbour on Friday, who is in?');
    const thread = await replyInThread(page, 'Dinner at the harbour', '@Split 60 dinner @Grace');
    await thread
      .getByRole('article')
      .filter({ hasText: /expense #\d+/ })
      .waitFor();
    await shoot(page, 'mention-thread.png');

    // Alan reads Slack in German, chosen before the app first reads his profile.
    await actAs(page, 'Alan');
    await page.locator('#acting-locale').selectOption({ label: 'Deutsch (Deutschland)' });
    await connect(flows, 'Alan', /Konto verbinden/, false);
    await open(page, '#lunch');
    await send(page, 'Kaffee und Kuchen?');
    const german = await replyInThread(page, 'Kaffee und Kuchen', '@Split 12,40 Kaffee @Ada');
    await german
      .getByRole('article')
      .filter({ hasText: /Ausgabe #\d+/ })
      .waitFor();
    await shoot(page, 'mention-german.png');
  } finally {
    await flows.close();
  }
}

await main();
